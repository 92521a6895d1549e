// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 swap=1 store=tma block-tile=128,128,64}))'
// RUN: not tcgen-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 swap=1 store=tma block-tile=128,32,64}))' 2>&1 | FileCheck %s --check-prefix=NARROW

// swap with store = tma transposes 8x8 blocks of 16-bit pairs (stmatrix):
// an f32 C is refused.
func.func @f32_c(%a: memref<256x512xf16>, %b: memref<512x1024xf16>, %c: memref<256x1024xf32>) {
  // expected-error @+1 {{swap (C^T = B^T A^T) needs a 16-bit C for store = "tma" (its 8x8 blocks are transposed by stmatrix; an f32 C is stored from registers, store = "global")}}
  linalg.matmul ins(%a, %b : memref<256x512xf16>, memref<512x1024xf16>) outs(%c : memref<256x1024xf32>)
  return
}

// -----

// C's own rows must suit TMA (here 1000 f16 = 2000 bytes: they do, though
// the kernel's N, the op's M = 300, is 600 bytes); the kernel builds.
func.func @own_rows(%a: memref<300x512xf16>, %b: memref<512x1000xf16>, %c: memref<300x1000xf16>) {
  linalg.matmul ins(%a, %b : memref<300x512xf16>, memref<512x1000xf16>) outs(%c : memref<300x1000xf16>)
  return
}

// -----

// C's rows 1001 f16 apart: TMA cannot address them.
func.func @odd_rows(%a: memref<256x512xf16>, %b: memref<512x1001xf16>, %c: memref<256x1001xf16>) {
  // expected-error @+1 {{TMA stores need the rows of C to be a multiple of 16 bytes apart, but N=1001 f16 elements are 2002 bytes}}
  linalg.matmul ins(%a, %b : memref<256x512xf16>, memref<512x1001xf16>) outs(%c : memref<256x1001xf16>)
  return
}

// With 32-column tiles the last two are refused as too narrow first.
// NARROW-COUNT-2: swap (C^T = B^T A^T) needs a block tile N of 64 or more for store = "tma" (one store chunk), not 32
