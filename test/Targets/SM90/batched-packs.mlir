// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/always.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=ALWAYS
// RUN: not tcgen-opt %t/never.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=NEVER

//--- check.mlir
// A batch whose A rows are 200 bytes apart (not a multiple of 16, which TMA
// needs) and A too large for the producer's copies (8 x 128 rows, 200 KB):
// A is packed as one stack of its 8 x 128 rows into rows of 128 elements;
// the copy's tensor map is rank 3 (strides [128 x 128, 128, 1]).
// CHECK-LABEL: func.func @unaligned
// CHECK:       gpu.func @unaligned_kernel(
// CHECK-SAME:    tcgen.packs = [{block = array<i64: 256, 1, 1>, entry = "unaligned_kernel_pack_A", grid = array<i64: {{[0-9]+}}, 1, 1>, operand = "A", strides = array<i64: 16384, 128, 1>}]
// CHECK:       gpu.func @unaligned_kernel_pack_A(
// NEVER: error: 'linalg.batch_matmul' op the rows of A are 200 bytes apart, not a multiple of 16, which TMA needs; pack = never forbids copying them
func.func @unaligned(%A: memref<8x128x100xf16>, %B: memref<8x100x128xf16>, %C: memref<8x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<8x128x128xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<8x128x100xf16>, memref<8x100x128xf16>) outs(%C : memref<8x128x128xf32>)
  return
}

// -----

// Rows that are 16-byte (not 128-byte) multiples apart are read in place
// by default at this size, and packed with pack = always.
// CHECK-LABEL: func.func @aligned
// CHECK-NOT:   tcgen.packs
// ALWAYS-LABEL: func.func @aligned
// ALWAYS:      tcgen.packs = [{{.*}}operand = "A", strides = array<i64: 16384, 128, 1>}]
func.func @aligned(%A: memref<2x128x72xf16>, %B: memref<2x72x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<2x128x72xf16>, memref<2x72x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}

//--- always.mlir
func.func @unaligned(%A: memref<2x128x100xf16>, %B: memref<2x100x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", pack = "always">} ins(%A, %B : memref<2x128x100xf16>, memref<2x100x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}

// -----

func.func @aligned(%A: memref<2x128x72xf16>, %B: memref<2x72x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", pack = "always">} ins(%A, %B : memref<2x128x72xf16>, memref<2x72x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}

//--- never.mlir
func.func @unaligned(%A: memref<2x128x100xf16>, %B: memref<2x100x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", pack = "never">} ins(%A, %B : memref<2x128x100xf16>, memref<2x100x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}

// -----

func.func @aligned(%A: memref<2x128x72xf16>, %B: memref<2x72x128xf16>, %C: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x128xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", pack = "never">} ins(%A, %B : memref<2x128x72xf16>, memref<2x72x128xf16>) outs(%C : memref<2x128x128xf32>)
  return
}
