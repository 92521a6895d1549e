// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-split-k-reduce,tcgen-stage-epilogue))' | FileCheck %s

// 64x64 blocks of four 32x32 warp tiles (2 x 2 fragments of 16x16) with
// f32 C: each warp writes one fragment row (two fragments) into its 16-row
// slab of a [4 x 16][32] shared buffer, syncs, copies the slab to C as
// 16-byte vectors (16 rows x 128 bytes = 4 per lane), syncs, and does the
// second fragment row the same way.
// CHECK:       memref.global "private" @__tcgen_smem_epilogue : memref<64x32xf32, 3>
// CHECK-LABEL: func @staged
// CHECK:         } {tcgen.loop = "block_k"}
// CHECK:         %[[SLAB:.*]] = memref.get_global @__tcgen_smem_epilogue
// CHECK-COUNT-2: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SLAB]][%{{.*}}, %{{.*}}] {leadDimension = 32 : index}
// CHECK:         nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<128x128xf32>, vector<4xf32>
// CHECK:         nvvm.bar.warp.sync
// CHECK-COUNT-2: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SLAB]]
// CHECK:         nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}} : memref<128x128xf32>, vector<4xf32>
// CHECK:         nvvm.bar.warp.sync
// CHECK-NOT:     gpu.subgroup_mma_store_matrix %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp">, memref<128x128xf32>
func.func @staged(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// With split-K the stores sit in the first share's branch, after the sum.
// CHECK-LABEL: func @staged_split_k
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           gpu.subgroup_mma_elementwise addf
// CHECK:           nvvm.bar.warp.sync
// CHECK:           vector.store %{{.*}} : memref<128x128xf16>, vector<8xf16>
func.func @staged_split_k(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<128x128xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf16>)
  return
}

