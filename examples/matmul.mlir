// C = A * B with f16 inputs and f32 output, on tensors (value semantics).
// `tcgen compile examples/matmul.mlir -o out/` writes out/matmul_kernel.{cubin,ptx,json}.
func.func @matmul(%A: tensor<1024x1024xf16>, %B: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1024x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
                     outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %D : tensor<1024x1024xf32>
}
