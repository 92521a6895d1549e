// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-split-k-reduce))' | FileCheck %s

// 64x64x64 blocks, 32x32x32 warp tiles: two warps per (m, n) warp tile
// (eight in all), each computing one 32-deep half of every k-tile. After
// the K loop the second share parks its four fragments in a shared scratch
// buffer (2 x 2 warp tiles x 4 fragments x 16 rows), all threads meet at
// a barrier, and the first share adds them to its own and stores C.
// CHECK:       memref.global "private" @__tcgen_smem_splitk : memref<256x16xf32, 3>
// CHECK-LABEL: func @split_two
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256
// CHECK:           %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK:           %[[WK:.*]] = arith.divui %[[WARP]], %c4
// CHECK:           %[[ACC:.*]]:4 = affine.for {{.*}} iter_args(
// CHECK-NOT:         "warp_k"
// CHECK:             gpu.subgroup_mma_compute
// CHECK:           } {tcgen.loop = "block_k"}
// CHECK:           %[[K:.*]] = arith.divui %{{.*}}, %c4
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[K]], %c0
// CHECK:           %[[OTHER:.*]] = arith.cmpi ne, %[[K]], %c0
// CHECK:           scf.if %[[OTHER]] {
// CHECK-COUNT-4:     gpu.subgroup_mma_store_matrix %[[ACC]]#{{[0-3]}}, %{{.*}}[%{{.*}}, %{{.*}}] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<256x16xf32, 3>
// CHECK:           }
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.if %[[LEAD]] {
// CHECK:             gpu.subgroup_mma_load_matrix {{.*}} : memref<256x16xf32, 3> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:             gpu.subgroup_mma_elementwise addf %[[ACC]]#0
// CHECK:             gpu.subgroup_mma_store_matrix {{.*}} : !gpu.mma_matrix<16x16xf32, "COp">, memref<128x128xf32>
func.func @split_two(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Without the zero fill every share would add C.
func.func @accumulate(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  // expected-error @below {{intra-block split-K needs C = A*B (a zero fill of C): with C += A*B every share of K would add C}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// The wmma back end's warps walk the block's K range themselves: nothing
// to reduce.
// CHECK-LABEL: func @wmma
// CHECK-NOT:     __tcgen_smem_splitk
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128
func.func @wmma(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "wmma", block = [64, 64, 64], warp = [32, 32, 32], stages = 1>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
