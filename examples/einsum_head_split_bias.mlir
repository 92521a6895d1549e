// Several M and N dimensions that do not collapse into one, with a fused
// epilogue: the attention input projection Q[b,h,s,e] = (sum_d X[b,s,d]
// W[d,h,e]) * 0.125 + bias[e], written head-first in f16. M's dimensions
// (b, s) and N's (h, e) sit apart in Q, so s and e are the matrix's and b
// and h become batch dimensions that one input lacks: X is read once per
// head (its tensor map gives h stride 0), W once per b.
func.func @einsum_head_split_bias(%X: tensor<2x256x512xf16>, %W: tensor<512x4x64xf16>, %bias: tensor<64xf16>) -> tensor<2x4x256x64xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %init = tensor.empty() : tensor<2x4x256x64xf32>
  %S0 = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4x256x64xf32>) -> tensor<2x4x256x64xf32>
  %S = linalg.generic {indexing_maps = [affine_map<(b, h, s, e, d) -> (b, s, d)>,
                                        affine_map<(b, h, s, e, d) -> (d, h, e)>,
                                        affine_map<(b, h, s, e, d) -> (b, h, s, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : tensor<2x256x512xf16>, tensor<512x4x64xf16>)
      outs(%S0 : tensor<2x4x256x64xf32>) {
  ^bb0(%x: f16, %w: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x256x64xf32>
  %e = tensor.empty() : tensor<2x4x256x64xf16>
  %Q = linalg.generic {indexing_maps = [affine_map<(b, h, s, e) -> (b, h, s, e)>, affine_map<(b, h, s, e) -> (e)>, affine_map<(b, h, s, e) -> (b, h, s, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%S, %bias : tensor<2x4x256x64xf32>, tensor<64xf16>) outs(%e : tensor<2x4x256x64xf16>) {
  ^bb0(%x: f32, %bv: f16, %o: f16):
    %sc = arith.mulf %x, %scale : f32
    %bf = arith.extf %bv : f16 to f32
    %t = arith.addf %sc, %bf : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2x4x256x64xf16>
  return %Q : tensor<2x4x256x64xf16>
}
