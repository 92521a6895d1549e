// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure))' 2>&1 | FileCheck %s --check-prefix=SM80

// A batch multiplies the tiles: 16 matrices of 1024 x 1024 fill the SMs
// with 128x256 tiles (512 tiles, 3.9 waves), where one matrix alone takes
// 64x128 (test/Model/default-backend.mlir, @small).
// Batched matmuls have no WMMA form.
// SM80: error: 'linalg.batch_matmul' op the sm80 back end takes unbatched matmuls only
// CHECK-LABEL: func @batched
// CHECK: #tcgen.config<backend = "sm90", block = [128, 256, 64]
func.func @batched(%a: memref<16x1024x512xf16>, %b: memref<16x512x1024xf16>, %c: memref<16x1024x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<16x1024x1024xf16>)
  linalg.batch_matmul ins(%a, %b : memref<16x1024x512xf16>, memref<16x512x1024xf16>) outs(%c : memref<16x1024x1024xf16>)
  return
}

// -----

// A sum over two K dimensions that do not collapse (C[i,j] += A[i,k,l]
// B[l,k,j]) goes to sm90, whose model plans the tiles of the one C with a
// K loop of 16 x 256, as for a 1024 x 1024 x 4096 matmul: 64x128 (128
// tiles, one wave). The sm80 back end takes one K dimension only.
// SM80: error: 'linalg.generic' op the sm80 back end takes one K dimension only; a sum over two K dimensions that do not collapse into one needs the sm90 back end (--target=sm_90a)
// CHECK-LABEL: func @summed
// CHECK: #tcgen.config<backend = "sm90", block = [64, 128, 64]
func.func @summed(%A: memref<1024x16x256xf16>, %B: memref<256x16x1024xf16>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x1024xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (l, k, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<1024x16x256xf16>, memref<256x16x1024xf16>) outs(%C : memref<1024x1024xf32>) {
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

// Several M and N dimensions that do not collapse (C[b,h,s,e] = X[b,s,d]
// W[d,h,e]) are a batch that each input half lacks. The 16 heads of 64
// lie side by side in N: sm90 plans 2 matrices of 512 x 1024 x 1024, whose
// 128 tiles of 64x128 fill the SMs once (a tile wider than a head). The
// sm80 back end takes no batch.
// SM80: error: 'linalg.generic' op the sm80 back end takes unbatched matmuls only
// CHECK-LABEL: func @broadcast
// CHECK: #tcgen.config<backend = "sm90", block = [64, 128, 64]
func.func @broadcast(%X: memref<2x512x1024xf16>, %W: memref<1024x16x64xf16>, %C: memref<2x16x512x64xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<2x16x512x64xf16>)
  linalg.generic {indexing_maps = [affine_map<(b, h, s, e, d) -> (b, s, d)>, affine_map<(b, h, s, e, d) -> (d, h, e)>, affine_map<(b, h, s, e, d) -> (b, h, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%X, %W : memref<2x512x1024xf16>, memref<1024x16x64xf16>) outs(%C : memref<2x16x512x64xf16>) {
  ^bb0(%x: f16, %w: f16, %c: f16):
    %p = arith.mulf %x, %w : f16
    %r = arith.addf %c, %p : f16
    linalg.yield %r : f16
  }
  return
}
