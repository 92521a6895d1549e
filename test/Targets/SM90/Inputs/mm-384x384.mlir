// A 2x1 cluster splits B's 192-wide tile: three 64-wide N-major boxes do
// not halve.
func.func @mm(%A: memref<384x512xf16>, %B: memref<512x384xf16>, %C: memref<384x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<384x384xf32>)
  // expected-error @+1 {{cluster [2, 1] splits the shared MN-major operand tile into two halves of 64-wide boxes: its tile size must be a multiple of 128}}
  linalg.matmul ins(%A, %B : memref<384x512xf16>, memref<512x384xf16>) outs(%C : memref<384x384xf32>)
  return
}
