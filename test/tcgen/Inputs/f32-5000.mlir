// f32 x f32 -> f32 (the simt back end) at 5000^3.
func.func @mm(%a: memref<5000x5000xf32>, %b: memref<5000x5000xf32>, %c: memref<5000x5000xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<5000x5000xf32>)
  linalg.matmul ins(%a, %b : memref<5000x5000xf32>, memref<5000x5000xf32>) outs(%c : memref<5000x5000xf32>)
  return
}
