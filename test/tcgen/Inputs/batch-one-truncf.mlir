func.func @batch_one_truncf(%a: tensor<1x256x128xbf16>, %b: tensor<1x128x256xbf16>) -> tensor<1x256x256xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256x256xf32>) -> tensor<1x256x256xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x256x128xbf16>, tensor<1x128x256xbf16>) outs(%c : tensor<1x256x256xf32>) -> tensor<1x256x256xf32>
  %o0 = tensor.empty() : tensor<1x256x256xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<1x256x256xf32>) outs(%o0 : tensor<1x256x256xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x256x256xbf16>
  return %o : tensor<1x256x256xbf16>
}
