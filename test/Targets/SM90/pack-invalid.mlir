// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// TMA cannot read rows that are not a multiple of 16 bytes apart, and
// pack=never forbids the copy.
func.func @never(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x324xf32>)
  // expected-error @+1 {{the rows of B are 648 bytes apart, not a multiple of 16, which TMA needs; pack = never forbids copying them}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "never">} ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf32>)
  return
}
