// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// C stored [n][m] (column-major): the kernel computes the row-major
// C^T[n][m] = B^T A^T. B (stored [k][n]) is its A, read M-major; A (stored
// [m][k]) its B, read K-major; M and N swap. The manifest names the
// operands as the kernel sees them.
// CHECK-LABEL: func.func @c_col_major
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<1024x512xf16> {tcgen.operand = "B"}
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<512x2048xf16> {tcgen.operand = "A"}
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<2048x1024xf32> {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.transposed = array<i1: true, true>
// CHECK:       nvvm.wgmma.mma_async {{.*}}, A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
func.func @c_col_major(%A: memref<1024x512xf16>, %B: memref<512x2048xf16>, %C: memref<2048x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2048x1024xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<1024x512xf16>, memref<512x2048xf16>) outs(%C : memref<2048x1024xf32>)
  return
}

// -----

// With B stored [n][k] as well, B^T is stored [n][k] = [m'][k]: K-major,
// and the product is the NT form of C^T.
// CHECK-LABEL: func.func @c_col_major_b_nk
// CHECK-SAME:    tcgen.transposed = array<i1: false, true>
// CHECK:       nvvm.wgmma.mma_async {{.*}}, A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @c_col_major_b_nk(%A: memref<1024x512xf16>, %B: memref<2048x512xf16>, %C: memref<2048x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2048x1024xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, m)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<1024x512xf16>, memref<2048x512xf16>) outs(%C : memref<2048x1024xf32>)
  return
}

// -----

// A batch with a column-major C (a linalg.generic: linalg.batch_matmul
// takes C[b,m,n] only).
// CHECK-LABEL: func.func @batch_c_col_major
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<4x256x128xf16> {tcgen.operand = "B"}
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<4x128x512xf16> {tcgen.operand = "A"}
// CHECK-SAME:    tcgen.transposed = array<i1: true, true>
// CHECK:       tcgen.tensormap_boxes = {A = array<i64: 64, 64, 1>, B = array<i64: 64, 256, 1>
func.func @batch_c_col_major(%A: memref<4x256x128xf16>, %B: memref<4x128x512xf16>, %C: memref<4x512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<4x512x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, n, m)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x256x128xf16>, memref<4x128x512xf16>) outs(%C : memref<4x512x256xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
