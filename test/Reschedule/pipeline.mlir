// The pipeline analysis and schedule on the raised shape of the seed's
// MatrixMulCUDA (an scf.for whose second operand's offset is an iter_arg
// stepped by a loop-invariant value) and of a loop raised to affine.for.
// RUN: tcgen-opt %s -split-input-file --tcgen-reschedule-analyze \
// RUN:   -mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ANALYZE
// RUN: tcgen-opt %s -split-input-file --tcgen-reschedule-pipeline=stages=3 \
// RUN:   --canonicalize --cse | FileCheck %s
// RUN: tcgen-opt %s -split-input-file --tcgen-reschedule-pipeline \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=AUTO
// RUN: tcgen-opt %s -split-input-file --tcgen-reschedule-analyze \
// RUN:   -mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=RESTRICT

// ANALYZE:      remark: pipelinable loop
// ANALYZE-NEXT:   pipelined loop: scf.for (trip count dynamic)
// ANALYZE-NEXT:     copy: 1 statement(s) into @As (4 bytes each), footprint 1024 bytes
// ANALYZE-NEXT:     copy: 1 statement(s) into @Bs (4 bytes each), footprint 1024 bytes
// ANALYZE-NEXT:     compute: 1 read(s) of @As after the first barrier
// ANALYZE-NEXT:     compute: 1 read(s) of @Bs after the first barrier
// ANALYZE-NEXT:     copy address steps with iter_arg #0
// ANALYZE-NEXT:   dependences over the loop (k: iteration):
// ANALYZE-NEXT:     copy(k) -> compute(k) through @As: true (read after write), made asynchronous
// ANALYZE-NEXT:     compute(k) -> copy(k+1) through @As: false (write after read), removed by multi-buffering
// ANALYZE-NEXT:     copy(k) -> compute(k) through @Bs: true (read after write), made asynchronous
// ANALYZE-NEXT:     compute(k) -> copy(k+1) through @Bs: false (write after read), removed by multi-buffering
// ANALYZE-NEXT:   shared memory: 2048 bytes a stage, 0 bytes of other buffers

// CHECK-NOT:  memref.global "private" @As :
// CHECK:      memref.global "private" @As_stages : memref<3x16x16xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK:      memref.global "private" @Bs_stages : memref<3x16x16xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-LABEL: func.func @matrixMul
// CHECK-SAME:   tcgen.stages = 3
// CHECK-DAG:  %[[AS:.*]] = memref.get_global @As_stages
// CHECK-DAG:  %[[BS:.*]] = memref.get_global @Bs_stages
// Prologue: iterations 0 and 1, each guarded and committed as a group.
// CHECK:      scf.if
// CHECK:        nvgpu.device_async_copy %{{.*}}, %[[AS]][%c0,
// CHECK:        nvgpu.device_async_copy %{{.*}}, %[[BS]][%c0,
// CHECK:      }
// CHECK-NEXT: nvgpu.device_async_create_group {tcgen.group = "prologue"}
// CHECK:      scf.if
// CHECK:        nvgpu.device_async_copy %{{.*}}, %[[AS]][%c1,
// CHECK:        nvgpu.device_async_copy %{{.*}}, %[[BS]][%c1,
// CHECK:      }
// CHECK-NEXT: %[[G:.*]] = nvgpu.device_async_create_group {tcgen.group = "prologue"}
// The steady state runs trips - 2 iterations: wait for k's copy, one
// barrier, the copy of k + 2 (its B offset two steps ahead), compute on k.
// CHECK:      %[[TRIPS:.*]] = arith.ceildivsi
// CHECK:      %[[STEADY:.*]]:2 = scf.for %[[K:.*]] = %[[LB:.*]] to %[[END:.*]] step %c16 iter_args(%[[B:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:        %[[IT:.*]] = arith.divui
// CHECK:        nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT:   gpu.barrier
// CHECK:        %[[AHEAD:.*]] = arith.addi %[[B]], %{{.*}} : i32
// CHECK:        %[[NEXT:.*]] = arith.addi %[[IT]], %c2
// CHECK:        %[[NS:.*]] = arith.remui %[[NEXT]], %c3
// CHECK:        nvgpu.device_async_copy %{{.*}}, %[[AS]][%[[NS]],
// CHECK:        arith.addi %[[AHEAD]]
// CHECK:        nvgpu.device_async_copy %{{.*}}, %[[BS]][%[[NS]],
// CHECK-NEXT:   nvgpu.device_async_create_group {tcgen.group = "steady"}
// CHECK-NEXT:   %[[S:.*]] = arith.remui %[[IT]], %c3
// CHECK-NOT:    gpu.barrier
// CHECK:        memref.load %[[AS]][%[[S]],
// CHECK:        memref.load %[[BS]][%[[S]],
// CHECK-NOT:    gpu.barrier
// CHECK:        scf.yield
// The drain: the last two iterations, no copies.
// CHECK:      %[[DRAIN:.*]]:2 = scf.for %{{.*}} = %[[END]] to %{{.*}} step %c16 iter_args(%{{.*}} = %[[STEADY]]#0, %{{.*}} = %[[STEADY]]#1)
// CHECK:        nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT:   gpu.barrier
// CHECK-NOT:    nvgpu.device_async_copy
// CHECK:        nvgpu.device_async_create_group {tcgen.group = "drain"}
// CHECK:        memref.load %[[AS]]
// CHECK:      nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK:      memref.store %[[DRAIN]]#1

// Without --stages: the most that fit 48 KiB, at most 4.
// AUTO-LABEL: func.func @matrixMul
// AUTO-SAME:  tcgen.stages = 4
// AUTO:       nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}

memref.global "private" @As : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 4 : i64}
memref.global "private" @Bs : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 4 : i64}
func.func @matrixMul(%C: memref<?xf32>, %A: memref<?xf32>, %B: memref<?xf32>, %wA: i32, %wB: i32) attributes {tcgen.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %c16_i32 = arith.constant 16 : i32
  %c16 = arith.constant 16 : index
  %0 = arith.index_cast %wA : i32 to index
  %as = memref.get_global @As : memref<16x16xf32, #gpu.address_space<workgroup>>
  %bs = memref.get_global @Bs : memref<16x16xf32, #gpu.address_space<workgroup>>
  %bx = gpu.block_id x
  %3 = arith.index_cast %bx : index to i32
  %by = gpu.block_id y
  %tx = gpu.thread_id x
  %5 = arith.index_cast %tx : index to i32
  %ty = gpu.thread_id y
  %6 = arith.index_cast %ty : index to i32
  %7 = arith.muli %0, %c16 : index
  %8 = arith.muli %7, %by : index
  %9 = arith.addi %8, %0 : index
  %10 = arith.muli %3, %c16_i32 overflow<nsw> : i32
  %11 = arith.muli %wB, %c16_i32 overflow<nsw> : i32
  %12:2 = scf.for %a = %8 to %9 step %c16 iter_args(%b = %10, %acc = %cst) -> (i32, f32) {
    %19 = arith.index_cast %a : index to i32
    %20 = arith.muli %wA, %6 overflow<nsw> : i32
    %21 = arith.addi %19, %20 overflow<nsw> : i32
    %22 = arith.addi %21, %5 overflow<nsw> : i32
    %23 = arith.index_cast %22 : i32 to index
    %24 = memref.load %A[%23] : memref<?xf32>
    affine.store %24, %as[symbol(%ty), symbol(%tx)] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %25 = arith.muli %wB, %6 overflow<nsw> : i32
    %26 = arith.addi %b, %25 overflow<nsw> : i32
    %27 = arith.addi %26, %5 overflow<nsw> : i32
    %28 = arith.index_cast %27 : i32 to index
    %29 = memref.load %B[%28] : memref<?xf32>
    affine.store %29, %bs[symbol(%ty), symbol(%tx)] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %30 = affine.for %k = 0 to 16 iter_args(%s = %acc) -> (f32) {
      %32 = affine.load %as[symbol(%ty), %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %33 = affine.load %bs[%k, symbol(%tx)] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %34 = arith.mulf %32, %33 : f32
      %35 = arith.addf %s, %34 : f32
      affine.yield %35 : f32
    }
    gpu.barrier
    %31 = arith.addi %b, %11 overflow<nsw> : i32
    scf.yield %31, %30 : i32, f32
  }
  %18 = arith.index_cast %5 : i32 to index
  memref.store %12#1, %C[%18] : memref<?xf32>
  return
}

// -----

// An affine.for over K with copies in an inner loop (the register-tiled
// SGEMM's shape); constant bounds: 8 iterations, so the prologue's guards
// fold away.
// ANALYZE:      remark: pipelinable loop
// ANALYZE-NEXT:   pipelined loop: affine.for (trip count 8)
// ANALYZE-NEXT:     copy: 1 statement(s) into @Ts (4 bytes each), footprint 2048 bytes

// CHECK-LABEL: func.func @innerCopyLoop
// CHECK-NOT:  scf.if
// CHECK:      scf.for
// CHECK:          nvgpu.device_async_copy
// CHECK:      scf.for
// CHECK:        gpu.barrier
// CHECK:        scf.for
// CHECK:          nvgpu.device_async_copy
// CHECK:        nvgpu.device_async_create_group
// AUTO-LABEL: func.func @innerCopyLoop
// AUTO-SAME:  tcgen.stages = 4

memref.global "private" @Ts : memref<32x16xf32, #gpu.address_space<workgroup>>
func.func @innerCopyLoop(%A: memref<?xf32>, %C: memref<?xf32>) attributes {tcgen.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %ts = memref.get_global @Ts : memref<32x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %r = affine.for %k0 = 0 to 128 step 16 iter_args(%acc = %cst) -> (f32) {
    affine.for %e = affine_map<()[s0] -> (s0)>()[%tx] to 512 step 256 {
      %v = affine.load %A[%k0 * 32 + %e] : memref<?xf32>
      affine.store %v, %ts[%e floordiv 16, %e mod 16] : memref<32x16xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %s = affine.for %k = 0 to 16 iter_args(%a = %acc) -> (f32) {
      %x = affine.load %ts[symbol(%tx) floordiv 16, %k] : memref<32x16xf32, #gpu.address_space<workgroup>>
      %y = arith.addf %a, %x : f32
      affine.yield %y : f32
    }
    gpu.barrier
    affine.yield %s : f32
  }
  affine.store %r, %C[symbol(%tx)] : memref<?xf32>
  return
}

// -----

// The compute statements store each iteration's result through a
// __restrict__ parameter (tcgen.noalias) that no copy reads: no dependence
// on later copies, so the loop is pipelined with the store in its compute.
// RESTRICT:      remark: pipelinable loop
// RESTRICT:      remark: pipelinable loop
// RESTRICT:      remark: pipelinable loop
// RESTRICT:          compute(k) -> copy(k+j) through parameter 1: none (it is __restrict__ and no copy reads it)
// CHECK-LABEL: func.func @restrictOut
// CHECK:      scf.for
// CHECK:        nvgpu.device_async_copy
// CHECK:        memref.store %{{.*}}, %arg1[
memref.global "private" @Rs : memref<256xf32, #gpu.address_space<workgroup>>
func.func @restrictOut(%A: memref<?xf32>, %C: memref<?xf32> {tcgen.noalias}, %n: index) attributes {tcgen.kernel} {
  %rs = memref.get_global @Rs : memref<256xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %k = %c0 to %n step %c1 {
    %base = arith.muli %k, %c256 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %A[%i] : memref<?xf32>
    memref.store %v, %rs[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %rs[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    %d = arith.addf %w, %w : f32
    memref.store %d, %C[%i] : memref<?xf32>
    gpu.barrier
  }
  return
}
