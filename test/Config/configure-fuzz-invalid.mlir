// Option and input combinations the linalg fuzzer (fuzz/linalg_fuzzer.cpp)
// found crashing tcgen-configure; each is now a clear error.
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 warp-tile=32,16,16}))'

// The ring's size was divided by warp tile m / 64 = 0 row blocks.
func.func @sm90_warp_tile_below_64_rows(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{invalid configuration: warp tile m=32 is not a multiple of the mma shape 64}}
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}
