// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))'

// Malformed block-scaled fp8 contractions (linalg.generic of A, B, SA, SB
// into C): each is a located error naming what differs from the form
// (docs/USER-GUIDE.md, "Block-scaled fp8").

func.func @k_not_multiple(%a: memref<256x320xf8E4M3FN>, %b: memref<384x320xf8E4M3FN>, %sa: memref<256x3xf32>, %sb: memref<3x3xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{K = 320 is not a multiple of 128, the scales' block along K}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x320xf8E4M3FN>, memref<384x320xf8E4M3FN>, memref<256x3xf32>, memref<3x3xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @a_transposed(%a: memref<512x256xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{A must be read A[m,k] (K-major: block-scaled fp8 reads A [m][k] only)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<512x256xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @b_kn(%a: memref<256x512xf8E4M3FN>, %b: memref<512x384xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{B must be read B[n,k] (K-major: block-scaled fp8 reads B [n][k] only)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<512x384xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @sa_block_64(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x8xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{SA's blocks along K are 64 wide; the sm90 kernel takes blocks of 128 along K (SA[m, k floordiv 128])}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 64)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x8xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @sb_block_64x128(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<6x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{SB's blocks are 64 x 128; the sm90 kernel takes 128 x 128 blocks (SB[n floordiv 128, k floordiv 128])}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 64, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<6x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @per_row(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{scales constant along K (SA[m], one per row or column) are not supported yet}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @sa_swapped(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<4x256xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{SA must be indexed SA[m, k floordiv 128], got}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (k floordiv 128, m)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<4x256xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @sa_shape(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x5xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{SA has shape memref<256x5xf32>, but its blocks of 1 x 128 of A [M=256][K=512] make it [256][4]}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x5xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @sb_shape(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<4x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{SB has shape memref<4x4xf32>, but its blocks of 128 x 128 of B [N=384][K=512] make it [3][4] (N / 128 rounded up)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<4x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @f16_inputs(%a: memref<256x512xf16>, %b: memref<384x512xf16>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{block-scaled inputs must be fp8 of one type (f8E4M3FN or f8E5M2), got f16 x f16}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf16>, memref<384x512xf16>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f16, %y: f16, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @bf16_output(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%cc : memref<256x384xbf16>)
  // expected-error @+1 {{C must be f32 (the contraction accumulates in f32: round C to f16 or bf16 in a pointwise consumer, which the kernel fuses), got bf16}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xbf16>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: bf16):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %r16 = arith.truncf %r : f32 to bf16
    %o = arith.addf %c, %r16 : bf16
    linalg.yield %o : bf16
  }
  return
}

// -----

func.func @missing_scale(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{the body must compute acc + extf(a) * extf(b) * sa * sb in f32 (the four products in any order), and nothing else}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %o = arith.addf %c, %q : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @sub_not_add(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{the body must compute acc + extf(a) * extf(b) * sa * sb in f32}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.subf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @two_reductions(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %cc: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%cc : memref<256x384xf32>)
  // expected-error @+1 {{a block-scaled contraction has three (m and n parallel, k a reduction)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>) outs(%cc : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}

// -----

func.func @dynamic(%a: memref<?x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %sa: memref<?x4xf32>, %sb: memref<3x4xf32>, %cc: memref<?x384xf32>) {
  // expected-error @+1 {{block-scaled contractions need static sizes (sizes known at run time are not supported yet); A is 'memref<?x512xf8E4M3FN>'}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<?x512xf8E4M3FN>, memref<384x512xf8E4M3FN>, memref<?x4xf32>, memref<3x4xf32>) outs(%cc : memref<?x384xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %c: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.mulf %q, %t : f32
    %o = arith.addf %c, %r : f32
    linalg.yield %o : f32
  }
  return
}
