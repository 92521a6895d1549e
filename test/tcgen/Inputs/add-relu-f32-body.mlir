// An epilogue written in f32 on f16 values: one add (rounded once), then a
// max with 0; exact on f16x2 pairs.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %zf = arith.constant 0.0 : f32
    %xf = arith.extf %x : f16 to f32
    %df = arith.extf %d : f16 to f32
    %s = arith.addf %xf, %df : f32
    %r = arith.maximumf %s, %zf : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----
