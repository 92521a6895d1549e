// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// A batch dimension that one input lacks, innermost in C (Q[s,e,h]): TMA
// stores C's innermost dimension contiguously. Refused.
func.func @c_innermost(%X: memref<256x128xf16>, %W: memref<128x3x128xf16>, %C: memref<256x128x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x128x3xf32>)
  // expected-error @+1 {{several M or N dimensions that do not collapse into one are read as batch dimensions that the other input lacks (C[b,h,s,e] += X[b,s,d] W[d,h,e]: s and e are the matrix's, b and h batch dimensions); that needs one M and one N dimension innermost or next to innermost in C, A and B, each with its K dimension, and every other dimension outermost or between those two, never innermost}}
  linalg.generic {indexing_maps = [affine_map<(s, e, h, d) -> (s, d)>, affine_map<(s, e, h, d) -> (d, h, e)>, affine_map<(s, e, h, d) -> (s, e, h)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<256x128xf16>, memref<128x3x128xf16>) outs(%C : memref<256x128x3xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Two kept batch dimensions (g, f) and two more M and N dimensions (b, h):
// four in all, more than a tensor map holds with the matrix's two. Refused.
func.func @four(%X: memref<2x2x2x64x64xf16>, %W: memref<2x2x64x3x64xf16>, %C: memref<2x2x2x3x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x2x2x3x64x64xf32>)
  // expected-error @+1 {{has 4 batch dimensions that do not collapse into fewer (counting each M or N dimension beyond the first as one); at most three are supported}}
  linalg.generic {indexing_maps = [affine_map<(g, f, b, h, s, e, d) -> (g, f, b, s, d)>, affine_map<(g, f, b, h, s, e, d) -> (f, g, d, h, e)>, affine_map<(g, f, b, h, s, e, d) -> (g, f, b, h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<2x2x2x64x64xf16>, memref<2x2x64x3x64xf16>) outs(%C : memref<2x2x2x3x64x64xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Two M dimensions and two K dimensions that do not collapse (b is a
// batch dimension that B lacks, l a second K dimension): refused.
func.func @two_m_two_k(%A: memref<4x250x8x64xf16>, %B: memref<64x8x1024xf16>, %C: memref<250x4x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<250x4x1024xf32>)
  // expected-error @+1 {{a sum over two K dimensions that do not collapse into one is supported without batch dimensions only, not with 1 (kept batch dimensions, or M or N dimensions beyond the first: the attention output projection O[b,s,f] = sum_{h,e} A[b,h,s,e] W[h,e,f] from a head-first A, say); store A as [b,s,h,e] so that h and e collapse into one K dimension}}
  linalg.generic {indexing_maps = [affine_map<(m, b, n, k, l) -> (b, m, l, k)>, affine_map<(m, b, n, k, l) -> (k, l, n)>, affine_map<(m, b, n, k, l) -> (m, b, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<4x250x8x64xf16>, memref<64x8x1024xf16>) outs(%C : memref<250x4x1024xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%x: f16, %y: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A broadcast dimension of a size known at run time: refused.
func.func @dynamic(%X: memref<256x128xf16>, %W: memref<128x?x128xf16>, %C: memref<?x256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x256x128xf32>)
  // expected-error @+1 {{a dynamic batch size is not supported yet (M, N and K may be dynamic, the batch must be static)}}
  linalg.generic {indexing_maps = [affine_map<(h, s, e, d) -> (s, d)>, affine_map<(h, s, e, d) -> (d, h, e)>, affine_map<(h, s, e, d) -> (h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<256x128xf16>, memref<128x?x128xf16>) outs(%C : memref<?x256x128xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// X's rows of 100 f16 (200 bytes apart) cannot be read by TMA, and a
// broadcast batch takes no pack: refused.
func.func @rows(%X: memref<256x100xf16>, %W: memref<100x3x128xf16>, %C: memref<3x256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<3x256x128xf32>)
  // expected-error @+1 {{several batch dimensions: the sm90 kernel reads A through TMA only, whose steps must be multiples of 16 bytes, but its dimension 0 steps 200 bytes}}
  linalg.generic {indexing_maps = [affine_map<(h, s, e, d) -> (s, d)>, affine_map<(h, s, e, d) -> (d, h, e)>, affine_map<(h, s, e, d) -> (h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<256x100xf16>, memref<100x3x128xf16>) outs(%C : memref<3x256x128xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%x: f16, %w: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  }
  return
}
