// RUN: tcgen-opt %s -split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// e4m3 A [m][k] and B [n][k]: k-tiles of 128 8-bit elements (one 128-byte
// swizzle atom per row), four wgmma m64nNk32 e4m3 per k-tile, TMA boxes
// 128 elements wide moved as bytes (i8 in shared memory).
// CHECK-LABEL: func.func @e4m3(
// CHECK:       gpu.func @e4m3_kernel(
// CHECK-SAME:    tcgen.config = #tcgen.config<backend = "sm90", block = [{{[0-9]+}}, {{[0-9]+}}, 128], warp = [64, {{[0-9]+}}, 128], mma = [64, {{[0-9]+}}, 32]
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 128, {{[0-9]+}}>, B = array<i64: 128, {{[0-9]+}}>, C = array<i64: 32, 64>}
// CHECK-SAME:    tcgen.transposed = array<i1: false, true>
// CHECK:         nvgpu.tma.async.load {{.*}} -> memref<{{[0-9]+}}x128xi8, 3>
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = {{[0-9]+}}, k = 32>, D[<f32>, {{.*}}], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
func.func @e4m3(%A: memref<1024x512xf8E4M3FN>, %B: memref<768x512xf8E4M3FN>, %C: memref<1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x768xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 128], warp = [64, 128, 128], mma = [64, 128, 32], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<1024x512xf8E4M3FN>, memref<768x512xf8E4M3FN>) outs(%C : memref<1024x768xf32>)
  return
}

// -----

// e5m2 into bf16, sizes at run time.
// CHECK-LABEL: func.func @e5m2_dynamic(
// CHECK:       gpu.func @e5m2_dynamic_kernel(
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: index, %[[K:.*]]: index) kernel
// CHECK:         arith.addi %[[K]], %c127{{.*}} : index
// CHECK:         nvvm.wgmma.mma_async {{.*}} A[<e5m2>, {{.*}}], B[<e5m2>,
func.func @e5m2_dynamic(%A: memref<?x?xf8E5M2>, %B: memref<?x?xf8E5M2>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 128], warp = [64, 256, 128], mma = [64, 256, 32], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%C : memref<?x?xbf16>)
  return
}

// -----

// B stored [k][n] would be read N-major, which 8-bit wgmma cannot.
func.func @b_n_major(%A: memref<256x256xf8E4M3FN>, %B: memref<256x256xf8E4M3FN>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-error @+1 {{fp8 (e4m3, e5m2) operands are read K-major only: A stored [m][k] and B stored [n][k] (with M, N and K above 1); transposing copies of 8-bit elements are not supported yet}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 64, 128], warp = [64, 64, 128], mma = [64, 64, 32], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x256xf8E4M3FN>, memref<256x256xf8E4M3FN>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Rows of 40 bytes: TMA needs 16-byte multiples.
func.func @k40(%A: memref<256x40xf8E4M3FN>, %B: memref<256x40xf8E4M3FN>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-error @+1 {{fp8 operands are read by TMA, whose rows must be a multiple of 16 bytes apart: K = 40 8-bit elements is not a multiple of 16}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 64, 128], warp = [64, 64, 128], mma = [64, 64, 32], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<256x40xf8E4M3FN>, memref<256x40xf8E4M3FN>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// One format for both operands.
func.func @mixed(%A: memref<256x256xf8E4M3FN>, %B: memref<256x256xf8E5M2>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{unsupported element types f8E4M3FN x f8E5M2 -> f32}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 128], warp = [64, 128, 128], mma = [64, 128, 32], stages = 4, padding = 0, store = "tma">}
    ins(%A, %B : memref<256x256xf8E4M3FN>, memref<256x256xf8E5M2>) outs(%C : memref<256x256xf32>)
  return
}

