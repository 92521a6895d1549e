// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s

// Fewer than two waves of tiles run data-parallel, except where the tiles
// fill at most half of the SMs (66 of 132) over 64 k-tiles or more:
// stream-K then spreads each tile's k-tiles over up to four blocks
// (H200, 14 such problems: 1.02-2.29x over the data-parallel kernel,
// geomean 1.47).

// GPT-2 XL down projection at 128 tokens: 50 tiles of 64 x 64, 100 k-tiles.
// CHECK-LABEL: func.func @gpt2_down
// CHECK: block = [64, 64, 64]{{.*}}streamk = true
func.func @gpt2_down(%A: memref<128x6400xbf16>, %B: memref<6400x1600xbf16>, %C: memref<128x1600xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<128x1600xbf16>)
  linalg.matmul ins(%A, %B : memref<128x6400xbf16>, memref<6400x1600xbf16>) outs(%C : memref<128x1600xbf16>)
  return
}

// -----

// 6 tiles over 64 k-tiles: stream-K on 24 blocks (four a tile, not one
// per SM, whose fix-ups would cost more than whole tiles). The model drops
// whole tiles here, with or without a cluster.
// CHECK-LABEL: func.func @few_tiles
// CHECK: block = [64, 64, 64]{{.*}}streamk = true, cluster = [1, 1]
func.func @few_tiles(%A: memref<127x4095xbf16>, %B: memref<4095x129xbf16>, %C: memref<127x129xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<127x129xbf16>)
  linalg.matmul ins(%A, %B : memref<127x4095xbf16>, memref<4095x129xbf16>) outs(%C : memref<127x129xbf16>)
  return
}

// -----

// 104 tiles (more than half of the SMs): data-parallel.
// CHECK-LABEL: func.func @more_tiles
// CHECK: streamk = false
func.func @more_tiles(%A: memref<512x6400xbf16>, %B: memref<6400x1600xbf16>, %C: memref<512x1600xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<512x1600xbf16>)
  linalg.matmul ins(%A, %B : memref<512x6400xbf16>, memref<6400x1600xbf16>) outs(%C : memref<512x1600xbf16>)
  return
}

// -----

// 64 tiles over 16 k-tiles: too short a K to split.
// CHECK-LABEL: func.func @short_k
// CHECK: streamk = false
func.func @short_k(%A: memref<512x1024xbf16>, %B: memref<1024x512xbf16>, %C: memref<512x512xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<512x512xbf16>)
  linalg.matmul ins(%A, %B : memref<512x1024xbf16>, memref<1024x512xbf16>) outs(%C : memref<512x512xbf16>)
  return
}

// -----

// M known at launch only (planned as 4096: 64 tiles of 64 x 64 over 128
// k-tiles): data-parallel tiles, as stream-K's partition needs one tile
// count, and tiles as wide as N (not the 160-wide ones the stream-K
// preference would otherwise leave).
// CHECK-LABEL: func.func @dynamic_m
// CHECK: block = [{{[0-9]+}}, 64, 64]{{.*}}streamk = false
func.func @dynamic_m(%A: memref<?x8192xbf16>, %B: memref<8192x64xbf16>, %C: memref<?x64xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x64xbf16>)
  linalg.matmul ins(%A, %B : memref<?x8192xbf16>, memref<8192x64xbf16>) outs(%C : memref<?x64xbf16>)
  return
}
