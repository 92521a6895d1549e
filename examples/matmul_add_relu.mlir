// relu(A * B + D) written with named ops on tensors: tcgen-fuse-elementwise
// merges linalg.add and linalg.max into one generic, which the sm90 back
// end computes in the kernel's epilogue (D read in the accumulator layout).
func.func @matmul_add_relu(%A: tensor<1024x1024xf16>, %B: tensor<1024x1024xf16>,
                           %D: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<1024x1024xf16>
  %C = linalg.fill ins(%zero : f16) outs(%init : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %M = linalg.matmul ins(%A, %B : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                     outs(%C : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %e = tensor.empty() : tensor<1024x1024xf16>
  %S = linalg.add ins(%M, %D : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                  outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %R = linalg.max ins(%S, %z : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                  outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  return %R : tensor<1024x1024xf16>
}
