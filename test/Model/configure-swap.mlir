// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{swap=0}))' | FileCheck %s --check-prefix=OFF
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{block-tile=64,128,64}))' | FileCheck %s --check-prefix=TILE

// Small M: the default computes C^T = B^T A^T, the small M as the tile's
// N (rounded up to 8), 128-row tiles where the N / 128 tiles make as few
// waves as N / 64 (N = 12288: 96 tiles), a ring of 6 stages (deeper ones
// lose: swapStages), C stored from registers.
// CHECK-LABEL: func @m1
// CHECK: #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 6, {{.*}}store = "global", swap = true>
// swap = 0 keeps the unswapped model's choice.
// OFF-LABEL: func @m1
// OFF-NOT: swap = true
// OFF: store = "tma">
// A block tile given without --swap is in the problem's own terms: no swap.
// TILE-LABEL: func @m1
// TILE: block = [64, 128, 64]{{.*}}store = "tma">
func.func @m1(%a: memref<1x4096xf16>, %b: memref<4096x12288xf16>, %c: memref<1x12288xf16>) {
  linalg.matmul ins(%a, %b : memref<1x4096xf16>, memref<4096x12288xf16>) outs(%c : memref<1x12288xf16>)
  return
}

// -----

// N = 4096: 64-row tiles (64 tiles, one wave, against 32 of 128 rows),
// 8 stages.
// CHECK-LABEL: func @m20
// CHECK: block = [64, 24, 64]{{.*}}stages = 8,{{.*}}streamk = false,{{.*}}swap = true>
func.func @m20(%a: memref<20x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<20x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<20x4096xbf16>, memref<4096x4096xbf16>) outs(%c : memref<20x4096xf32>)
  return
}

// -----

// Few tiles over a long K (16 tiles of 64 rows, 128 k-tiles): stream-K
// spreads them over the SMs; 64 tiles (N = 4096, @m20 above) do not.
// CHECK-LABEL: func @few_tiles
// CHECK: block = [64, 8, 64]{{.*}}stages = 8,{{.*}}streamk = true,{{.*}}swap = true>
func.func @few_tiles(%a: memref<4x8192xf16>, %b: memref<8192x1024xf16>, %c: memref<4x1024xf16>) {
  linalg.matmul ins(%a, %b : memref<4x8192xf16>, memref<8192x1024xf16>) outs(%c : memref<4x1024xf16>)
  return
}

// -----

// Half a wave of tiles or less (N = 4096: 64 tiles of 64 rows) over 128
// k-tiles or more (K = 14336, the down projection of Llama 3 8B at
// decode): stream-K; over 64 k-tiles (@m20 above) the tiles stay whole.
// CHECK-LABEL: func @half_wave_long_k
// CHECK: block = [64, 8, 64]{{.*}}streamk = true,{{.*}}swap = true>
func.func @half_wave_long_k(%a: memref<1x14336xbf16>, %b: memref<14336x4096xbf16>, %c: memref<1x4096xbf16>) {
  linalg.matmul ins(%a, %b : memref<1x14336xbf16>, memref<14336x4096xbf16>) outs(%c : memref<1x4096xbf16>)
  return
}

// -----

// 32 < M <= 64 with few tiles over a long K: swapped, with stream-K.
// CHECK-LABEL: func @m40_few_tiles
// CHECK: block = [64, 40, 64]{{.*}}streamk = true,{{.*}}swap = true>
func.func @m40_few_tiles(%a: memref<40x4096xf16>, %b: memref<4096x2048xf16>, %c: memref<40x2048xf16>) {
  linalg.matmul ins(%a, %b : memref<40x4096xf16>, memref<4096x2048xf16>) outs(%c : memref<40x2048xf16>)
  return
}

// -----

// 32 < M <= 64 is swapped where N is at least 4096 (M = 48: tiles 48 wide).
// CHECK-LABEL: func @m48
// CHECK: block = [64, 48, 64]{{.*}}stages = 8,{{.*}}swap = true>
func.func @m48(%a: memref<48x4096xf16>, %b: memref<4096x8192xf16>, %c: memref<48x8192xf16>) {
  linalg.matmul ins(%a, %b : memref<48x4096xf16>, memref<4096x8192xf16>) outs(%c : memref<48x8192xf16>)
  return
}

// -----

// CHECK-LABEL: func @m64_n4096
// CHECK: block = [64, 64, 64]{{.*}}swap = true>
func.func @m64_n4096(%a: memref<64x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<64x4096xf16>) {
  linalg.matmul ins(%a, %b : memref<64x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<64x4096xf16>)
  return
}

// -----

// Not swapped: M above 32 with N below 4096, N below 1024, A stored [k][m], K not a multiple
// of 8 (A's rows are copied in 16-byte pieces), a batch.
// CHECK-LABEL: func @m33
// CHECK-NOT: swap = true
// CHECK-LABEL: func @n512
// CHECK-NOT: swap = true
// CHECK-LABEL: func @a_km
// CHECK-NOT: swap = true
// CHECK-LABEL: func @k_odd
// CHECK-NOT: swap = true
// CHECK-LABEL: func @batched
// CHECK-NOT: swap = true
// CHECK: return
func.func @m33(%a: memref<33x1024xf16>, %b: memref<1024x2048xf16>, %c: memref<33x2048xf16>) {
  linalg.matmul ins(%a, %b : memref<33x1024xf16>, memref<1024x2048xf16>) outs(%c : memref<33x2048xf16>)
  return
}
func.func @n512(%a: memref<8x4096xf16>, %b: memref<4096x512xf16>, %c: memref<8x512xf16>) {
  linalg.matmul ins(%a, %b : memref<8x4096xf16>, memref<4096x512xf16>) outs(%c : memref<8x512xf16>)
  return
}
func.func @a_km(%a: memref<4096x8xf16>, %b: memref<4096x4096xf16>, %c: memref<8x4096xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<4096x8xf16>, memref<4096x4096xf16>) outs(%c : memref<8x4096xf16>)
  return
}
func.func @k_odd(%a: memref<8x4100xf16>, %b: memref<4100x4096xf16>, %c: memref<8x4096xf16>) {
  linalg.matmul ins(%a, %b : memref<8x4100xf16>, memref<4100x4096xf16>) outs(%c : memref<8x4096xf16>)
  return
}
func.func @batched(%a: memref<2x8x4096xf16>, %b: memref<2x4096x4096xf16>, %c: memref<2x8x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<2x8x4096xf16>)
  linalg.batch_matmul ins(%a, %b : memref<2x8x4096xf16>, memref<2x4096x4096xf16>) outs(%c : memref<2x8x4096xf16>)
  return
}
