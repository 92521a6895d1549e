// RUN: tcgen-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-stage-epilogue))'

// Four fragment stores of a 32x32 warp tile that are not a row-major grid
// (the second store's row is not the first's).
func.func @not_a_grid(%C: memref<64x64xf32> {tcgen.operand = "C"}, %f: !gpu.mma_matrix<16x16xf32, "COp">, %r0: index, %r1: index, %c0: index, %c1: index) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">} {
  %one = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %one, %y = %one, %z = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    gpu.subgroup_mma_store_matrix %f, %C[%r0, %c0] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
    // expected-error @below {{staged epilogue expects the warp's 16x16 C fragments stored as a row-major grid in one block}}
    gpu.subgroup_mma_store_matrix %f, %C[%r1, %c1] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
    gpu.subgroup_mma_store_matrix %f, %C[%r1, %c0] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
    gpu.subgroup_mma_store_matrix %f, %C[%r1, %c1] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
    gpu.terminator
  }
  return
}
