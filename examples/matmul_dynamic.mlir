// C = A * B with M, N and K known only at run time: one kernel for every
// size (the sm90 back end). The manifest gives the sizes as -1 and the
// kernel takes them as parameters; `tcgen-gpu run DIR --sizes M,N,K` runs it.
func.func @matmul_dynamic(%A: tensor<?x?xf16>, %B: tensor<?x?xf16>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf16>
  %n = tensor.dim %B, %c1 : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %C = linalg.fill ins(%zero : f32) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %D = linalg.matmul ins(%A, %B : tensor<?x?xf16>, tensor<?x?xf16>)
                     outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %D : tensor<?x?xf32>
}
