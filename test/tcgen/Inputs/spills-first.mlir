// add(A1 B1, A2 B2) over K = 256 + 256 with an odd N and an f32 C: the
// model's first choice (128x256 without a cluster) spills 12 bytes.
func.func @spills_first(%A: tensor<1024x256xf16>, %B: tensor<256x4093xf16>, %A2: tensor<1024x256xf16>, %B2: tensor<256x4093xf16>) -> tensor<1024x4093xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x4093xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x4093xf32>) -> tensor<1024x4093xf32>
  %P = linalg.matmul ins(%A, %B : tensor<1024x256xf16>, tensor<256x4093xf16>) outs(%f : tensor<1024x4093xf32>) -> tensor<1024x4093xf32>
  %Q = linalg.matmul ins(%A2, %B2 : tensor<1024x256xf16>, tensor<256x4093xf16>) outs(%f : tensor<1024x4093xf32>) -> tensor<1024x4093xf32>
  %S = linalg.add ins(%P, %Q : tensor<1024x4093xf32>, tensor<1024x4093xf32>) outs(%e : tensor<1024x4093xf32>) -> tensor<1024x4093xf32>
  return %S : tensor<1024x4093xf32>
}
