// The stage counts the schedule refuses.
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tcgen-reschedule-pipeline=stages=1
// RUN: not tcgen-opt %s --tcgen-reschedule-pipeline="stages=3 budget=4096" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET
// RUN: not tcgen-opt %s --tcgen-reschedule-pipeline 2>&1 | FileCheck %s --check-prefix=TRIPS

// BUDGET: 3 stages of 2048 bytes (and 0 bytes of other shared buffers) exceed the 4096-byte shared-memory budget
// TRIPS: the loop runs 1 iteration(s); there is nothing to overlap

memref.global "private" @As : memref<512xf32, #gpu.address_space<workgroup>>
func.func @oneTrip(%A: memref<?xf32>) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<512xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  // expected-error @below {{--stages must be at least 2 (one stage is the original kernel)}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %cst) -> (f32) {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<512xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<512xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %acc, %w : f32
    gpu.barrier
    scf.yield %s : f32
  }
  memref.store %r, %A[%tx] : memref<?xf32>
  return
}
