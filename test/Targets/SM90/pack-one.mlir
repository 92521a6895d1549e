// RUN: split-file %s %t
// RUN: tcgen-opt %t/packa.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=PACKA
// RUN: tcgen-opt %t/packb.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=PACKB

//--- packa.mlir
// pack = a copies A (rows of 400 bytes: readable, but not 128-byte
// multiples) and leaves B (528-byte rows) to TMA; pack = b the other way.
// PACKA-LABEL: gpu.func @both_kernel(
// PACKA-SAME:    tcgen.packs = [{block = {{.*}}, entry = "both_kernel_pack_A", {{.*}}operand = "A", strides = array<i64: 256, 1>}]
// PACKB-LABEL: gpu.func @both_kernel(
// PACKB-SAME:    tcgen.packs = [{block = {{.*}}, entry = "both_kernel_pack_B", {{.*}}operand = "B", strides = array<i64: 320, 1>}]
func.func @both(%A: memref<256x200xf16>, %B: memref<200x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "a">} ins(%A, %B : memref<256x200xf16>, memref<200x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

// pack = b still copies an A whose rows TMA cannot read (202 f16 = 404
// bytes, not a multiple of 16).
// PACKB-LABEL: gpu.func @a_unreadable_kernel(
// PACKB-SAME:    tcgen.packs = [{block = {{.*}}, entry = "a_unreadable_kernel_pack_A", {{.*}}operand = "A", {{.*}}entry = "a_unreadable_kernel_pack_B", {{.*}}operand = "B"
func.func @a_unreadable(%A: memref<256x202xf16>, %B: memref<202x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "a">} ins(%A, %B : memref<256x202xf16>, memref<202x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

//--- packb.mlir
func.func @both(%A: memref<256x200xf16>, %B: memref<200x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "b">} ins(%A, %B : memref<256x200xf16>, memref<200x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

func.func @a_unreadable(%A: memref<256x202xf16>, %B: memref<202x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "b">} ins(%A, %B : memref<256x202xf16>, memref<202x264xf16>) outs(%C : memref<256x264xf32>)
  return
}
