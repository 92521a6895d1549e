// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-split-k-reduce,tcgen-stage-epilogue))' | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// relu(A B + bias) on sm80 with a staged epilogue: the contraction writes a
// local buffer (tagged C), the consumer's body is computed on each copied
// vector of the slab, with the bias loaded as a vector at the same columns,
// and stored to the consumer's output, which becomes the kernel's C; the
// consumer and the intermediate buffer are gone.
// CHECK-LABEL: func @bias_relu
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<128xf32> {tcgen.operand = "E0"}
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<128x128xf32> {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.fused_epilogue = {inputs = [{kind = "row", operand = "E0"}]
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[V:.*]] = vector.load %{{.*}} : memref<64x32xf32, 3>, vector<4xf32>
// CHECK:           %[[B:.*]] = vector.load %[[BIAS]][%{{.*}}] : memref<128xf32>, vector<4xf32>
// CHECK:           vector.extract %[[V]][0]
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           vector.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] : memref<128x128xf32>, vector<4xf32>
// CHECK-NOT:     linalg.generic
func.func @bias_relu(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %bias: memref<128xf32>, %out: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "staged">}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<128x128xf32>, memref<128xf32>) outs(%out : memref<128x128xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %C : memref<128x128xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// Stores from registers: the sm80 back end does not fuse, and says so.
func.func @not_staged(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %bias: memref<128xf32>, %out: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  // expected-remark @below {{the consumer of the result is not fused into the kernel: the sm80 back end fuses epilogues into its staged epilogue only (store = "staged")}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0, store = "global">}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<128x128xf32>, memref<128xf32>) outs(%out : memref<128x128xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %C : memref<128x128xf32>
  return
}
