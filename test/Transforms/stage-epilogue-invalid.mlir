// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators{unroll=false},tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-stage-epilogue))'

// Without the point loops unrolled the fragment stores stay in loops: not
// the grid of stores the staged epilogue rewrites (C += A*B: C is still
// read and written in the point loops).
func.func @not_unrolled(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  // expected-error @below {{staged epilogue expects 4 C fragment stores per warp, found 1}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

