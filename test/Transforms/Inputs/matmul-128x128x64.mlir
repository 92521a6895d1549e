// Shared input: 128x128x64 f16 -> f32, 2x2 blocks of 2x2 warps, two warp-k
// steps per block-k step.
func.func @mm(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
