// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu))' | FileCheck %s

// Grouped raster order: grid (x = N/64 = 2, y = M/64 = 4) with raster = 3:
// the linear block index l = y * 2 + x walks 3 tile rows column by column,
// then the last row alone: row = first + (l % 6) % rows, col = (l % 6) / rows
// with first = (l / 6) * 3 and rows = min(4 - first, 3).
// CHECK-LABEL: func @raster
// CHECK:       gpu.launch blocks(%[[BX:[^,]*]], %[[BY:[^,]*]], %{{[^)]*}}) in (%{{[a-z0-9]+}} = %c2, %{{[a-z0-9]+}} = %[[GY:[^,]*]], %{{[a-z0-9]+}} = %c1
// CHECK:         %[[YX:.*]] = arith.muli %[[BY]], %c2 : index
// CHECK-NEXT:    %[[L:.*]] = arith.addi %[[YX]], %[[BX]] : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:         %[[G:.*]] = arith.divui %[[L]], %[[C6]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK:         %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]] : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.minui %[[LEFT]], %{{.*}} : index
// CHECK-NEXT:    %[[LOCAL:.*]] = arith.remui %[[L]], %[[C6]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.remui %[[LOCAL]], %[[ROWS]] : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.addi %[[FIRST]], %[[IN]] : index
// CHECK-NEXT:    %[[COL:.*]] = arith.divui %[[LOCAL]], %[[ROWS]] : index
// CHECK:         arith.muli %[[ROW]]
// CHECK:         arith.muli %[[COL]]
func.func @raster(%A: memref<256x64xf16>, %B: memref<64x128xf16>, %C: memref<256x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], raster = 3>}
    ins(%A, %B : memref<256x64xf16>, memref<64x128xf16>) outs(%C : memref<256x128xf32>)
  return
}

// -----

// raster = 1: row-major, the block ids are the tile indices.
// CHECK-LABEL: func @row_major
// CHECK:       gpu.launch blocks(%[[BX:[^,]*]], %[[BY:[^,]*]], %{{[^)]*}})
// CHECK-NOT:     arith.minui
// CHECK:         arith.muli %[[BY]]
// CHECK:         arith.muli %[[BX]]
// CHECK-NOT:     arith.minui
func.func @row_major(%A: memref<256x64xf16>, %B: memref<64x128xf16>, %C: memref<256x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 16], raster = 1>}
    ins(%A, %B : memref<256x64xf16>, memref<64x128xf16>) outs(%C : memref<256x128xf32>)
  return
}
