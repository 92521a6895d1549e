// M = 100 is not a multiple of the 128-row block tile.
func.func @mm(%a: memref<100x128xf16>, %b: memref<128x128xf16>, %c: memref<100x128xf32>) {
  linalg.matmul ins(%a, %b : memref<100x128xf16>, memref<128x128xf16>) outs(%c : memref<100x128xf32>)
  return
}
