// A small-M matmul the small-M rule swaps: M = 8, f16 in and out.
func.func @m8s(%a: memref<8x512xf16>, %b: memref<512x2048xf16>, %c: memref<8x2048xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<8x2048xf16>)
  linalg.matmul ins(%a, %b : memref<8x512xf16>, memref<512x2048xf16>) outs(%c : memref<8x2048xf16>)
  return
}
