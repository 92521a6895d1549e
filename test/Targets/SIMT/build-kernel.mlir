// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-simt-build-kernel)' | FileCheck %s

// C = A*B, sizes that divide the 128x128x16 tile: no bounds checks; A
// [m][k] is transposed into the K-major shared tile (scalar stores), B
// [k][n] copied as it is (16-byte stores); one barrier before the K loop
// and one per K tile; 8x8 accumulators per thread (64 FMAs per K step).
// No store needs a guard, so K = 64 (four k-tiles) runs as a loop of two
// that copies the next k-tile without a branch, then the last two k-tiles
// peeled (the first of them copies the last k-tile, the last nothing).
// CHECK-LABEL: func.func @exact
// CHECK-SAME: tcgen.overwrite
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch_func @exact_kernel::@exact_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%arg0 : memref<256x64xf32>, %arg1 : memref<64x256xf32>, %arg2 : memref<256x256xf32>)
// CHECK: gpu.module @exact_kernel
// CHECK: memref.global "private" @__tcgen_simt_exact_B : memref<32x132xf32, 3>
// CHECK: memref.global "private" @__tcgen_simt_exact_A : memref<32x132xf32, 3>
// CHECK: gpu.func @exact_kernel(%{{.*}}: memref<256x64xf32>, %{{.*}}: memref<64x256xf32>, %{{.*}}: memref<256x256xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>{{.*}}nvvm.minctasm = 2 : i32}
// CHECK-NOT: arith.minui
// CHECK: vector.load %{{.*}} : memref<256x64xf32>, vector<4xf32>
// CHECK: vector.load %{{.*}} : memref<64x256xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.store %{{.*}} : memref<32x132xf32, 3>
// CHECK: vector.store %{{.*}} : memref<32x132xf32, 3>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32
// CHECK-NOT: scf.if
// CHECK: vector.load %{{.*}} : memref<256x64xf32>, vector<4xf32>
// CHECK-COUNT-2: vector.load %{{.*}} : memref<32x132xf32, 3>, vector<4xf32>
// CHECK-COUNT-64: llvm.intr.fma
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: vector.load %{{.*}} : memref<256x64xf32>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK-NOT: memref<256x64xf32>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: vector.store %{{.*}} : memref<256x256xf32>, vector<4xf32>
func.func @exact(%A: memref<256x64xf32>, %B: memref<64x256xf32>, %C: memref<256x256xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<256x64xf32>, memref<64x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Edges everywhere (M, N, K not multiples of the tile, rows not multiples
// of 4 elements): element accesses with clamped addresses and zeros
// outside, predicated stores (so the K loop keeps its branches: the next
// k-tile's copy in an scf.if); C += A*B reads C first. A stored [k][m] is
// copied row by row, B stored [n][k] transposed.
// CHECK-LABEL: func.func @edges_accumulate
// CHECK-NOT: tcgen.overwrite
// CHECK: gpu.func @edges_accumulate_kernel
// CHECK-SAME: nvvm.minctasm = 4 : i32
// CHECK: arith.minui
// CHECK: vector.load %{{.*}} : memref<67x131xf32>, vector<1xf32>
// CHECK: arith.select
// CHECK: scf.for
// CHECK: scf.if %{{.*}} -> (vector<1xf32>
// CHECK: llvm.intr.fma
// CHECK: scf.if
// CHECK: memref.load %{{.*}} : memref<131x37xf32>
// CHECK: arith.addf
// CHECK: memref.store %{{.*}} : memref<131x37xf32>
func.func @edges_accumulate(%A: memref<67x131xf32>, %B: memref<37x67xf32>, %C: memref<131x37xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 8], warp = [32, 32, 8], mma = [4, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<67x131xf32>, memref<37x67xf32>) outs(%C : memref<131x37xf32>)
  return
}

// -----

// A batch: grid z walks it, every operand indexed by the block's z.
// CHECK-LABEL: func.func @batched
// CHECK: gpu.launch_func
// CHECK: gpu.func @batched_kernel
// CHECK: gpu.block_id  z
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x64x32xf32>, vector<4xf32>
func.func @batched(%A: memref<3x64x32xf32>, %B: memref<3x32x64xf32>, %C: memref<3x64x64xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<3x64x64xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 16], warp = [32, 32, 16], mma = [4, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<3x64x32xf32>, memref<3x32x64xf32>) outs(%C : memref<3x64x64xf32>)
  return
}

// -----

// K steps of 32: 67584 bytes of tiles, past the 48 KiB of static shared
// memory, go to the dynamic region; the next k-tile's copies go in four
// parts (one 16-byte unit of A and one of B each), each loaded before and
// stored after a quarter of the current k-tile's 32 steps.
// CHECK-LABEL: func.func @long_k
// CHECK: gpu.launch_func @long_k_kernel::@long_k_kernel {{.*}} dynamic_shared_memory_size %{{.*}} args(
// CHECK: gpu.module @long_k_kernel
// CHECK-DAG: memref.global @__tcgen_dsmem : memref<0xi8, 3>
// CHECK: gpu.func @long_k_kernel
// CHECK: memref.view
// CHECK: scf.for
// CHECK-COUNT-4: vector.load %{{.*}} : memref<256x256xf32>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
func.func @long_k(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 32], warp = [32, 64, 32], mma = [8, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// M and N are not multiples of the tile but hold one: the last block along
// each is shifted back to end at the edge, so no copy checks M or N (K
// divides the tile: no check at all, no select); for C = A*B the rows and
// columns it shares with the block before are stored twice with the same
// values, so no store is guarded either. With C += A*B a shifted block
// stores its own rows and columns only (from the unshifted origin on).
// CHECK-LABEL: func.func @shifted
// CHECK: gpu.func @shifted_kernel
// CHECK: %[[MLO:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: arith.minui %[[MLO]], %{{.*}} : index
// CHECK-NOT: arith.select
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: vector.store %{{.*}} : memref<200x196xf32>, vector<4xf32>
// CHECK-LABEL: func.func @shifted_accumulate
// CHECK: gpu.func @shifted_accumulate_kernel
// CHECK: arith.minui
// CHECK: scf.for
// CHECK: arith.cmpi uge
// CHECK: arith.cmpi uge
// CHECK: vector.load %{{.*}} : memref<200x196xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} : memref<200x196xf32>, vector<4xf32>
func.func @shifted(%A: memref<200x64xf32>, %B: memref<64x196xf32>, %C: memref<200x196xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<200x196xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<200x64xf32>, memref<64x196xf32>) outs(%C : memref<200x196xf32>)
  return
}

// -----

func.func @shifted_accumulate(%A: memref<200x64xf32>, %B: memref<64x196xf32>, %C: memref<200x196xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<200x64xf32>, memref<64x196xf32>) outs(%C : memref<200x196xf32>)
  return
}

// -----

// K = 40 is not a multiple of the K step (16): of the three k-tiles only
// the last checks K. Tiles 0 and 1 are copied without checks (tile 0
// before the loop, tile 1 in the loop's one iteration); the peeled
// iteration that copies tile 2 clamps the K index and selects zero past
// it. With guarded stores (C += A*B on a shifted block) the loop keeps its
// branches: the next tile's copy branches on whether it is the last.
// CHECK-LABEL: func.func @k_tail
// CHECK: gpu.func @k_tail_kernel
// CHECK-NOT: arith.select
// CHECK: scf.for
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK: arith.minui
// CHECK: arith.select
// CHECK: llvm.intr.fma
// CHECK-LABEL: func.func @k_tail_guarded
// CHECK: gpu.func @k_tail_guarded_kernel
// CHECK: scf.for
// CHECK: scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: %[[LAST:.*]] = arith.cmpi ult, %{{.*}}, %c2{{.*}} : index
// CHECK: scf.if %[[LAST]] -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-NOT: arith.select
// CHECK: } else {
// CHECK: arith.minui
// CHECK: arith.select
func.func @k_tail(%A: memref<128x40xf32>, %B: memref<40x128xf32>, %C: memref<128x128xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<128x40xf32>, memref<40x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

func.func @k_tail_guarded(%A: memref<132x40xf32>, %B: memref<40x128xf32>, %C: memref<132x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<132x40xf32>, memref<40x128xf32>) outs(%C : memref<132x128xf32>)
  return
}
