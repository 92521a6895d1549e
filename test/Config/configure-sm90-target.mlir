// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure{backend=sm90}))' 2>&1 | FileCheck %s --check-prefix=TARGET

// TARGET: error: 'linalg.matmul' op the sm90 back end needs --target=sm_90a (wgmma and setmaxnreg), not sm_80
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

