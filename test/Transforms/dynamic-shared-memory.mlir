// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tcgen-dynamic-shared-memory))' | FileCheck %s
// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tcgen-dynamic-shared-memory{static-limit=8192}))' | FileCheck %s --check-prefix=LOW

// 3 x 24 KiB of static shared buffers exceed 48 KiB: they become views at
// 128-byte aligned offsets of one dynamic region, the launch asks for its
// size, and the globals go.
// CHECK-NOT:   memref.global "private" @big
// CHECK:       memref.global @__tcgen_dsmem : memref<0xi8, 3> {alignment = 16 : i64}
// CHECK-LABEL: func @three_buffers
// CHECK:         %[[SIZE:.*]] = arith.constant 73728 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:           %[[G:.*]] = memref.get_global @__tcgen_dsmem : memref<0xi8, 3>
// CHECK:           %[[D:.*]] = memref.reinterpret_cast %[[G]] to offset: [0], sizes: [73728], strides: [1] : memref<0xi8, 3> to memref<73728xi8, 3>
// CHECK:           %[[O0:.*]] = arith.constant 0 : index
// CHECK:           memref.view %[[D]][%[[O0]]][] : memref<73728xi8, 3> to memref<128x96xf16, 3>
// CHECK:           %[[O1:.*]] = arith.constant 24576 : index
// CHECK:           memref.view %[[D]][%[[O1]]][] : memref<73728xi8, 3> to memref<128x96xf16, 3>
// CHECK:           %[[O2:.*]] = arith.constant 49152 : index
// CHECK:           memref.view %[[D]][%[[O2]]][] : memref<73728xi8, 3> to memref<96x128xf16, 3>
// CHECK-NOT:       memref.get_global @big
memref.global "private" @big_a : memref<128x96xf16, 3> {alignment = 128 : i64}
memref.global "private" @big_a1 : memref<128x96xf16, 3> {alignment = 128 : i64}
memref.global "private" @big_b : memref<96x128xf16, 3> {alignment = 128 : i64}
func.func @three_buffers(%v: vector<8xf16>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.get_global @big_a : memref<128x96xf16, 3>
    %a1 = memref.get_global @big_a1 : memref<128x96xf16, 3>
    %b = memref.get_global @big_b : memref<96x128xf16, 3>
    vector.store %v, %a[%c0, %c0] : memref<128x96xf16, 3>, vector<8xf16>
    vector.store %v, %a1[%c0, %c0] : memref<128x96xf16, 3>, vector<8xf16>
    vector.store %v, %b[%c0, %c0] : memref<96x128xf16, 3>, vector<8xf16>
    gpu.terminator
  }
  return
}

// -----

// 8 KiB stay static, under the default limit and under a limit of exactly
// 8 KiB (the second run): the limit is inclusive.
// CHECK-LABEL: func @small
// CHECK-NOT:     dynamic_shared_memory_size
// CHECK:         memref.get_global @small_a
// LOW-LABEL:   func @small
// LOW-NOT:       dynamic_shared_memory_size
memref.global "private" @small_a : memref<64x64xf16, 3> {alignment = 128 : i64}
func.func @small(%v: vector<8xf16>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.get_global @small_a : memref<64x64xf16, 3>
    vector.store %v, %a[%c0, %c0] : memref<64x64xf16, 3>, vector<8xf16>
    gpu.terminator
  }
  return
}
