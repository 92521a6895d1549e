// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --tcgen-build-pointwise | FileCheck %s

// A 2-d pointwise op on function arguments becomes a kernel of its own:
// X (the first [m, n] input read element for element), the row vector E0
// and the scalar E1 as pointers, 8 elements of a row per thread and step
// (n = 48), the scalar loaded once, the body cloned per element. The host
// function keeps nothing of it.
// CHECK-LABEL: func.func @bias_scale(
// CHECK-NEXT:    return
// CHECK:       gpu.module @bias_scale_pointwise0
// CHECK:         gpu.func @bias_scale_pointwise0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) kernel
// CHECK-SAME:      tcgen.host = @bias_scale
// CHECK-SAME:      tcgen.launch = array<i64: 2, 1, 1, 256, 1, 1, 0, 0>
// CHECK-SAME:      tcgen.operand_args = array<i64: 0, 1, 2, 3>
// CHECK-SAME:      tcgen.params = ["ptr:X", "ptr:E0", "ptr:E1", "ptr:Y"]
// CHECK-SAME:      tcgen.pointwise = {inputs = [{kind = "row", operand = "E0"}, {kind = "scalar", operand = "E1"}], matmul_dtype = "f32"
// CHECK:           %[[S:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           scf.for
// CHECK:             llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf32>
// CHECK:             llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-8:     arith.mulf %{{.*}}, %[[S]] : f32
// CHECK:             llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT:   linalg.generic
func.func @bias_scale(%X: memref<64x48xf32>, %bias: memref<48xf16>, %s: memref<f32>, %Y: memref<64x48xf16>) {
  // expected-remark @below {{compiled as a separate pointwise kernel @bias_scale_pointwise0}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%X, %bias, %s : memref<64x48xf32>, memref<48xf16>, memref<f32>) outs(%Y : memref<64x48xf16>) {
  ^bb0(%x: f32, %b: f16, %sc: f32, %o: f16):
    %be = arith.extf %b : f16 to f32
    %t = arith.addf %x, %be : f32
    %u = arith.mulf %t, %sc : f32
    %r = arith.truncf %u : f32 to f16
    linalg.yield %r : f16
  }
  return
}

// -----

// Odd n (37): one element per step; a column vector read at the row, a
// matrix input, and X second among the inputs (the first [m, n] one read
// element for element, after the column vector).
// CHECK-LABEL: gpu.func @col_matrix_pointwise0(
// CHECK-SAME:      tcgen.operand_args = array<i64: 1, 0, 2, 3>
// CHECK:             llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<1xf32>
func.func @col_matrix(%c: memref<16xf32>, %X: memref<16x37xf32>, %D: memref<16x37xf32>, %Y: memref<16x37xf32>) {
  // expected-remark @below {{compiled as a separate pointwise kernel @col_matrix_pointwise0}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %X, %D : memref<16xf32>, memref<16x37xf32>, memref<16x37xf32>) outs(%Y : memref<16x37xf32>) {
  ^bb0(%cv: f32, %x: f32, %d: f32, %o: f32):
    %t = arith.addf %x, %cv : f32
    %u = arith.maximumf %t, %d : f32
    linalg.yield %u : f32
  }
  return
}

// -----

// n = 38: two elements per step (8-byte vectors of X, 4-byte ones of the
// bf16 Y); a column vector and a scalar of f16, each one element, the
// column's at the step's row, the scalar loaded once before the loop.
// CHECK-LABEL: gpu.func @col_scalar_pointwise0(
// CHECK-SAME:      tcgen.launch = array<i64: 1, 1, 1, 256, 1, 1, 0, 0>
// CHECK:           %[[S:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK:           scf.for
// CHECK:             llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK:             %[[C:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-COUNT-2:     arith.extf %[[C]] : f16 to f32
// CHECK:             llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
func.func @col_scalar(%X: memref<8x38xf32>, %c: memref<8xf16>, %s: memref<f16>, %Y: memref<8x38xbf16>) {
  // expected-remark @below {{compiled as a separate pointwise kernel @col_scalar_pointwise0}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%X, %c, %s : memref<8x38xf32>, memref<8xf16>, memref<f16>) outs(%Y : memref<8x38xbf16>) {
  ^bb0(%x: f32, %cv: f16, %sv: f16, %o: bf16):
    %ce = arith.extf %cv : f16 to f32
    %se = arith.extf %sv : f16 to f32
    %t = arith.addf %x, %ce : f32
    %u = arith.mulf %t, %se : f32
    %r = arith.truncf %u : f32 to bf16
    linalg.yield %r : bf16
  }
  return
}

// -----

// A local buffer is not a kernel operand: the op stays (tcgen-verify-lowered
// names it).
// CHECK-LABEL: func.func @local(
// CHECK:         linalg.generic
func.func @local(%X: memref<16x16xf32>) {
  %T = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%X : memref<16x16xf32>) outs(%T : memref<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
