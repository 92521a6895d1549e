// RUN: split-file %s %t
// RUN: tcgen-opt %t/cluster.mlir -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=64,192,64 cluster=2,1}))'
// RUN: tcgen-opt %t/stream-k.mlir -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,144,64 stream-k=1}))'
// RUN: tcgen-opt %t/stages.mlir -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=192,96,64 warp-tile=192,96,64 stages=6 store=tma}))'
// RUN: tcgen-opt %t/tma-store.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 store=tma}))'
// RUN: tcgen-opt %t/tma-store.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 store=tma pack=never}))'

// The sm90 checks of a configuration against its problem that
// tcgen-configure makes (verifyConfigFits) before the kernel builder sees
// it; each part is configured with the options its RUN line gives. (The
// back end's structure tests in test/Targets/SM90 start from written
// configurations.)

//--- cluster.mlir
// A 2x1 cluster splits B's 192-wide tile: three 64-wide N-major boxes do
// not halve.
func.func @mm(%A: memref<384x512xf16>, %B: memref<512x384xf16>, %C: memref<384x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<384x384xf32>)
  // expected-error @+1 {{cluster [2, 1] splits the shared MN-major operand tile into two halves of 64-wide boxes: its tile size must be a multiple of 128}}
  linalg.matmul ins(%A, %B : memref<384x512xf16>, memref<512x384xf16>) outs(%C : memref<384x384xf32>)
  return
}

//--- stream-k.mlir
// Stream-K's partial tiles are stored in 64-column groups.
func.func @narrow(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1536x1536xf32>)
  // expected-error @+1 {{stream-K needs a block tile N that is a multiple of 64, not 144}}
  linalg.matmul ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf32>)
  return
}

//--- stages.mlir
// Six stages of a 192x96 tile do not fit in shared memory.
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  // expected-error @+1 {{6 stages need 263168 bytes of shared memory; sm90 kernels need 2 or more stages within 232448 bytes}}
  linalg.matmul ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- tma-store.mlir
// TMA stores cannot write rows of 325 f32 (1300 bytes) ...
func.func @odd_n(%A: memref<256x128xf16>, %B: memref<128x325xf16>, %C: memref<256x325xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x325xf32>)
  // expected-error @+1 {{TMA stores need the rows of C to be a multiple of 16 bytes apart, but N=325 f32 elements are 1300 bytes (store = "staged" or "global" writes them)}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x325xf16>) outs(%C : memref<256x325xf32>)
  return
}

// -----

// ... nor of 324 f16 (648 bytes).
func.func @tma_store(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<256x324xf16>)
  // expected-error @+1 {{TMA stores need the rows of C to be a multiple of 16 bytes apart, but N=324 f16 elements are 648 bytes (store = "staged" or "global" writes them)}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf16>)
  return
}
