// A decode-sized matmul: M = 8, f16 in and out.
func.func @m8(%a: memref<8x4096xf16>, %b: memref<4096x12288xf16>, %c: memref<8x12288xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<8x12288xf16>)
  linalg.matmul ins(%a, %b : memref<8x4096xf16>, memref<4096x12288xf16>) outs(%c : memref<8x12288xf16>)
  return
}
