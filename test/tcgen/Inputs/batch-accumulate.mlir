func.func @batch_accumulate(%a: memref<2x256x128xf16>, %b: memref<2x128x512xf16>, %c: memref<2x256x512xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%c : memref<2x256x512xf32>)
  return
}
