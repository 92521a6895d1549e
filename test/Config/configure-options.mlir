// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma block-tile=64,64,32 warp-tile=32,32,32 padding=0 vector=4}))' | FileCheck %s
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma block-tile=64,64,32 warp-tile=48,32,32}))' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 stream-k=1 persistent=0}))' 2>&1 | FileCheck %s --check-prefix=SK
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 store=global}))' | FileCheck %s --check-prefix=GLOBAL
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 store=tma}))' | FileCheck %s --check-prefix=TMA
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma store=tma}))' 2>&1 | FileCheck %s --check-prefix=TMA-WMMA
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 store=smem}))' 2>&1 | FileCheck %s --check-prefix=BAD-STORE
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma block-tile=128,256,32}))' | FileCheck %s --check-prefix=ONE-STAGE
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma stages=1}))' | FileCheck %s --check-prefix=STAGES1
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma stages=3}))' 2>&1 | FileCheck %s --check-prefix=STAGES3
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma stages=9}))' 2>&1 | FileCheck %s --check-prefix=STAGES9
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=wmma block-tile=128,256,32 stages=2}))' 2>&1 | FileCheck %s --check-prefix=STAGES2-BIG
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 stages=3}))' | FileCheck %s --check-prefix=SM90-STAGES
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 stages=1}))' 2>&1 | FileCheck %s --check-prefix=SM90-ONE

// The options override the default field by field.
// CHECK: linalg.matmul {tcgen.config = #tcgen.config<backend = "wmma", block = [64, 64, 32], warp = [32, 32, 32], mma = [16, 16, 16], stages = 2, padding = 0, vector = 4, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">}
// ERR: error: 'linalg.matmul' op invalid configuration: block tile m=64 is not a multiple of warp tile 48
// Stream-K asked for without persistent blocks is refused, not dropped.
// SK: error: 'linalg.matmul' op invalid configuration: streamk needs the sm90 back end and persistent = true
// The store buffers of TMA stores (2 x 8 KiB per consumer warpgroup) cost
// the 128x256 ring no stage: 4 x 48 KiB + 32 KiB fit in 227 KiB.
// GLOBAL: stages = 4{{.*}}store = "global">
// TMA: stages = 4{{.*}}store = "tma">
// TMA-WMMA: error: 'linalg.matmul' op invalid configuration: store = "tma" needs the sm90 back end (sm80 and wmma: "staged" or "global")
// BAD-STORE: error: 'linalg.matmul' op invalid configuration: unknown store 'smem' (available: global, tma, staged)
// wmma double-buffers where two stages fit in 48 KiB of static shared
// memory: 128x256x32 tiles take 27 KiB per stage, so one stage.
// ONE-STAGE: block = [128, 256, 32]{{.*}} stages = 1,
// STAGES1: block = [128, 128, 32]{{.*}} stages = 1,
// More than two stages need --async-copies, and must fit the 48 KiB too.
// STAGES3: error: 'linalg.matmul' op configuration needs 56832 bytes of shared memory, more than the 49152 bytes available to one block on sm_90a
// STAGES9: error: 'linalg.matmul' op the wmma back end keeps 1 to 8 stages of shared buffers, not 9
// STAGES2-BIG: error: 'linalg.matmul' op configuration needs 54272 bytes of shared memory, more than the 49152 bytes available to one block on sm_90a
// On sm90 the option sets the ring's depth instead of the deepest that fits
// (4 here); the ring needs two stages.
// SM90-STAGES: backend = "sm90", block = [128, 256, 64]{{.*}} stages = 3,
// SM90-ONE: error: 'linalg.matmul' op 1 stages need {{[0-9]+}} bytes of shared memory; sm90 kernels need 2 or more stages
func.func @options(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
