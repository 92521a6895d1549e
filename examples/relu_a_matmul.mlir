// C = relu(A) * B (a prologue), f16 in and out, 1024^3: the pointwise
// producer of A is applied to the A tiles in shared memory by the sm90
// kernel's consumers (docs/DESIGN.md, fused prologues).
func.func @relu_a_matmul(%A: tensor<1024x1024xf16>, %B: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %zin = arith.constant 0.0 : f16
  %ea = tensor.empty() : tensor<1024x1024xf16>
  %R = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%A : tensor<1024x1024xf16>) outs(%ea : tensor<1024x1024xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %zin : f16
    linalg.yield %r : f16
  } -> tensor<1024x1024xf16>
  %e = tensor.empty() : tensor<1024x1024xf16>
  %C = linalg.fill ins(%zero : f16) outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %D = linalg.matmul ins(%R, %B : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%C : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  return %D : tensor<1024x1024xf16>
}
