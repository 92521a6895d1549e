// Attention-style scores over a batch with a fused epilogue: S = (Q K) *
// 0.125 + M + bias[j], Q [4][256][64], K [4][64][384], a mask M with one
// matrix per batch entry and a bias shared by the whole batch. The sm90
// kernel computes the consumer on the accumulators; the intermediate
// scores never reach memory.
func.func @batched_matmul_scale_mask(%A: memref<4x256x64xf16>, %B: memref<4x64x384xf16>, %M: memref<4x256x384xf16>, %bias: memref<384xf32>, %O: memref<4x256x384xf16>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %C = memref.alloc() : memref<4x256x384xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<4x256x384xf32>)
  linalg.batch_matmul ins(%A, %B : memref<4x256x64xf16>, memref<4x64x384xf16>) outs(%C : memref<4x256x384xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C, %M, %bias : memref<4x256x384xf32>, memref<4x256x384xf16>, memref<384xf32>) outs(%O : memref<4x256x384xf16>) {
  ^bb0(%x: f32, %m: f16, %bb: f32, %o: f16):
    %s = arith.mulf %x, %scale : f32
    %me = arith.extf %m : f16 to f32
    %t = arith.addf %s, %me : f32
    %u = arith.addf %t, %bb : f32
    %r = arith.truncf %u : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<4x256x384xf32>
  return
}
