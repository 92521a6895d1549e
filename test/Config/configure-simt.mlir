// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=simt thread-tile=8,4 block-tile=128,64,8 warp-tile=32,32,8}))' 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=simt block-tile=128,128,128 warp-tile=32,64,128 thread-tile=8,8}))' 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=simt thread-tile=6,8}))' 2>&1 | FileCheck %s --check-prefix=TILE

// A grid that fills the GPU: 8x8 outputs per thread, 128x128x32 blocks
// (K steps of 16 where rows are not multiples of 4 elements, below).
// CHECK-LABEL: func.func @large
// CHECK: #tcgen.config<backend = "simt", block = [128, 128, 32], warp = [32, 64, 32], mma = [8, 8, 1], stages = 2, padding = 4
// OPTS-LABEL: func.func @large
// OPTS: #tcgen.config<backend = "simt", block = [128, 64, 8], warp = [32, 32, 8], mma = [8, 4, 1], stages = 2, padding = 4
// SMEM: error: 'linalg.matmul' op the simt tiles need 270336 bytes of shared memory, more than the 232448 bytes one block may use on sm_90a
// TILE: error: 'linalg.matmul' op invalid configuration: warp tile m=32 is not a multiple of the mma shape 6
func.func @large(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf32>, memref<2048x2048xf32>) outs(%C : memref<2048x2048xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @unaligned
// CHECK: #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1]
func.func @unaligned(%A: memref<2047x2047xf32>, %B: memref<2047x2047xf32>, %C: memref<2047x2047xf32>) {
  linalg.matmul ins(%A, %B : memref<2047x2047xf32>, memref<2047x2047xf32>) outs(%C : memref<2047x2047xf32>)
  return
}

// -----

func.func @summed_batch(%A: memref<64x4x32xf32>, %B: memref<32x4x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{the simt back end takes one batch dimension, outermost in A, B and C}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
    ins(%A, %B : memref<64x4x32xf32>, memref<32x4x64xf32>) outs(%C : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An N dimension beyond the first (C[h,s,e] = X[s,d] W[d,h,e]: a batch
// that X lacks): sm90 only.
func.func @broadcast_batch(%X: memref<64x32xf32>, %W: memref<32x4x64xf32>, %C: memref<4x64x64xf32>) {
  // expected-error @+1 {{the simt back end takes one batch dimension, outermost in A, B and C}}
  linalg.generic {indexing_maps = [affine_map<(h, s, e, d) -> (s, d)>, affine_map<(h, s, e, d) -> (d, h, e)>, affine_map<(h, s, e, d) -> (h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    ins(%X, %W : memref<64x32xf32>, memref<32x4x64xf32>) outs(%C : memref<4x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}
