// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure))' 2>&1 | FileCheck %s --check-prefix=SM80

// A batch multiplies the tiles: 16 matrices of 1024 x 1024 fill the SMs
// with 128x256 tiles (512 tiles, 3.9 waves), where one matrix alone takes
// 64x128 (default-backend.mlir, @small).
// Batched matmuls have no WMMA form.
// SM80: error: 'linalg.batch_matmul' op the sm80 back end takes unbatched matmuls only
// CHECK-LABEL: func @batched
// CHECK: #tcgen.config<backend = "sm90", block = [128, 256, 64]
func.func @batched(%a: memref<16x1024x512xf16>, %b: memref<16x512x1024xf16>, %c: memref<16x1024x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<16x1024x1024xf16>)
  linalg.batch_matmul ins(%a, %b : memref<16x1024x512xf16>, memref<16x512x1024xf16>) outs(%c : memref<16x1024x1024xf16>)
  return
}
