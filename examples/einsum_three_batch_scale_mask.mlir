// Three batch dimensions that do not collapse into fewer, with a fused
// epilogue: S[b,h,g,m,n] = (sum_k A[b,m,h,g,k] B[g,b,n,h,k]) * 0.125 +
// M[b,h,g,m,n]. h and g sit together in A but not in B, b and h nowhere,
// so each operand is read through a 5-d tensor map (its k, the matrix row,
// and the three batch dimensions in stride order); the mask is loaded at
// the tile's (b, h, g).
func.func @einsum_three_batch_scale_mask(%A: tensor<2x256x3x4x64xf16>, %B: tensor<4x2x384x3x64xf16>, %M: tensor<2x3x4x256x384xf16>) -> tensor<2x3x4x256x384xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %init = tensor.empty() : tensor<2x3x4x256x384xf32>
  %S0 = linalg.fill ins(%zero : f32) outs(%init : tensor<2x3x4x256x384xf32>) -> tensor<2x3x4x256x384xf32>
  %S = linalg.generic {indexing_maps = [affine_map<(b, h, g, m, n, k) -> (b, m, h, g, k)>,
                                        affine_map<(b, h, g, m, n, k) -> (g, b, n, h, k)>,
                                        affine_map<(b, h, g, m, n, k) -> (b, h, g, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<2x256x3x4x64xf16>, tensor<4x2x384x3x64xf16>)
      outs(%S0 : tensor<2x3x4x256x384xf32>) {
  ^bb0(%x: f16, %y: f16, %s: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4x256x384xf32>
  %e = tensor.empty() : tensor<2x3x4x256x384xf16>
  %Y = linalg.generic {indexing_maps = [affine_map<(b, h, g, m, n) -> (b, h, g, m, n)>, affine_map<(b, h, g, m, n) -> (b, h, g, m, n)>, affine_map<(b, h, g, m, n) -> (b, h, g, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%S, %M : tensor<2x3x4x256x384xf32>, tensor<2x3x4x256x384xf16>) outs(%e : tensor<2x3x4x256x384xf16>) {
  ^bb0(%x: f32, %m: f16, %o: f16):
    %sc = arith.mulf %x, %scale : f32
    %mf = arith.extf %m : f16 to f32
    %t = arith.addf %sc, %mf : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2x3x4x256x384xf16>
  return %Y : tensor<2x3x4x256x384xf16>
}
