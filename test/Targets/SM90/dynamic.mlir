// RUN: tcgen-opt %s -split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// M, N and K known at run time only: the kernel takes them as its last
// three parameters (tcgen.params "size:m/n/k") and computes the counts from
// them: cluster tiles along M = ceil(M / 128), along N = ceil(N / 256),
// k-tiles = ceil(K / 64). A, B and C are tensor maps; grid x = -1 (one
// block per SM).
func.func @dyn(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 16, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x?xf16>, memref<?x?xf16>)
                outs(%C : memref<?x?xf32>)
  return
}
// CHECK-LABEL: func.func @dyn(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    {tcgen.operand = "B"}
// CHECK-SAME:    {tcgen.operand = "C"}
// CHECK-NOT:     linalg.
// CHECK:       gpu.func @dyn_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[M:.*]]: index, %[[N:.*]]: index, %[[K:.*]]: index) kernel
// CHECK-SAME:    tcgen.launch = array<i64: -1, 1, 1, 384, 1, 1,
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "size:m", "size:n", "size:k"]
// CHECK:         %[[M1:.*]] = arith.addi %[[M]], %c127 : index
// CHECK-NEXT:    %[[TM:.*]] = arith.divui %[[M1]], %c128{{.*}} : index
// CHECK:         %[[N1:.*]] = arith.addi %[[N]], %c255 : index
// CHECK-NEXT:    %[[TN:.*]] = arith.divui %[[N1]], %c256{{.*}} : index
// CHECK:         %[[K1:.*]] = arith.addi %[[K]], %c63 : index
// CHECK-NEXT:    %[[NUMK:.*]] = arith.divui %[[K1]], %c64{{.*}} : index
// CHECK:         %[[UNITS0:.*]] = arith.muli %[[TM]], %[[TN]] : index
// CHECK-NEXT:    %[[B:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[UNITS:.*]] = arith.muli %[[UNITS0]], %[[B]] : index
// The blocks walk the tiles, each for all of its k-tiles.
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
// CHECK:           %{{.*}} = arith.addi %[[NUMK]], %{{.*}} : index
// No masks: TMA stores clip the edge tiles.
// CHECK-NOT:     memref.store
// CHECK-NOT:     vector.store
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta

// -----

// Only M at run time, a batch of 4 matrices, B stored [n][k], bf16 -> bf16:
// the batch stays a constant factor of the tile count.
func.func @dyn_m_batched(%A: memref<4x?x512xbf16>, %B: memref<4x256x512xbf16>, %C: memref<4x?x256xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<4x?x256xbf16>)
  linalg.batch_matmul indexing_maps = [
      affine_map<(b, m, n, k) -> (b, m, k)>,
      affine_map<(b, m, n, k) -> (b, n, k)>,
      affine_map<(b, m, n, k) -> (b, m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<4x?x512xbf16>, memref<4x256x512xbf16>)
    outs(%C : memref<4x?x256xbf16>)
  return
}
// CHECK-LABEL: func.func @dyn_m_batched(
// CHECK:       gpu.func @dyn_m_batched_kernel(
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) kernel
// CHECK-SAME:    tcgen.launch = array<i64: -1, 1, 1,
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "size:m", "size:n", "size:k"]
// CHECK-SAME:    tcgen.transposed = array<i1: false, true>
// Tiles per raster group: 8 x the cluster tiles along N.
// CHECK:         arith.muli %c8, %{{.*}} : index
// CHECK-NEXT:    %[[UNITS0:.*]] = arith.muli %[[TM:.*]], %[[TN:.*]] : index
// CHECK-NEXT:    %[[B:.*]] = arith.constant 4 : index
// CHECK-NEXT:    arith.muli %[[UNITS0]], %[[B]] : index
// The matrix of tile t: t / (tiles per matrix).
// CHECK:         %[[PER:.*]] = arith.muli %[[TM]], %[[TN]] : index
// CHECK-NEXT:    arith.divui %{{.*}}, %[[PER]] : index

// -----

// A fused epilogue with a row operand (bias along N): the operand arrives as
// a bare pointer (memref<1xf16>) viewed at the run-time N, and its loads are
// clamped to the last column pair (N - 2) and the rows to M - 1.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @dyn_bias_relu(%A: memref<?x256xf16>, %B: memref<256x?xf16>, %bias: memref<?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x256xf16>
  %n = memref.dim %B, %c1 : memref<256x?xf16>
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc(%m, %n) : memref<?x?xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<?x?xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x256xf16>, memref<256x?xf16>)
                outs(%C : memref<?x?xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<?x?xf16>, memref<?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<?x?xf16>
  return
}
// CHECK-LABEL: func.func @dyn_bias_relu(
// CHECK-NOT:     linalg.
// CHECK:       gpu.func @dyn_bias_relu_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[ERAW:.*]]: memref<1xf16>, %[[M:.*]]: index, %[[N:.*]]: index, %{{.*}}: index) kernel
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:E0", "size:m", "size:n", "size:k"]
// CHECK:         %[[E:.*]] = memref.reinterpret_cast %[[ERAW]] to offset: [0], sizes: [%[[N]]], strides: [1] : memref<1xf16> to memref<?xf16>
// CHECK:         %[[LAST:.*]] = arith.subi %[[M]], %c1{{(_[0-9]+)?}} : index
// CHECK:         arith.minui %{{.*}}, %[[LAST]] : index
// CHECK:         %[[PAIR:.*]] = arith.subi %[[N]], %c2{{(_[0-9]+)?}} : index
// CHECK:         %[[COL:.*]] = arith.minui %{{.*}}, %[[PAIR]] : index
// CHECK:         vector.load %[[E]][%[[COL]]] : memref<?xf16>, vector<2xf16>
// CHECK:         arith.maximumf

// -----

// A matrix operand (a residual) arrives as a pointer with its row stride,
// a parameter after the sizes (tcgen.params "stride:E0:0"), and is viewed
// at M x N with that stride.
// CHECK-LABEL: gpu.func @dyn_residual_kernel(
// CHECK-SAME:    %[[RRAW:[^:]*]]: memref<1xf16>, %[[RM:[^:]*]]: index, %[[RN:[^:]*]]: index, %{{[^:]*}}: index, %[[RS:[^:]*]]: index) kernel
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:E0", "size:m", "size:n", "size:k", "stride:E0:0"]
// CHECK:         %[[R:.*]] = memref.reinterpret_cast %[[RRAW]] to offset: [0], sizes: [%[[RM]], %[[RN]]], strides: [%[[RS]], 1] : memref<1xf16> to memref<?x?xf16, strided<[?, 1]>>
// CHECK:         vector.load %[[R]][%{{.*}}, %{{.*}}] : memref<?x?xf16, strided<[?, 1]>>, vector<2xf16>
#id = affine_map<(i, j) -> (i, j)>
func.func @dyn_residual(%A: memref<?x256xf16>, %B: memref<256x256xf16>, %R: memref<?x256xf16>, %out: memref<?x256xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x256xf16>
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc(%m) : memref<?x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<?x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x256xf16>, memref<256x256xf16>)
                outs(%C : memref<?x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %R : memref<?x256xf16>, memref<?x256xf16>) outs(%out : memref<?x256xf16>) {
  ^bb0(%x: f16, %r: f16, %o: f16):
    %s = arith.addf %x, %r : f16
    linalg.yield %s : f16
  }
  memref.dealloc %C : memref<?x256xf16>
  return
}

// -----

// An intermediate C whose consumer cannot be fused: an error with the
// reason.
func.func @dyn_unfused(%A: memref<?x256xf16>, %B: memref<256x256xf16>, %out: memref<256x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x256xf16>
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc(%m) : memref<?x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<?x256xf16>)
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 back end takes C as a function argument, or as the intermediate of a fused epilogue, but C is neither (the consumer's output is not a contiguous ?x256 memref written element for element)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x256xf16>, memref<256x256xf16>)
                outs(%C : memref<?x256xf16>)
  linalg.transpose ins(%C : memref<?x256xf16>) outs(%out : memref<256x?xf16>) permutation = [1, 0]
  memref.dealloc %C : memref<?x256xf16>
  return
}

// -----

// C += A*B: C's old values come through a second pointer to C, viewed with
// C's run-time row stride ("stride:C:0").
// CHECK-LABEL: gpu.func @dyn_accumulate_kernel(
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:C", "size:m", "size:n", "size:k", "stride:C:0"]
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, 1] : memref<1xf32> to memref<?x?xf32, strided<[?, 1]>>
// CHECK:         vector.load %{{.*}} : memref<?x?xf32, strided<[?, 1]>>, vector<2xf32>
// CHECK:         arith.addf
func.func @dyn_accumulate(%A: memref<?x256xf16>, %B: memref<256x256xf16>, %C: memref<?x256xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x256xf16>, memref<256x256xf16>)
                outs(%C : memref<?x256xf32>)
  return
}

// -----

func.func @dyn_dual(%A: memref<?x128xf16>, %B: memref<128x256xf16>,
                    %A2: memref<?x64xf16>, %B2: memref<64x256xf16>,
                    %C: memref<?x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 5, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x128xf16>, memref<128x256xf16>)
                outs(%C : memref<?x256xf32>)
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 back end does not support add(gemm, gemm) yet}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A2, %B2 : memref<?x64xf16>, memref<64x256xf16>)
                outs(%C : memref<?x256xf32>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
func.func @dyn_prologue(%A: memref<?x256xf16>, %B: memref<256x256xf16>, %C: memref<?x256xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x256xf16>
  %zero = arith.constant 0.0 : f16
  %zf = arith.constant 0.0 : f32
  %R = memref.alloc(%m) : memref<?x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<?x256xf16>) outs(%R : memref<?x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %zero : f16
    linalg.yield %r : f16
  }
  linalg.fill ins(%zf : f32) outs(%C : memref<?x256xf32>)
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 back end takes A and B as function arguments only (no fused prologue) yet, but A is not one}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<?x256xf16>, memref<256x256xf16>)
                outs(%C : memref<?x256xf32>)
  memref.dealloc %R : memref<?x256xf16>
  return
}

// -----

// tf32 reads A [m][k] and B [n][k] only; the other layouts need transposing
// copies, which are sized at compile time.
func.func @dyn_tf32_b_n_major(%A: memref<?x256xf32>, %B: memref<256x256xf32>, %C: memref<?x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x256xf32>)
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 back end does not support tf32 with A stored [k][m] or B stored [k][n] (tf32 wgmma reads both K-major, and the transposing copies are sized at compile time) yet}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x256xf32>, memref<256x256xf32>)
                outs(%C : memref<?x256xf32>)
  return
}

// -----

// tf32 with B stored [n][k]: k-tiles of 32 f32 elements.
// CHECK-LABEL: func.func @dyn_tf32(
// CHECK:       gpu.func @dyn_tf32_kernel(
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: index, %[[K:.*]]: index) kernel
// CHECK:         arith.addi %[[K]], %c31 : index
func.func @dyn_tf32(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>,
      affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 32], warp = [64, 256, 32], mma = [64, 256, 8], stages = 4, padding = 0, vector = 8, raster = 16, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// A matrix operand per batch entry (a batch stride too) is not planned yet:
// refused, naming what is taken.
#idb = affine_map<(b, i, j) -> (b, i, j)>
func.func @dyn_batch_residual(%A: memref<2x?x256xf16>, %B: memref<2x256x256xf16>, %R: memref<2x?x256xf16>, %out: memref<2x?x256xf16>) {
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c1 : memref<2x?x256xf16>
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc(%m) : memref<2x?x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<2x?x256xf16>)
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 back end takes matrix operands of a fused epilogue only without a batch and with a row-major C}}
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 5, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<2x?x256xf16>, memref<2x256x256xf16>)
                      outs(%C : memref<2x?x256xf16>)
  linalg.generic {indexing_maps = [#idb, #idb, #idb], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%C, %R : memref<2x?x256xf16>, memref<2x?x256xf16>) outs(%out : memref<2x?x256xf16>) {
  ^bb0(%x: f16, %r: f16, %o: f16):
    %s = arith.addf %x, %r : f16
    linalg.yield %s : f16
  }
  memref.dealloc %C : memref<2x?x256xf16>
  return
}

// -----

// C += A*B with a column-major C and sizes known at run time: refused.
func.func @dyn_cm_accumulate(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) {
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 back end does not support C += A*B on a batch or a column-major C (zero-fill C first) yet}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 16, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x?xf16>, memref<?x?xf16>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// M and N at run time, K = 333 f16: A's rows are 666 bytes apart, which no
// tensor map can address (and there are no copies): refused here, not at
// every launch.
func.func @dyn_odd_k(%A: memref<?x333xf16>, %B: memref<333x?xf16>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  // expected-error @+1 {{with sizes known only at run time the sm90 kernel reads A through TMA, with no copies: dimension 0 of A 'memref<?x333xf16>' has a stride of 333 elements (666 bytes), not a multiple of 16 bytes, which TMA needs; give the sizes at compile time (the kernel then copies such rows) or rows a multiple of 16 bytes apart}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x333xf16>, memref<333x?xf16>)
                outs(%C : memref<?x?xf32>)
  return
}

// -----

// B stored [n][k] with K = 9 bf16 (18-byte rows): B is named.
func.func @dyn_odd_k_b(%A: memref<?x16xbf16>, %B: memref<?x9xbf16>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  // expected-error @+1 {{the sm90 kernel reads B through TMA, with no copies: dimension 0 of B 'memref<?x9xbf16>' has a stride of 9 elements (18 bytes)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%A, %B : memref<?x16xbf16>, memref<?x9xbf16>)
                outs(%C : memref<?x?xf32>)
  return
}
