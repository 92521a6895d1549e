// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s

// Fewer than two waves of tiles run data-parallel, except where the tiles
// fill a third to a half of the SMs (44 to 66 of 132) over 96 k-tiles or
// more: stream-K spreads each tile's k-tiles over two or three blocks
// (H200: 128 x 1600 x 6400 1.17x, 256 x 768 x 12288 1.45x over the
// data-parallel kernel).

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

// 6 tiles over 64 k-tiles: each tile's k-tiles would spread over some 20
// blocks, whose one-after-the-other fix-up costs more (0.50 against 0.74 of
// cuBLAS): data-parallel.
// CHECK-LABEL: func.func @few_tiles
// CHECK: block = [64, 64, 64]{{.*}}streamk = false
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
