// A consumer the epilogue cannot compute (an integer conversion): it is
// not fused, and the matmul's result is then a local buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0, d1) -> ()>
func.func @f(%A: tensor<256x128xf16>, %B: tensor<128x256xf16>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %C0 = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %C = linalg.matmul ins(%A, %B : tensor<256x128xf16>, tensor<128x256xf16>) outs(%C0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %o = tensor.empty() : tensor<256x256xf32>
  %R = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%C : tensor<256x256xf32>) outs(%o : tensor<256x256xf32>) {
  ^bb0(%x: f32, %oo: f32):
    %i = arith.fptosi %x : f32 to i32
    %j = arith.addi %i, %i : i32
    %r = arith.sitofp %j : i32 to f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %R : tensor<256x256xf32>
}
