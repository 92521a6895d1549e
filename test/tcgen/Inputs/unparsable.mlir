// Not valid MLIR.
func.func @broken(%a: memref<128x128xf16>) {
  linalg.matmul ins(%a : oops)
}
