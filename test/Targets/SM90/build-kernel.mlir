// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/sched.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=SCHED
// RUN: tcgen-opt %t/global.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=GLOBAL

//--- check.mlir
// The matmul and its zero fill leave the host function; a generated kernel
// module takes their place.
// CHECK:       module attributes {gpu.container_module
// CHECK-LABEL: func.func @mm(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    tcgen.kernel = @mm_kernel
// CHECK-NOT:   linalg
// CHECK:       return
// Without persistence one block per tile is launched (flag 0), and raster = 1
// walks the tiles in row-major order (groups of one tile row).
// SCHED: tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 230400, 0>
// CHECK-LABEL: gpu.module @mm_kernel
// The dynamic shared memory is declared 16-byte aligned only: the driver
// does not promise more, and the kernel rounds the ring up to 1024 bytes
// at run time (a 1024 declared here let LLVM fold that rounding away).
// CHECK:       memref.global @__tcgen_dsmem : memref<0xi8, 3> {alignment = 16 : i64}
// With TMA stores (the default) C is a third tensor map, with boxes of one
// store chunk (32 f32 columns by 64 rows); the ring keeps 4 stages next to
// the 4 chunk buffers: 4 x 48 KiB + 32 KiB + 1 KiB of alignment.
// CHECK:       gpu.func @mm_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) kernel
// CHECK-SAME:    nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK-SAME:    tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 230400, 1>
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C"]
// CHECK-SAME:    tcgen.setmaxnreg = array<i64: 48, 224, 2>
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 64>, C = array<i64: 32, 64>}
// GLOBAL:      gpu.func @mm_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: memref<256x512xf32>) kernel
// GLOBAL-SAME:   tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 197632, 1>
// GLOBAL-SAME:   tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C"]
// GLOBAL-SAME:   tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 64>}
// 4 stages of full/empty barriers.
// CHECK:       nvgpu.mbarrier.create -> <{{.*}}num_barriers = 4>
// Producer warpgroup (the third): registers down, one A box and four B boxes per stage.
// CHECK:       nvvm.setmaxregister decrease 48
// CHECK:       nvgpu.mbarrier.try_wait.parity %{{.*}}[%{{.*}}]
// CHECK:       nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-5: nvgpu.tma.async.load
// Consumers: registers up, four k16 steps of m64n256k16 per stage, release
// the previous stage once its group is done.
// CHECK:       nvvm.setmaxregister increase 224
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK:       nvvm.wgmma.commit.group.sync.aligned
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:       nvgpu.mbarrier.arrive %{{.*}}[%{{.*}}]
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 0
// Epilogue: 2 x 32 pairs of f32 per thread, in 8 chunks of 4 column groups
// (8 pairs). Each chunk waits until its buffer's last TMA store has read it
// (all of them for the first chunk of a tile, all but the latest after),
// stores its pairs into the swizzled buffer (unit u of row r at u ^ (r % 8),
// as xor of the thread's key into constant unit offsets), fences them for
// the async proxy, meets the warpgroup at its named barrier, and the first
// thread stores the chunk by TMA at column n0 + 32 c of the warpgroup's
// rows.
// CHECK:       nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:       nvvm.barrier id = %[[BAR:.*]] number_of_threads = %{{.*}}
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK:       nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:       nvvm.barrier id = %[[BAR]] number_of_threads = %{{.*}}
// CHECK:       nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}], predicate = %{{.*}} : !llvm.ptr, <3>
// CHECK-NEXT:  nvvm.cp.async.bulk.commit.group
// CHECK-COUNT-7: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK-NOT:   nvvm.cp.async.bulk.wait_group 1
// The buffers outlive the kernel's last TMA stores.
// CHECK:       nvvm.cp.async.bulk.wait_group 0
// CHECK-NOT:   {read}
// CHECK:       gpu.return
// GLOBAL-COUNT-64: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<256x512xf32>, vector<2xf32>
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

// C += A*B (no zero fill): C is read and written (no tcgen.overwrite on the
// function); the kernel takes a second, plain pointer to C whose elements
// the epilogue loads in the accumulators' layout and adds in f32.
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME:    memref<256x512xf32> {tcgen.operand = "C"}
// CHECK-NOT:     tcgen.overwrite
// CHECK:       gpu.func @accumulate_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[OLD:.*]]: memref<256x512xf32>)
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:C"]
// CHECK:         %[[V:.*]] = vector.load %[[OLD]][%{{.*}}, %{{.*}}] : memref<256x512xf32>, vector<2xf32>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
func.func @accumulate(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

// C += A*B on a batch: the plain pointer to C views one dense matrix per
// batch entry, loaded at the tile's matrix first.
// CHECK-LABEL: func.func @accumulate_batch(
// CHECK-SAME:    memref<2x256x512xf32> {tcgen.operand = "C"}
// CHECK-NOT:     tcgen.overwrite
// CHECK:       gpu.func @accumulate_batch_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[OLD:.*]]: memref<2x256x512xf32>)
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:C"]
// CHECK:         vector.load %[[OLD]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x256x512xf32>, vector<2xf32>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
func.func @accumulate_batch(%A: memref<2x256x128xf16>, %B: memref<2x128x512xf16>, %C: memref<2x256x512xf32>) {
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%C : memref<2x256x512xf32>)
  return
}

// -----

// ... but not a C whose batch sits between its rows and columns: the old
// value is read as dense matrices, one after the other.
func.func @accumulate_batch_middle(%A: memref<2x256x128xf16>, %B: memref<2x128x512xf16>, %C: memref<256x2x512xf32>) {
  // expected-error @+1 {{C += A*B on a batch reads C's old value as one dense matrix per batch entry: the sm90 back end needs C stored with its batch dimensions outermost, in their order (zero-fill C first to compute C = A*B)}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%C : memref<256x2x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}


// -----

// C += A*B with a pointwise consumer: not yet.

#acc_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @accumulate_fused(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %out: memref<256x512xf32>) {
  %C = memref.alloc() : memref<256x512xf32>
  // expected-error @+1 {{C += A*B with a fused pointwise consumer is not supported by the sm90 back end yet (zero-fill C first, or compute the sum in the consumer)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#acc_id, #acc_id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x512xf32>) outs(%out : memref<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %z : f32
    linalg.yield %r : f32
  }
  return
}

//--- sched.mlir
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @accumulate(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @accumulate_batch(%A: memref<2x256x128xf16>, %B: memref<2x128x512xf16>, %C: memref<2x256x512xf32>) {
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%C : memref<2x256x512xf32>)
  return
}

// -----

func.func @accumulate_batch_middle(%A: memref<2x256x128xf16>, %B: memref<2x128x512xf16>, %C: memref<256x2x512xf32>) {
  // expected-error @+1 {{C += A*B on a batch reads C's old value as one dense matrix per batch entry: the sm90 back end needs C stored with its batch dimensions outermost, in their order (zero-fill C first to compute C = A*B)}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%C : memref<256x2x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#acc_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @accumulate_fused(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %out: memref<256x512xf32>) {
  %C = memref.alloc() : memref<256x512xf32>
  // expected-error @+1 {{C += A*B with a fused pointwise consumer is not supported by the sm90 back end yet (zero-fill C first, or compute the sum in the consumer)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#acc_id, #acc_id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x512xf32>) outs(%out : memref<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %z : f32
    linalg.yield %r : f32
  }
  return
}

//--- global.mlir
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @accumulate(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

func.func @accumulate_batch(%A: memref<2x256x128xf16>, %B: memref<2x128x512xf16>, %C: memref<2x256x512xf32>) {
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%C : memref<2x256x512xf32>)
  return
}

// -----

func.func @accumulate_batch_middle(%A: memref<2x256x128xf16>, %B: memref<2x128x512xf16>, %C: memref<256x2x512xf32>) {
  // expected-error @+1 {{C += A*B on a batch reads C's old value as one dense matrix per batch entry: the sm90 back end needs C stored with its batch dimensions outermost, in their order (zero-fill C first to compute C = A*B)}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x256x128xf16>, memref<2x128x512xf16>) outs(%C : memref<256x2x512xf32>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#acc_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @accumulate_fused(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %out: memref<256x512xf32>) {
  %C = memref.alloc() : memref<256x512xf32>
  // expected-error @+1 {{C += A*B with a fused pointwise consumer is not supported by the sm90 back end yet (zero-fill C first, or compute the sum in the consumer)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#acc_id, #acc_id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x512xf32>) outs(%out : memref<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %z : f32
    linalg.yield %r : f32
  }
  return
}
