func.func @truncf_n100(%a: tensor<256x128xbf16>, %b: tensor<128x100xbf16>) -> tensor<256x100xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x100xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x100xf32>) -> tensor<256x100xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x128xbf16>, tensor<128x100xbf16>) outs(%c : tensor<256x100xf32>) -> tensor<256x100xf32>
  %o0 = tensor.empty() : tensor<256x100xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<256x100xf32>) outs(%o0 : tensor<256x100xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x100xbf16>
  return %o : tensor<256x100xbf16>
}
