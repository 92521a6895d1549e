// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands))' | FileCheck %s

// A stored [k][m] and B stored [n][k]: the tiles keep the stored order
// (padded by 8), so each copied row is contiguous in global memory too: A's
// tile is [bk][bm] from A[k0 + r][m0 + c], B's [bn][bk] from B[n0 + r][k0 + c].
// CHECK-DAG: memref.global "private" @__tcgen_smem_A : memref<32x72xf16, 3>
// CHECK-DAG: memref.global "private" @__tcgen_smem_B : memref<64x40xf16, 3>
// CHECK-LABEL: func @transposed
// CHECK:       affine.for %[[M:.*]] = 0 to 128 step 64
// CHECK:         affine.for %[[N:.*]] = 0 to 128 step 64
// CHECK:           affine.for %[[K:.*]] = 0 to 128 step 32
// CHECK:             gpu.barrier
// CHECK:             affine.for %[[R:.*]] = 0 to 32 {
// CHECK:               affine.for %[[C:.*]] = 0 to 64 {
// CHECK:                 affine.load %{{.*}}[%[[K]] + %[[R]], %[[M]] + %[[C]]]
// CHECK:             } {tcgen.copy = "A", tcgen.loop = "copy_row"}
// CHECK:             affine.for %[[R2:.*]] = 0 to 64 {
// CHECK:               affine.for %[[C2:.*]] = 0 to 32 {
// CHECK:                 affine.load %{{.*}}[%[[N]] + %[[R2]], %[[K]] + %[[C2]]]
// CHECK:             } {tcgen.copy = "B", tcgen.loop = "copy_row"}
func.func @transposed(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
    {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 8>}
  return
}
