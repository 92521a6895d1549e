// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// Two batch dimensions with sizes known at run time: refused.
func.func @dynamic(%Q: memref<2x?x3x64xf16>, %K: memref<2x384x3x64xf16>, %S: memref<2x3x?x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x?x384xf32>)
  // expected-error @+1 {{batch dimensions that do not collapse into one are not supported by the sm90 back end with sizes known only at run time}}
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : memref<2x?x3x64xf16>, memref<2x384x3x64xf16>) outs(%S : memref<2x3x?x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 192, 64], warp = [64, 192, 64], mma = [64, 192, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

