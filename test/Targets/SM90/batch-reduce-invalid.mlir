// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// Two K dimensions that do not collapse, where no choice of the summed one
// leaves each operand a matrix around it: in B[j,l,k] the k of A[i,k,l]
// is innermost, and taking l as the summed one puts it innermost in A.
func.func @innermost(%A: memref<256x16x64xf16>, %B: memref<512x64x16xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  // expected-error @+1 {{a contraction over two K dimensions that do not collapse into one needs each of A and B stored as a matrix of one K dimension and M (or N) with the other K dimension outermost or between them, never innermost (C[i,j] += A[i,k,l] B[l,k,j], say), and C stored [m,n] or [n,m]}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (j, l, k)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<256x16x64xf16>, memref<512x64x16xf16>) outs(%C : memref<256x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A summed batch whose rows TMA cannot read (l = 4 f16: 8 bytes): the
// kernel reads such operands through TMA only.
func.func @narrow_rows(%A: memref<256x16x4xf16>, %B: memref<4x16x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  // expected-error @+1 {{A holds a summed batch (a second K dimension), which the sm90 kernel reads through TMA only (no copies, no prologue): its rows must be a multiple of 16 bytes apart, not 8}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<256x16x4xf16>, memref<4x16x512xf16>) outs(%C : memref<256x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Sizes known at run time: refused.
func.func @dynamic(%A: memref<?x16x64xf16>, %B: memref<64x16x512xf16>, %C: memref<?x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x512xf32>)
  // expected-error @+1 {{a sum over two K dimensions (read as a summed batch) needs static sizes}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<?x16x64xf16>, memref<64x16x512xf16>) outs(%C : memref<?x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A ReLU producer of A: refused.
func.func @prologue(%A: memref<256x16x64xf16>, %B: memref<64x16x512xf16>, %C: memref<256x512xf32>) {
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x16x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%A : memref<256x16x64xf16>) outs(%R : memref<256x16x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  // expected-error @+1 {{a prologue on a contraction over two K dimensions is not supported}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%R, %B : memref<256x16x64xf16>, memref<64x16x512xf16>) outs(%C : memref<256x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// add(gemm, gemm) whose first product sums over two K dimensions.
func.func @second_product(%A: memref<256x16x64xf16>, %B: memref<64x16x512xf16>, %A2: memref<256x64xf16>, %B2: memref<64x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<256x16x64xf16>, memref<64x16x512xf16>) outs(%C : memref<256x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  // expected-error @+1 {{add(gemm, gemm) in one sm90 kernel needs products over one K dimension each (a sum over two K dimensions is not supported there yet)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, store = "tma">} ins(%A2, %B2 : memref<256x64xf16>, memref<64x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
