func.func @pack_b(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x324xf32>)
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf32>)
  return
}

