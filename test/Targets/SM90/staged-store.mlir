// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/global.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=GLOBAL

//--- check.mlir
// C's rows are 325 f32 = 1300 bytes apart, not a multiple of 16: TMA cannot
// store them. By default the accumulators still go through the swizzled
// chunk buffers (as for TMA stores: 2 x 8 KiB per consumer warpgroup), and
// after each chunk the warpgroup writes it out: warp w rows w, w + 4, ...
// (16 of the chunk's 64), lane l column l, un-swizzling the 16-byte unit
// (unit ^ row % 8), each element stored if it is inside C.
// CHECK-LABEL: gpu.func @odd_n_kernel(
// CHECK-SAME:    %{{.*}}: memref<256x325xf32>
// CHECK-SAME:    store = "staged"
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C"]
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:         scf.for %[[I:[a-z0-9_]+]] = %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step
// CHECK:           arith.muli %[[I]], %{{[a-z0-9_]+}} : index
// CHECK:           arith.shrui
// CHECK:           arith.xori
// CHECK:           %[[V:[0-9]+]] = llvm.load %{{[0-9]+}} : !llvm.ptr<3> -> f32
// CHECK:           %[[IN:[0-9]+]] = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK:           scf.if %[[IN]] {
// CHECK:             memref.store %[[V]], %{{.*}}[%{{[0-9]+}}, %{{[0-9]+}}] : memref<256x325xf32>
// Stores from registers, asked for: one element at a time (pairs are not
// aligned), each if it is inside C.
// GLOBAL-LABEL: gpu.func @odd_n_kernel(
// GLOBAL-SAME:    store = "global"
// GLOBAL:         %[[N:.*]] = arith.constant 325 : index
// GLOBAL:         %[[IN0:.*]] = arith.cmpi ult, %[[COL:.*]], %[[N]]
// GLOBAL:         %[[NEXT:.*]] = arith.addi %[[COL]], %c1
// GLOBAL:         %[[IN1:.*]] = arith.cmpi ult, %[[NEXT]], %[[N]]
// GLOBAL:         scf.if %[[IN0]] {
// GLOBAL:           memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<256x325xf32>
// GLOBAL:         scf.if %[[IN1]] {
// GLOBAL:           memref.store
func.func @odd_n(%A: memref<256x128xf16>, %B: memref<128x325xf16>, %C: memref<256x325xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x325xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged">}
    ins(%A, %B : memref<256x128xf16>, memref<128x325xf16>) outs(%C : memref<256x325xf32>)
  return
}

//--- global.mlir
func.func @odd_n(%A: memref<256x128xf16>, %B: memref<128x325xf16>, %C: memref<256x325xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x325xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<256x128xf16>, memref<128x325xf16>) outs(%C : memref<256x325xf32>)
  return
}
