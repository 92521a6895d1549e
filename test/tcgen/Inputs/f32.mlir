// f32 x f32: full f32 on CUDA cores (simt) by default, tf32 on sm90 with
// --allow-tf32; no WMMA path.
func.func @mm(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
