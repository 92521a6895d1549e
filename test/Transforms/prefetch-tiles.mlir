// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-prefetch-tiles))' | FileCheck %s
// RUN: not tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-prefetch-tiles))' 2>&1 | FileCheck %s --check-prefix=ERR

// Prologue: tile 0 goes straight to shared memory (2 + 2 vectors per thread).
// CHECK:      gpu.launch
// CHECK-COUNT-4: gpu.subgroup_mma_load_matrix %arg2
// CHECK:      affine.vector_load %arg0
// CHECK-NEXT: affine.vector_store
// CHECK:      affine.vector_load %arg1
// CHECK:      affine.vector_store
// CHECK:      gpu.barrier
// Steady state over all but the last K tile: next tile into registers,
// compute the current one, barrier, registers to shared memory, barrier.
// CHECK:      affine.for %[[K:.*]] = 0 to 32 step 32 iter_args(
// CHECK:        %[[NEXT:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK-COUNT-2: affine.vector_load %arg0
// CHECK-COUNT-2: affine.vector_load %arg1
// CHECK-NOT:    affine.vector_store
// CHECK:        gpu.subgroup_mma_compute
// CHECK:        } {tcgen.loop = "warp_k"}
// CHECK-NEXT:   gpu.barrier
// CHECK-COUNT-4: affine.vector_store
// CHECK-NEXT:   gpu.barrier
// CHECK-NEXT:   affine.yield
// CHECK-NEXT: } {tcgen.loop = "block_k"}
// Epilogue: the last tile's compute, then the accumulators are stored.
// CHECK-NOT:  affine.vector_load
// CHECK:      gpu.subgroup_mma_compute
// CHECK:      gpu.subgroup_mma_store_matrix

// ERR: error: 'affine.for' op prefetching needs a mapped kernel (run tcgen-map-to-gpu first)
