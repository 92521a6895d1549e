// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64}),tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 raster=1 persistent=0}),tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=SCHED

// The matmul and its zero fill leave the host function; a generated kernel
// module takes their place.
// CHECK:       module attributes {gpu.container_module
// CHECK-LABEL: func.func @mm(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    tcgen.kernel = @mm_kernel
// CHECK-NOT:   linalg
// CHECK:       return
// Without persistence one block per tile is launched (flag 0), and raster = 1
// walks the tiles in row-major order (groups of one tile row).
// SCHED: tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 197632, 0>
// CHECK-LABEL: gpu.module @mm_kernel
// The dynamic shared memory is declared 16-byte aligned only: the driver
// does not promise more, and the kernel rounds the ring up to 1024 bytes
// at run time (a 1024 declared here let LLVM fold that rounding away).
// CHECK:       memref.global @__tcgen_dsmem : memref<0xi8, 3> {alignment = 16 : i64}
// CHECK:       gpu.func @mm_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: memref<256x512xf32>) kernel
// CHECK-SAME:    nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK-SAME:    tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 197632, 1>
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C"]
// CHECK-SAME:    tcgen.setmaxnreg = array<i64: 48, 224, 2>
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 64>}
// 4 stages of full/empty barriers.
// CHECK:       nvgpu.mbarrier.create -> <{{.*}}num_barriers = 4>
// Producer warpgroup (the third): registers down, one A box and four B boxes per stage.
// CHECK:       nvvm.setmaxregister decrease 48
// CHECK:       nvgpu.mbarrier.try_wait.parity %{{.*}}[%{{.*}}]
// CHECK:       nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-5: nvgpu.tma.async.load
// Consumers: registers up, four k16 steps of m64n256k16 per stage, release
// the previous stage once its group is done.
// CHECK:       nvvm.setmaxregister increase 224
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK:       nvvm.wgmma.commit.group.sync.aligned
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:       nvgpu.mbarrier.arrive %{{.*}}[%{{.*}}]
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 0
// Epilogue: 2 x 32 pairs of f32 per thread.
// CHECK-COUNT-64: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<256x512xf32>, vector<2xf32>
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @accumulate(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  // expected-error @+1 {{the sm90 back end computes C = A*B only}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @not_multiple(%A: memref<256x128xf16>, %B: memref<128x320xf16>, %C: memref<256x320xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x320xf32>)
  // expected-error @+1 {{N=320 is not a multiple of the block tile 256}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x320xf16>) outs(%C : memref<256x320xf32>)
  return
}
