func.func @tf32(%A: memref<256x128xf32>, %B: memref<256x128xf32>,
                %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%A, %B : memref<256x128xf32>, memref<256x128xf32>)
                outs(%C : memref<256x256xf32>)
  return
}

