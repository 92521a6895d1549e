// RUN: tcgen-opt %s --split-input-file --tcgen-chain-contractions | FileCheck %s

// add(A B, A2 B2) of two zero-started matmuls: the second accumulates onto
// the first; its fill, and the add's empty output, are gone.
func.func @add_gemm_gemm(%A: tensor<128x64xf16>, %B: tensor<64x32xf16>,
                         %A2: tensor<128x16xf16>, %B2: tensor<16x32xf16>) -> tensor<128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  %P = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %e2 = tensor.empty() : tensor<128x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x32xf32>) -> tensor<128x32xf32>
  %Q = linalg.matmul ins(%A2, %B2 : tensor<128x16xf16>, tensor<16x32xf16>) outs(%f2 : tensor<128x32xf32>) -> tensor<128x32xf32>
  %e3 = tensor.empty() : tensor<128x32xf32>
  %S = linalg.add ins(%P, %Q : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e3 : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %S : tensor<128x32xf32>
}
// CHECK-LABEL: func.func @add_gemm_gemm(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: tensor<128x64xf16>, %[[B:[a-z0-9_]+]]: tensor<64x32xf16>, %[[A2:[a-z0-9_]+]]: tensor<128x16xf16>, %[[B2:[a-z0-9_]+]]: tensor<16x32xf16>
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]] :
// CHECK-NEXT:    %[[S:.*]] = linalg.matmul ins(%[[A2]], %[[B2]] : {{.*}}) outs(%[[P]] :
// CHECK-NEXT:    return %[[S]]
// CHECK-NOT:     linalg.fill
// CHECK-NOT:     linalg.add

// -----

// The sum as a generic whose body is one addf (operands in either order),
// with a ReLU after it: the ReLU stays the consumer of the chained result.
#id = affine_map<(i, j) -> (i, j)>
func.func @generic_sum_relu(%A: tensor<128x64xf16>, %B: tensor<64x32xf16>,
                            %A2: tensor<128x64xf16>, %B2: tensor<64x32xf16>) -> tensor<128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  %P = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %Q = linalg.matmul ins(%A2, %B2 : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %S = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%P, %Q : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e : tensor<128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %y, %x : f32
    linalg.yield %s : f32
  } -> tensor<128x32xf32>
  %R = linalg.max ins(%S, %f : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %R : tensor<128x32xf32>
}
// CHECK-LABEL: func.func @generic_sum_relu(
// CHECK:         %[[P:.*]] = linalg.matmul
// CHECK-NEXT:    %[[S:.*]] = linalg.matmul ins({{.*}}) outs(%[[P]] :
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.max ins(%[[S]],

// -----

// Left alone: a product with another use (its value is observable), a
// product that does not start from zero, and a sum that is not plain.
#id = affine_map<(i, j) -> (i, j)>
func.func @stays(%A: tensor<128x64xf16>, %B: tensor<64x32xf16>,
                 %C: tensor<128x32xf32>) -> (tensor<128x32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  %P = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %Q = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %S = linalg.add ins(%P, %Q : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  %U = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%C : tensor<128x32xf32>) -> tensor<128x32xf32>
  %V = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %T = linalg.add ins(%U, %V : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  %W = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %X = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x32xf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %D = linalg.sub ins(%W, %X : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %S, %P, %T, %D : tensor<128x32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128x32xf32>
}
// CHECK-LABEL: func.func @stays(
// CHECK-COUNT-2: linalg.add
// CHECK:         linalg.sub
