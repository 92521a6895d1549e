// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/global.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=GLOBAL

//--- check.mlir
// A batch of 4 matrices of 384 x 384: 9 tiles of 128 x 128 each, 36 in
// all. The tensor maps gain an outermost batch dimension (boxes one matrix
// deep); a tile's matrix is its index / 9, and its third coordinate in
// every TMA load and store.
// CHECK-LABEL: gpu.func @bmm_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 36, 1, 1, 384, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1>, B = array<i64: 64, 64, 1>, C = array<i64: 64, 64, 1>}
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xf16, 3>
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<1x64x64xf16, 3>
// Producer.
// CHECK:         nvvm.setmaxregister decrease
// CHECK:         %[[MT:.*]] = arith.constant 9 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %{{.*}}, %[[MT]] : index
// CHECK-NEXT:    arith.remui %{{.*}}, %[[MT]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[B]]], {{.*}} -> memref<1x128x64xf16, 3>
// CHECK-COUNT-2: nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[B]]], {{.*}} -> memref<1x64x64xf16, 3>
// Consumers: the same matrix index, passed to the TMA stores of C.
// CHECK:         nvvm.setmaxregister increase
// CHECK:         %[[CMT:.*]] = arith.constant 9 : index
// CHECK-NEXT:    %[[CB:.*]] = arith.divui %{{.*}}, %[[CMT]] : index
// CHECK:         %[[CBI:.*]] = arith.index_cast %[[CB]] : index to i32
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, box[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[CBI]]]
// Stores from registers index the 3-d C.
// GLOBAL-LABEL: gpu.func @bmm_kernel(
// GLOBAL-SAME:    memref<4x384x384xf16>
// GLOBAL:         %[[MT:.*]] = arith.constant 9 : index
// GLOBAL:         %[[CMT:.*]] = arith.constant 9 : index
// GLOBAL-NEXT:    %[[CB:.*]] = arith.divui %{{.*}}, %[[CMT]] : index
// GLOBAL:         vector.store %{{.*}}, %{{.*}}[%[[CB]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}] : memref<4x384x384xf16>, vector<2xf16>
func.func @bmm(%a: memref<4x384x64xf16>, %b: memref<4x64x384xf16>, %c: memref<4x384x384xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4x384x384xf16>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%a, %b : memref<4x384x64xf16>, memref<4x64x384xf16>) outs(%c : memref<4x384x384xf16>)
  return
}

// -----

// Transposed operands (A[b,k,m], B[b,n,k]) and edge tiles (M = 200): A's
// MN-major boxes and B's K-major box keep the batch coordinate; tiles past
// M within a matrix are zero-filled by the 3-d tensor map, never read from
// the next matrix.
// CHECK-LABEL: gpu.func @bmm_t_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 6, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 64, 1>, B = array<i64: 64, 128, 1>, C = array<i64: 32, 64, 1>}
// CHECK-SAME:    tcgen.transposed = array<i1: true, true>
// CHECK:         nvvm.setmaxregister decrease
// CHECK:         %[[MT:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %{{.*}}, %[[MT]] : index
// CHECK-COUNT-2: nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[B]]], {{.*}} -> memref<1x64x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[B]]], {{.*}} -> memref<1x128x64xf16, 3>
// CHECK:         nvvm.wgmma.mma_async {{.*}}A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
func.func @bmm_t(%a: memref<3x64x200xf16>, %b: memref<3x72x64xf16>, %c: memref<3x200x72xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<3x200x72xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%a, %b : memref<3x64x200xf16>, memref<3x72x64xf16>) outs(%c : memref<3x200x72xf32>)
  return
}

// -----

// A batch of one is a plain matmul: two coordinates, no batch index.
// CHECK-LABEL: gpu.func @bmm1_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 64>, C = array<i64: 64, 64>}
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}], {{.*}} -> memref<128x64xf16, 3>
func.func @bmm1(%a: memref<1x256x64xf16>, %b: memref<1x64x256xf16>, %c: memref<1x256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1x256x256xf16>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%a, %b : memref<1x256x64xf16>, memref<1x64x256xf16>) outs(%c : memref<1x256x256xf16>)
  return
}

//--- global.mlir
func.func @bmm(%a: memref<4x384x64xf16>, %b: memref<4x64x384xf16>, %c: memref<4x384x384xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4x384x384xf16>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%a, %b : memref<4x384x64xf16>, memref<4x64x384xf16>) outs(%c : memref<4x384x384xf16>)
  return
}

// -----

func.func @bmm_t(%a: memref<3x64x200xf16>, %b: memref<3x72x64xf16>, %c: memref<3x200x72xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<3x200x72xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">}
    ins(%a, %b : memref<3x64x200xf16>, memref<3x72x64xf16>) outs(%c : memref<3x200x72xf32>)
  return
}

// -----

func.func @bmm1(%a: memref<1x256x64xf16>, %b: memref<1x64x256xf16>, %c: memref<1x256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1x256x256xf16>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%a, %b : memref<1x256x64xf16>, memref<1x64x256xf16>) outs(%c : memref<1x256x256xf16>)
  return
}
