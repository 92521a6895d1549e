// relu(A * B + bias) with f16 inputs, a bias along N and an f16 output,
// on tensors. The sm90 back end computes the bias add and the ReLU on the
// accumulators in registers and writes the result once:
// `tcgen compile examples/matmul_bias_relu.mlir -o out/`.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%A: tensor<1024x1024xf16>, %B: tensor<1024x1024xf16>,
                            %bias: tensor<1024xf16>) -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<1024x1024xf16>
  %C = linalg.fill ins(%zero : f16) outs(%init : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %D = linalg.matmul ins(%A, %B : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                     outs(%C : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %e = tensor.empty() : tensor<1024x1024xf16>
  %R = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%D, %bias : tensor<1024x1024xf16>, tensor<1024xf16>) outs(%e : tensor<1024x1024xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  } -> tensor<1024x1024xf16>
  return %R : tensor<1024x1024xf16>
}
