// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// B stored [n][k] (K-major): one [256 n][64 k] box per stage, descriptors
// with LBO = 1, and wgmma B layout col (PTX trans-b = 0).
// CHECK-LABEL: func.func @b_k_major
// CHECK-SAME:    tcgen.transposed = array<i1: false, true>
// CHECK:       tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 256>, C = array<i64: {{[0-9]+}}, 64>}
// CHECK:       !nvgpu.tensormap.descriptor<tensor = memref<256x64xf16, 3>
// CHECK-COUNT-2: nvgpu.tma.async.load
// CHECK-NOT:   nvgpu.tma.async.load
// The descriptor's words: low 0x10000 (LBO = 1, the address added per
// step), high 0x40000040 (128B swizzle, SBO = 1 KiB), paired per k-step.
// CHECK:       arith.constant 65536 : i32
// CHECK:       %[[HI:.*]] = arith.constant 1073741888 : i32
// CHECK:       vector.from_elements %{{.*}}, %[[HI]] : vector<2xi32>
// CHECK:       nvvm.wgmma.mma_async {{.*}}, A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @b_k_major(%A: memref<1024x512xf16>, %B: memref<2048x512xf16>, %C: memref<1024x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x2048xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<1024x512xf16>, memref<2048x512xf16>) outs(%C : memref<1024x2048xf32>)
  return
}

// -----

// A stored [k][m] (M-major): two [64 k][64 m] boxes per stage, descriptors
// with LBO = 8 KiB (low word 0x2000000), and wgmma A layout col (PTX
// trans-a = 1).
// CHECK-LABEL: func.func @a_m_major
// CHECK-SAME:    tcgen.transposed = array<i1: true, false>
// CHECK:       tcgen.tensormap_boxes = {A = array<i64: 64, 64>, B = array<i64: 64, 64>, C = array<i64: {{[0-9]+}}, 64>}
// CHECK-COUNT-6: nvgpu.tma.async.load
// CHECK-NOT:   nvgpu.tma.async.load
// CHECK:       arith.constant 33554432 : i32
// CHECK:       nvvm.wgmma.mma_async {{.*}}, A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
func.func @a_m_major(%A: memref<512x1024xf16>, %B: memref<512x2048xf16>, %C: memref<1024x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x2048xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<512x1024xf16>, memref<512x2048xf16>) outs(%C : memref<1024x2048xf32>)
  return
}

// -----

// With M = 1, A stored [k][1] is the memory of [1][k]: the kernel reads it
// K-major (the runtime lays an extent-1 dimension's tensor map out in its
// logical place, making K innermost). The function still records how the
// argument is stored, for the manifest.
// CHECK-LABEL: func.func @a_m_major_m1
// CHECK-SAME:    tcgen.transposed = array<i1: true, false>
// CHECK:       gpu.func @a_m_major_m1_kernel
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>
// CHECK-SAME:    tcgen.transposed = array<i1: false, false>
// CHECK:       nvvm.wgmma.mma_async {{.*}}, A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
func.func @a_m_major_m1(%A: memref<512x1xf16>, %B: memref<512x2048xf16>, %C: memref<1x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1x2048xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<512x1xf16>, memref<512x2048xf16>) outs(%C : memref<1x2048xf32>)
  return
}

// -----

// With K = 1 the same: A stored [1][m] is A [m][1] K-major (its 2-byte rows
// are packed), and B stored [n][1] is B [1][n] N-major.
// CHECK-LABEL: func.func @k1_transposed
// CHECK-SAME:    tcgen.transposed = array<i1: true, true>
// CHECK:       gpu.func @k1_transposed_kernel
// CHECK-SAME:    operand = "A"
// CHECK-SAME:    tcgen.transposed = array<i1: false, false>
// CHECK:       nvvm.wgmma.mma_async {{.*}}, A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
func.func @k1_transposed(%A: memref<1x1000xf16>, %B: memref<512x1xf16>, %C: memref<1000x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x512xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<1x1000xf16>, memref<512x1xf16>) outs(%C : memref<1000x512xf32>)
  return
}
