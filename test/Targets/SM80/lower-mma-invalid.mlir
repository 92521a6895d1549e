// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-sm80-lower-mma))'

// ldmatrix reads shared memory: an A fragment from global memory (the
// operands were not promoted) cannot be lowered.
func.func @a_from_global(%A: memref<64x64xf16>) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{sm80 lowering reads A and B fragments from shared memory only (ldmatrix); run tcgen-promote-operands}}
  %a = gpu.subgroup_mma_load_matrix %A[%c0, %c0] {leadDimension = 64 : index} : memref<64x64xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

func.func @transposed(%S: memref<64x64xf32>) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{sm80 lowering cannot load transposed C fragments}}
  %a = gpu.subgroup_mma_load_matrix %S[%c0, %c0] {leadDimension = 64 : index, transpose} : memref<64x64xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}

// -----

func.func @other_shape(%S: memref<64x64xf16, 3>) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{sm80 lowering takes 16x16 f16 or f32 fragments only}}
  %a = gpu.subgroup_mma_load_matrix %S[%c0, %c0] {leadDimension = 64 : index} : memref<64x64xf16, 3> -> !gpu.mma_matrix<32x8xf16, "AOp">
  return
}

// -----

func.func @elementwise(%S: memref<64x64xf32>) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>} {
  %c0 = arith.constant 0 : index
  %a = gpu.subgroup_mma_load_matrix %S[%c0, %c0] {leadDimension = 64 : index} : memref<64x64xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
  // expected-error @below {{sm80 lowering has no elementwise fragment ops but addf}}
  %b = gpu.subgroup_mma_elementwise mulf %a, %a : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %b, %S[%c0, %c0] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
  return
}
