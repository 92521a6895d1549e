// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: not tcgen-opt %t/wide.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not tcgen-opt %t/rows.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=ROWS

//--- check.mlir
// A block tile of 192 rows: three consumer warpgroups (64 rows each) and
// the producer, 512 threads. The producer gives registers back down to 48,
// the consumers take 152 (48 * 128 + 152 * 384 <= 65536); every consumer
// thread releases a stage (384 arrivals on the empty barriers). A stage is
// one 192-row box of A and two [64 k][64 n] boxes of B: (192 + 128) rows of
// 128 bytes.
// CHECK-LABEL: gpu.func @tall_kernel(
// CHECK-SAME:    nvvm.maxntid = array<i32: 512, 1, 1>
// CHECK:         nvgpu.mbarrier.init %{{.*}}, %c1
// CHECK:         nvgpu.mbarrier.init %{{.*}}, %c384
// CHECK:         %[[PRODUCER:.*]] = arith.cmpi eq, %{{.*}}, %c3 : index
// CHECK:         scf.if %[[PRODUCER]] {
// CHECK:           nvvm.setmaxregister  decrease 48
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c40960
// CHECK:           nvgpu.tma.async.load {{.*}} : <tensor = memref<192x64xf16, 3>
// CHECK-COUNT-2:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xf16, 3>
// CHECK:         %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %c3 : index
// CHECK:         scf.if %[[CONSUMER]] {
// CHECK:           nvvm.setmaxregister  increase 152
// CHECK:           nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK:         gpu.return

// WIDE: error: sm90 configs need block = [64 | 128 | 192, N, 64] with N a multiple of 16 from 64 to 256 (192 rows: to 192;
// ROWS: error: sm90 configs need block = [64 | 128 | 192, N, 64]
func.func @tall(%A: memref<1536x256xf16>, %B: memref<256x1024xf16>, %C: memref<1536x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1536x1024xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1024xf16>) outs(%C : memref<1536x1024xf32>)
  return
}

//--- wide.mlir
func.func @tall(%A: memref<1536x256xf16>, %B: memref<256x1024xf16>, %C: memref<1536x1024xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1024xf16>) outs(%C : memref<1536x1024xf32>)
  return
}

//--- rows.mlir
func.func @tall(%A: memref<1536x256xf16>, %B: memref<256x1024xf16>, %C: memref<1536x1024xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [256, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1024xf16>) outs(%C : memref<1536x1024xf32>)
  return
}
