// Attention scores S[b,h,s,t] = sum_d Q[b,s,h,d] K[b,t,h,d] (einsum
// "bshd,bthd->bhst") with Q and K in the [batch, seq, heads, features]
// layout: the batch dimensions b and h are not next to each other in Q and
// K, so they do not collapse into one. The sm90 kernel reads every operand
// through a 4-d tensor map (Q's: (d, h, s, b)) and walks the b x h
// matrices; the bundle describes Q as [b, h, s, d] by its strides (the
// same memory) with op.batch_shape [4, 16]. K is read K-major.
func.func @attention_bshd(%Q: tensor<4x512x16x64xf16>, %K: tensor<4x512x16x64xf16>) -> tensor<4x16x512x512xf16> {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<4x16x512x512xf16>
  %S0 = linalg.fill ins(%zero : f16) outs(%init : tensor<4x16x512x512xf16>) -> tensor<4x16x512x512xf16>
  %S = linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>,
                                        affine_map<(b, h, s, t, d) -> (b, t, h, d)>,
                                        affine_map<(b, h, s, t, d) -> (b, h, s, t)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : tensor<4x512x16x64xf16>, tensor<4x512x16x64xf16>)
      outs(%S0 : tensor<4x16x512x512xf16>) {
  ^bb0(%q: f16, %k: f16, %s: f16):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %sf = arith.extf %s : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %sf, %p : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x16x512x512xf16>
  return %S : tensor<4x16x512x512xf16>
}
