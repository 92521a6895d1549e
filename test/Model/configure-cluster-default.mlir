// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s --check-prefix=DEFAULT
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{block-tile=128,144,64}))' | FileCheck %s --check-prefix=TILE
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{stream-k=1}))' | FileCheck %s --check-prefix=SK
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{swap=1 block-tile=128,128,64}))' | FileCheck %s --check-prefix=SWAP
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{block-tile=128,256,64 cluster=2,1}))' | FileCheck %s --check-prefix=ASKED

// 1000^3 f16 (rows 2000 bytes apart, read unpacked): the default is
// 64 x 128 in a 2x1 cluster that shares B. The cluster belongs to that
// tile: options that change the tile, ask for a swap or for stream-K
// without naming a cluster get none (128 x 144 cannot split its B tile
// into two halves of 64-wide boxes; swapped kernels and stream-K take no
// clusters); an asked-for cluster stays.
// DEFAULT: block = [64, 128, 64]{{.*}}cluster = [2, 1]
// TILE:    block = [128, 144, 64]{{.*}}cluster = [1, 1]
// SK:      block = [64, 128, 64]{{.*}}streamk = true, cluster = [1, 1]
// SWAP:    block = [128, 128, 64]{{.*}}cluster = [1, 1], store = "global", swap = true
// ASKED:   block = [128, 256, 64]{{.*}}cluster = [2, 1]
func.func @mm(%A: memref<1000x1000xf16>, %B: memref<1000x1000xf16>, %C: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x1000xf32>)
  linalg.matmul ins(%A, %B : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%C : memref<1000x1000xf32>)
  return
}

// -----

// 5120^3: the default splits K (stream-K); an asked-for cluster walks whole
// tiles instead, unless stream-K is asked for too (then it is refused).
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{cluster=2,1}))' | FileCheck %s --check-prefix=CL-SK
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{cluster=2,1 stream-k=1}))' 2>&1 | FileCheck %s --check-prefix=CL-SK-ASKED
// CL-SK-LABEL: func.func @big
// CL-SK:       block = [128, 256, 64]{{.*}}streamk = false, cluster = [2, 1]
// CL-SK-ASKED: error: 'linalg.matmul' op invalid configuration: cluster [2, 1] needs the sm90 back end without streamk
func.func @big(%A: memref<5120x5120xf16>, %B: memref<5120x5120xf16>, %C: memref<5120x5120xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<5120x5120xf32>)
  linalg.matmul ins(%A, %B : memref<5120x5120xf16>, memref<5120x5120xf16>) outs(%C : memref<5120x5120xf32>)
  return
}
