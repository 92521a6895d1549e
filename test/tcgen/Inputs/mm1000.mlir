// 1000^3 f16 -> f16: rows 2000 bytes apart, a multiple of 16 but not of
// 128 (TMA reads them, slowly; small enough for L2, so not packed by
// default).
func.func @mm1000(%a: memref<1000x1000xf16>, %b: memref<1000x1000xf16>, %c: memref<1000x1000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1000x1000xf16>)
  linalg.matmul ins(%a, %b : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%c : memref<1000x1000xf16>)
  return
}
