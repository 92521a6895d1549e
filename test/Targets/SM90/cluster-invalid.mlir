// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 cluster=2,1}))'
// RUN: tcgen-opt %S/Inputs/mm-384x384.mlir -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=64,192,64 cluster=2,1}))'

// The rows of C (N=260 f32, 1040 bytes) are fine, but those of B (N=260
// f16, 520 bytes) are not: the cluster does not matter.
func.func @misaligned(%A: memref<384x512xf16>, %B: memref<512x260xf16>, %C: memref<384x260xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<384x260xf32>)
  // expected-error @+1 {{the rows of B (N=260 f16 elements, 520 bytes) are not a multiple of 16 bytes}}
  linalg.matmul ins(%A, %B : memref<384x512xf16>, memref<512x260xf16>) outs(%C : memref<384x260xf32>)
  return
}
