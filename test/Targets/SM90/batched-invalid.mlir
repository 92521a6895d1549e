// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 store=global}),tcgen-sm90-build-kernel)'
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 store=global}),tcgen-sm90-build-kernel{pack=always})' 2>&1 | FileCheck %s --check-prefix=ALWAYS

// Batched operands are read in place (pack kernels copy one matrix): rows
// that are not a multiple of 16 bytes apart are an error.
func.func @unaligned(%A: memref<2x128x100xf16>, %B: memref<2x100x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  // expected-error @+1 {{the rows of the batched operand A are 200 bytes apart, not a multiple of 16, which TMA needs (packing batched operands is not supported yet)}}
  linalg.batch_matmul ins(%A, %B : memref<2x128x100xf16>, memref<2x100x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}

// -----

// Aligned rows compile (nothing to verify here); pack = always cannot be
// honoured for a batch.
// ALWAYS: error: 'linalg.batch_matmul' op pack = always: packing batched operands is not supported yet
func.func @aligned(%A: memref<2x128x64xf16>, %B: memref<2x64x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  linalg.batch_matmul ins(%A, %B : memref<2x128x64xf16>, memref<2x64x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}
