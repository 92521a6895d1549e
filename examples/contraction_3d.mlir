// Seed 001's 3-d contraction C[i,j] = sum_{k,l} A[i,k,l] B[l,k,j] on
// tensors. A and B order their two K dimensions differently, so they do
// not collapse into one: the sm90 kernel reads k as a batch of A ([i][k][l]
// = A[m][b][k]) and of B ([l][k][j] = B[k][b][n]) through 3-d tensor maps
// and sums it in every tile's K loop (the bundle's op.batch_reduce: 16
// matrices of 4096 x 256 times 256 x 4096, one C of 4096 x 4096).
func.func @contraction_3d(%A: tensor<4096x16x256xf16>, %B: tensor<256x16x4096xf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4096x4096xf32>
  %C0 = linalg.fill ins(%zero : f32) outs(%init : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %C = linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>,
                                        affine_map<(i, j, k, l) -> (l, k, j)>,
                                        affine_map<(i, j, k, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : tensor<4096x16x256xf16>, tensor<256x16x4096xf16>)
      outs(%C0 : tensor<4096x4096xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<4096x4096xf32>
  return %C : tensor<4096x4096xf32>
}
