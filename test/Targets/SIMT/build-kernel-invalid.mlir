// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(tcgen-simt-build-kernel)'

func.func @f16(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{the simt back end takes f32 x f32 -> f32}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 16], warp = [32, 32, 16], mma = [4, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>)
  return
}

// -----

func.func @dynamic(%A: memref<?x64xf32>, %B: memref<64x64xf32>, %C: memref<?x64xf32>) {
  // expected-error @+1 {{the simt back end takes static sizes and one outermost batch dimension (or none)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 16], warp = [32, 32, 16], mma = [4, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<?x64xf32>, memref<64x64xf32>) outs(%C : memref<?x64xf32>)
  return
}

// -----

// A 64x1 tile of A does not split evenly over 128 threads.
func.func @uneven(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{a 64x1 tile does not split evenly over 128 threads}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 1], warp = [32, 32, 1], mma = [4, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

func.func @tensor(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{the simt back end needs a bufferized contraction in a function}}
  %r = linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 16], warp = [32, 32, 16], mma = [4, 8, 1], stages = 2, padding = 4, vector = 4, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">}
    ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>) outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
