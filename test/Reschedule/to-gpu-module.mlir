// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --tcgen-reschedule-to-gpu-module | FileCheck %s

// CHECK:      module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @tcgen_reschedule {
// CHECK-NEXT:     memref.global "private" @As : memref<4x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:     gpu.func @k(%[[C:.*]]: memref<1099511627776xf32>, %[[N:.*]]: i32) kernel attributes {known_block_size = array<i32: 16, 8, 1>, tcgen.launch = {{.*}}, tcgen.stages = 4 : i64} {
// CHECK:            memref.get_global @As
// CHECK:            memref.store %{{.*}}, %[[C]][%{{.*}}] : memref<1099511627776xf32>
// CHECK-NEXT:       gpu.return
// CHECK-NOT:    func.func
memref.global "private" @As : memref<4x16xf32, #gpu.address_space<workgroup>>
func.func @k(%C: memref<?xf32>, %n: i32) attributes {tcgen.kernel, tcgen.launch = {block = array<i64: 16, 8, 1>, grid = array<i64: 2, 1, 1>, smem = 0 : i64}, tcgen.stages = 4 : i64} {
  %as = memref.get_global @As : memref<4x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %v = memref.load %as[%c0, %tx] : memref<4x16xf32, #gpu.address_space<workgroup>>
  memref.store %v, %C[%tx] : memref<?xf32>
  return
}

// -----

// expected-error @below {{expected one tcgen.kernel function, found 0}}
module {
  func.func @notAKernel() {
    return
  }
}

// -----

// expected-error @below {{a pointer parameter of type 'memref<4x4xf32>'; expected memref<?xT>}}
func.func @k(%C: memref<4x4xf32>) attributes {tcgen.kernel} {
  return
}
