// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/global.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=GLOBAL

//--- check.mlir
// A and C store the batch between their matrix dimensions (A[m][b][k],
// C[m][b][n], the [seq, batch, features] layout), B outermost. Their
// tensor maps' dimensions are (inner, batch, outer): boxes [64, 1, rows]
// (shared tiles memref<rows x 1 x 64>), the matrix the middle coordinate
// of their TMA copies; B keeps [64, 64, 1]. The function records which
// operands store the batch in the middle, for the manifest.
// CHECK-LABEL: func.func @mid(
// CHECK-SAME:    tcgen.batch_middle = array<i1: true, false, true>
// CHECK-LABEL: gpu.func @mid_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 1, 128>, B = array<i64: 64, 64, 1>, C = array<i64: 32, 1, 64>}
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<128x1x64xf16, 3>
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<1x64x64xf16, 3>
// CHECK:         %[[MT:.*]] = arith.constant 9 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %{{.*}}, %[[MT]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %[[B]], %{{[a-z0-9_]+}}], {{.*}} -> memref<128x1x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[B]]], {{.*}} -> memref<1x64x64xf16, 3>
// CHECK:         %[[BI:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %[[BI]], %{{[0-9]+}}]
// Stores from registers index C [row][matrix][column].
// GLOBAL-LABEL: gpu.func @mid_kernel(
// GLOBAL-SAME:    %{{.*}}: memref<384x4x384xf32>
// GLOBAL:         vector.store %{{.*}}, %{{.*}}[%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}] : memref<384x4x384xf32>, vector<2xf32>
#mA = affine_map<(b, m, n, k) -> (m, b, k)>
#mB = affine_map<(b, m, n, k) -> (b, k, n)>
#mC = affine_map<(b, m, n, k) -> (m, b, n)>
func.func @mid(%A: memref<384x4x256xf16>, %B: memref<4x256x384xf16>, %C: memref<384x4x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<384x4x384xf32>)
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<384x4x256xf16>, memref<4x256x384xf16>) outs(%C : memref<384x4x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

//--- global.mlir
#mA = affine_map<(b, m, n, k) -> (m, b, k)>
#mB = affine_map<(b, m, n, k) -> (b, k, n)>
#mC = affine_map<(b, m, n, k) -> (m, b, n)>
func.func @mid(%A: memref<384x4x256xf16>, %B: memref<4x256x384xf16>, %C: memref<384x4x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<384x4x384xf32>)
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<384x4x256xf16>, memref<4x256x384xf16>) outs(%C : memref<384x4x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
