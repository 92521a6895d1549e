// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-async-copies))' | FileCheck %s

// Three stages: two more copies of each shared buffer; tiles 0 and 1 are
// issued as cp.async before the loop (one group each); iteration k waits
// for tile k (at most one newer group pending), meets the others at one
// barrier, issues tile k + 2 (if any) into stage (k + 2) % 3, commits, and
// computes tile k from stage k % 3.
// CHECK-DAG: memref.global "private" @__tcgen_smem_A_1 : memref<64x40xf16, 3>
// CHECK-DAG: memref.global "private" @__tcgen_smem_A_2 : memref<64x40xf16, 3>
// CHECK-DAG: memref.global "private" @__tcgen_smem_B_2 : memref<32x72xf16, 3>
// CHECK-DAG: #[[STAGE:.*]] = affine_map<(d0) -> ((d0 floordiv 32) mod 3)>
// CHECK-DAG: #[[AHEAD:.*]] = affine_map<(d0) -> ((d0 floordiv 32 + 2) mod 3)>
// CHECK-LABEL: func @three_stages
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 8 {bypassL1} : memref<128x128xf16> to memref<{{64x40|32x72}}xf16, 3>
// CHECK:         nvvm.cp.async.commit.group
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK:         nvvm.cp.async.commit.group
// CHECK:         affine.for %[[K:.*]] = 0 to 128 step 32 iter_args(
// CHECK-NEXT:      nvvm.cp.async.wait.group 1
// CHECK-NEXT:      gpu.barrier
// CHECK:           affine.apply #[[STAGE]](%[[K]])
// CHECK:           %[[IN:.*]] = arith.cmpi slt
// CHECK:           scf.if %[[IN]] {
// CHECK:             affine.apply #[[AHEAD]](%[[K]])
// CHECK-COUNT-4:     nvgpu.device_async_copy
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           gpu.subgroup_mma_compute
// CHECK:         } {tcgen.loop = "block_k"}
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.subgroup_mma_store_matrix
func.func @three_stages(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 3>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Five stages for three K tiles: the prologue issues tiles 0-2 and commits
// four groups (the fourth empty); the wait keeps three pending.
// CHECK-LABEL: func @more_stages_than_tiles
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK:          nvvm.cp.async.commit.group
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK:          nvvm.cp.async.commit.group
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK:          nvvm.cp.async.commit.group
// CHECK-NEXT:     nvvm.cp.async.commit.group
// CHECK:          affine.for
// CHECK-NEXT:       nvvm.cp.async.wait.group 3
func.func @more_stages_than_tiles(%A: memref<128x96xf16>, %B: memref<96x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 5>}
    ins(%A, %B : memref<128x96xf16>, memref<96x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Without vectorized copies (scalar stores): refused with the reason.
func.func @scalar_copies(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  // expected-error @below {{async copies need vectorized copies (run tcgen-vectorize-copies first)}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 3, vector = 1>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// One stage has nothing to overlap: async copies need two or more.
func.func @one_stage(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  // expected-error @below {{async copies need 2 to 8 stages, not 1}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 1>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Two stages (an sm80 kernel: its K loops are always pipelined this way):
// tile 0 before the loop; iteration k waits for everything (wait_group 0),
// meets the others at the barrier, issues tile k + 1 into the other stage
// and computes tile k while it flies.
// CHECK-DAG: #[[STAGE2:.*]] = affine_map<(d0) -> ((d0 floordiv 32) mod 2)>
// CHECK-DAG: #[[AHEAD2:.*]] = affine_map<(d0) -> ((d0 floordiv 32 + 1) mod 2)>
// CHECK-LABEL: func @two_stages_sm80
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK:         nvvm.cp.async.commit.group
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         affine.for %[[K2:.*]] = 0 to 128 step 32 iter_args(
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK-NEXT:      gpu.barrier
// CHECK:           affine.apply #[[STAGE2]](%[[K2]])
// CHECK:           scf.if
// CHECK:             affine.apply #[[AHEAD2]](%[[K2]])
// CHECK-COUNT-4:     nvgpu.device_async_copy
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           gpu.subgroup_mma_compute
func.func @two_stages_sm80(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Four stages: tiles 0-2 before the loop (three groups); the loop waits
// with two groups pending and issues tile k + 3 into stage (k + 3) % 4.
// CHECK-DAG: #[[AHEAD4:.*]] = affine_map<(d0) -> ((d0 floordiv 32 + 3) mod 4)>
// CHECK-LABEL: func @four_stages
// CHECK-COUNT-3: nvvm.cp.async.commit.group
// CHECK:         affine.for %[[K4:.*]] = 0 to 256 step 32 iter_args(
// CHECK-NEXT:      nvvm.cp.async.wait.group 2
// CHECK-NEXT:      gpu.barrier
// CHECK:           affine.apply #[[AHEAD4]](%[[K4]])
func.func @four_stages(%A: memref<128x256xf16>, %B: memref<256x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 4, padding = 0>}
    ins(%A, %B : memref<128x256xf16>, memref<256x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
