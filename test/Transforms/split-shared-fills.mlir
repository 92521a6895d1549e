// RUN: tcgen-opt %s --split-input-file --tcgen-split-shared-fills | FileCheck %s

// Two products written from one zero tensor (a gated MLP's gate and up):
// the second gets its own empty tensor and fill, just before it.
func.func @shared(%X: tensor<64x32xf16>, %W1: tensor<32x48xf16>,
                  %W3: tensor<32x48xf16>) -> (tensor<64x48xf16>, tensor<64x48xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x48xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x48xf16>) -> tensor<64x48xf16>
  %G = linalg.matmul ins(%X, %W1 : tensor<64x32xf16>, tensor<32x48xf16>) outs(%f : tensor<64x48xf16>) -> tensor<64x48xf16>
  %U = linalg.matmul ins(%X, %W3 : tensor<64x32xf16>, tensor<32x48xf16>) outs(%f : tensor<64x48xf16>) -> tensor<64x48xf16>
  return %G, %U : tensor<64x48xf16>, tensor<64x48xf16>
}
// CHECK-LABEL: func.func @shared(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<64x48xf16>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E]] : tensor<64x48xf16>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[F]] : tensor<64x48xf16>)
// CHECK-NEXT:    %[[E2:.*]] = tensor.empty() : tensor<64x48xf16>
// CHECK-NEXT:    %[[F2:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E2]] : tensor<64x48xf16>)
// CHECK-NEXT:    linalg.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[F2]] : tensor<64x48xf16>)

// -----

// One contraction per fill (and a fill read by a non-contraction too): left
// alone.
func.func @single(%X: tensor<64x32xf16>, %W1: tensor<32x48xf16>) -> (tensor<64x48xf16>, tensor<64x48xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x48xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x48xf16>) -> tensor<64x48xf16>
  %G = linalg.matmul ins(%X, %W1 : tensor<64x32xf16>, tensor<32x48xf16>) outs(%f : tensor<64x48xf16>) -> tensor<64x48xf16>
  return %G, %f : tensor<64x48xf16>, tensor<64x48xf16>
}
// CHECK-LABEL: func.func @single(
// CHECK-COUNT-1: tensor.empty
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT:     linalg.fill
