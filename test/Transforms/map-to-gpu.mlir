// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu))' | FileCheck %s
// RUN: tcgen-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-map-to-gpu))'

// Grid (N/64, M/64) = (2, 2); 4 warps = 128 threads.
// CHECK-DAG:  #[[SPREAD:.*]] = affine_map<(d0)[s0] -> (d0 * 128 + s0)>
// CHECK:      gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2{{(_[0-9]+)?}}, %{{.*}} = %c2{{(_[0-9]+)?}}, %{{.*}} = %c1) threads(%[[TX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c128,
// Warp index = tid / 32, split into (row, col) of the 2x2 warp grid.
// CHECK:        %[[WARP:.*]] = arith.divui %[[TX]], %{{.*}} : index
// CHECK:        arith.divui %[[WARP]]
// CHECK:        arith.remui %[[WARP]]
// CHECK-NOT:    tcgen.loop = "warp_m"
// CHECK:        affine.for {{.*}} = 0 to 64 step 32 iter_args
// Each copy is spread over the 128 threads: 64x32 f16 = 256 vectors of 8,
// two per thread: vector l = j * 128 + tid.
// CHECK:          affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT:       %[[L:.*]] = affine.apply #[[SPREAD]](%[[J]])[%[[TX]]]
// CHECK:            affine.vector_load %arg0
// CHECK:          } {tcgen.copy = "A", tcgen.loop = "copy"}
// CHECK:          affine.for %{{.*}} = 0 to 2 {
// CHECK:          } {tcgen.copy = "B", tcgen.loop = "copy"}
// CHECK:        gpu.terminator
// CHECK:      return
// CHECK-NOT:  tcgen.loop = "block_m"

// C = A * B without accumulator hoisting would read C: refused.
func.func @overwrite_needs_hoist(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<128x128xf16>)
  // expected-error @+1 {{computes C = A*B but still reads C: this needs the accumulators hoisted}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf16>)
  return
}
