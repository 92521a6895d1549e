// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,144,64}),tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,136,64}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=N136
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,144,64 stream-k=1}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=SK

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

// N136: error: 'linalg.matmul' op invalid configuration: sm90 configs need block = [64 | 128 | 192, N, 64] with N a multiple of 16 from 64 to 256
// SK: error: 'linalg.matmul' op stream-K needs a block tile N that is a multiple of 64, not 144
func.func @narrow(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1536x1536xf32>)
  linalg.matmul ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf32>)
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
  linalg.matmul indexing_maps = [#mA, #mB, #mC]
      ins(%A, %B : memref<1536x256xf16>, memref<1536x256xf16>) outs(%C : memref<1536x1536xf16>)
  return
}
