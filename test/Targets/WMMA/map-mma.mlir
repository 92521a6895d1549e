// RUN: tcgen-opt %S/../../Transforms/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-wmma-map-mma))' | FileCheck %s
// RUN: tcgen-opt %S/../../Transforms/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-wmma-map-mma))' | FileCheck %s --check-prefix=GLOBAL

// Point loops step by 16; the body is one fragment multiply-accumulate.
// CHECK:      affine.for {{.*}} step 16 {
// CHECK-NEXT:   affine.for {{.*}} step 16 {
// CHECK-NEXT:     affine.for {{.*}} step 16 {
// CHECK:            %[[A:.*]] = gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 40 : index} : memref<64x40xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:            %[[B:.*]] = gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 72 : index} : memref<32x72xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:            %[[C:.*]] = gpu.subgroup_mma_load_matrix %arg2[{{.*}}] {leadDimension = 128 : index} : memref<128x128xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:       %[[D:.*]] = gpu.subgroup_mma_compute %[[A]], %[[B]], %[[C]]
// CHECK:            gpu.subgroup_mma_store_matrix %[[D]], %arg2[{{.*}}] {leadDimension = 128 : index}
// CHECK-NOT:        arith.mulf
// CHECK:          } {tcgen.loop = "point_k"}

// Without promotion the fragments come straight from global memory.
// GLOBAL: gpu.subgroup_mma_load_matrix %arg0[{{.*}}] {leadDimension = 64 : index} : memref<128x64xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
// GLOBAL: gpu.subgroup_mma_load_matrix %arg1[{{.*}}] {leadDimension = 128 : index} : memref<64x128xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
