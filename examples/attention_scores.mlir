// Attention scores S[b,h,q,k] = sum_d Q[b,h,q,d] K[b,h,k,d] (einsum
// "bhqd,bhkd->bhqk") on tensors: two batch dimensions, which
// tcgen-collapse-dims folds into one batch of b*h matrices (the bundle
// describes Q as [b*h, q, d], and so on: the same memory); K is read
// K-major (B stored [n][k]).
func.func @attention_scores(%Q: tensor<4x16x512x64xf16>, %K: tensor<4x16x512x64xf16>) -> tensor<4x16x512x512xf16> {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<4x16x512x512xf16>
  %S0 = linalg.fill ins(%zero : f16) outs(%init : tensor<4x16x512x512xf16>) -> tensor<4x16x512x512xf16>
  %S = linalg.generic {indexing_maps = [affine_map<(b, h, q, k, d) -> (b, h, q, d)>,
                                        affine_map<(b, h, q, k, d) -> (b, h, k, d)>,
                                        affine_map<(b, h, q, k, d) -> (b, h, q, k)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : tensor<4x16x512x64xf16>, tensor<4x16x512x64xf16>)
      outs(%S0 : tensor<4x16x512x512xf16>) {
  ^bb0(%q: f16, %k: f16, %s: f16):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %sf = arith.extf %s : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %t = arith.addf %sf, %p : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x16x512x512xf16>
  return %S : tensor<4x16x512x512xf16>
}
