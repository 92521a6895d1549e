// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// Rows 4 or 8 bytes apart but not 16 (TMA cannot read them): with pack =
// async the producer copies them with cp.async.ca in 4- or 8-byte pieces,
// four or two for each 16-byte piece of the swizzled tile, each copying
// what is left of its bytes (no pack kernel).
// A's rows are 404 bytes apart (K = 202): 4-byte pieces; B's 528 (N = 264,
// 16-byte multiples): 16-byte pieces as before.
// CHECK-LABEL: gpu.func @four_kernel(
// CHECK-SAME:    tcgen.params = ["ptr:A", "ptr:B", "tensormap:C"]
// CHECK-NOT:   tcgen.packs
// CHECK-NOT:   nvgpu.tma.async.load
// CHECK-COUNT-32: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache =  ca, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-COUNT-16: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT:   nvvm.cp.async.shared.global
// CHECK:       nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
func.func @four(%A: memref<256x202xf16>, %B: memref<202x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x202xf16>, memref<202x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

// B's rows are 200 bytes apart (N = 100): 8-byte pieces, two for each
// 16-byte piece; A's 512 bytes (K = 256) stay with TMA (128-byte multiples).
// CHECK-LABEL: gpu.func @eight_kernel(
// CHECK-SAME:    tcgen.params = ["tensormap:A", "ptr:B", "tensormap:C"]
// CHECK:       nvgpu.tma.async.load
// CHECK:       nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache =  ca, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT:   nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16
// CHECK-NOT:   nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4,
func.func @eight(%A: memref<256x256xf16>, %B: memref<256x100xf16>, %C: memref<256x100xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x100xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x256xf16>, memref<256x100xf16>) outs(%C : memref<256x100xf32>)
  return
}

// -----

// pack = auto: A's rows are 100 bytes apart (K = 50), which TMA cannot
// read, and A is small (10 KB): the producer copies it in 4-byte pieces
// rather than a pack kernel running first. B's rows (400 bytes) stay
// with TMA.
// CHECK-LABEL: gpu.func @auto_small_kernel(
// CHECK-SAME:    tcgen.params = ["ptr:A", "tensormap:B", "tensormap:C"]
// CHECK-NOT:   tcgen.packs
// CHECK:       nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache =  ca
func.func @auto_small(%A: memref<100x50xf16>, %B: memref<50x200xf16>, %C: memref<100x200xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<100x200xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<100x50xf16>, memref<50x200xf16>) outs(%C : memref<100x200xf32>)
  return
}

// -----

// pack = auto with a large A (1024 x 1002, 2 MB) whose rows TMA cannot
// read (2004 bytes apart): packed first, then read by TMA.
// CHECK-LABEL: gpu.func @auto_large_kernel(
// CHECK-SAME:    tcgen.packs = [{{.*}}operand = "A"{{.*}}tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C"]
// CHECK-NOT:   nvvm.cp.async.shared.global
func.func @auto_large(%A: memref<1024x1002xf16>, %B: memref<1002x256xf16>, %C: memref<1024x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1024x1002xf16>, memref<1002x256xf16>) outs(%C : memref<1024x256xf32>)
  return
}
