// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: not tcgen-opt %t/n136.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=N136

//--- check.mlir
// A block tile 144 wide (132 tiles of a 1536^2 C fill the 132 SMs of an
// H100). B [k][n] is read in [64 k][64 n] boxes of the 128B swizzle: three,
// the last one whole (its 48 columns past the tile are loaded and not
// read), so a stage is (128 + 192) rows of 128 bytes. The wgmma is n144. C
// (f32: 128-byte chunks of 32 columns) leaves in four whole chunks and one
// more at column 112 that overlaps the fourth.
// CHECK-LABEL: gpu.func @narrow_kernel(
// CHECK:         unrealized_conversion_cast %{{.*}} to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c40960
// CHECK:         nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xf16, 3>
// CHECK-COUNT-3: nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xf16, 3>
// CHECK-NOT:     nvgpu.tma.async.load
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 144, k = 16>
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         arith.constant 112 : index
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         gpu.return

// N136: error: sm90 configs need block = [64 | 128 | 192, N, 64] with N a multiple of 16 from 64 to 256
func.func @narrow(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1536x1536xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 144, 64], warp = [64, 144, 64], mma = [64, 144, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf32>)
  return
}

// -----

// B stored [n][k] (K-major): one box of exactly 144 rows, a stage of
// (128 + 144) rows; f16 C (128-byte chunks of 64 columns) leaves in two
// whole chunks and one at column 80.
// CHECK-LABEL: gpu.func @narrow_nt_kernel(
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c34816
// CHECK:         nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xf16, 3>
// CHECK-NEXT:    arith.constant 16384 : index
// CHECK:         nvgpu.tma.async.load {{.*}} : <tensor = memref<144x64xf16, 3>
// CHECK-NOT:     nvgpu.tma.async.load
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 144, k = 16>
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         arith.constant 80 : index
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @narrow_nt(%A: memref<1536x256xf16>, %B: memref<1536x256xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  linalg.matmul indexing_maps = [#mA, #mB, #mC] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 144, 64], warp = [64, 144, 64], mma = [64, 144, 16], stages = 5, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
      ins(%A, %B : memref<1536x256xf16>, memref<1536x256xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- n136.mlir
func.func @narrow(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 136, 64], warp = [64, 136, 64], mma = [64, 136, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf32>)
  return
}
