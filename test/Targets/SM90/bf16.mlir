// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/tma.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=TMA

//--- check.mlir
// bf16 inputs, bf16 output, f32 accumulation.
// CHECK: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: vector.store %{{.*}} : memref<1024x1024xbf16>, vector<2xbf16>
// With TMA stores C is a bf16 tensor map with boxes of 64 columns (128
// bytes) by 64 rows, and each rounded pair is one 32-bit shared store.
// TMA: tcgen.tensormap_boxes = {A = array<i64: 64, 64>, B = array<i64: 64, 64>, C = array<i64: 64, 64>}
// TMA: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// TMA: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// TMA-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
func.func @mm(%A: memref<1024x512xbf16>, %B: memref<512x1024xbf16>, %C: memref<1024x1024xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<1024x1024xbf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<1024x512xbf16>, memref<512x1024xbf16>) outs(%C : memref<1024x1024xbf16>)
  return
}

//--- tma.mlir
func.func @mm(%A: memref<1024x512xbf16>, %B: memref<512x1024xbf16>, %C: memref<1024x1024xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<1024x1024xbf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1024x512xbf16>, memref<512x1024xbf16>) outs(%C : memref<1024x1024xbf16>)
  return
}
