// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 cluster=2,1}))'
// RUN: tcgen-opt %S/Inputs/mm-384x384.mlir -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=64,192,64 cluster=2,1}))'

// Three tile rows cannot pair up.
func.func @odd_tiles(%A: memref<384x512xf16>, %B: memref<512x512xf16>, %C: memref<384x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<384x512xf32>)
  // expected-error @+1 {{cluster [2, 1] needs the 3x2 tiles to be a multiple of it in each dimension}}
  linalg.matmul ins(%A, %B : memref<384x512xf16>, memref<512x512xf16>) outs(%C : memref<384x512xf32>)
  return
}
