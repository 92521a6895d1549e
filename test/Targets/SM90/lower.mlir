// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' \
// RUN:   | tcgen-opt --tcgen-lower-to-nvvm | FileCheck %s
// RUN: tcgen-opt %t/check.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' \
// RUN:   | tcgen-opt --tcgen-lower-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX

// RUN: tcgen-opt %t/global.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' \
// RUN:   | tcgen-opt --tcgen-lower-to-nvvm | FileCheck %s --check-prefix=GLOBAL

//--- check.mlir
// The tensor maps (A, B and, with TMA stores, C) become __grid_constant__
// by-value parameters.
// CHECK:      llvm.func @mm_kernel(%{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NOT:  builtin.unrealized_conversion_cast
// GLOBAL:     llvm.func @mm_kernel(%{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr)

// PTX: .param .align 64 .b8 mm_kernel_param_0[128]
// PTX-SAME: setmaxnreg.dec.sync.aligned.u32 \0948;
// PTX-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-SAME: setmaxnreg.inc.sync.aligned.u32 \09224;
// Scale-d from p, A K-major (trans-a 0), B N-major (trans-b 1).
// PTX-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// PTX-SAME: p, 1,  1, 0,  1;
// The epilogue: swizzled shared stores, the proxy fence, a named barrier of
// the warpgroup, then the predicated TMA store of the chunk.
// PTX-SAME: st.shared.v2.b32
// PTX-SAME: fence.proxy.async.shared::cta;
// PTX-SAME: bar.sync
// PTX-SAME: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX-SAME: cp.async.bulk.commit_group;
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- global.mlir
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
