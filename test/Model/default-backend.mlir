// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure))' | FileCheck %s --check-prefix=SM80
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_75},func.func(tcgen-configure))' | FileCheck %s --check-prefix=SM75

// C = A*B on sm_90a: the sm90 back end, 128x256 tiles when there are enough.
// CHECK-LABEL: func @large
// CHECK: #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4{{.*}}streamk = false, cluster = [1, 1], store = "tma">
// On sm_80 (and sm_86, sm_89) the sm80 back end: swizzled 128x128x32 tiles,
// four cp.async stages of 16 KiB; before sm_80 the wmma back end.
// SM80-LABEL: func @large
// SM80: #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 16, 16], stages = 4, padding = 0, vector = 8
// SM75-LABEL: func @large
// SM75: #tcgen.config<backend = "wmma"
func.func @large(%a: memref<4096x512xf16>, %b: memref<512x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x512xf16>, memref<512x4096xf16>) outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// Few tiles: 64x128 tiles (one consumer warpgroup), 8 stages of 24 KiB.
// CHECK-LABEL: func @small
// CHECK: #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8
func.func @small(%a: memref<1024x512xf16>, %b: memref<512x1024xf16>, %c: memref<1024x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1024x1024xf16>)
  linalg.matmul ins(%a, %b : memref<1024x512xf16>, memref<512x1024xf16>) outs(%c : memref<1024x1024xf16>)
  return
}

// -----

// C += A*B: the sm90 back end too (the epilogue adds C's old value).
// CHECK-LABEL: func @accumulate
// CHECK: #tcgen.config<backend = "sm90"
func.func @accumulate(%a: memref<1024x512xf16>, %b: memref<512x1024xf16>, %c: memref<1024x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x512xf16>, memref<512x1024xf16>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// 1536^3: 72 tiles of 128x256 fill 55 % of 132 SMs, 96 tiles of 128x192
// 73 % at 0.95 of the throughput, 120 tiles of 128x160 91 % at 0.85.
// Stream-K measured slower there: whole tiles by default. The TMA-store
// buffers (32 KiB) leave 4 stages. The swapped 192x96 (128 tiles of C^T
// = B^T A^T, one consumer warpgroup over three row blocks, 5 stages, an
// f32 C stored from registers) is predicted faster still and taken.
// CHECK-LABEL: func @stream_k
// CHECK: #tcgen.config<backend = "sm90", block = [192, 96, 64], warp = [192, 96, 64], mma = [64, 96, 16], stages = 5{{.*}}persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>
func.func @stream_k(%a: memref<1536x1536xf16>, %b: memref<1536x1536xf16>, %c: memref<1536x1536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1536x1536xf32>)
  linalg.matmul ins(%a, %b : memref<1536x1536xf16>, memref<1536x1536xf16>) outs(%c : memref<1536x1536xf32>)
  return
}

// -----

// A 16-bit C: the same swapped tile, C stored through transposed TMA
// stores (two 8 KiB buffers next to the 5 stages).
// CHECK-LABEL: func @half_c_swapped
// CHECK: #tcgen.config<backend = "sm90", block = [192, 96, 64], warp = [192, 96, 64], mma = [64, 96, 16], stages = 5{{.*}}persistent = true, streamk = false, cluster = [1, 1], store = "tma", swap = true>
func.func @half_c_swapped(%a: memref<1536x1536xf16>, %b: memref<1536x1536xf16>, %c: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1536x1536xf16>)
  linalg.matmul ins(%a, %b : memref<1536x1536xf16>, memref<1536x1536xf16>) outs(%c : memref<1536x1536xf16>)
  return
}

// -----

// 3072^3: 288 tiles of 128x256 are 2.2 waves on 132 SMs; 384 tiles of
// 128x192 are 2.9. (Swapped tiles are taken in one wave only.)
// CHECK-LABEL: func @wave_quantization
// CHECK: #tcgen.config<backend = "sm90", block = [128, 192, 64]
func.func @wave_quantization(%a: memref<3072x3072xf16>, %b: memref<3072x3072xf16>, %c: memref<3072x3072xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<3072x3072xf16>)
  linalg.matmul ins(%a, %b : memref<3072x3072xf16>, memref<3072x3072xf16>) outs(%c : memref<3072x3072xf16>)
  return
}

// -----

// BERT-large projection, M = 3072, N = K = 1024: 96 tiles of 128x256,
// 384 of 64x128 (2.9 waves) or 128 of 192x128 (one wave: one consumer
// warpgroup over the three row blocks, 5 stages).
// CHECK-LABEL: func @bert_projection
// CHECK: #tcgen.config<backend = "sm90", block = [192, 128, 64], warp = [192, 128, 64], mma = [64, 128, 16], stages = 5
func.func @bert_projection(%a: memref<3072x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<3072x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<3072x1024xf16>)
  linalg.matmul ins(%a, %b : memref<3072x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<3072x1024xf16>)
  return
}

// -----

// 5120^3: 800 tiles of 128x256 are 6.06 waves: stream-K splits the last
// partial wave's tiles (and one full wave) over the SMs.
// CHECK-LABEL: func @many_waves_poor_last
// CHECK: #tcgen.config<backend = "sm90", block = [128, 256, 64]{{.*}}streamk = true
func.func @many_waves_poor_last(%a: memref<5120x5120xf16>, %b: memref<5120x5120xf16>, %c: memref<5120x5120xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<5120x5120xf32>)
  linalg.matmul ins(%a, %b : memref<5120x5120xf16>, memref<5120x5120xf16>) outs(%c : memref<5120x5120xf32>)
  return
}

