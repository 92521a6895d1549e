// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// A's rows (202 f16, 404 bytes) cannot be copied in 16-byte pieces.
func.func @k_unaligned(%A: memref<16x202xf16>, %B: memref<202x1024xf16>, %C: memref<16x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<16x1024xf32>)
  // expected-error @+1 {{swap with a block tile N below 64 copies A in 16-byte pieces: its rows must be a multiple of 16 bytes apart, not 404 (K = 202)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 16, 64], warp = [64, 16, 64], mma = [64, 16, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<16x202xf16>, memref<202x1024xf16>) outs(%C : memref<16x1024xf32>)
  return
}

// -----

func.func @prologue(%A: memref<16x256xf16>, %B: memref<256x1024xf16>, %C: memref<16x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %cz = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<16x256xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%A : memref<16x256xf16>) outs(%R : memref<16x256xf16>) {
  ^bb0(%a: f16, %r: f16):
    %m = arith.maximumf %a, %cz : f16
    linalg.yield %m : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<16x1024xf32>)
  // expected-error @+1 {{swap (C^T = B^T A^T) does not fuse a prologue yet}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 16, 64], warp = [64, 16, 64], mma = [64, 16, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%R, %B : memref<16x256xf16>, memref<256x1024xf16>) outs(%C : memref<16x1024xf32>)
  memref.dealloc %R : memref<16x256xf16>
  return
}

// -----

// add(gemm, gemm) (fill, matmul, matmul on one C) is not swapped yet.
func.func @dual(%A: memref<16x256xf16>, %B: memref<256x1024xf16>, %A2: memref<16x128xf16>, %B2: memref<128x1024xf16>, %C: memref<16x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<16x1024xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 16, 64], warp = [64, 16, 64], mma = [64, 16, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%A, %B : memref<16x256xf16>, memref<256x1024xf16>) outs(%C : memref<16x1024xf32>)
  // expected-error @+1 {{swap (C^T = B^T A^T) does not take add(gemm, gemm) yet}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 16, 64], warp = [64, 16, 64], mma = [64, 16, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>} ins(%A2, %B2 : memref<16x128xf16>, memref<128x1024xf16>) outs(%C : memref<16x1024xf32>)
  return
}
