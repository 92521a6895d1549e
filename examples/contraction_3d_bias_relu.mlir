// Seed 001's 3-d contraction with a fused epilogue: Y[i,j] =
// relu(sum_{k,l} A[i,k,l] B[l,k,j] + bias[j]). The contraction compiles as
// a summed batch (contraction_3d.mlir) and the consumer is computed on its
// accumulators, as for a plain matmul.
func.func @contraction_3d_bias_relu(%A: tensor<1024x8x128xf16>, %B: tensor<128x8x768xf16>, %bias: tensor<768xf32>) -> tensor<1024x768xf16> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1024x768xf32>
  %C0 = linalg.fill ins(%zero : f32) outs(%init : tensor<1024x768xf32>) -> tensor<1024x768xf32>
  %C = linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>,
                                        affine_map<(i, j, k, l) -> (l, k, j)>,
                                        affine_map<(i, j, k, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : tensor<1024x8x128xf16>, tensor<128x8x768xf16>)
      outs(%C0 : tensor<1024x768xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x768xf32>
  %e = tensor.empty() : tensor<1024x768xf16>
  %Y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : tensor<1024x768xf32>, tensor<768xf32>) outs(%e : tensor<1024x768xf16>) {
  ^bb0(%x: f32, %bv: f32, %o: f16):
    %s = arith.addf %x, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1024x768xf16>
  return %Y : tensor<1024x768xf16>
}
