func.func @spills_first(%A: memref<1024x256xf16>, %B: memref<256x4093xf16>, %C: memref<1024x4093xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x4093xf32>)
  linalg.matmul ins(%A, %B : memref<1024x256xf16>, memref<256x4093xf16>) outs(%C : memref<1024x4093xf32>)
  return
}
