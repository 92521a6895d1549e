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

// -----

// One batch dimension that A lacks (C[h,s,e] = X[s,d] W[h,e,d]) takes the
// same path: X's map is (d, s, h) with h read at 0, and the heads lie side
// by side in N (3 x 64: one matrix of 2 x 2 tiles). W stored [h][e][d]
// (K-major) loads one box per head a tile spans: two of 64 rows per tile
// of 128 columns, at heads n' / 64 and n' / 64 + 1 (the last one past N:
// TMA fills it with zeros).
// CHECK-LABEL: func.func @one(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: -1>, B = array<i64: 0>, C = array<i64: 0>}
// CHECK-LABEL: gpu.func @one_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 4, 1, 1,
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1>, B = array<i64: 64, 64, 1>, C = array<i64: 32, 64, 1>}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0:[0-9]+]], %{{[0-9]+}}, %[[ZERO]]], {{.*}} -> memref<1x128x64xf16, 3>
// CHECK:         %[[E0:.*]] = arith.remui %[[N0:[0-9]+]], %[[W0:.*]] : index
// CHECK-NEXT:    %[[H0:.*]] = arith.divui %[[N0]], %[[W0]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0]], %[[E0]], %[[H0]]], {{.*}} -> memref<1x64x64xf16, 3>
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[N1:.*]] = arith.addi %{{.*}}, %[[C64]] : index
// CHECK:         %[[E1:.*]] = arith.remui %[[N1]], %{{.*}} : index
// CHECK-NEXT:    %[[H1:.*]] = arith.divui %[[N1]], %{{.*}} : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[K0]], %[[E1]], %[[H1]]], {{.*}} -> memref<1x64x64xf16, 3>
func.func @one(%X: memref<256x128xf16>, %W: memref<3x64x128xf16>, %C: memref<3x256x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<3x256x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(h, s, e, d) -> (s, d)>, affine_map<(h, s, e, d) -> (h, e, d)>, affine_map<(h, s, e, d) -> (h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<256x128xf16>, memref<3x64x128xf16>) outs(%C : memref<3x256x64xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A bias along e (a row operand) with the heads side by side: each pair
// of columns reads the bias at its column within its head (n' mod 128).
// CHECK-LABEL: gpu.func @row_bias_kernel(
// CHECK-SAME:    %[[BIAS:[a-z0-9]+]]: memref<128xf16>)
// CHECK-SAME:    tcgen.launch = array<i64: 12, 1, 1,
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:         %[[E:.*]] = arith.remui %{{[0-9]+}}, %{{c128_[0-9]+}} : index
// CHECK-NEXT:    vector.load %[[BIAS]][%[[E]]] : memref<128xf16>, vector<2xf16>
func.func @row_bias(%X: memref<2x256x128xf16>, %W: memref<128x3x128xf16>, %bias: memref<128xf16>, %Y: memref<2x3x256x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<2x3x256x128xf32>
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
  linalg.generic {indexing_maps = [affine_map<(b, h, s, e) -> (b, h, s, e)>, affine_map<(b, h, s, e) -> (e)>, affine_map<(b, h, s, e) -> (b, h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%C, %bias : memref<2x3x256x128xf32>, memref<128xf16>) outs(%Y : memref<2x3x256x128xf16>) {
  ^bb0(%c: f32, %bv: f16, %o: f16):
    %bf = arith.extf %bv : f16 to f32
    %t = arith.addf %c, %bf : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<2x3x256x128xf32>
  return
}

// -----

// A residual R with C's shape (a matrix operand, loaded at the tile's
// (b, h)) keeps the heads apart: one matrix per (b, h), N = 128, 12 tiles,
// the head from %bIdx.
// CHECK-LABEL: gpu.func @residual_kernel(
// CHECK-SAME:    tcgen.launch = array<i64: 12, 1, 1,
// CHECK:         %[[H:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %[[IDX:[0-9]+]], %[[H]] : index
// CHECK-NEXT:    %[[HI:.*]] = arith.remui %[[IDX]], %[[H]] : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[0-9]+}}, %[[HI]], %{{[0-9]+}}, %{{.*}}], {{.*}} -> memref<1x64x1x64xf16, 3>
func.func @residual(%X: memref<2x256x128xf16>, %W: memref<128x3x128xf16>, %R: memref<2x3x256x128xf16>, %Y: memref<2x3x256x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<2x3x256x128xf32>
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
  linalg.generic {indexing_maps = [affine_map<(b, h, s, e) -> (b, h, s, e)>, affine_map<(b, h, s, e) -> (b, h, s, e)>, affine_map<(b, h, s, e) -> (b, h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%C, %R : memref<2x3x256x128xf32>, memref<2x3x256x128xf16>) outs(%Y : memref<2x3x256x128xf16>) {
  ^bb0(%c: f32, %rv: f16, %o: f16):
    %rf = arith.extf %rv : f16 to f32
    %t = arith.addf %c, %rf : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<2x3x256x128xf32>
  return
}

// -----

// Two M dimensions stored in different orders (A[b,m,k], C[m,b,n]): the
// larger, m, is the matrix's, b a batch dimension that B lacks, outermost
// in A and between C's matrix dimensions. B [k][n] is read at batch 0.
// CHECK-LABEL: func.func @two_m(
// CHECK-SAME:    tcgen.batch_positions = {A = array<i64: 0>, B = array<i64: -1>, C = array<i64: 1>}
// CHECK-LABEL: gpu.func @two_m_kernel(
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128, 1>, B = array<i64: 64, 64, 1>, C = array<i64: 32, 1, 64>}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         nvgpu.tma.async.load %{{.*}}[%{{[0-9]+}}, %[[K0:[0-9]+]], %[[ZERO]]], {{.*}} -> memref<1x64x64xf16, 3>
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{[0-9]+}}, %[[BI:[0-9]+]], %{{[0-9]+}}]
func.func @two_m(%A: memref<4x250x512xf16>, %B: memref<512x1024xf16>, %C: memref<250x4x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<250x4x1024xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, b, n, k) -> (b, m, k)>, affine_map<(m, b, n, k) -> (k, n)>, affine_map<(m, b, n, k) -> (m, b, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x250x512xf16>, memref<512x1024xf16>) outs(%C : memref<250x4x1024xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}
