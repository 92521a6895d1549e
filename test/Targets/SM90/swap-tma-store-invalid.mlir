// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// Configs written by hand (tcgen-configure refuses these first): the
// kernel builder checks the transposed TMA stores of a swapped kernel too.
func.func @f32_c(%A: memref<256x512xf16>, %B: memref<512x1024xf16>, %C: memref<256x1024xf32>) {
  // expected-error @+1 {{swap with store = tma needs a 16-bit C (f32 C is stored from registers)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma", swap = true>} ins(%A, %B : memref<256x512xf16>, memref<512x1024xf16>) outs(%C : memref<256x1024xf32>)
  return
}

// -----

func.func @narrow(%A: memref<256x512xf16>, %B: memref<512x1024xf16>, %C: memref<256x1024xf16>) {
  // expected-error @+1 {{swap with store = tma needs a block tile N of 64 or more (one store chunk)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 32, 64], warp = [64, 32, 64], mma = [64, 32, 16], stages = 4, padding = 0, store = "tma", swap = true>} ins(%A, %B : memref<256x512xf16>, memref<512x1024xf16>) outs(%C : memref<256x1024xf16>)
  return
}

// -----

func.func @odd_rows(%A: memref<256x512xf16>, %B: memref<512x1001xf16>, %C: memref<256x1001xf16>) {
  // expected-error @+1 {{swap with store = tma needs C's rows 16-byte multiples apart (N a multiple of 8)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma", swap = true>} ins(%A, %B : memref<256x512xf16>, memref<512x1001xf16>) outs(%C : memref<256x1001xf16>)
  return
}
