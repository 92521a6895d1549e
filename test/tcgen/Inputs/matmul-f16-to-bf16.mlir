// linalg.matmul f16 x f16 -> bf16: the parser builds the body, which cannot
// convert f16 to bf16 (an error without a location).
func.func @f(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xbf16>)
  return
}
