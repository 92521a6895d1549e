// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-wmma-map-mma,tcgen-hoist-accumulators))' | FileCheck %s
// RUN: tcgen-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-wmma-map-mma,tcgen-hoist-accumulators))' | FileCheck %s --check-prefix=ZERO
// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-wmma-map-mma,tcgen-hoist-accumulators{unroll=false}))' | FileCheck %s --check-prefix=NOUNROLL

// Warp loops are now outside block_k; the 2x2 accumulators of the 32x32 warp
// tile are loaded once, carried through both k loops, and stored once.
// CHECK:      affine.for {{.*}} step 32 {
// CHECK-NEXT:   affine.for {{.*}} step 32 {
// CHECK-COUNT-4: gpu.subgroup_mma_load_matrix %arg2
// CHECK:        %[[R:.*]]:4 = affine.for {{.*}} = 0 to 64 step 32 iter_args(
// CHECK:          gpu.barrier
// CHECK:          } {tcgen.copy = "A", tcgen.loop = "copy_row"}
// CHECK:          } {tcgen.copy = "B", tcgen.loop = "copy_row"}
// CHECK:          gpu.barrier
// CHECK:          %[[W:.*]]:4 = affine.for {{.*}} step 16 iter_args(
// The unrolled point loops, A and B fragments loaded once each (unroll-jam).
// CHECK-COUNT-2:    gpu.subgroup_mma_load_matrix %{{.*}} : memref<{{.*}}, 3> -> !gpu.mma_matrix<16x16xf16, "{{A|B}}Op">
// CHECK-COUNT-2:    gpu.subgroup_mma_compute
// CHECK:            gpu.subgroup_mma_load_matrix %{{.*}} : memref<{{.*}}, 3> -> !gpu.mma_matrix<16x16xf16, "{{A|B}}Op">
// CHECK-COUNT-2:    gpu.subgroup_mma_compute
// CHECK-NOT:        gpu.subgroup_mma_load_matrix
// CHECK:            affine.yield
// CHECK-NEXT:     } {tcgen.loop = "warp_k"}
// CHECK-NEXT:     affine.yield %[[W]]#0, %[[W]]#1, %[[W]]#2, %[[W]]#3
// CHECK-NEXT:   } {tcgen.loop = "block_k"}
// CHECK-COUNT-4: gpu.subgroup_mma_store_matrix %[[R]]#{{[0-3]}}, %arg2
// CHECK:      } {tcgen.loop = "warp_n"}

// C = A * B: the accumulators start at zero and C is never read.
// ZERO-LABEL: func @overwrite
// ZERO-NOT:   gpu.subgroup_mma_load_matrix %arg2
// ZERO:       %[[Z:.*]] = gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xf16, "COp">
// ZERO:       affine.for {{.*}} iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]])
// ZERO-NOT:   gpu.subgroup_mma_load_matrix %arg2
// ZERO:       gpu.subgroup_mma_store_matrix
func.func @overwrite(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<128x128xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf16>)
  return
}

// Without unrolling, the loops are permuted (warp loops outside block_k, point
// loops (k, m, n)) but the accumulators stay in memory.
// NOUNROLL:      } {tcgen.loop = "point_n"}
// NOUNROLL-NEXT: } {tcgen.loop = "point_m"}
// NOUNROLL-NEXT: } {tcgen.loop = "point_k"}
// NOUNROLL-NEXT: } {tcgen.loop = "warp_k"}
// NOUNROLL:      } {tcgen.loop = "block_k"}
// NOUNROLL-NEXT: } {tcgen.loop = "warp_n"}
