// D = relu(C) + A*B (seed 001's transformed C input), f16, 1024^3: the
// matmul's init is relu(C); tcgen-peel-accumulator-init moves it into the
// fused epilogue, which reads C as a matrix input.
func.func @relu_c_plus_matmul(%A: tensor<1024x1024xf16>, %B: tensor<1024x1024xf16>, %C: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1024x1024xf16>
  %R = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%C : tensor<1024x1024xf16>) outs(%e : tensor<1024x1024xf16>) {
  ^bb0(%c: f16, %o: f16):
    %r = arith.maximumf %c, %zero : f16
    linalg.yield %r : f16
  } -> tensor<1024x1024xf16>
  %D = linalg.matmul ins(%A, %B : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%R : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  return %D : tensor<1024x1024xf16>
}
