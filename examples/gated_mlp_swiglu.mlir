// A Llama-style gated MLP's first half, as linalg users write it:
// H = silu(X W1^T) * (X W3^T), X [tokens, hidden], W1 and W3 [ffn, hidden]
// (weights [out, in]), bf16 in and out, f32 sums. The two products share X:
// tcgen computes them in one kernel (a dual GEMM) and applies the
// combine in its epilogue.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @swiglu(%X: tensor<512x4096xbf16>, %W1: tensor<11008x4096xbf16>,
                  %W3: tensor<11008x4096xbf16>) -> tensor<512x11008xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<512x11008xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<512x11008xbf16>) -> tensor<512x11008xbf16>
  %G = linalg.matmul indexing_maps = [#x, #w, #c]
         ins(%X, %W1 : tensor<512x4096xbf16>, tensor<11008x4096xbf16>)
         outs(%f : tensor<512x11008xbf16>) -> tensor<512x11008xbf16>
  %U = linalg.matmul indexing_maps = [#x, #w, #c]
         ins(%X, %W3 : tensor<512x4096xbf16>, tensor<11008x4096xbf16>)
         outs(%f : tensor<512x11008xbf16>) -> tensor<512x11008xbf16>
  %H = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
         ins(%G, %U : tensor<512x11008xbf16>, tensor<512x11008xbf16>)
         outs(%e : tensor<512x11008xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %gf = arith.extf %g : bf16 to f32
    %uf = arith.extf %u : bf16 to f32
    %ng = arith.negf %gf : f32
    %ex = math.exp %ng : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %s = arith.divf %gf, %den : f32
    %h = arith.mulf %s, %uf : f32
    %r = arith.truncf %h : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<512x11008xbf16>
  return %H : tensor<512x11008xbf16>
}
