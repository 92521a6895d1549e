// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm80 padding=8}))' | FileCheck %s --check-prefix=PAD

// sm_80: the sm80 default where 128x128 tiles fill the SMs (256 tiles on
// an A100's 108). Four stages of 16 KiB of swizzled tiles fit the
// budget (half of the SM's 163 KiB) next to 16 KiB of epilogue slabs
// (C leaves through shared memory); padded rows (PAD) take 18.5 KiB a
// stage: three.
// CHECK-LABEL: func @default_sm80
// CHECK: #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 16, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged">
// PAD-LABEL: func @default_sm80
// PAD: #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 16, 16], stages = 3, padding = 8
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @default_sm80(%a: memref<2048x128xf16>, %b: memref<128x2048xf16>, %c: memref<2048x2048xf32>) {
    linalg.matmul ins(%a, %b : memref<2048x128xf16>, memref<128x2048xf16>) outs(%c : memref<2048x2048xf32>)
    return
  }
}

// -----

// Few tiles: 64x64 blocks of four 32x32 warp tiles; 256 of them on 108
// SMs: two shares of K per warp tile (eight warps, a 64-deep k-tile); the
// split-K scratch and the epilogue slabs (16 KiB each) leave the budget
// three stages. A C += A*B (no zero fill) of the same shape keeps one
// share.
// CHECK-LABEL: func @few_tiles
// CHECK: #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], mma = [16, 16, 16], stages = 3, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged">
// CHECK-LABEL: func @few_tiles_accumulate
// CHECK: #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32]
// CHECK-LABEL: func @fewer_tiles
// CHECK: #tcgen.config<backend = "sm80", block = [64, 64, 128], warp = [32, 32, 32]
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @few_tiles(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<1024x1024xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
    linalg.matmul ins(%a, %b : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<1024x1024xf32>)
    return
  }
  func.func @few_tiles_accumulate(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<1024x1024xf32>) {
    linalg.matmul ins(%a, %b : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<1024x1024xf32>)
    return
  }
  func.func @fewer_tiles(%a: memref<256x4096xf16>, %b: memref<4096x256xf16>, %c: memref<256x256xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
    linalg.matmul ins(%a, %b : memref<256x4096xf16>, memref<4096x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

// sm_86 has 99 KiB per block: the budget (50 KiB) holds three stages, but
// only two next to the 16 KiB of epilogue slabs: C is stored from
// registers instead.
// CHECK-LABEL: func @default_sm86
// CHECK: #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 16, 16], stages = 3, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">
// Few tiles on sm_86: four shares of K (64x64x128, 16 warps) would need
// 144 KiB for two stages next to the split-K scratch and the slabs, more
// than a block may have: two shares (64x64x64) fit.
// CHECK-LABEL: func @few_tiles_sm86
// CHECK: #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32]
module attributes {tcgen.target = #tcgen.target<"sm_86">} {
  func.func @default_sm86(%a: memref<2048x128xf16>, %b: memref<128x2048xf16>, %c: memref<2048x2048xf32>) {
    linalg.matmul ins(%a, %b : memref<2048x128xf16>, memref<128x2048xf16>) outs(%c : memref<2048x2048xf32>)
    return
  }
  func.func @few_tiles_sm86(%a: memref<512x512xf16>, %b: memref<512x512xf16>, %c: memref<512x512xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<512x512xf32>)
    linalg.matmul ins(%a, %b : memref<512x512xf16>, memref<512x512xf16>) outs(%c : memref<512x512xf32>)
    return
  }
}

// -----

// The sm80 back end needs cp.async (sm_80).
module attributes {tcgen.target = #tcgen.target<"sm_75">} {
  func.func @old_target(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
    // expected-error @+1 {{the sm80 back end needs cp.async and mma.sync m16n8k16: --target=sm_80 or later, not sm_75}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2>}
      ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

// Unpadded tiles are swizzled: B's rows of 96 f16 (192 bytes) cannot be.
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @unswizzlable(%a: memref<256x128xf16>, %b: memref<128x192xf16>, %c: memref<256x192xf32>) {
    // expected-error @+1 {{unpadded sm80 tiles are XOR-swizzled, which needs rows of a power of two from 16 to 1024 bytes: A's are 64, B's 192 (choose another tile or a padding)}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 96, 32], warp = [64, 32, 32], stages = 2, padding = 0>}
      ins(%a, %b : memref<256x128xf16>, memref<128x192xf16>) outs(%c : memref<256x192xf32>)
    return
  }
}

// -----

// cp.async copies 16 bytes.
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @narrow_copies(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
    // expected-error @+1 {{sm80 copies are 16-byte cp.async: vector must be 8, not 4}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 0, vector = 4>}
      ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @one_stage(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
    // expected-error @+1 {{sm80 configs pipeline 2 to 8 stages of cp.async copies, not 1}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 1>}
      ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @mma_shape(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
    // expected-error @+1 {{sm80 configs take mma = [16, 16, 16] (each a pair of m16n8k16 mma.sync)}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 8, 16], stages = 2>}
      ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

// bf16 inputs with f32 C (mma.sync accumulates bf16 products in f32
// only); a bf16 C is refused.
// CHECK-LABEL: func @bf16
// CHECK: #tcgen.config<backend = "sm80"
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @bf16(%a: memref<256x128xbf16>, %b: memref<128x256xbf16>, %c: memref<256x256xf32>) {
    linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x256xbf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @bf16_out(%a: memref<256x128xbf16>, %b: memref<128x256xbf16>, %c: memref<256x256xbf16>) {
    // expected-error @+1 {{the sm80 back end takes bf16 inputs with an f32 output only (mma.sync accumulates bf16 products in f32)}}
    linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x256xbf16>) outs(%c : memref<256x256xbf16>)
    return
  }
}

// -----

// Intra-block split-K (warp K 32 of a 64-deep k-tile) needs C = A*B.
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @split_k_accumulate(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
    // expected-error @+1 {{intra-block split-K (warp tile K 32 < block tile K 64) needs C = A*B (a zero fill of C): with C += A*B every share of K would add C}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2>}
      ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

// 16 warps of 32x32 sharing K four ways with 64x64 tiles: 512 threads,
// and 48 KiB of scratch beside two 32 KiB stages; 128x128x128 tiles would
// need 328 KiB (padded).
// CHECK-LABEL: func @split_k_fits
// CHECK: #tcgen.config<backend = "sm80", block = [64, 64, 128], warp = [32, 32, 32]
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @split_k_fits(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 128], warp = [32, 32, 32], stages = 2>}
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @split_k_too_big(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
    // expected-error @+1 {{2 stages plus 196608 bytes of split-K scratch and epilogue slabs need 335872 bytes of shared memory, more than the 166912 bytes one block may use on sm_80}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 128], warp = [64, 64, 32], stages = 2>}
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}
