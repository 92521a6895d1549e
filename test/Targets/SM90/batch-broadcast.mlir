// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// The attention input projection C[b,h,s,e] = X[b,s,d] W[d,h,e]: M's
// dimensions (b, s) and N's (h, e) do not sit together in C, so s and e
// are the matrix's and b and h batch dimensions that one input lacks (X
// has no h, W no b). The manifest lists X as [b, h, s, d] with h's stride
// 0 and W as [b, h, d, e] with b's; each absent dimension keeps its slot
// in the tensor map (X: (d, s, h, b), W: (e, h, d, b)) with a box of 1,
// and the loads read it at 0. The heads lie side by side in N (foldsN):
// N = 3 x 128, 2 x 3 tiles of 128x128 per b, matrix %bIdx = b, and each
// copy of W and C takes its head and column from its column n'
// (n' / 128, n' mod 128).
// CHECK-LABEL: func.func @qkv(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 0, -1>, B = array<i64: -1, 1>, C = array<i64: 0, 1>}
// CHECK-LABEL: gpu.func @qkv_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 12, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1, 1>, B = array<i64: 64, 1, 64, 1>, C = array<i64: 32, 64, 1, 1>}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[T:c6_[0-9]+]] = arith.constant 6 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %{{.*}}, %[[T]] : index
// CHECK:         %[[BI:.*]] = arith.addi %[[B]], %[[ZERO]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0:[0-9]+]], %{{[0-9]+}}, %[[ZERO]], %[[BI]]], {{.*}} -> memref<1x1x128x64xf16, 3>
// CHECK:         %[[E:.*]] = arith.remui %[[N:[0-9]+]], %[[W:.*]] : index
// CHECK-NEXT:    %[[H:.*]] = arith.divui %[[N]], %[[W]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[E]], %[[H]], %[[K0]], %[[ZERO]]], {{.*}} -> memref<1x64x1x64xf16, 3>
// CHECK:         %[[CE:.*]] = arith.remui %[[CN:[0-9]+]], %[[CW:c128_i32_[0-9]+]] : i32
// CHECK-NEXT:    %[[CH:.*]] = arith.divui %[[CN]], %[[CW]] : i32
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%[[CE]], %{{[0-9]+}}, %[[CH]], %{{[0-9]+}}]
func.func @qkv(%X: memref<2x256x128xf16>, %W: memref<128x3x128xf16>, %C: memref<2x3x256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x3x256x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, s, e, d) -> (b, s, d)>, affine_map<(b, h, s, e, d) -> (d, h, e)>, affine_map<(b, h, s, e, d) -> (b, h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<2x256x128xf16>, memref<128x3x128xf16>) outs(%C : memref<2x3x256x128xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

