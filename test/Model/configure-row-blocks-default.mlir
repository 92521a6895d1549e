// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s --check-prefix=DEFAULT
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{cluster=1,2}))' | FileCheck %s --check-prefix=CLUSTER
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{stream-k=1}))' | FileCheck %s --check-prefix=SK
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{stages=4}))' | FileCheck %s --check-prefix=STAGES
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{warp-tile=64,128,64}))' | FileCheck %s --check-prefix=WARP

// BERT-large projection, 3072 x 1024 x 1024: the default is 192 x 128 in
// one wave with one consumer warpgroup over the three row blocks (warp
// tile M 192) and the 5 stages its two store buffers leave. The row blocks
// belong to that default: an asked-for cluster or stream-K (which they
// do not take) gives three warpgroups and the ring that fits them (4);
// a ring or a warp tile asked for is taken as it is.
// DEFAULT: block = [192, 128, 64], warp = [192, 128, 64], mma = [64, 128, 16], stages = 5{{.*}}streamk = false, cluster = [1, 1]
// CLUSTER: block = [192, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4{{.*}}cluster = [1, 2]
// SK:      block = [192, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4{{.*}}streamk = true, cluster = [1, 1]
// STAGES:  block = [192, 128, 64], warp = [192, 128, 64], mma = [64, 128, 16], stages = 4{{.*}}streamk = false
// WARP:    block = [192, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4{{.*}}streamk = false
func.func @bert(%A: memref<3072x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<3072x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<3072x1024xf16>)
  linalg.matmul ins(%A, %B : memref<3072x1024xf16>, memref<1024x1024xf16>) outs(%C : memref<3072x1024xf16>)
  return
}
