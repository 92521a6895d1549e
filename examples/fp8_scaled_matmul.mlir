// C = (A B^T) * scale_a * scale_b with e4m3 inputs (the OCP FP8 format the
// Hopper tensor cores multiply), f32 accumulation, per-tensor scales and a
// bf16 output: A [m][k] and B [n][k] are read K-major (as cuBLASLt's fp8
// kernels read them), and the scales are a fused epilogue on the f32
// accumulators. `tcgen compile examples/fp8_scaled_matmul.mlir -o out/`.
func.func @fp8_scaled_matmul(%A: tensor<2048x4096xf8E4M3FN>, %B: tensor<1024x4096xf8E4M3FN>,
                             %scale_a: tensor<f32>, %scale_b: tensor<f32>) -> tensor<2048x1024xbf16> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2048x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%init : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %P = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
         ins(%A, %B : tensor<2048x4096xf8E4M3FN>, tensor<1024x4096xf8E4M3FN>)
         outs(%C : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %e = tensor.empty() : tensor<2048x1024xbf16>
  %Y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>,
                                        affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%P, %scale_a, %scale_b : tensor<2048x1024xf32>, tensor<f32>, tensor<f32>)
      outs(%e : tensor<2048x1024xbf16>) {
  ^bb0(%x: f32, %sa: f32, %sb: f32, %o: bf16):
    %s = arith.mulf %x, %sa : f32
    %t = arith.mulf %s, %sb : f32
    %r = arith.truncf %t : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2048x1024xbf16>
  return %Y : tensor<2048x1024xbf16>
}
