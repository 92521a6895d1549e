func.func @dyn(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul ins(%A, %B : memref<?x?xf16>, memref<?x?xf16>)
                outs(%C : memref<?x?xf32>)
  return
}

