// The block-scaled sm90 kernel's configuration refusals (each a located
// error naming what it needs) and C += A B, which the kernel builder
// refuses: one RUN per option.

// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,128}))' 2>&1 | FileCheck %s --check-prefix=N256
// N256: error: 'linalg.generic' op block-scaled fp8 on sm90 needs a block tile N of 64 or 128 (within one 128-wide block of B's scales), not 256

// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,128 warp-tile=128,128,128}))' 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: error: 'linalg.generic' op block-scaled fp8 on sm90 needs a warp tile M of 64 (one row block per consumer warpgroup: two accumulator sets), not 128

// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,128 stream-k=1}))' 2>&1 | FileCheck %s --check-prefix=SK
// SK: error: 'linalg.generic' op block-scaled fp8 on sm90 needs streamk = false (the tiles' K loops start at K block 0)

// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,128 cluster=2,1}))' 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: error: 'linalg.generic' op block-scaled fp8 on sm90 needs cluster [1, 1]

// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 swap=1 block-tile=128,128,128}))' 2>&1 | FileCheck %s --check-prefix=SWAP
// SWAP: error: 'linalg.generic' op block-scaled fp8 on sm90 needs swap = false (the scales are read in the problem's own terms)

// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm80}))' 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: error: 'linalg.generic' op block-scaled fp8 needs the sm90 back end (--backend=sm90); the sm80 back end does not scale blocks

func.func @bfp8(%a: memref<256x512xf8E4M3FN>, %b: memref<320x512xf8E4M3FN>,
                %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %c: memref<256x320xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x320xf32>)
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
