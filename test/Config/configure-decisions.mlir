// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64}))' | FileCheck %s --check-prefix=UNSET
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 pack=async}))' | FileCheck %s --check-prefix=PACK
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 prologue=smem}))' | FileCheck %s --check-prefix=PROLOGUE
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 epilogue-loads=fragments}))' | FileCheck %s --check-prefix=LOADS
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 epilogue-in-half=true}))' | FileCheck %s --check-prefix=HALF
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure{pack=always epilogue-in-half=true}))' | FileCheck %s --check-prefix=SM80
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/decisions-cache.txt}))' | FileCheck %s --check-prefix=CACHE
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/decisions-cache.txt pack=b}))' | FileCheck %s --check-prefix=OVERRIDE
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{pack=sometimes}))' 2>&1 | FileCheck %s --check-prefix=BADPACK
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{prologue=nowhere}))' 2>&1 | FileCheck %s --check-prefix=BADPROLOGUE
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure{epilogue-loads=smem}))' 2>&1 | FileCheck %s --check-prefix=BADLOADS

// The sm90 back end's decisions are config fields: unset they stay at
// "auto" (not printed), an option sets one, the other back ends take none
// (the option is checked, then ignored), and a tuning-cache record's stand
// unless an option overrides them.
// UNSET: store = "tma">}
// PACK: store = "tma", pack = "async">}
// PROLOGUE: store = "tma", prologue = "smem">}
// LOADS: store = "tma", epilogue_loads = "fragments">}
// HALF: store = "tma", epilogue_in_half = true>}
// SM80: #tcgen.config<backend = "sm80"
// SM80-SAME: store = "staged">}
// CACHE: block = [128, 192, 64]{{.*}}store = "tma", pack = "never", epilogue_loads = "fragments">}
// OVERRIDE: block = [128, 192, 64]{{.*}}store = "tma", pack = "b", epilogue_loads = "fragments">}
// BADPACK: error: 'linalg.matmul' op --pack must be auto, always, never, a, b or async, not 'sometimes'
// BADPROLOGUE: error: 'linalg.matmul' op --prologue must be auto, regs, smem or pack, not 'nowhere'
// BADLOADS: error: 'linalg.matmul' op --epilogue-loads must be auto, fragments or tma, not 'smem'
func.func @mm(%a: memref<4096x512xf16>, %b: memref<512x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x512xf16>, memref<512x4096xf16>) outs(%c : memref<4096x4096xf32>)
  return
}
