// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// A batch in the middle of A whose rows TMA cannot read (202 f16 = 404
// bytes): the packs copy batch-outermost stacks only, so it is refused.
#mA = affine_map<(b, m, n, k) -> (m, b, k)>
#mB = affine_map<(b, m, n, k) -> (b, k, n)>
#mC = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @mid_unreadable(%A: memref<256x4x202xf16>, %B: memref<4x202x256xf16>, %C: memref<4x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<4x256x256xf32>)
  // expected-error @+1 {{A stores its batch between its matrix dimensions, which the sm90 kernel reads through TMA only (no copies, no prologue): its rows must be a multiple of 16 bytes apart, not 404}}
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<256x4x202xf16>, memref<4x202x256xf16>) outs(%C : memref<4x256x256xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Sizes known at run time with a batch in the middle: refused.
#mA = affine_map<(b, m, n, k) -> (m, b, k)>
#mB = affine_map<(b, m, n, k) -> (b, k, n)>
#mC = affine_map<(b, m, n, k) -> (m, b, n)>
func.func @mid_dynamic(%A: memref<?x4x256xf16>, %B: memref<4x256x384xf16>, %C: memref<?x4x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x4x384xf32>)
  // expected-error @+1 {{a batch stored between the matrix dimensions needs static sizes}}
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x4x256xf16>, memref<4x256x384xf16>) outs(%C : memref<?x4x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 192, 64], warp = [64, 192, 64], mma = [64, 192, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A column-major C with a batch in the middle: refused.
#mA = affine_map<(b, m, n, k) -> (m, b, k)>
#mB = affine_map<(b, m, n, k) -> (b, k, n)>
#mC = affine_map<(b, m, n, k) -> (b, n, m)>
func.func @mid_colmajor(%A: memref<384x4x256xf16>, %B: memref<4x256x384xf16>, %C: memref<4x384x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<4x384x384xf32>)
  // expected-error @+1 {{a batch stored between the matrix dimensions needs a row-major C}}
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<384x4x256xf16>, memref<4x256x384xf16>) outs(%C : memref<4x384x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A ReLU producer of an A that stores its batch in the middle: refused.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#mA = affine_map<(b, m, n, k) -> (m, b, k)>
#mB = affine_map<(b, m, n, k) -> (b, k, n)>
#mC = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @mid_prologue(%A: memref<384x4x256xf16>, %B: memref<4x256x384xf16>, %C: memref<4x384x384xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<384x4x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%A : memref<384x4x256xf16>) outs(%R : memref<384x4x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<4x384x384xf32>)
  // expected-error @+1 {{a prologue on a batch stored between the matrix dimensions is not supported}}
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%R, %B : memref<384x4x256xf16>, memref<4x256x384xf16>) outs(%C : memref<4x384x384xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
