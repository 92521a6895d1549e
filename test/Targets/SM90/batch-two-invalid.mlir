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

// -----

// A column-major C (S[b][h][t][s]): refused.
func.func @colmajor(%Q: memref<2x256x3x64xf16>, %K: memref<2x384x3x64xf16>, %S: memref<2x3x384x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x384x256xf32>)
  // expected-error @+1 {{batch dimensions that do not collapse into one are not supported by the sm90 back end with a column-major C}}
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, t, s)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : memref<2x256x3x64xf16>, memref<2x384x3x64xf16>) outs(%S : memref<2x3x384x256xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// C's rows of 101 f32 (404 bytes apart) cannot be TMA-stored: refused.
func.func @c_rows(%Q: memref<2x256x3x64xf16>, %K: memref<2x101x3x64xf16>, %S: memref<2x3x256x101xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x256x101xf32>)
  // expected-error @+1 {{batch dimensions that do not collapse into one are not supported by the sm90 back end with C stored other than by TMA stores (C's rows must be a multiple of 16 bytes apart)}}
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : memref<2x256x3x64xf16>, memref<2x101x3x64xf16>) outs(%S : memref<2x3x256x101xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "staged">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Q's heads (d = 4 f16: 8 bytes apart) cannot be read by TMA: refused.
func.func @narrow(%Q: memref<2x256x3x4xf16>, %K: memref<2x384x3x4xf16>, %S: memref<2x3x256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x256x384xf32>)
  // expected-error @+1 {{several batch dimensions: the sm90 kernel reads A through TMA only, whose steps must be multiples of 16 bytes, but its dimension 2 steps 8 bytes}}
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : memref<2x256x3x4xf16>, memref<2x384x3x4xf16>) outs(%S : memref<2x3x256x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A ReLU producer of Q: refused.
func.func @prologue(%Q: memref<2x256x3x64xf16>, %K: memref<2x384x3x64xf16>, %S: memref<2x3x256x384xf32>) {
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<2x256x3x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%Q : memref<2x256x3x64xf16>) outs(%R : memref<2x256x3x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%S : memref<2x3x256x384xf32>)
  // expected-error @+1 {{a prologue on a contraction over two K dimensions is not supported}}
  linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%R, %K : memref<2x256x3x64xf16>, memref<2x384x3x64xf16>) outs(%S : memref<2x3x256x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%q: f16, %k: f16, %s: f32):
    %qf = arith.extf %q : f16 to f32
    %kf = arith.extf %k : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  return
}
