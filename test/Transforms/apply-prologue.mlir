// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-async-copies,tcgen-apply-prologue))' | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// relu(A) B on sm80: the kernel copies A itself; in each K iteration every
// thread rewrites the A chunks it copied (two 16-byte chunks of the 64x32
// tile per thread) between its cp.async wait and the barrier; the producer
// and its buffer are gone.
// CHECK-LABEL: func @relu_a
// CHECK-SAME:    (%[[A:[^:]*]]: memref<128x128xf16> {tcgen.operand = "A"}
// CHECK-SAME:    tcgen.fused_prologue = {
// CHECK-SAME:    tcgen.fused_prologue_operand = "A"
// CHECK-NOT:     memref.alloc
// CHECK:         nvgpu.device_async_copy %[[A]]
// CHECK:         affine.for {{.*}} iter_args(
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK:           %[[V:.*]] = vector.load %[[S:.*]][%{{.*}}, %{{.*}}] : memref<64x32xf16, 3>, vector<8xf16>
// CHECK:           vector.extract %[[V]][0]
// CHECK:           arith.maximumf
// CHECK:           vector.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<64x32xf16, 3>, vector<8xf16>
// CHECK:           vector.load
// CHECK:           vector.store
// CHECK-NOT:       vector.load
// CHECK:           gpu.barrier
// CHECK-NOT:     linalg.generic
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
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%R, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  memref.dealloc %R : memref<128x128xf16>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Producers of both A and B: A's is fused, B's refused with the reason
// (and then B is not a function argument).
func.func @both(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %RA = memref.alloc() : memref<128x128xf16>
  %RB = memref.alloc() : memref<128x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x128xf16>) outs(%RA : memref<128x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.maximumf %a, %z16 : f16
    linalg.yield %r : f16
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x128xf16>) outs(%RB : memref<128x128xf16>) {
  ^bb0(%b: f16, %o: f16):
    %r = arith.maximumf %b, %z16 : f16
    linalg.yield %r : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  // expected-remark @below {{the producer of B is not fused into the kernel: a kernel fuses one prologue, and A's is fused}}
  // expected-error @below {{operand B must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%RA, %RB : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}
