// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 swap=1 block-tile=128,16,64}))'

func.func @batched(%a: memref<2x16x512xf16>, %b: memref<2x512x1024xf16>, %c: memref<2x16x1024xf16>) {
  // expected-error @+1 {{swap (C^T = B^T A^T) needs an unbatched matmul}}
  linalg.batch_matmul ins(%a, %b : memref<2x16x512xf16>, memref<2x512x1024xf16>) outs(%c : memref<2x16x1024xf16>)
  return
}

// -----

func.func @dynamic(%a: memref<?x512xf16>, %b: memref<512x1024xf16>, %c: memref<?x1024xf16>) {
  // expected-error @+1 {{swap (C^T = B^T A^T) needs static sizes}}
  linalg.matmul ins(%a, %b : memref<?x512xf16>, memref<512x1024xf16>) outs(%c : memref<?x1024xf16>)
  return
}

// -----

func.func @column_major_c(%a: memref<16x512xf16>, %b: memref<512x1024xf16>, %c: memref<1024x16xf16>) {
  // expected-error @+1 {{swap (C^T = B^T A^T) needs a row-major C (a column-major C is computed as C^T already)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]
    ins(%a, %b : memref<16x512xf16>, memref<512x1024xf16>) outs(%c : memref<1024x16xf16>)
  return
}

// -----

func.func @a_km(%a: memref<512x16xf16>, %b: memref<512x1024xf16>, %c: memref<16x1024xf16>) {
  // expected-error @+1 {{swap (C^T = B^T A^T) needs A stored [m][k] for a block tile N below 64 (its B, A^T, is then read K-major in tiles of N rows), not a block tile N of 16 with A stored [k][m]}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<512x16xf16>, memref<512x1024xf16>) outs(%c : memref<16x1024xf16>)
  return
}
