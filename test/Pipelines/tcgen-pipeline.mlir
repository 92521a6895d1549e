// RUN: tcgen-opt %S/../Transforms/Inputs/matmul-128x128x64.mlir --tcgen-pipeline | FileCheck %s
// RUN: tcgen-opt %S/../Transforms/Inputs/matmul-128x128x64.mlir --tcgen-pipeline \
// RUN:   | tcgen-opt --tcgen-lower-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: tcgen-opt %S/../Transforms/Inputs/matmul-128x128x64.mlir --tcgen-pipeline \
// RUN:   | tcgen-opt --tcgen-lower-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX
// RUN: tcgen-opt %S/../Transforms/Inputs/matmul-128x128x64.mlir \
// RUN:   --tcgen-pipeline='promote=false hoist=false vectorize=false' | FileCheck %s --check-prefix=NAIVE

// The host keeps one launch of the outlined kernel, operands as arguments.
// CHECK:      func.func @mm(
// CHECK:        gpu.launch_func @mm_kernel::@mm_kernel blocks in (%c2, %c2, %c1) threads in (%c128, %c1, %c1) args(
// CHECK:      gpu.module @mm_kernel
// CHECK:        gpu.func @mm_kernel({{.*}}) kernel
// CHECK:          vector.load
// CHECK:          vector.store
// CHECK:          gpu.barrier
// CHECK:            vector.load
// CHECK:            gpu.subgroup_mma_compute
// CHECK:            gpu.barrier
// CHECK:            vector.store
// CHECK:            gpu.barrier
// CHECK:          gpu.subgroup_mma_compute
// CHECK:          gpu.subgroup_mma_store_matrix

// Bare pointers for the statically shaped operands, WMMA intrinsics.
// NVVM:       llvm.func @mm_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {gpu.kernel
// NVVM:       nvvm.wmma.load
// NVVM:       nvvm.wmma.mma
// NVVM:       nvvm.wmma.store

// PTX:        gpu.binary @mm_kernel
// PTX-SAME:   .target sm_90a
// PTX-SAME:   ld.global.v4

// Every optimization off: WMMA straight from global memory, C in memory.
// NAIVE-NOT:  gpu.barrier
// NAIVE-NOT:  vector.load
// NAIVE:      gpu.subgroup_mma_load_matrix {{.*}} : memref<128x64xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
// NAIVE:      gpu.subgroup_mma_store_matrix
