// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// Seed 001's 3-d contraction C[i,j] = sum_{k,l} A[i,k,l] B[l,k,j]: the K
// dimensions are ordered differently in A and B, so they do not collapse
// into one. k is read as a batch of A and B (the middle dimension of
// both: tensor maps (l, k, i) and (j, k, l), boxes [64, 1, rows]) that
// every tile's K loop walks and sums: k-tile t reads matrix t / 2 (l = 128
// is two k-tiles of 64) at k offset 64 (t mod 2). C has no batch: its
// boxes stay rank 2, and the grid counts C's 2 x 4 tiles only.
// CHECK-LABEL: func.func @c3(
// CHECK-SAME:    tcgen.batch_middle = array<i1: true, true, false>
// CHECK-SAME:    tcgen.batch_reduce
// CHECK-LABEL: gpu.func @c3_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 8, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 1, 128>, B = array<i64: 64, 1, 64>, C = array<i64: 32, 64>}
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<128x1x64xf16, 3>
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<64x1x64xf16, 3>
// The K loops run over 16 x 2 k-tiles per output tile.
// CHECK:         arith.constant 32 : index
// CHECK:         %[[KB:.*]] = arith.divui %[[KT:[0-9]+]], %[[KPM:c2_[0-9]+]] : index
// CHECK-NEXT:    %[[KIN:.*]] = arith.remui %[[KT]], %[[KPM]] : index
// CHECK-NEXT:    %[[K0:.*]] = arith.muli %[[KIN]], %{{.*}} : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0]], %[[KB]], %{{[a-z0-9_]+}}], {{.*}} -> memref<128x1x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %[[KB]], %[[K0]]], {{.*}} -> memref<64x1x64xf16, 3>
// The stores of C take two coordinates.
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %{{[0-9]+}}]
// CHECK-NOT:     tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
func.func @c3(%A: memref<256x16x128xf16>, %B: memref<128x16x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<256x16x128xf16>, memref<128x16x512xf16>) outs(%C : memref<256x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The summed K dimension outermost in A and B (A[k][i][l], B[k][l][j]),
// and C += A*B (no fill): the batch coordinate goes last, and C is read
// back by the epilogue.
// CHECK-LABEL: func.func @outer(
// CHECK-NOT:     tcgen.batch_middle
// CHECK-SAME:    tcgen.batch_reduce
// CHECK-LABEL: gpu.func @outer_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1>, B = array<i64: 64, 64, 1>
// CHECK:         %[[KB:.*]] = arith.divui %[[KT:[0-9]+]], %[[KPM:c1_[0-9]+]] : index
// CHECK-NEXT:    arith.remui %[[KT]], %[[KPM]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[KB]]], {{.*}} -> memref<1x128x64xf16, 3>
func.func @outer(%A: memref<3x256x64xf16>, %B: memref<3x64x256xf16>, %C: memref<256x256xf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (k, i, l)>, affine_map<(i, j, k, l) -> (k, l, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<3x256x64xf16>, memref<3x64x256xf16>) outs(%C : memref<256x256xf16>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %ce = arith.extf %c : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %ce, %p : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  return
}
