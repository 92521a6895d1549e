// RUN: tcgen-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-prefetch-tiles{},tcgen-apply-prologue))'

#id = affine_map<(d0, d1) -> (d0, d1)>

// The prologue is applied in the cp.async K loop of tcgen-async-copies; a
// loop pipelined otherwise is refused, not left untransformed. (Here the
// register prefetch runs instead, as it would not on an sm80 kernel.)
func.func @not_async(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x128xf16>) outs(%R : memref<128x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.maximumf %a, %z16 : f16
    linalg.yield %r : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  // expected-error @below {{a fused prologue needs the cp.async K loop of tcgen-async-copies (wait; barrier; ...)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%R, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
