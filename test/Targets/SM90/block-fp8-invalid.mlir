// RUN: tcgen-opt %s -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure),tcgen-sm90-build-kernel)'

// C += A B (no zero fill of C) is refused by the block-scaled kernel.
func.func @bfp8(%a: memref<256x512xf8E4M3FN>, %b: memref<320x512xf8E4M3FN>,
                %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %c: memref<256x320xf32>) {
  // expected-error @+1 {{block-scaled fp8 computes C = A B from a zero fill of C (C += A B is not supported yet)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, k floordiv 128)>,
                                   affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<320x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>)
      outs(%c : memref<256x320xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %acc, %r : f32
    linalg.yield %o : f32
  }
  return
}
