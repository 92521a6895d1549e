// A consumer that cannot be fused: C = A*B is a function argument the
// caller reads, so the kernel cannot skip writing it, and D = relu(C +
// bias[j]) reads it back. tcgen compiles the matmul to one bundle
// (matmul_observable_relu_kernel) and the consumer to a second one
// (matmul_observable_relu_pointwise0, op kind "pointwise"), with remarks
// saying why and where; run them in that order.
func.func @matmul_observable_relu(%A: memref<1024x512xf16>, %B: memref<512x768xf16>, %C: memref<1024x768xf32>, %bias: memref<768xf32>, %D: memref<1024x768xf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x768xf32>)
  linalg.matmul ins(%A, %B : memref<1024x512xf16>, memref<512x768xf16>) outs(%C : memref<1024x768xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<1024x768xf32>, memref<768xf32>) outs(%D : memref<1024x768xf16>) {
  ^bb0(%x: f32, %b: f32, %o: f16):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  return
}
