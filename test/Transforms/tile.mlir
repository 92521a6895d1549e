// RUN: tcgen-opt %S/Inputs/matmul-128x128x64.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile))' | FileCheck %s

// Block tile 64x64x32, then warp tile 32x32x16 inside it.
// CHECK-DAG: #[[PLUS64:.*]] = affine_map<(d0) -> (d0 + 64)>
// CHECK-DAG: #[[PLUS32:.*]] = affine_map<(d0) -> (d0 + 32)>
// CHECK-DAG: #[[PLUS16:.*]] = affine_map<(d0) -> (d0 + 16)>
// CHECK:     affine.for %[[I:.*]] = 0 to 128 step 64 {
// CHECK:     affine.for %[[J:.*]] = 0 to 128 step 64 {
// CHECK:     affine.for %[[K:.*]] = 0 to 64 step 32 {
// CHECK:     affine.for %[[II:.*]] = #{{.*}}(%[[I]]) to #[[PLUS64]](%[[I]]) step 32 {
// CHECK:     affine.for %[[JJ:.*]] = #{{.*}}(%[[J]]) to #[[PLUS64]](%[[J]]) step 32 {
// CHECK:     affine.for %[[KK:.*]] = #{{.*}}(%[[K]]) to #[[PLUS32]](%[[K]]) step 16 {
// CHECK:     affine.for %{{.*}} = #{{.*}}(%[[II]]) to #[[PLUS32]](%[[II]]) {
// CHECK:     affine.for %{{.*}} = #{{.*}}(%[[JJ]]) to #[[PLUS32]](%[[JJ]]) {
// CHECK:     affine.for %{{.*}} = #{{.*}}(%[[KK]]) to #[[PLUS16]](%[[KK]]) {
// CHECK:     } {tcgen.loop = "point_k"}
// CHECK:     } {tcgen.loop = "point_n"}
// CHECK:     } {tcgen.loop = "point_m"}
// CHECK:     } {tcgen.loop = "warp_k"}
// CHECK:     } {tcgen.loop = "warp_n"}
// CHECK:     } {tcgen.loop = "warp_m"}
// CHECK:     } {tcgen.loop = "block_k"}
// CHECK:     } {tcgen.loop = "block_n"}
// CHECK:     } {tcgen.config = #tcgen.config<{{.*}}>, tcgen.loop = "block_m"}
