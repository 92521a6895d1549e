// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// Attention scores over Q[b][s][h][d] and K[b][t][h][d] (the [batch, seq,
// heads, features] layout) into S[b][h][s][t]: b and h are two batch
// dimensions that do not sit together in Q and K. Every operand's tensor
// map has four dimensions in stride order: Q's and K's (d, h, s, b), boxes
// [64, 1, 128, 1]; S's (t, s, h, b), boxes [32, 64, 1, 1]. The blocks walk
// the 2 x 3 matrices: matrix %bIdx is (%bIdx / 3, %bIdx mod 3), and the
// loads take (k, h, row, b), the stores (column, row, h, b). The function
// records where each operand stores the batch dimensions.
// CHECK-LABEL: func.func @bshd(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 0, 2>, B = array<i64: 0, 2>, C = array<i64: 0, 1>}
// CHECK-LABEL: gpu.func @bshd_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 36, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 1, 128, 1>, B = array<i64: 64, 1, 128, 1>, C = array<i64: 32, 64, 1, 1>}
// CHECK:         builtin.unrealized_conversion_cast {{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<1x128x1x64xf16, 3>
// CHECK:         %[[H:.*]] = arith.constant 3 : index
// CHECK:         %[[B:.*]] = arith.divui %[[IDX:[0-9]+]], %[[H3:c3_[0-9]+]] : index
// CHECK-NEXT:    %[[HI:.*]] = arith.remui %[[IDX]], %[[H3]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0:[0-9]+]], %[[HI]], %{{[0-9]+}}, %[[B]]], {{.*}} -> memref<1x128x1x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0]], %[[HI]], %{{[0-9]+}}, %[[B]]], {{.*}} -> memref<1x128x1x64xf16, 3>
// CHECK:         %[[BC:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[HC:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %{{[0-9]+}}, %[[HC]], %[[BC]]]
func.func @bshd(%Q: memref<2x256x3x64xf16>, %K: memref<2x384x3x64xf16>, %S: memref<2x3x256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x256x384xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : memref<2x256x3x64xf16>, memref<2x384x3x64xf16>) outs(%S : memref<2x3x256x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The batch dimensions in different orders: A[h][m][b][k] (b innermost of
// the two), B[b][k][h][n] and C[b][m][h][n]. C lists them (b, h), so A's
// positions are [2, 0]; each map follows its operand's strides: A's (k, b,
// m, h), B's (n, h, k, b), C's (n, h, m, b).
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 2, 0>, B = array<i64: 0, 2>, C = array<i64: 0, 2>}
// CHECK-LABEL: gpu.func @mixed_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 1, 128, 1>, B = array<i64: 64, 1, 64, 1>, C = array<i64: 32, 1, 64, 1>}
func.func @mixed(%A: memref<5x128x2x64xf16>, %B: memref<2x64x5x128xf16>, %C: memref<2x128x5x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x128x5x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (h, m, b, k)>, affine_map<(b, h, m, n, k) -> (b, k, h, n)>, affine_map<(b, h, m, n, k) -> (b, m, h, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<5x128x2x64xf16>, memref<2x64x5x128xf16>) outs(%C : memref<2x128x5x128xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A fused epilogue on two batch dimensions (C [b][h][s][t], both outermost):
// the mask M has C's shape and is loaded at the tile's (b, h).
// CHECK-LABEL: gpu.func @bshd_mask_kernel(
// CHECK-SAME:    %[[M:[a-z0-9]+]]: memref<2x3x256x384xf16>)
// CHECK:         nvvm.setmaxregister increase
// CHECK:         %[[B:.*]] = arith.divui %[[IDX:[0-9]+]], %{{c3_[0-9]+}} : index
// CHECK-NEXT:    %[[HI:.*]] = arith.remui %[[IDX]], %{{c3_[0-9]+}} : index
// CHECK:         vector.load %[[M]][%[[B]], %[[HI]], %{{[0-9]+}}, %{{[0-9]+}}] : memref<2x3x256x384xf16>, vector<2xf16>
func.func @bshd_mask(%Q: memref<2x256x3x64xf16>, %K: memref<2x384x3x64xf16>, %M: memref<2x3x256x384xf16>, %O: memref<2x3x256x384xf16>) {
  %zero = arith.constant 0.0 : f32
  %S = memref.alloc() : memref<2x3x256x384xf32>
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x256x384xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : memref<2x256x3x64xf16>, memref<2x384x3x64xf16>) outs(%S : memref<2x3x256x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t) -> (b, h, s, t)>, affine_map<(b, h, s, t) -> (b, h, s, t)>, affine_map<(b, h, s, t) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%S, %M : memref<2x3x256x384xf32>, memref<2x3x256x384xf16>) outs(%O : memref<2x3x256x384xf16>) {
  ^bb0(%x: f32, %m: f16, %o: f16):
    %mf = arith.extf %m : f16 to f32
    %t = arith.addf %x, %mf : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %S : memref<2x3x256x384xf32>
  return
}
