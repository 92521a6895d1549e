// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel))' | FileCheck %s
// RUN: not tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-map-to-gpu))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNPROVEN

// Copies and every m/n loop carry no dependence through global memory (the
// shared tiles are per block); the k loops carry the accumulation into C.
// CHECK:      } {tcgen.loop = "copy_col", tcgen.parallel}
// CHECK-NEXT: } {tcgen.copy = "A", tcgen.loop = "copy_row", tcgen.parallel}
// CHECK:      } {tcgen.loop = "copy_col", tcgen.parallel}
// CHECK-NEXT: } {tcgen.copy = "B", tcgen.loop = "copy_row", tcgen.parallel}
// CHECK:      } {tcgen.loop = "point_k"}
// CHECK-NEXT: } {tcgen.loop = "point_n", tcgen.parallel}
// CHECK-NEXT: } {tcgen.loop = "point_m", tcgen.parallel}
// CHECK-NEXT: } {tcgen.loop = "warp_k"}
// CHECK-NEXT: } {tcgen.loop = "warp_n", tcgen.parallel}
// CHECK-NEXT: } {tcgen.loop = "warp_m", tcgen.parallel}
// CHECK-NEXT: } {tcgen.loop = "block_k"}
// CHECK-NEXT: } {tcgen.loop = "block_n", tcgen.parallel}
// CHECK-NEXT: } {tcgen.config = {{.*}}, tcgen.loop = "block_m", tcgen.parallel}

// Without the analysis, nothing is mapped.
// UNPROVEN: error: 'affine.for' op loop 'block_m' is not proven parallel (run tcgen-detect-parallel
