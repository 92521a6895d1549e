// f32 x f32 with B stored [n][k]: tf32 on sm90 with --allow-tf32.
func.func @mm(%a: memref<256x128xf32>, %b: memref<256x128xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%a, %b : memref<256x128xf32>, memref<256x128xf32>) outs(%c : memref<256x256xf32>)
  return
}
