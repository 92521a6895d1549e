// RUN: tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction{async-copies=1}))' | FileCheck %s
// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction))' 2>&1 | FileCheck %s --check-prefix=OFF

#id = affine_map<(d0, d1) -> (d0, d1)>

// relu(A) B on the wmma back end. With async-copies (the K loop's copies
// will be cp.async stages, where tcgen-apply-prologue rewrites the copied
// chunks) the producer of A becomes the kernel's prologue: the nest reads
// the producer's input, which is the kernel's A, and the function records
// the body. Without it (the register prefetch) the producer is not fused,
// a remark says why, and A is not a function argument.
// CHECK-LABEL: func @relu_a
// CHECK-SAME:    (%[[A:[^:]*]]: memref<128x128xf16> {tcgen.operand = "A"}
// CHECK-SAME:    tcgen.fused_prologue = {
// CHECK-SAME:    tcgen.fused_prologue_operand = "A"
// CHECK:         affine.load %[[A]]
// OFF: remark: the producer of A is not fused into the kernel: the wmma back end applies prologues in its cp.async K loop only (--async-copies)
// OFF: error: 'linalg.matmul' op operand A must be a function argument
func.func @relu_a(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x128xf16>) outs(%R : memref<128x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.maximumf %a, %z16 : f16
    linalg.yield %r : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "wmma", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 8>}
    ins(%R, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  memref.dealloc %R : memref<128x128xf16>
  return
}
