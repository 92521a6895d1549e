// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64}),tcgen-sm90-build-kernel)' | FileCheck %s

// The attention input projection C[b,h,s,e] = X[b,s,d] W[d,h,e]: M's
// dimensions (b, s) and N's (h, e) do not sit together in C, so s and e
// are the matrix's and b and h batch dimensions that one input lacks (X
// has no h, W no b). The manifest lists X as [b, h, s, d] with h's stride
// 0 and W as [b, h, d, e] with b's; each absent dimension keeps its slot
// in the tensor map (X: (d, s, h, b), W: (e, h, d, b)) with a box of 1,
// and the loads read it at 0. Matrix %bIdx is (%bIdx / 3, %bIdx mod 3).
// CHECK-LABEL: func.func @qkv(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 0, -1>, B = array<i64: -1, 1>, C = array<i64: 0, 1>, shape = array<i64: 2, 3>}
// CHECK-LABEL: gpu.func @qkv_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 12, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1, 1>, B = array<i64: 64, 1, 64, 1>, C = array<i64: 32, 64, 1, 1>}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[H:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %[[IDX:[0-9]+]], %[[H]] : index
// CHECK-NEXT:    %[[HI:.*]] = arith.remui %[[IDX]], %[[H]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0:[0-9]+]], %{{[0-9]+}}, %[[ZERO]], %[[B]]], {{.*}} -> memref<1x1x128x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[0-9]+}}, %[[HI]], %[[K0]], %[[ZERO]]], {{.*}} -> memref<1x64x1x64xf16, 3>
func.func @qkv(%X: memref<2x256x128xf16>, %W: memref<128x3x128xf16>, %C: memref<2x3x256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x3x256x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, s, e, d) -> (b, s, d)>, affine_map<(b, h, s, e, d) -> (d, h, e)>, affine_map<(b, h, s, e, d) -> (b, h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<2x256x128xf16>, memref<128x3x128xf16>) outs(%C : memref<2x3x256x128xf32>) {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// One batch dimension that A lacks (C[h,s,e] = X[s,d] W[d,h,e]) takes the
// same path: X's map is (d, s, h) with h read at 0, and the matrix index
// is the one batch index.
// CHECK-LABEL: func.func @one(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: -1>, B = array<i64: 1>, C = array<i64: 0>, shape = array<i64: 3>}
// CHECK-LABEL: gpu.func @one_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1>, B = array<i64: 64, 1, 64>, C = array<i64: 32, 64, 1>}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[IDX:.*]] = arith.divui %arg3, %{{.*}} : index
// CHECK:         %[[H:.*]] = arith.addi %[[IDX]], %[[ZERO]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0:[0-9]+]], %{{[0-9]+}}, %[[ZERO]]], {{.*}} -> memref<1x128x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[0-9]+}}, %[[H]], %[[K0]]], {{.*}} -> memref<64x1x64xf16, 3>
func.func @one(%X: memref<256x128xf16>, %W: memref<128x3x128xf16>, %C: memref<3x256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<3x256x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(h, s, e, d) -> (s, d)>, affine_map<(h, s, e, d) -> (d, h, e)>, affine_map<(h, s, e, d) -> (h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<256x128xf16>, memref<128x3x128xf16>) outs(%C : memref<3x256x128xf32>) {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Two M dimensions stored in different orders (A[b,m,k], C[m,b,n]): the
// larger, m, is the matrix's, b a batch dimension that B lacks, outermost
// in A and between C's matrix dimensions. B [k][n] is read at batch 0.
// CHECK-LABEL: func.func @two_m(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 0>, B = array<i64: -1>, C = array<i64: 1>, shape = array<i64: 4>}
// CHECK-LABEL: gpu.func @two_m_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1>, B = array<i64: 64, 64, 1>, C = array<i64: 32, 1, 64>}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[0-9]+}}, %[[K0:[0-9]+]], %[[ZERO]]], {{.*}} -> memref<1x64x64xf16, 3>
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %[[BI:[0-9]+]], %{{[0-9]+}}]
func.func @two_m(%A: memref<4x250x512xf16>, %B: memref<512x1024xf16>, %C: memref<250x4x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<250x4x1024xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, b, n, k) -> (b, m, k)>, affine_map<(m, b, n, k) -> (k, n)>, affine_map<(m, b, n, k) -> (m, b, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x250x512xf16>, memref<512x1024xf16>) outs(%C : memref<250x4x1024xf32>) {
  ^bb0(%x: f16, %y: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}
