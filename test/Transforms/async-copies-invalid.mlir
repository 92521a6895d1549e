// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-async-copies))'

// Before tcgen-map-to-gpu there is no kernel to pipeline in.
func.func @unmapped(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  // expected-error @below {{async copies need a mapped kernel (run tcgen-map-to-gpu first)}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 3>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
