// A batch of 8 independent matmuls, C[b] = A[b] * B[b]^T, written on
// tensors: B is stored [batch][n][k] (K contiguous, as attention's K^T
// operand usually is). `tcgen compile --target=sm_90a` generates one
// kernel whose blocks walk the tiles of all 8 matrices.
func.func @batch_matmul(%a: tensor<8x512x256xf16>, %b: tensor<8x384x256xf16>) -> tensor<8x512x384xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x512x384xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x512x384xf32>) -> tensor<8x512x384xf32>
  %c = linalg.batch_matmul
         indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                          affine_map<(b, m, n, k) -> (b, n, k)>,
                          affine_map<(b, m, n, k) -> (b, m, n)>]
         ins(%a, %b : tensor<8x512x256xf16>, tensor<8x384x256xf16>)
         outs(%c0 : tensor<8x512x384xf32>) -> tensor<8x512x384xf32>
  return %c : tensor<8x512x384xf32>
}
