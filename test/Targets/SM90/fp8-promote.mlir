// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// fp8 over K = 16384 (128 k-tiles of 128): the consumers run a wgmma chain
// of at most 64 k-tiles at a time, each from zero, and add its sums into
// f32 registers (64 llvm.fadd for the 64 x 128 accumulator of a thread's
// warpgroup), so that wgmma's fp8 accumulation never spans more than a K
// of 8192.
// CHECK-LABEL: gpu.func @long_k_kernel(
// CHECK:         arith.subi %[[G:c64[_0-9]*]], %{{.*}} : index
// CHECK:         %[[Z:.*]] = llvm.mlir.zero : !llvm.struct<(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[Z]])
// CHECK:           arith.minui %{{.*}}, %[[G]] : index
// CHECK-COUNT-4:   nvvm.wgmma.mma_async {{.*}} A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64:  llvm.fadd
// CHECK:           scf.yield
func.func @long_k(%A: memref<256x16384xf8E4M3FN>, %B: memref<256x16384xf8E4M3FN>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 128], warp = [64, 128, 128], mma = [64, 128, 32], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<256x16384xf8E4M3FN>, memref<256x16384xf8E4M3FN>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// K = 8192 (64 k-tiles): one chain, no group loop and no additions.
// CHECK-LABEL: gpu.func @k8192_kernel(
// CHECK-NOT:     llvm.fadd
// CHECK:         gpu.return
func.func @k8192(%A: memref<256x8192xf8E4M3FN>, %B: memref<256x8192xf8E4M3FN>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 128], warp = [64, 128, 128], mma = [64, 128, 32], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<256x8192xf8E4M3FN>, memref<256x8192xf8E4M3FN>) outs(%C : memref<256x256xf32>)
  return
}
