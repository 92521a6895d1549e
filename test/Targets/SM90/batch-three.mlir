// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// Three batch dimensions that do not collapse: C[b,h,g,m,n] = sum_k
// A[b,m,h,g,k] B[g,b,n,h,k] (h and g sit together in A but not in B, b and
// h nowhere). Every tensor map has five dimensions in stride order: A's
// (k, g, h, m, b), B's (k, h, n, b, g), C's (n, m, g, h, b). The blocks walk
// the 2 x 3 x 4 matrices row-major: g = %bIdx mod 4, then h = (%bIdx / 4)
// mod 3, b = %bIdx / 12.
// CHECK-LABEL: func.func @three(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 0, 2, 3>, B = array<i64: 1, 3, 0>, C = array<i64: 0, 1, 2>}
// CHECK-LABEL: gpu.func @three_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 1, 1, 128, 1>, B = array<i64: 64, 1, 128, 1, 1>, C = array<i64: 32, 64, 1, 1, 1>}
// CHECK:         %[[G4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[REST:.*]] = arith.divui %[[IDX:[0-9]+]], %[[G4]] : index
// CHECK-NEXT:    %[[G:.*]] = arith.remui %[[IDX]], %[[G4]] : index
// CHECK-NEXT:    %[[H3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %[[REST]], %[[H3]] : index
// CHECK-NEXT:    %[[H:.*]] = arith.remui %[[REST]], %[[H3]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K:[0-9]+]], %[[G]], %[[H]], %{{[0-9]+}}, %[[B]]], {{.*}} -> memref<1x128x1x1x64xf16, 3>
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K]], %[[H]], %{{[0-9]+}}, %[[B]], %[[G]]], {{.*}} -> memref<1x1x128x1x64xf16, 3>
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
func.func @three(%A: memref<2x128x3x4x64xf16>, %B: memref<4x2x128x3x64xf16>, %C: memref<2x3x4x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x3x4x128x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, g, m, n, k) -> (b, m, h, g, k)>, affine_map<(b, h, g, m, n, k) -> (g, b, n, h, k)>, affine_map<(b, h, g, m, n, k) -> (b, h, g, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x128x3x4x64xf16>, memref<4x2x128x3x64xf16>) outs(%C : memref<2x3x4x128x128xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %t = arith.addf %c, %p : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Four batch dimensions that do not collapse: more than a tensor map's five
// dimensions hold with the matrix's two.
func.func @four(%A: memref<2x64x3x4x5x64xf16>, %B: memref<5x4x2x64x3x64xf16>, %C: memref<2x3x4x5x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x3x4x5x64x64xf32>)
  // expected-error @+1 {{has 4 batch dimensions that do not collapse into fewer (counting each M or N dimension beyond the first as one); at most three are supported (with the two matrix dimensions, the five of a TMA tensor map)}}
  linalg.generic {indexing_maps = [affine_map<(b, h, g, e, m, n, k) -> (b, m, h, g, e, k)>, affine_map<(b, h, g, e, m, n, k) -> (e, g, b, n, h, k)>, affine_map<(b, h, g, e, m, n, k) -> (b, h, g, e, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x64x3x4x5x64xf16>, memref<5x4x2x64x3x64xf16>) outs(%C : memref<2x3x4x5x64x64xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%x: f16, %y: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %t = arith.addf %c, %p : f32
    linalg.yield %t : f32
  }
  return
}
