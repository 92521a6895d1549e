// RUN: tcgen-opt %s --split-input-file --tcgen-fuse-elementwise | FileCheck %s

// relu(matmul + D) written with named ops: one generic reading the matmul
// result and D; the fill of zeros folds into a constant. The matmul and
// its fill stay as they are.
func.func @add_relu(%A: tensor<128x64xf16>, %B: tensor<64x128xf16>,
                    %D: tensor<128x128xf16>) -> tensor<128x128xf16> {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<128x128xf16>
  %C = linalg.fill ins(%zero : f16) outs(%init : tensor<128x128xf16>) -> tensor<128x128xf16>
  %M = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x128xf16>)
                     outs(%C : tensor<128x128xf16>) -> tensor<128x128xf16>
  %e = tensor.empty() : tensor<128x128xf16>
  %S = linalg.add ins(%M, %D : tensor<128x128xf16>, tensor<128x128xf16>)
                  outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  %R = linalg.max ins(%S, %z : tensor<128x128xf16>, tensor<128x128xf16>)
                  outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  return %R : tensor<128x128xf16>
}
// CHECK-LABEL: func.func @add_relu(
// CHECK:         %[[ZERO:.*]] = arith.constant 0.0
// CHECK:         linalg.fill
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[M]], %{{.*}} : tensor<128x128xf16>, tensor<128x128xf16>)
// CHECK:           %[[S:.*]] = arith.addf
// CHECK:           %[[Y:.*]] = arith.maximumf %[[S]], %[[ZERO]]
// CHECK:           linalg.yield %[[Y]]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]

// -----

// A producer with two users is not fused (it would be computed twice).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @shared_producer(%X: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %e = tensor.empty() : tensor<64x64xf32>
  %E = linalg.exp ins(%X : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %N = linalg.negf ins(%E : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %E, %N : tensor<64x64xf32>, tensor<64x64xf32>
}
// CHECK-LABEL: func.func @shared_producer(
// CHECK:         %[[E:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         %[[N:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[E]]
// CHECK:           arith.negf
// CHECK:         return %[[E]], %[[N]]
