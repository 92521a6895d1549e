// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-collapse-dims))' | FileCheck %s

// Two batch dimensions (attention scores, b x h heads): A[b,h,q,d],
// B[b,h,k,d], C[b,h,q,k] collapse to one batch of b*h; the arguments take
// the collapsed types and the zero fill of C follows.
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @heads(
// CHECK-SAME:    %[[PA:.*]]: memref<24x128x64xf16>, %[[PB:.*]]: memref<24x256x64xf16>, %[[PC:.*]]: memref<24x128x256xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[PC]] : memref<24x128x256xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[PA]], %[[PB]] : memref<24x128x64xf16>, memref<24x256x64xf16>) outs(%[[PC]] : memref<24x128x256xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @heads(%A: memref<2x12x128x64xf16>, %B: memref<2x12x256x64xf16>, %C: memref<2x12x128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x12x128x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, q, k, d) -> (b, h, q, d)>,
                                   affine_map<(b, h, q, k, d) -> (b, h, k, d)>,
                                   affine_map<(b, h, q, k, d) -> (b, h, q, k)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x12x128x64xf16>, memref<2x12x256x64xf16>) outs(%C : memref<2x12x128x256xf32>) {
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

// Two K dimensions in the same order in A and B (C[i,j] += A[i,k,l]
// B[k,l,j]), and two M dimensions in A and C, with a dynamic one: a plain
// matmul on A[i*s, k*l], B[k*l, j], C[i*s, j].
// CHECK-LABEL: func.func @k_and_m(
// CHECK-SAME:    memref<?x2048xf16>, %{{.*}}: memref<2048x256xf16>, %{{.*}}: memref<?x256xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
func.func @k_and_m(%A: memref<?x4x64x32xf16>, %B: memref<64x32x256xf16>, %C: memref<?x4x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, s, j, k, l) -> (i, s, k, l)>,
                                   affine_map<(i, s, j, k, l) -> (k, l, j)>,
                                   affine_map<(i, s, j, k, l) -> (i, s, j)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<?x4x64x32xf16>, memref<64x32x256xf16>) outs(%C : memref<?x4x256xf32>) {
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

// The K dimensions in different orders (seed 001's A[i,k,l] B[l,k,j]) do
// not collapse into one reshape: left alone.
// CHECK-LABEL: func.func @k_reversed(
// CHECK-SAME:    memref<128x16x8xf16>, %{{.*}}: memref<8x16x256xf16>
// CHECK:         iterator_types = ["parallel", "parallel", "reduction", "reduction"]
func.func @k_reversed(%A: memref<128x16x8xf16>, %B: memref<8x16x256xf16>, %C: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>,
                                   affine_map<(i, j, k, l) -> (l, k, j)>,
                                   affine_map<(i, j, k, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<128x16x8xf16>, memref<8x16x256xf16>) outs(%C : memref<128x256xf32>) {
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

// Batch dimensions split by an M dimension in C (C[b,q,h,k]) do not sit
// next to each other: left alone.
// CHECK-LABEL: func.func @split_batch(
// CHECK:         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @split_batch(%A: memref<2x12x128x64xf16>, %B: memref<2x12x256x64xf16>, %C: memref<2x128x12x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, h, q, k, d) -> (b, h, q, d)>,
                                   affine_map<(b, h, q, k, d) -> (b, h, k, d)>,
                                   affine_map<(b, h, q, k, d) -> (b, q, h, k)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x12x128x64xf16>, memref<2x12x256x64xf16>) outs(%C : memref<2x128x12x256xf32>) {
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

// An operand with another user (not a fill) keeps its shape: left alone.
// CHECK-LABEL: func.func @other_user(
// CHECK:         memref.copy
// CHECK:         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @other_user(%A: memref<2x12x128x64xf16>, %B: memref<2x12x256x64xf16>, %C: memref<2x12x128x256xf32>, %D: memref<2x12x128x64xf16>) {
  memref.copy %A, %D : memref<2x12x128x64xf16> to memref<2x12x128x64xf16>
  linalg.generic {indexing_maps = [affine_map<(b, h, q, k, d) -> (b, h, q, d)>,
                                   affine_map<(b, h, q, k, d) -> (b, h, k, d)>,
                                   affine_map<(b, h, q, k, d) -> (b, h, q, k)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x12x128x64xf16>, memref<2x12x256x64xf16>) outs(%C : memref<2x12x128x256xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}
