
// A bias broadcast along M as the init (a generic with a (i, j) -> (j)
// input): peeled the same way, so the bias ²becomes an epilogue input.
func.func @bias_init(%A: tensor<128x64xf32>, %B: tensor<64x32xf32>,
                     %bias: tensor<32xf32>) -> tensor<128x32xf32> {
  %e = tensor.empty() : tensor<128x32xf32>
  %I = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%e : tensor<128x32xf32>) dimensions =([0]
  %D = linalg.matmul ins(%A, %B : tensor<128x64xf32>, tensor<64x32xf32>)
                     outs(%I : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %D : tensor<128x32xf32>
}

