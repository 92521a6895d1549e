// D = relu(A*B + A2*B2) (add(gemm, gemm) with a ReLU after it), f16 in,
// f16 out, 1024 x 1024 with K = 1024 + 512: tcgen-chain-contractions makes
// the second matmul accumulate onto the first, and the sm90 kernel walks
// both products' k-tiles into one set of accumulators; the ReLU is its
// fused epilogue.
func.func @add_gemm_gemm_relu(%A: tensor<1024x1024xf16>, %B: tensor<1024x1024xf16>,
                              %A2: tensor<1024x512xf16>, %B2: tensor<512x1024xf16>)
    -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1024x1024xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %P = linalg.matmul ins(%A, %B : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                     outs(%f : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %Q = linalg.matmul ins(%A2, %B2 : tensor<1024x512xf16>, tensor<512x1024xf16>)
                     outs(%f : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %S = linalg.add ins(%P, %Q : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                  outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %R = linalg.max ins(%S, %z : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                  outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  return %R : tensor<1024x1024xf16>
}
