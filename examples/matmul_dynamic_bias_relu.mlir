// relu(A B + bias[j]) with M, N and K known at run time only: one sm90
// kernel, the bias (a row vector of the run-time N) fused into the
// epilogue. `tcgen-gpu run DIR --sizes M,N,K` runs it.
func.func @dyn_bias_relu(%A: tensor<?x?xf16>, %B: tensor<?x?xf16>, %bias: tensor<?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf16>
  %n = tensor.dim %B, %c1 : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty(%m, %n) : tensor<?x?xf16>
  %C = linalg.fill ins(%zero : f16) outs(%init : tensor<?x?xf16>) -> tensor<?x?xf16>
  %P = linalg.matmul ins(%A, %B : tensor<?x?xf16>, tensor<?x?xf16>) outs(%C : tensor<?x?xf16>) -> tensor<?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf16>
  %Y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%P, %bias : tensor<?x?xf16>, tensor<?xf16>) outs(%e : tensor<?x?xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  } -> tensor<?x?xf16>
  return %Y : tensor<?x?xf16>
}
