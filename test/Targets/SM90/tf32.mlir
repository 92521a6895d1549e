// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// f32 x f32 as tf32 (A[m][k], B[n][k]): k-tiles of 32 elements (one
// 128-byte swizzle atom, as 64 f16), TMA boxes 32 elements wide, four
// m64nNk8 tf32 wgmmas per k-tile, 32 bytes of K apart.
func.func @tf32(%A: memref<256x128xf32>, %B: memref<256x128xf32>,
                %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%A, %B : memref<256x128xf32>, memref<256x128xf32>)
                outs(%C : memref<256x256xf32>)
  return
}
// CHECK-LABEL: func.func @tf32(
// CHECK-SAME:    tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8]
// CHECK:       gpu.func @tf32_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 32, 128>, B = array<i64: 32, 128>
// CHECK:         %[[K32:.*]] = arith.constant 32 : index
// CHECK:         arith.muli %{{.*}}, %[[K32]] : index
// CHECK-COUNT-2: nvgpu.tma.async.load {{.*}} -> memref<128x32xf32, 3>
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 8>, D[<f32>, {{.*}}], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]

// -----

// B stored [k][n] (N-major): tf32 wgmma has no transpose, so a pack kernel
// writes B's transpose (rows of K padded to 128 bytes: 128 f32) and the
// kernel reads that copy K-major. The pack moves 32 x 32 tiles through a
// 32 x 33 shared tile: loads along B's rows, stores along the copy's.
func.func @tf32_nn(%A: memref<256x128xf32>, %B: memref<128x256xf32>,
                   %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf32>, memref<128x256xf32>)
                outs(%C : memref<256x256xf32>)
  return
}
// CHECK-LABEL: func.func @tf32_nn(
// CHECK:       gpu.func @tf32_nn_kernel(
// CHECK-SAME:    tcgen.packs = [{block = array<i64: 256, 1, 1>, entry = "tf32_nn_kernel_pack_B", grid = array<i64: 32, 1, 1>, operand = "B", strides = array<i64: 128, 1>}]
// CHECK-SAME:    tcgen.transposed = array<i1: false, true>
// CHECK:         B[<tf32>, <one>, <col>]
// CHECK:       memref.global "private" @tf32_nn_kernel_pack_B_tile : memref<32x33xf32, 3>
// CHECK:       gpu.func @tf32_nn_kernel_pack_B(
// CHECK:         %[[TILE:.*]] = memref.get_global @tf32_nn_kernel_pack_B_tile
// CHECK-COUNT-4: memref.store %{{.*}}, %[[TILE]][%{{.*}}, %[[TX:.*]]] : memref<32x33xf32, 3>
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[TILE]][%[[TX]], %{{.*}}] : memref<32x33xf32, 3>
// CHECK:         llvm.store {{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>

// -----

// N = 1: the kernel reads such a B N-major, which tf32 wgmma cannot.
func.func @tf32_n1(%A: memref<256x128xf32>, %B: memref<1x128xf32>,
                   %C: memref<256x1xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x1xf32>)
  // expected-error @below {{tf32 with N = 1 (or K = 1) is not supported: the kernel reads such a B N-major, which tf32 wgmma cannot}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged">}
                ins(%A, %B : memref<256x128xf32>, memref<1x128xf32>)
                outs(%C : memref<256x1xf32>)
  return
}

// -----

// K = 130 (rows of 520 bytes) for operands read directly by TMA.
func.func @tf32_k130(%A: memref<256x130xf32>, %B: memref<256x130xf32>,
                     %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-error @below {{tf32 operands are read by TMA, whose rows must be a multiple of 16 bytes apart: K = 130 f32 elements is not a multiple of 4}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%A, %B : memref<256x130xf32>, memref<256x130xf32>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

// A batch with a transposed operand: the transposing packs are per matrix.
func.func @tf32_batch_nn(%A: memref<2x128x64xf32>, %B: memref<2x64x128xf32>,
                         %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  // expected-error @below {{tf32 on a batch reads A [m][k] and B [n][k] only (transposing packs are per matrix)}}
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<2x128x64xf32>, memref<2x64x128xf32>)
                      outs(%C : memref<2x128x128xf32>)
  return
}

// -----

// A prologue with tf32 inputs: not yet.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tf32_prologue(%A: memref<256x128xf32>, %B: memref<256x128xf32>,
                         %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %R = memref.alloc() : memref<256x128xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf32>) outs(%R : memref<256x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-error @below {{tf32 kernels take no prologue and no second product yet}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%R, %B : memref<256x128xf32>, memref<256x128xf32>)
                outs(%C : memref<256x256xf32>)
  return
}
