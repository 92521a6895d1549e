// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-vectorize-copies))' | FileCheck %s

// 8 f16 = 16 bytes per copy step.
// CHECK:      affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to 32 step 8 {
// CHECK-NEXT:     %[[V:.*]] = affine.vector_load %arg0{{.*}} : memref<128x64xf16>, vector<8xf16>
// CHECK-NEXT:     affine.vector_store %[[V]], {{.*}} : memref<64x40xf16, 3>, vector<8xf16>
// CHECK:      } {tcgen.copy = "A", tcgen.loop = "copy_row"}
// CHECK:        affine.for %{{.*}} = 0 to 64 step 8 {
// CHECK-NEXT:     affine.vector_load %arg1{{.*}} vector<8xf16>
// CHECK:      } {tcgen.copy = "B", tcgen.loop = "copy_row"}
