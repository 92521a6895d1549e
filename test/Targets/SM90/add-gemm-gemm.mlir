// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// C = A B + A2 B2 (add(gemm, gemm); fill, matmul, matmul on one C): one
// kernel. It takes A2's and B2's tensor maps after B's; the producer reads
// A and B for the first kernel k-tiles (128 / 64 = 2) and A2 and B2 from
// their k-tile 0 for the rest (64 / 64 = 1): 3 k-tiles per output tile.
// Both contractions and the fill are gone.
func.func @dual(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                %A2: memref<256x64xf16>, %B2: memref<64x256xf16>,
                %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A2, %B2 : memref<256x64xf16>, memref<64x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}
// CHECK-LABEL: func.func @dual(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    {tcgen.operand = "B"}
// CHECK-SAME:    {tcgen.operand = "A2"}
// CHECK-SAME:    {tcgen.operand = "B2"}
// CHECK-SAME:    {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.overwrite
// CHECK-NOT:     linalg.
// CHECK:         return
// CHECK:       gpu.func @dual_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[PA2:.*]]: !llvm.ptr, %[[PB2:.*]]: !llvm.ptr,
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:A2", "tensormap:B2", "tensormap:C"]
// CHECK:         %[[TA2:.*]] = builtin.unrealized_conversion_cast %[[PA2]]
// CHECK:         %[[TB2:.*]] = builtin.unrealized_conversion_cast %[[PB2]]
// CHECK:         %{{.*}} = arith.constant 3 : index
// CHECK:         nvgpu.mbarrier.arrive.expect_tx
// CHECK:         %[[K1:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[IN1:.*]] = arith.cmpi ult, %[[KT:.*]], %[[K1]] : index
// CHECK:         scf.if %[[IN1]] {
// CHECK:           arith.muli %[[KT]], %{{.*}} : index
// CHECK:           nvgpu.tma.async.load %{{.*}}[
// CHECK:         } else {
// CHECK:           %[[KT2:.*]] = arith.subi %[[KT]], %[[K1]] : index
// CHECK:           arith.muli %[[KT2]], %{{.*}} : index
// CHECK:           nvgpu.tma.async.load %[[TA2]][
// CHECK:           nvgpu.tma.async.load %[[TB2]][

// -----

// The two products must share the stored layouts (one wgmma form).
func.func @layouts(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                   %A2: memref<64x256xf16>, %B2: memref<64x256xf16>,
                   %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  // expected-error @below {{add(gemm, gemm) in one sm90 kernel needs A and A2, and B and B2, stored and read in one layout}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%A2, %B2 : memref<64x256xf16>, memref<64x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

// And one input dtype.
func.func @dtypes(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %A2: memref<256x64xbf16>, %B2: memref<64x256xbf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  // expected-error @below {{add(gemm, gemm) in one sm90 kernel needs both products in one input dtype, got 'f16' x 'f16' and 'bf16' x 'bf16'}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A2, %B2 : memref<256x64xbf16>, memref<64x256xbf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

// A batch of two products: not supported yet.
func.func @batched(%A: memref<2x64x32xf16>, %B: memref<2x32x64xf16>,
                   %A2: memref<2x64x32xf16>, %B2: memref<2x32x64xf16>,
                   %C: memref<2x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x64x64xf32>)
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<2x64x32xf16>, memref<2x32x64xf16>)
                      outs(%C : memref<2x64x64xf32>)
  // expected-error @below {{add(gemm, gemm) in one sm90 kernel needs unbatched products (a batch is not supported yet)}}
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A2, %B2 : memref<2x64x32xf16>, memref<2x32x64xf16>)
                      outs(%C : memref<2x64x64xf32>)
  return
}

// -----

// A column-major C (C[n, m]): not supported yet.
#cm = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
       affine_map<(m, n, k) -> (n, m)>]
func.func @column_major(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                        %A2: memref<256x64xf16>, %B2: memref<64x256xf16>,
                        %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = #cm {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  // expected-error @below {{add(gemm, gemm) in one sm90 kernel needs a row-major C (a column-major one is not supported yet)}}
  linalg.matmul indexing_maps = #cm {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A2, %B2 : memref<256x64xf16>, memref<64x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}
