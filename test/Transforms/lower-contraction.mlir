// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction))' | FileCheck %s

// The matmul becomes the (m, n, k) nest; C += A * B reads C.
// CHECK-LABEL: func @accumulate
// CHECK-SAME: {tcgen.operand = "A"}
// CHECK-SAME: {tcgen.operand = "B"}
// CHECK-SAME: {tcgen.operand = "C"}
// CHECK:       affine.for %[[I:.*]] = 0 to 128 {
// CHECK-NEXT:    affine.for %[[J:.*]] = 0 to 128 {
// CHECK-NEXT:      affine.for %[[K:.*]] = 0 to 64 {
// CHECK-NEXT:        %[[A:.*]] = affine.load %arg0[%[[I]], %[[K]]]
// CHECK-NEXT:        %[[B:.*]] = affine.load %arg1[%[[K]], %[[J]]]
// CHECK-NEXT:        %[[C:.*]] = affine.load %arg2[%[[I]], %[[J]]]
// CHECK:             affine.store %{{.*}}, %arg2[%[[I]], %[[J]]]
// CHECK:           } {tcgen.loop = "k"}
// CHECK:         } {tcgen.loop = "n"}
// CHECK:       } {tcgen.config = #tcgen.config<{{.*}}>, tcgen.loop = "m"}
// CHECK-NOT:   linalg.matmul
func.func @accumulate(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// A zero fill of C right before the matmul folds in: C = A * B.
// CHECK-LABEL: func @overwrite
// CHECK-NOT:   linalg.fill
// CHECK:       affine.for
// CHECK:       } {tcgen.config = #tcgen.config<{{.*}}>, tcgen.loop = "m", tcgen.overwrite}
func.func @overwrite(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<128x128xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf16>)
  return
}

// -----

// A fill of another value is a separate computation: not folded.
// CHECK-LABEL: func @nonzero_fill
// CHECK:       linalg.fill
// CHECK-NOT:   tcgen.overwrite
func.func @nonzero_fill(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

func.func @local_output(%A: memref<128x64xf16>, %B: memref<64x128xf16>) {
  %C = memref.alloc() : memref<128x128xf32>
  // expected-error @+1 {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

func.func @same_argument(%A: memref<128x128xf16>, %C: memref<128x128xf16>) {
  // expected-error @+1 {{function argument #0 is used as both A and B}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %A : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf16>)
  return
}

// -----

func.func @two_matmuls(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  // expected-error @+1 {{is the second contraction in function 'two_matmuls': tcgen compiles one contraction per function}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%D : memref<128x128xf32>)
  return
}
