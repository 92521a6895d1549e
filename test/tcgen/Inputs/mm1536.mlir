func.func @mm1536(%A: memref<1536x1536xf16>, %B: memref<1536x1536xf16>, %C: memref<1536x1536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1536x1536xf32>)
  linalg.matmul ins(%A, %B : memref<1536x1536xf16>, memref<1536x1536xf16>) outs(%C : memref<1536x1536xf32>)
  return
}
