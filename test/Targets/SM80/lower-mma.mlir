// RUN: tcgen-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-lower-contraction,tcgen-tile,tcgen-promote-operands,tcgen-detect-parallel,tcgen-wmma-map-mma,tcgen-hoist-accumulators,tcgen-vectorize-copies,tcgen-map-to-gpu,tcgen-split-k-reduce,tcgen-async-copies),lower-affine,canonicalize,cse,func.func(tcgen-sm80-lower-mma))' | FileCheck %s

// C += A*B on 64x64 blocks of four 32x32 warp tiles: each warp's four 16x16
// C fragments are vector<4x2xf32> (two m16n8 accumulators each), loaded
// per lane as four vector<2xf32> pairs before the K loop and carried in its
// iter_args; A fragments are ldmatrix.x4, B fragments ldmatrix.x4.trans of
// the [k][n] tile; each 16x16x16 product is two m16n8k16 mma.sync on the
// two n8 halves.
// CHECK-LABEL: func @accumulate
// CHECK:         gpu.launch
// CHECK:           gpu.lane_id
// CHECK:           vector.load %{{.*}} : memref<128x128xf32>, vector<2xf32>
// CHECK:           vector.insert %{{.*}} [0] : vector<2xf32> into vector<4x2xf32>
// CHECK:           nvgpu.device_async_copy
// CHECK:           scf.for {{.*}} -> (vector<4x2xf32>, vector<4x2xf32>, vector<4x2xf32>, vector<4x2xf32>)
// CHECK:             nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, 3> -> vector<4x2xf16>
// CHECK:             nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xf16, 3> -> vector<4x2xf16>
// CHECK:             vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [2, 2], strides = [1, 1]} : vector<4x2xf16> to vector<2x2xf16>
// CHECK:             nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:             vector.extract_strided_slice %{{.*}} {offsets = [2, 0], sizes = [2, 2], strides = [1, 1]} : vector<4x2xf16> to vector<2x2xf16>
// CHECK:             nvgpu.mma.sync
// CHECK-NOT:         gpu.subgroup_mma
// CHECK:           vector.extract %{{.*}}[3] : vector<2xf32> from vector<4x2xf32>
// CHECK:           vector.store %{{.*}} : memref<128x128xf32>, vector<2xf32>
func.func @accumulate(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// C = A*B with f16 accumulation: the fragments start as zero splats and the
// mma.sync accumulate in f16.
// CHECK-LABEL: func @overwrite_f16
// CHECK:         vector.broadcast %{{.*}} : f16 to vector<4x2xf16>
// CHECK:         nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// CHECK:         vector.store %{{.*}} : memref<128x128xf16>, vector<2xf16>
func.func @overwrite_f16(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<128x128xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf16>)
  return
}

// -----

// A wmma kernel is left alone.
// CHECK-LABEL: func @wmma
// CHECK:         gpu.subgroup_mma_compute
// CHECK-NOT:     nvgpu.mma.sync
func.func @wmma(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "wmma", block = [64, 64, 32], warp = [32, 32, 32], stages = 2>}
    ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Intra-block split-K: the partial sums parked in shared memory are loaded
// per lane like C and added to the first share's accumulators.
// CHECK-LABEL: func @split_k
// CHECK:         scf.if
// CHECK:           vector.store %{{.*}} : memref<256x16xf32, 3>, vector<2xf32>
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           vector.load %{{.*}} : memref<256x16xf32, 3>, vector<2xf32>
// CHECK:           arith.addf %{{.*}}, %{{.*}} : vector<4x2xf32>
// CHECK:           vector.store %{{.*}} : memref<128x128xf32>, vector<2xf32>
func.func @split_k(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 64], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// A stored [k][m] and B stored [n][k]: the shared tiles keep the stored
// order ([32 k][64 m] and [64 n][32 k]), so A's 8x8 matrices have rows of k
// (ldmatrix .trans) and B's rows of n (no .trans); lane l addresses row
// l % 8 + 8 (l / 16), column 8 ((l / 8) % 2) of the fragment.
// CHECK-LABEL: func @transposed
// CHECK:         nvgpu.device_async_copy {{.*}} : memref<128x128xf16> to memref<32x64xf16, 3>
// CHECK:         nvgpu.device_async_copy {{.*}} : memref<128x128xf16> to memref<64x32xf16, 3>
// CHECK:         scf.for
// CHECK:           %[[LANE:.*]] = gpu.lane_id
// CHECK:           %[[I:.*]] = arith.remui %[[LANE]], %c8
// CHECK:           %[[RH:.*]] = arith.divui %[[LANE]], %c16
// CHECK:           %[[RO:.*]] = arith.muli %[[RH]], %c8
// CHECK:           %[[ROW:.*]] = arith.addi %[[I]], %[[RO]]
// CHECK:           %[[M:.*]] = arith.divui %[[LANE]], %c8
// CHECK:           %[[CH:.*]] = arith.remui %[[M]], %c2
// CHECK:           %[[CO:.*]] = arith.muli %[[CH]], %c8
// CHECK:           nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xf16, 3> -> vector<4x2xf16>
// CHECK:           nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, 3> -> vector<4x2xf16>
func.func @transposed(%A: memref<128x128xf16>, %B: memref<128x128xf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<128x128xf16>, memref<128x128xf16>) outs(%C : memref<128x128xf32>)
    {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>}
  return
}

// -----

// bf16 A and B: gpu.subgroup_mma has no bf16, so tcgen-lower-contraction
// carries them as f16 bits (the function's arguments, the shared tiles and
// the fragments are f16) and marks the function; the lowering reinterprets
// each fragment's registers as i32 and multiplies them with bf16
// nvvm.mma.sync, four f32 accumulators per n8 half.
// CHECK-LABEL: func @bf16
// CHECK-SAME:    (%{{.*}}: memref<128x128xf16> {tcgen.operand = "A"}, %{{.*}}: memref<128x128xf16> {tcgen.operand = "B"}, %{{.*}}: memref<128x128xf32> {tcgen.operand = "C"})
// CHECK-SAME:    tcgen.bf16_operands
// CHECK:         nvgpu.ldmatrix {{.*}} : memref<32x64xf16, 3> -> vector<4x2xf16>
// CHECK:         vector.bitcast %{{.*}} : vector<4x2xf16> to vector<4x1xi32>
// CHECK:         nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT:     nvgpu.mma.sync
func.func @bf16(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm80", block = [64, 64, 32], warp = [32, 32, 32], stages = 2, padding = 0>}
    ins(%A, %B : memref<128x128xbf16>, memref<128x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}
