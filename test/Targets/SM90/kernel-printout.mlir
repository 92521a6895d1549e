// The generated kernels of nine configurations print exactly as stored
// (stream-K with stores from registers, a 2x1 cluster with TMA stores,
// sizes known at run time, a fused epilogue, a fused prologue in shared
// memory and in registers, pack kernels, tf32, two row blocks per
// warpgroup): the typed generator is checked op for op against the module
// the former text generator produced (Inputs/printout-*.expected, made by
// it).
// A change that means to alter the kernels regenerates them with the RUN
// line's command.
// RUN: tcgen-opt %S/stream-k.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64 stream-k=1 store=global}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-stream-k.expected -
// RUN: tcgen-opt %S/cluster.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 cluster=2,1}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-cluster.expected -
// RUN: tcgen-opt %S/Inputs/printout-dynamic.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-dynamic.expected -
// RUN: tcgen-opt %S/Inputs/printout-bias-relu.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-bias-relu.expected -
// RUN: tcgen-opt %S/Inputs/printout-relu-a.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64 prologue=smem}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-relu-a.expected -
// RUN: tcgen-opt %S/Inputs/printout-packs.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64 pack=always}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-packs.expected -
// RUN: tcgen-opt %S/Inputs/printout-tf32.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,32 allow-tf32=true}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-tf32.expected -
// RUN: tcgen-opt %S/row-blocks.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64 warp-tile=128,64,64 store=tma stages=5}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-row-blocks.expected -
// RUN: tcgen-opt %S/Inputs/printout-relu-a.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,64,64}),tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-relu-a-regs.expected -
