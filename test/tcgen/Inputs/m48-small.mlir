// A small-M matmul the small-M rule leaves unswapped: M = 48, which it does not swap (N < 8192), f16 in and out.
func.func @m48(%a: memref<48x512xf16>, %b: memref<512x2048xf16>, %c: memref<48x2048xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<48x2048xf16>)
  linalg.matmul ins(%a, %b : memref<48x512xf16>, memref<512x2048xf16>) outs(%c : memref<48x2048xf16>)
  return
}
