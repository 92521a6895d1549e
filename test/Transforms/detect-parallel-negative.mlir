// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-detect-parallel))' | FileCheck %s

// A hand-written nest whose outer loop writes overlapping rows: C[i] and
// C[i + 1] are both written by iterations i and i + 1, so it is not parallel;
// its inner loop is.
// CHECK-LABEL: func @overlap
// CHECK:       } {tcgen.loop = "inner", tcgen.parallel}
// CHECK-NEXT:  } {tcgen.config = {{.*}}, tcgen.loop = "outer"}
func.func @overlap(%C: memref<130xf32>, %v: f32) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 2 {
      affine.store %v, %C[%i + %j] : memref<130xf32>
    } {tcgen.loop = "inner"}
  } {tcgen.config = #tcgen.config<>, tcgen.loop = "outer"}
  return
}

// Shared memory (address space 3) is left out of the analysis.
// CHECK-LABEL: func @shared_only
// CHECK:       } {tcgen.config = {{.*}}, tcgen.loop = "outer", tcgen.parallel}
func.func @shared_only(%S: memref<4xf32, 3>, %v: f32) {
  affine.for %i = 0 to 128 {
    affine.store %v, %S[0] : memref<4xf32, 3>
  } {tcgen.config = #tcgen.config<>, tcgen.loop = "outer"}
  return
}
