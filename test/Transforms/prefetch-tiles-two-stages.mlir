// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-prefetch-tiles))' | FileCheck %s

// Two stages: each shared buffer gets a twin, tile i lives in buffer i % 2,
// and the steady state keeps one barrier per K tile.
// CHECK-DAG: memref.global "private" @__tcgen_smem_A : memref<64x40xf16, 3>
// CHECK-DAG: memref.global "private" @__tcgen_smem_A_1 : memref<64x40xf16, 3>
// CHECK-DAG: memref.global "private" @__tcgen_smem_B : memref<32x72xf16, 3>
// CHECK-DAG: memref.global "private" @__tcgen_smem_B_1 : memref<32x72xf16, 3>
// CHECK-DAG: #[[PARITY:.*]] = affine_map<(d0) -> ((d0 floordiv 32) mod 2)>
// CHECK-LABEL: func @two_stages
// CHECK:      %[[A0:.*]] = memref.get_global @__tcgen_smem_A :
// CHECK-NEXT: %[[A1:.*]] = memref.get_global @__tcgen_smem_A_1 :
// CHECK:      %[[B0:.*]] = memref.get_global @__tcgen_smem_B :
// CHECK-NEXT: %[[B1:.*]] = memref.get_global @__tcgen_smem_B_1 :
// Prologue: tile 0 into the first buffers.
// CHECK:      affine.vector_store %{{.*}}, %[[A0]]
// CHECK:      affine.vector_store %{{.*}}, %[[B0]]
// CHECK:      gpu.barrier
// CHECK:      affine.for %[[K:.*]] = 0 to 96 step 32 iter_args(
// CHECK:        %[[P:.*]] = affine.apply #[[PARITY]](%[[K]])
// CHECK:        %[[ODD:.*]] = arith.cmpi ne, %[[P]], %c0
// CHECK-NEXT:   %[[CURA:.*]] = arith.select %[[ODD]], %[[A1]], %[[A0]]
// CHECK-NEXT:   %[[NEXTA:.*]] = arith.select %[[ODD]], %[[A0]], %[[A1]]
// CHECK-NEXT:   %[[CURB:.*]] = arith.select %[[ODD]], %[[B1]], %[[B0]]
// CHECK-NEXT:   %[[NEXTB:.*]] = arith.select %[[ODD]], %[[B0]], %[[B1]]
// CHECK-NOT:    gpu.barrier
// CHECK:        gpu.subgroup_mma_load_matrix %[[CURA]]
// CHECK:        gpu.subgroup_mma_load_matrix %[[CURB]]
// CHECK:        } {tcgen.loop = "warp_k"}
// CHECK-NEXT:   affine.vector_store %{{.*}}, %[[NEXTA]]
// CHECK:        affine.vector_store %{{.*}}, %[[NEXTB]]
// CHECK-NOT:    gpu.barrier
// CHECK:        affine.vector_store
// CHECK-NEXT:   gpu.barrier
// CHECK-NEXT:   affine.yield
// CHECK-NEXT: } {tcgen.loop = "block_k"}
// Epilogue: the last of 4 tiles (i = 3) is in the second buffers.
// CHECK:      gpu.subgroup_mma_load_matrix %[[A1]]
// CHECK:      gpu.subgroup_mma_load_matrix %[[B1]]
func.func @two_stages(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 2>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Three tiles: the last (i = 2) is back in the first buffers.
// CHECK-LABEL: func @odd_trip
// CHECK:      %[[A0:.*]] = memref.get_global @__tcgen_smem_A :
// CHECK:      } {tcgen.loop = "block_k"}
// CHECK:      gpu.subgroup_mma_load_matrix %[[A0]]
func.func @odd_trip(%A: memref<128x96xf16>, %B: memref<96x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 2>}
    ins(%A, %B : memref<128x96xf16>, memref<96x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

func.func @three_stages(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  // expected-error @+1 {{the register prefetch double-buffers at most (stages 1 or 2), not 3 stages}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 3>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Two stages clone the global behind a shared buffer; a buffer that is not
// a memref.get_global (here a function argument) is refused.
func.func @not_a_global(%a: memref<64x64xf16>, %s: memref<64x32xf16, 3>) attributes {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], stages = 2>} {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%nx = %c1, %ny = %c1, %nz = %c1) {
    affine.for %k = 0 to 64 step 32 {
      gpu.barrier
      affine.for %i = 0 to 2 {
        %v = affine.load %a[%i, %k] : memref<64x64xf16>
        // expected-error @+1 {{two stages need the shared buffer to be a memref.get_global outside the K loop}}
        affine.store %v, %s[%i, 0] : memref<64x32xf16, 3>
      } {tcgen.loop = "copy"}
      gpu.barrier
    } {tcgen.loop = "block_k"}
    gpu.terminator
  }
  return
}
