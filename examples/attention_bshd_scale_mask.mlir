// Attention scores over the [batch, seq, heads, features] layout with a
// fused epilogue: S[b,h,s,t] = (sum_d Q[b,s,h,d] K[b,t,h,d]) * 0.125 +
// M[b,h,s,t], a mask of the scores' shape. The product reads Q and K
// through 4-d tensor maps (attention_bshd.mlir); the scale and the mask
// are computed on its accumulators, the mask loaded at the tile's (b, h).
func.func @attention_bshd_scale_mask(%Q: tensor<2x384x8x64xf16>, %K: tensor<2x384x8x64xf16>, %M: tensor<2x8x384x384xf16>) -> tensor<2x8x384x384xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %init = tensor.empty() : tensor<2x8x384x384xf32>
  %S0 = linalg.fill ins(%zero : f32) outs(%init : tensor<2x8x384x384xf32>) -> tensor<2x8x384x384xf32>
  %S = linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>,
                                        affine_map<(b, h, s, t, d) -> (b, t, h, d)>,
                                        affine_map<(b, h, s, t, d) -> (b, h, s, t)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : tensor<2x384x8x64xf16>, tensor<2x384x8x64xf16>)
      outs(%S0 : tensor<2x8x384x384xf32>) {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x8x384x384xf32>
  %e = tensor.empty() : tensor<2x8x384x384xf16>
  %Y = linalg.generic {indexing_maps = [affine_map<(b, h, s, t) -> (b, h, s, t)>, affine_map<(b, h, s, t) -> (b, h, s, t)>, affine_map<(b, h, s, t) -> (b, h, s, t)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%S, %M : tensor<2x8x384x384xf32>, tensor<2x8x384x384xf16>) outs(%e : tensor<2x8x384x384xf16>) {
  ^bb0(%x: f32, %m: f16, %o: f16):
    %sc = arith.mulf %x, %scale : f32
    %mf = arith.extf %m : f16 to f32
    %t = arith.addf %sc, %mf : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2x8x384x384xf16>
  return %Y : tensor<2x8x384x384xf16>
}
