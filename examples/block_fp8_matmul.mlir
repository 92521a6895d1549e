// Block-scaled fp8 (DeepSeek-V3's recipe): e4m3 A [M][K] and B [N][K],
// f32 scales SA [M][K/128] (1 x 128 blocks of A) and SB [N/128][K/128]
// (128 x 128 blocks of B), C = sum over K blocks kb of
// SA[m][kb] SB[n/128][kb] (A B over the block), accumulated in f32 and
// rounded to bf16 by the consumer, which the kernel fuses.
//   tcgen compile examples/block_fp8_matmul.mlir -o out/bfp8
#mapA = affine_map<(m, n, k) -> (m, k)>
#mapB = affine_map<(m, n, k) -> (n, k)>
#mapSA = affine_map<(m, n, k) -> (m, k floordiv 128)>
#mapSB = affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>
#mapC = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @block_fp8(%a: tensor<4096x7168xf8E4M3FN>, %b: tensor<2048x7168xf8E4M3FN>,
                     %sa: tensor<4096x56xf32>, %sb: tensor<16x56xf32>)
    -> tensor<4096x2048xbf16> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4096x2048xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<4096x2048xf32>) -> tensor<4096x2048xf32>
  %sum = linalg.generic {
      indexing_maps = [#mapA, #mapB, #mapSA, #mapSB, #mapC],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : tensor<4096x7168xf8E4M3FN>, tensor<2048x7168xf8E4M3FN>,
                             tensor<4096x56xf32>, tensor<16x56xf32>)
      outs(%acc : tensor<4096x2048xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %ps = arith.mulf %p, %s : f32
    %pst = arith.mulf %ps, %t : f32
    %r = arith.addf %c, %pst : f32
    linalg.yield %r : f32
  } -> tensor<4096x2048xf32>
  %out0 = tensor.empty() : tensor<4096x2048xbf16>
  %out = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<4096x2048xf32>) outs(%out0 : tensor<4096x2048xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %h = arith.truncf %v : f32 to bf16
    linalg.yield %h : bf16
  } -> tensor<4096x2048xbf16>
  return %out : tensor<4096x2048xbf16>
}
