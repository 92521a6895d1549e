// RUN: tcgen-opt %s -split-input-file --tcgen-raise-to-affine --canonicalize | FileCheck %s

// The k loop of MatrixMulCUDA after raise-cf-to-scf: an i32 loop with
// constant bounds over a shared tile indexed by thread ids.
// CHECK-LABEL: func.func @k_loop
// CHECK-DAG:     %[[TX:.*]] = gpu.thread_id  x
// CHECK-DAG:     %[[TY:.*]] = gpu.thread_id  y
// CHECK:         affine.for %[[K:.*]] = 0 to 16 iter_args
// CHECK-NEXT:      affine.load %{{.*}}[symbol(%[[TY]]), %[[K]]]
// CHECK-NEXT:      affine.load %{{.*}}[%[[K]], symbol(%[[TX]])]
// CHECK:           affine.yield
memref.global "private" @As : memref<16x16xf32, #gpu.address_space<workgroup>>
memref.global "private" @Bs : memref<16x16xf32, #gpu.address_space<workgroup>>
func.func @k_loop(%init: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %as = memref.get_global @As : memref<16x16xf32, #gpu.address_space<workgroup>>
  %bs = memref.get_global @Bs : memref<16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %init) -> (f32) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %ki = arith.index_cast %k64 : i64 to index
    %a = memref.load %as[%ty, %ki] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %b = memref.load %bs[%ki, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %p = arith.mulf %a, %b : f32
    %s2 = arith.addf %s, %p : f32
    scf.yield %s2 : f32
  }
  return %r : f32
}

// -----

// Bounds and indices affine in a parameter and the thread id (nsw i32
// arithmetic); a product of two symbols (n * t) is not affine and stays a
// memref.load, a loop whose step is not a constant an scf.for.
// CHECK-LABEL: func.func @mixed
// CHECK:         affine.for %[[I:.*]] = #{{.*}}()[%{{.*}}, %{{.*}}] to 64 step 4 {
// CHECK:           affine.load %{{.*}}[%[[I]] + 1]
// CHECK:           arith.muli
// CHECK:           memref.load
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      memref.load
func.func @mixed(%x: memref<?xf32>, %n: i32, %y: memref<?xf32>) {
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i32
  %lb = arith.addi %n, %t overflow<nsw> : i32
  scf.for %i = %lb to %c64 step %c4 : i32 {
    %j = arith.addi %i, %c1 overflow<nsw> : i32
    %j64 = arith.extsi %j : i32 to i64
    %ji = arith.index_cast %j64 : i64 to index
    %v = memref.load %x[%ji] : memref<?xf32>
    %nt = arith.muli %n, %t overflow<nsw> : i32
    %nt64 = arith.extsi %nt : i32 to i64
    %nti = arith.index_cast %nt64 : i64 to index
    %w = memref.load %x[%nti] : memref<?xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %y[%ji] : memref<?xf32>
  }
  scf.for %i = %c1 to %c64 step %n : i32 {
    %i64 = arith.extsi %i : i32 to i64
    %ii = arith.index_cast %i64 : i64 to index
    %v = memref.load %x[%ii] : memref<?xf32>
    memref.store %v, %y[%ii] : memref<?xf32>
  }
  return
}
