// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_80},func.func(tcgen-configure))' | FileCheck %s --check-prefix=SM80
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_75},func.func(tcgen-configure))' 2>&1 | FileCheck %s --check-prefix=SM75

// A transposed operand (B stored [n][k]) goes to the sm90 back end on
// sm_90a (MN-/K-major wgmma descriptors) and to the sm80 back end on sm_80
// (tiles in the stored order, ldmatrix with or without .trans); the wmma
// back end refuses it with a message naming the way out.
// CHECK-LABEL: func @transposed
// CHECK: #tcgen.config<backend = "sm90"
// SM80-LABEL: func @transposed
// SM80: #tcgen.config<backend = "sm80"
// SM75: error: 'linalg.matmul' op the wmma back end takes A[m,k] and B[k,n] only; transposed operands need --target=sm_80 or later (the sm80 back end) or the sm90 back end
func.func @transposed(%a: memref<1024x512xf16>, %b: memref<1024x512xf16>, %c: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<1024x512xf16>, memref<1024x512xf16>) outs(%c : memref<1024x1024xf32>)
  return
}
