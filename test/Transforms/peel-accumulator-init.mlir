// RUN: tcgen-opt %s --split-input-file --tcgen-peel-accumulator-init | FileCheck %s
// RUN: tcgen-opt %s --split-input-file --tcgen-peel-accumulator-init --tcgen-fuse-elementwise | FileCheck %s --check-prefix=FUSED

// relu(C) + A*B: the matmul starts from zero and relu(C) is added after it;
// the fusion then merges the relu into the add, one consumer reading the
// product and C.
#id = affine_map<(i, j) -> (i, j)>
func.func @relu_c(%A: tensor<128x64xf16>, %B: tensor<64x32xf16>,
                  %C: tensor<128x32xf16>) -> tensor<128x32xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x32xf16>
  %R = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : tensor<128x32xf16>) outs(%e : tensor<128x32xf16>) {
  ^bb0(%c: f16, %o: f16):
    %r = arith.maximumf %c, %zero : f16
    linalg.yield %r : f16
  } -> tensor<128x32xf16>
  %D = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>)
                     outs(%R : tensor<128x32xf16>) -> tensor<128x32xf16>
  return %D : tensor<128x32xf16>
}
// CHECK-LABEL: func.func @relu_c(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: tensor<128x64xf16>, %[[B:[a-z0-9_]+]]: tensor<64x32xf16>, %[[C:[a-z0-9_]+]]: tensor<128x32xf16>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[C]] :
// CHECK:           arith.maximumf
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : f16) outs(%{{.*}} : tensor<128x32xf16>)
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]] : tensor<128x32xf16>)
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[P]], %[[R]] : tensor<128x32xf16>, tensor<128x32xf16>)
// CHECK:         ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK:           %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f16
// CHECK:           linalg.yield %[[SUM]]
// CHECK:         return %[[S]]

// FUSED-LABEL: func.func @relu_c(
// FUSED-SAME:    %[[C:[a-z0-9_]+]]: tensor<128x32xf16>)
// FUSED:         %[[P:.*]] = linalg.matmul
// FUSED:         %[[S:.*]] = linalg.generic
// FUSED-SAME:      ins(%[[P]], %[[C]] : tensor<128x32xf16>, tensor<128x32xf16>)
// FUSED:           %[[M:.*]] = arith.maximumf
// FUSED:           arith.addf %{{.*}}, %[[M]]
// FUSED-NOT:     linalg.generic
// FUSED:         return %[[S]]

// -----

// A bias broadcast along M as the init (a generic with a (i, j) -> (j)
// input): peeled the same way, so the bias becomes an epilogue input.
func.func @bias_init(%A: tensor<128x64xf32>, %B: tensor<64x32xf32>,
                     %bias: tensor<32xf32>) -> tensor<128x32xf32> {
  %e = tensor.empty() : tensor<128x32xf32>
  %I = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%e : tensor<128x32xf32>) dimensions = [0]
  %D = linalg.matmul ins(%A, %B : tensor<128x64xf32>, tensor<64x32xf32>)
                     outs(%I : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %D : tensor<128x32xf32>
}
// CHECK-LABEL: func.func @bias_init(
// CHECK:         %[[I:.*]] = linalg.broadcast
// CHECK:         %[[P:.*]] = linalg.matmul {{.*}} outs(%{{.*}} : tensor<128x32xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[P]], %[[I]] :
// CHECK:           arith.addf

// -----

// Inits that stay: a zero fill (C = A*B), a function argument (C += A*B)
// and another contraction's result (a chain of products).
func.func @stays(%A: tensor<128x64xf16>, %B: tensor<64x32xf16>,
                 %C: tensor<128x32xf16>) -> (tensor<128x32xf16>, tensor<128x32xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x32xf16>
  %F = linalg.fill ins(%zero : f16) outs(%e : tensor<128x32xf16>) -> tensor<128x32xf16>
  %P = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>)
                     outs(%F : tensor<128x32xf16>) -> tensor<128x32xf16>
  %Q = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>)
                     outs(%P : tensor<128x32xf16>) -> tensor<128x32xf16>
  %S = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>)
                     outs(%C : tensor<128x32xf16>) -> tensor<128x32xf16>
  return %Q, %S : tensor<128x32xf16>, tensor<128x32xf16>
}
// CHECK-LABEL: func.func @stays(
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT:     linalg.generic
// CHECK:         return
