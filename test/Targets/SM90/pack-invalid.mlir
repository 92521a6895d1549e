// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 store=tma pack=never}),tcgen-sm90-build-kernel)'

// TMA cannot read rows that are not a multiple of 16 bytes apart, and
// pack=never forbids the copy.
func.func @never(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x324xf32>)
  // expected-error @+1 {{the rows of B are 648 bytes apart, not a multiple of 16, which TMA needs; pack = never forbids copying them}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf32>)
  return
}

// -----

// TMA stores cannot write C's rows either (324 f16 = 648 bytes).
func.func @tma_store(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<256x324xf16>)
  // expected-error @+1 {{TMA stores need the rows of C to be a multiple of 16 bytes apart, but N=324 f16 elements are 648 bytes (store = "staged" or "global" writes them)}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf16>)
  return
}
