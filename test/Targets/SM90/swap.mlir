// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' -split-input-file | FileCheck %s
// RUN: tcgen-opt %t/sk.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' -split-input-file | FileCheck %s --check-prefix=SK

//--- check.mlir
// swap: the kernel computes C^T = B^T A^T. Its A is the op's B (read
// MN-major by TMA), its B the op's A (5 rows of 400 bytes, copied K-major
// with cp.async into tiles of 8 rows), its M the op's N; the wgmma is
// m64n8k16. C is written from registers at swapped indices ([col, row]
// of the kernel's C^T), and the bias along the op's N is a column operand
// of the kernel, loaded by row.
// CHECK-LABEL: func.func @small_m(
// CHECK-SAME:    %{{.*}}: memref<5x200xf16> {tcgen.operand = "B"}, %{{.*}}: memref<200x1000xf16> {tcgen.operand = "A"}, %{{.*}}: memref<1000xf16> {tcgen.operand = "E0"}, %{{.*}}: memref<5x1000xf16> {tcgen.operand = "C"})
// CHECK-SAME:    tcgen.fused_epilogue = {inputs = [{kind = "col", operand = "E0"}]
// CHECK-SAME:    tcgen.swapped
// CHECK:       gpu.func @small_m_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[C:.*]]: memref<5x1000xf16>, %[[BIAS:.*]]: memref<1000xf16>)
// CHECK-SAME:    tcgen.params = ["tensormap:A", "ptr:B", "ptr:C", "ptr:E0"]
// CHECK:       nvgpu.tma.async.load
// CHECK:       nvvm.cp.async.shared.global
// CHECK:       nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
// CHECK:       memref.load %[[BIAS]][%{{.*}}] : memref<1000xf16>
// CHECK:       memref.store %{{.*}}, %[[C]][%{{.*}}, %[[ROW:.*]]] : memref<5x1000xf16>
// CHECK:       memref.store %{{.*}}, %[[C]][%{{.*}}, %[[ROW]]] : memref<5x1000xf16>
// Stream-K works on swapped tiles too: the partial accumulators move in
// quads (one of them for an 8-wide tile), the producer that also copies
// with cp.async keeps 56 registers.
// SK:          gpu.func @small_m_kernel(
// SK-SAME:       tcgen.params = ["tensormap:A", "ptr:B", "ptr:C", "ptr:E0", "workspace:4112"]
// SK-SAME:       tcgen.setmaxnreg = array<i64: 56, 224, 2>
// SK:          nvvm.cp.async.shared.global
// SK:          llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// SK-NOT:      llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// SK:          memref.store
func.func @small_m(%A: memref<5x200xf16>, %B: memref<200x1000xf16>, %bias: memref<1000xf16>, %D: memref<5x1000xf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<5x1000xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<5x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<5x200xf16>, memref<200x1000xf16>) outs(%C : memref<5x1000xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%C, %bias : memref<5x1000xf32>, memref<1000xf16>) outs(%D : memref<5x1000xf16>) {
  ^bb0(%c: f32, %b: f16, %d: f16):
    %be = arith.extf %b : f16 to f32
    %s = arith.addf %c, %be : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<5x1000xf32>
  return
}

// -----

// M = 1: the kernel's C has a single column, and its pairs are rounded to
// f16 with two truncf, not one packed cvt (which made ptxas serialize the
// wgmma chain when N is not a multiple of the tile).
// CHECK-LABEL: gpu.func @vector_kernel(
// CHECK-NOT:     cvt.rn.f16x2.f32
// CHECK:         arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK-NOT:     cvt.rn.f16x2.f32
// CHECK:         gpu.return
func.func @vector(%A: memref<1x200xf16>, %B: memref<200x1000xf16>, %C: memref<1x1000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1x1000xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<1x200xf16>, memref<200x1000xf16>) outs(%C : memref<1x1000xf16>)
  return
}

// -----

// M = 1 with a fused epilogue: the second element of each pair lies past C
// and is never stored, so the epilogue is computed for the first only
// (computing both, GELU's tanh made ptxas serialize the wgmma chain).
// CHECK-LABEL: gpu.func @vector_relu_kernel(
// CHECK:         %[[Y:.*]] = arith.maximumf
// CHECK-NEXT:    vector.from_elements %[[Y]], %[[Y]] : vector<2xf16>
// CHECK-NOT:     arith.maximumf
// CHECK:         %[[Y2:.*]] = arith.maximumf
// CHECK-NEXT:    vector.from_elements %[[Y2]], %[[Y2]] : vector<2xf16>
// CHECK:         gpu.return
#idv = affine_map<(d0, d1) -> (d0, d1)>
#rowv = affine_map<(d0, d1) -> (d1)>
func.func @vector_relu(%A: memref<1x200xf16>, %B: memref<200x1024xf16>, %bias: memref<1024xf16>, %out: memref<1x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<1x1024xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<1x1024xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<1x200xf16>, memref<200x1024xf16>) outs(%C : memref<1x1024xf16>)
  linalg.generic {indexing_maps = [#idv, #rowv, #idv], iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<1x1024xf16>, memref<1024xf16>) outs(%out : memref<1x1024xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<1x1024xf16>
  return
}

//--- sk.mlir
func.func @small_m(%A: memref<5x200xf16>, %B: memref<200x1000xf16>, %bias: memref<1000xf16>, %D: memref<5x1000xf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<5x1000xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<5x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<5x200xf16>, memref<200x1000xf16>) outs(%C : memref<5x1000xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%C, %bias : memref<5x1000xf32>, memref<1000xf16>) outs(%D : memref<5x1000xf16>) {
  ^bb0(%c: f32, %b: f16, %d: f16):
    %be = arith.extf %b : f16 to f32
    %s = arith.addf %c, %be : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<5x1000xf32>
  return
}

// -----

func.func @vector(%A: memref<1x200xf16>, %B: memref<200x1000xf16>, %C: memref<1x1000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1x1000xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<1x200xf16>, memref<200x1000xf16>) outs(%C : memref<1x1000xf16>)
  return
}

// -----

#idv = affine_map<(d0, d1) -> (d0, d1)>
#rowv = affine_map<(d0, d1) -> (d1)>
func.func @vector_relu(%A: memref<1x200xf16>, %B: memref<200x1024xf16>, %bias: memref<1024xf16>, %out: memref<1x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<1x1024xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<1x1024xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<1x200xf16>, memref<200x1024xf16>) outs(%C : memref<1x1024xf16>)
  linalg.generic {indexing_maps = [#idv, #rowv, #idv], iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<1x1024xf16>, memref<1024xf16>) outs(%out : memref<1x1024xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<1x1024xf16>
  return
}
