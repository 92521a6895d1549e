// add(gemm, gemm) with A and A2 stored [k][m], M = 61 (rows of 122 bytes):
// both are packed, and both packs are described transposed.
func.func @dual_packs_ta(%A: tensor<128x61xf16>, %B: tensor<128x32xf16>, %A2: tensor<64x61xf16>, %B2: tensor<64x32xf16>) -> tensor<61x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<61x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<61x32xf32>) -> tensor<61x32xf32>
  %P = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : tensor<128x61xf16>, tensor<128x32xf16>) outs(%f : tensor<61x32xf32>) -> tensor<61x32xf32>
  %Q = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%A2, %B2 : tensor<64x61xf16>, tensor<64x32xf16>) outs(%f : tensor<61x32xf32>) -> tensor<61x32xf32>
  %S = linalg.add ins(%P, %Q : tensor<61x32xf32>, tensor<61x32xf32>) outs(%e : tensor<61x32xf32>) -> tensor<61x32xf32>
  return %S : tensor<61x32xf32>
}
