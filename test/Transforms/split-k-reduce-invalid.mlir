// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-split-k-reduce))'

// A split-K kernel whose C is written some other way than by fragment
// stores after the K loop cannot be reduced.
func.func @no_fragment_stores(%C: memref<64x64xf32> {tcgen.operand = "C"}) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2, padding = 0>, tcgen.overwrite} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z1 = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{intra-block split-K reduces C fragment stores after the K loop only}}
    memref.store %z, %C[%c0, %c0] : memref<64x64xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @nothing_to_reduce(%C: memref<64x64xf32> {tcgen.operand = "C"}) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2, padding = 0>, tcgen.overwrite} {
  %c1 = arith.constant 1 : index
  // expected-error @below {{intra-block split-K found no C fragment stores to reduce}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z1 = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
