// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu))' | FileCheck %s
// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu{reorder-copies=false}))' | FileCheck %s --check-prefix=OFF

// The order in which the threads walk a copied tile. The A tile (64 x 32
// f16) has 4 chunks of 8 f16 per row; padded by 8 f16 its rows sit 80 bytes
// apart, and in row-major order a phase of 8 threads stores rows r and
// r + 1, which share banks. The model picks the paired order: the rows of
// each group of 8 are visited as 0 4 1 5 2 6 3 7, so a phase stores rows r
// and r + 4 (the two halves of a bank line) and still loads two global
// lines: rho = l / 4, row = (rho / 8) * 8 + (rho % 2) * 4 + (rho % 8) / 2.
// The B tile (32 x 64 f16, 8 chunks per row: a phase stores 128 contiguous
// bytes) stays row-major.
// CHECK-DAG: #[[ROW8:.*]] = affine_map<(d0) -> ((d0 floordiv 32) * 8 + ((d0 floordiv 4) mod 2) * 4 + (d0 mod 32) floordiv 8)>
// CHECK-DAG: #[[COL8:.*]] = affine_map<(d0) -> ((d0 mod 4) * 8)>
// CHECK-DAG: #[[ROWB:.*]] = affine_map<(d0) -> (d0 floordiv 8)>
// CHECK-DAG: #[[COLB:.*]] = affine_map<(d0) -> ((d0 mod 8) * 8)>
// CHECK-LABEL: func @padded
// CHECK:       affine.for
// CHECK:         %[[L:.*]] = affine.apply
// CHECK-NEXT:    %[[R:.*]] = affine.apply #[[ROW8]](%[[L]])
// CHECK-NEXT:    %[[C:.*]] = affine.apply #[[COL8]](%[[L]])
// CHECK-NEXT:    %[[V:.*]] = affine.vector_load %arg0[%{{.*}} + %[[R]], %{{.*}} + %[[C]]]
// CHECK-NEXT:    affine.vector_store %[[V]], %{{.*}}[%[[R]], %[[C]]] : memref<64x40xf16, 3>, vector<8xf16>
// CHECK:       } {tcgen.copy = "A", tcgen.loop = "copy"}
// CHECK:       affine.for
// CHECK:         affine.apply #[[ROWB]]
// CHECK-NEXT:    affine.apply #[[COLB]]
// CHECK:       } {tcgen.copy = "B", tcgen.loop = "copy"}

// With reorder-copies=false every copy is row-major.
// OFF-DAG: #[[ROWA:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// OFF-DAG: #[[COLA:.*]] = affine_map<(d0) -> ((d0 mod 4) * 8)>
// OFF-NOT: floordiv 32
// OFF-NOT: mod 2
// OFF-LABEL: func @padded
// OFF:       affine.apply #[[ROWA]]
// OFF-NEXT:  affine.apply #[[COLA]]
// OFF:       } {tcgen.copy = "A", tcgen.loop = "copy"}

func.func @padded(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16]>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Unpadded 64-byte rows: row-major stores two whole rows per phase without
// conflicts; A stays row-major.
// CHECK-DAG:   #[[ROWA:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-DAG:   #[[COLA:.*]] = affine_map<(d0) -> ((d0 mod 4) * 8)>
// CHECK-LABEL: func @unpadded
// CHECK:       affine.for
// CHECK:         affine.apply
// CHECK-NEXT:    affine.apply #[[ROWA]](%
// CHECK-NEXT:    affine.apply #[[COLA]](%
// CHECK:       } {tcgen.copy = "A", tcgen.loop = "copy"}

func.func @unpadded(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], padding = 0>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
