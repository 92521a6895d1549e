// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// A pointwise consumer of a batch (attention-style scores: S * 0.125 + M
// + bias[j]) fuses like one of a single matrix: the matrix operand M holds
// one matrix per batch entry and is loaded at the tile's matrix %bIdx,
// the row vector is shared by the whole batch.
// CHECK-LABEL: func.func @batched_epilogue(
// CHECK-SAME:    tcgen.fused_epilogue
// CHECK-LABEL: gpu.func @batched_epilogue_kernel(
// CHECK-SAME:    %[[M:[a-z0-9]+]]: memref<4x256x384xf16>, %[[BIAS:[a-z0-9]+]]: memref<384xf32>)
// CHECK:         vector.load %[[M]][%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}] : memref<4x256x384xf16>, vector<2xf16>
// CHECK:         vector.load %[[BIAS]][%{{[0-9]+}}] : memref<384xf32>, vector<2xf32>
// CHECK-NOT:     linalg.generic
func.func @batched_epilogue(%A: memref<4x256x64xf16>, %B: memref<4x64x384xf16>, %M: memref<4x256x384xf16>, %bias: memref<384xf32>, %O: memref<4x256x384xf16>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %C = memref.alloc() : memref<4x256x384xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<4x256x384xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<4x256x64xf16>, memref<4x64x384xf16>) outs(%C : memref<4x256x384xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C, %M, %bias : memref<4x256x384xf32>, memref<4x256x384xf16>, memref<384xf32>) outs(%O : memref<4x256x384xf16>) {
  ^bb0(%x: f32, %m: f16, %bb: f32, %o: f16):
    %s = arith.mulf %x, %scale : f32
    %me = arith.extf %m : f16 to f32
    %t = arith.addf %s, %me : f32
    %u = arith.addf %t, %bb : f32
    %r = arith.truncf %u : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<4x256x384xf32>
  return
}

// -----

// A batch of one is a plain matmul, but its C and the consumer keep the
// batch dimension of extent 1: a conversion over [1, m, n] (f32 -> bf16)
// fuses like one over [m, n], and the kernel writes the bf16 output.
// CHECK-LABEL: func.func @batch_of_one_truncf(
// CHECK-SAME:    memref<1x256x384xbf16> {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.fused_epilogue
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: gpu.func @batch_of_one_truncf_kernel(
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
func.func @batch_of_one_truncf(%A: memref<1x256x64xbf16>, %B: memref<1x64x384xbf16>, %O: memref<1x256x384xbf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<1x256x384xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<1x256x384xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1x256x64xbf16>, memref<1x64x384xbf16>) outs(%C : memref<1x256x384xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C : memref<1x256x384xf32>) outs(%O : memref<1x256x384xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %r = arith.truncf %x : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %C : memref<1x256x384xf32>
  return
}
