// RUN: split-file %s %t
// RUN: not tcgen-opt %t/divide.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: not tcgen-opt %t/regs.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: not tcgen-opt %t/cluster.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: not tcgen-opt %t/streamk.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=STREAMK
// RUN: not tcgen-opt %t/prologue.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=PROLOGUE

//--- check.mlir
// One consumer warpgroup over the three 64-row blocks of a 192 x 96 tile
// (warp tile M 192), as cuBLAS's kernel at 1536^3: 256 threads, the
// consumer rises to 240 registers, 128 releases per stage. Its A slab is
// the whole 24 KiB of the stage's A; each k-step issues one m64n96k16 per
// row block on its own accumulator, row block r's A 8 KiB r into the
// slab; the main loop carries the three accumulators; the epilogue stores
// the row blocks one after the other (each in a region of its own) through
// the warpgroup's two store buffers: 5 stages of (192 + 128) x 128 bytes
// (B [k][n] loads 128 columns), 2 x 8 KiB of buffers, 1 KiB to align.
// CHECK-LABEL: gpu.func @rows_kernel(
// CHECK-SAME:    nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME:    tcgen.launch = array<i64: 128, 1, 1, 256, 1, 1, 222208, 1>
// CHECK:         nvgpu.mbarrier.init %{{.*}}, %c1
// CHECK:         nvgpu.mbarrier.init %{{.*}}, %c128
// CHECK:         nvvm.setmaxregister  decrease 48
// CHECK:         nvvm.setmaxregister  increase 240
// CHECK:         %[[SLAB:.*]] = arith.constant 24576 : i64
// CHECK:         arith.muli %{{.*}}, %[[SLAB]] : i64
// CHECK:         %[[RB1:.*]] = arith.constant 8192 : i64
// CHECK:         %[[RB2:.*]] = arith.constant 16384 : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 96, k = 16>
// CHECK:         arith.addi %{{.*}}, %[[RB1]] : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 96, k = 16>
// CHECK:         arith.addi %{{.*}}, %[[RB2]] : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 96, k = 16>
// CHECK:         %[[ACC:.*]]:3 = scf.for {{.*}} -> (!llvm.struct<({{.*}})>, !llvm.struct<({{.*}})>, !llvm.struct<({{.*}})>)
// CHECK-COUNT-12: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 96, k = 16>
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         scf.yield
// CHECK:         scf.execute_region {
// CHECK:           llvm.extractvalue %[[ACC]]#0[0]
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:           scf.yield
// CHECK:         scf.execute_region {
// CHECK:           llvm.extractvalue %[[ACC]]#1[0]
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         scf.execute_region {
// CHECK:           llvm.extractvalue %[[ACC]]#2[0]
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         gpu.return

// DIVIDE: error: warp tile m=96 is not a multiple of the mma shape 64
// REGS: error: 'linalg.matmul' op a consumer warpgroup of 2 row blocks (warp tile M 128) needs at most 192 accumulator registers a thread (row blocks x N / 2 = 256)
// CLUSTER: error: 'linalg.matmul' op a consumer warpgroup of 2 row blocks (warp tile M 128) needs no stream-K and no cluster
// STREAMK: error: 'linalg.matmul' op a consumer warpgroup of 2 row blocks (warp tile M 128) needs no stream-K and no cluster
// PROLOGUE: error: 'linalg.matmul' op a consumer warpgroup of 2 row blocks (warp tile M 128) needs no prologue fused into the kernel (prologue = pack computes it in a pack kernel)
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 96, 64], warp = [192, 96, 64], mma = [64, 96, 16], stages = 5, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- regs.mlir
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [128, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- cluster.mlir
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [128, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- streamk.mlir
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [128, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- prologue.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [128, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf16>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_b(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [128, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%A, %R : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @relu_a_km(%A: memref<128x256xf16>, %B: memref<128x256xf16>,
                     %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [#a, #b, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [128, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">}
                ins(%R, %B : memref<128x256xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<128x256xf16>
  return
}

//--- divide.mlir
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 96, 64], warp = [96, 96, 64], mma = [64, 96, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}
