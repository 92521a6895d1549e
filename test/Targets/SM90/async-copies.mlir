// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/cluster.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=CLUSTER

//--- check.mlir
// pack = async: A's rows (400 bytes) and B's (528 bytes) are 16-byte but
// not 128-byte multiples apart, so the producer warpgroup copies both with
// cp.async, each a plain pointer: A's 128 x 64 tile in 8 pieces per
// thread, B's four 64-wide boxes in 16, with the source size (the edges'
// zero fill) as an operand. The full barrier waits for the leader's arrive
// and one arrive per producer thread when its copies land; there are no
// packs and no TMA loads (C still leaves by TMA stores).
// CHECK-LABEL: gpu.func @both_kernel(
// CHECK-SAME:    tcgen.params = ["ptr:A", "ptr:B", "tensormap:C"]
// CHECK-NOT:   tcgen.packs
// CHECK:       %[[FULL:.*]] = arith.constant 129 : index
// CHECK:       nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %[[FULL]]
// CHECK-NOT:   nvgpu.tma.async.load
// CHECK:       nvgpu.mbarrier.arrive %{{.*}}[%{{.*}}] : {{.*}} -> !nvgpu.mbarrier.token
// CHECK-COUNT-24: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT:   nvvm.cp.async.shared.global
// CHECK:       %[[BAR:.*]] = nvgpu.mbarrier.get
// CHECK:       %[[BARP:.*]] = llvm.inttoptr %[[BAR]] : i32 to !llvm.ptr<3>
// CHECK:       nvvm.cp.async.mbarrier.arrive %[[BARP]] {noinc = true} : !llvm.ptr<3>
// CHECK-NOT:   nvgpu.tma.async.load
// CLUSTER-LABEL: gpu.func @both_kernel(
// CLUSTER-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C"]
// CLUSTER-NOT:   nvvm.cp.async.shared.global
func.func @both(%A: memref<256x200xf16>, %B: memref<200x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x200xf16>, memref<200x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

// A's rows (402 bytes) are not a 4-byte multiple: A is packed and read by
// TMA (the leader's arrive carries its 16 KiB), B is copied with cp.async.
// CHECK-LABEL: gpu.func @a_packed_kernel(
// CHECK-SAME:    tcgen.packs = [{block = {{.*}}, entry = "a_packed_kernel_pack_A", {{.*}}operand = "A"{{.*}}}]
// CHECK-SAME:    tcgen.params = ["tensormap:A", "ptr:B", "tensormap:C"]
// CHECK:       %[[TX:.*]] = arith.constant 16384 : index
// CHECK:       nvgpu.tma.prefetch.descriptor
// CHECK-NOT:   nvgpu.tma.prefetch.descriptor
// CHECK:       nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[TX]]
// CHECK:       nvgpu.tma.async.load
// CHECK-NOT:   nvgpu.tma.async.load
// CHECK-COUNT-16: nvvm.cp.async.shared.global
// CHECK-NOT:   nvvm.cp.async.shared.global
// CHECK:       nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
func.func @a_packed(%A: memref<256x201xf16>, %B: memref<201x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x201xf16>, memref<201x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

// Rows that are 128-byte multiples apart stay with TMA; the full barrier
// waits for the leader alone.
// CHECK-LABEL: gpu.func @aligned_kernel(
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C"]
// CHECK-NOT:   arith.constant 129 : index
// CHECK-NOT:   nvvm.cp.async.shared.global
// CHECK:       gpu.return
func.func @aligned(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  return
}

//--- cluster.mlir
func.func @both(%A: memref<256x200xf16>, %B: memref<200x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x200xf16>, memref<200x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

func.func @a_packed(%A: memref<256x201xf16>, %B: memref<201x264xf16>, %C: memref<256x264xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x264xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x201xf16>, memref<201x264xf16>) outs(%C : memref<256x264xf32>)
  return
}

// -----

func.func @aligned(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma", pack = "async">} ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  return
}
