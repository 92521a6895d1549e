// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/always.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=ALWAYS

//--- check.mlir
// B's rows are 324 f16 = 648 bytes apart, not a multiple of 16 bytes: TMA
// cannot read them, and B (162 KB) is too large for the producer's copies,
// so a pack kernel in the same module first copies B
// into rows of 384 elements (768 bytes). The source rows are 8-byte
// aligned: the pack loads 4 elements at a time and stores 8.
func.func @pack_b(%A: memref<256x256xf16>, %B: memref<256x324xf16>, %C: memref<256x324xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x324xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x256xf16>, memref<256x324xf16>) outs(%C : memref<256x324xf32>)
  return
}
// CHECK-LABEL: gpu.module @pack_b_kernel
// CHECK:         gpu.func @pack_b_kernel(
// CHECK-SAME:      tcgen.packs = [{block = array<i64: 256, 1, 1>, entry = "pack_b_kernel_pack_B", grid = array<i64: 41, 1, 1>, operand = "B", strides = array<i64: 384, 1>}]
// CHECK:         gpu.func @pack_b_kernel_pack_B(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) kernel
// CHECK-COUNT-2:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xf16>
// CHECK-NOT:       llvm.load
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>

// -----

// A's rows are 200 f16 = 400 bytes apart: TMA reads them, slowly (not a
// multiple of 128 bytes), but A is small enough to stay in L2, where that
// costs little.
// pack=always copies A anyway.
func.func @small(%A: memref<256x200xf16>, %B: memref<200x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x200xf16>, memref<200x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
// CHECK-LABEL:  gpu.func @small_kernel(
// CHECK-NOT:      tcgen.packs
// CHECK:          gpu.return
// ALWAYS-LABEL: gpu.func @small_kernel(
// ALWAYS-SAME:    tcgen.packs = [{{.*}}entry = "small_kernel_pack_A"{{.*}}strides = array<i64: 256, 1>}]
// ALWAYS:       gpu.func @small_kernel_pack_A(
// ALWAYS:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>

// -----

// Odd N: B's rows (325 f16) are packed with single-element loads; C's rows
// are not 16-byte multiples either, so C goes out through staged stores
// (test/Targets/SM90/staged-store.mlir).
func.func @odd_n(%A: memref<256x128xf16>, %B: memref<128x325xf16>, %C: memref<256x325xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<256x325xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged">} ins(%A, %B : memref<256x128xf16>, memref<128x325xf16>) outs(%C : memref<256x325xf16>)
  return
}
// CHECK-LABEL: gpu.func @odd_n_kernel(
// CHECK-SAME:    %{{.*}}: memref<256x325xf16>
// CHECK-SAME:    store = "staged"
// The rows of B are 2-byte aligned, differently from row to row: whole
// chunks funnel-shift three aligned 8-byte words into place; the last ones
// of a row load elements.
// CHECK:       gpu.func @odd_n_kernel_pack_B(
// CHECK:         scf.if %{{.*}} -> (vector<8xf16>) {
// CHECK-COUNT-3:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK:           llvm.intr.fshr
// CHECK:         } else {
// CHECK-COUNT-8:   llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> vector<1xf16>

//--- always.mlir
func.func @pack_b(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x324xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "always">} ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf32>)
  return
}

// -----

func.func @small(%A: memref<256x200xf16>, %B: memref<200x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "always">} ins(%A, %B : memref<256x200xf16>, memref<200x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @odd_n(%A: memref<256x128xf16>, %B: memref<128x325xf16>, %C: memref<256x325xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<256x325xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged", pack = "always">} ins(%A, %B : memref<256x128xf16>, memref<128x325xf16>) outs(%C : memref<256x325xf16>)
  return
}
