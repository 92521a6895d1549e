// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' -split-input-file | FileCheck %s

// swap with store = tma: the kernel's C^T tile goes out through the store
// chunks in C's own layout. Each column group's two 8x8 blocks of f16
// pairs (kernel rows 16w..16w+7 and 16w+8..16w+15) are stored transposed
// by one stmatrix (col layout): lane L addresses row L % 8 (C's row, the
// kernel's column 8 j + L % 8) of block (L / 8) % 2, 16-byte unit
// 2 w + block of the 128-byte chunk row, swizzled by the row. A tile 96
// wide leaves in two chunks of 64 kernel columns, the second overlapping
// the first (columns 32..95). The TMA store's coordinates are (the
// kernel's row, the kernel's column): C's column, then its row.
// CHECK-LABEL: gpu.func @mm_kernel(
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C"]
// CHECK:       %[[LANE:.*]] = arith.remui %{{.*}}, %c32 : index
// CHECK:       %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:  %[[LI:.*]] = arith.remui %[[LANE]], %[[C8]] : index
// CHECK-NEXT:  %[[LB0:.*]] = arith.divui %[[LANE]], %[[C8]] : index
// CHECK-NEXT:  %[[LB:.*]] = arith.remui %[[LB0]], %c2 : index
// CHECK-NEXT:  %[[W2:.*]] = arith.muli %{{.*}}, %c2 : index
// CHECK-NEXT:  %[[U0:.*]] = arith.addi %[[W2]], %[[LB]] : index
// CHECK-NEXT:  %[[U:.*]] = arith.xori %[[U0]], %[[LI]] : index
// CHECK-COUNT-8: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32
// CHECK:       %[[X0:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
// CHECK-NEXT:  %[[X0I:.*]] = arith.index_cast %[[X0]] : index to i32
// CHECK:       %[[Y0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:  %[[Y0I:.*]] = arith.index_cast %[[Y0]] : index to i32
// CHECK:       nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%[[Y0I]], %[[X0I]]]
// CHECK-COUNT-8: nvvm.stmatrix
// CHECK:       nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT:   nvvm.stmatrix
// CHECK-NOT:   memref.store
// CHECK:       gpu.return
func.func @mm(%A: memref<1000x520xf16>, %B: memref<520x1536xf16>, %C: memref<1000x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1000x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 96, 64], warp = [64, 96, 64], mma = [64, 96, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", swap = true>} ins(%A, %B : memref<1000x520xf16>, memref<520x1536xf16>) outs(%C : memref<1000x1536xf16>)
  return
}

// -----

// A matrix epilogue operand (the residual) is read one element at a time
// at swapped indices, as C would be without the transposed stores.
// CHECK-LABEL: gpu.func @residual_kernel(
// CHECK-SAME:    %[[R:[^:]*]]: memref<1000x1536xf16>) kernel
// CHECK:       memref.load %[[R]][%{{.*}}, %{{.*}}] : memref<1000x1536xf16>
// CHECK-NOT:   vector.load %[[R]]
// CHECK:       nvvm.stmatrix
func.func @residual(%A: memref<1000x520xf16>, %B: memref<520x1536xf16>, %R: memref<1000x1536xf16>, %out: memref<1000x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<1000x1536xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<1000x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 96, 64], warp = [64, 96, 64], mma = [64, 96, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", swap = true>} ins(%A, %B : memref<1000x520xf16>, memref<520x1536xf16>) outs(%C : memref<1000x1536xf16>)
  linalg.add ins(%C, %R : memref<1000x1536xf16>, memref<1000x1536xf16>) outs(%out : memref<1000x1536xf16>)
  return
}
