// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands))' | FileCheck %s

// Padded (by 8 elements) tiles in shared memory (address space 3).
// CHECK-DAG: memref.global "private" @__tcgen_smem_A : memref<64x40xf16, 3> {alignment = 128 : i64, tcgen.operand = "A"}
// CHECK-DAG: memref.global "private" @__tcgen_smem_B : memref<32x72xf16, 3> {alignment = 128 : i64, tcgen.operand = "B"}
// CHECK:      affine.for %[[I:.*]] = 0 to 128 step 64 {
// CHECK:        affine.for %[[J:.*]] = 0 to 128 step 64 {
// CHECK-DAG:      %[[SA:.*]] = memref.get_global @__tcgen_smem_A
// CHECK-DAG:      %[[SB:.*]] = memref.get_global @__tcgen_smem_B
// CHECK:          affine.for %[[K:.*]] = 0 to 64 step 32 {
// Barrier, the two copy nests, barrier, then the compute.
// CHECK-NEXT:       gpu.barrier
// CHECK-NEXT:       affine.for %[[R:.*]] = 0 to 64 {
// CHECK-NEXT:         affine.for %[[C:.*]] = 0 to 32 {
// CHECK-NEXT:           %[[V:.*]] = affine.load %arg0[%[[I]] + %[[R]], %[[K]] + %[[C]]]
// CHECK-NEXT:           affine.store %[[V]], %[[SA]][%[[R]], %[[C]]]
// CHECK:            } {tcgen.copy = "A", tcgen.loop = "copy_row"}
// CHECK-NEXT:       affine.for %[[R2:.*]] = 0 to 32 {
// CHECK-NEXT:         affine.for %[[C2:.*]] = 0 to 64 {
// CHECK-NEXT:           %[[V2:.*]] = affine.load %arg1[%[[K]] + %[[R2]], %[[J]] + %[[C2]]]
// CHECK-NEXT:           affine.store %[[V2]], %[[SB]][%[[R2]], %[[C2]]]
// CHECK:            } {tcgen.copy = "B", tcgen.loop = "copy_row"}
// CHECK-NEXT:       gpu.barrier
// The compute reads the tiles, relative to the tile origin.
// CHECK:            affine.load %[[SA]][%{{.*}} - %[[I]], %{{.*}} - %[[K]]]
// CHECK:            affine.load %[[SB]][%{{.*}} - %[[K]], %{{.*}} - %[[J]]]
// CHECK:            affine.load %arg2
