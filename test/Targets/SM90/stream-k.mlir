// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 stream-k=1 store=global}),tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 stream-k=1}),tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=TMA
// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,256,64 stream-k=0 store=global}),tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=DP

// Stream-K: the kernel takes a workspace (two partial slots of 64 KiB and
// 16 bytes of flags per block) and is launched with one block per SM
// (schedule 2).
// CHECK-LABEL: gpu.func @mm_kernel(
// CHECK-SAME:    memref<256x512xf32>, %{{.*}}: !llvm.ptr) kernel
// CHECK-SAME:    tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 197632, 2>
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C", "workspace:131088"]
// With TMA stores the finisher's tile goes out through the chunk buffers;
// blocks that only contribute partials store no chunk.
// TMA-LABEL: gpu.func @mm_kernel(
// TMA-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "workspace:131088"]
// TMA:       scf.if %{{.*}} {
// TMA:       nvvm.cp.async.bulk.wait_group 0 {read}
// TMA:       nvvm.cp.async.bulk.tensor.global.shared.cta
// The partition: R + P split tiles when R != 0 (all when there is at most
// one wave), each block a contiguous range of their k-tiles.
// CHECK:       %[[W:.*]] = arith.divui %[[TILES:c[0-9_]*]], %[[NBL:.*]] : index
// CHECK:       arith.remui
// CHECK:       arith.cmpi ule, %[[W]], %{{.*}}
// CHECK:       arith.select
// CHECK:       %[[SKT:.*]] = arith.select
// CHECK:       %[[UNITS:.*]] = arith.muli %[[SKT]], %{{.*}} : index
// Producer: stream-K items first, then whole tiles; the k-loop runs over
// the item's range.
// The producer drops to 40 so that the consumers get 232 (the schedule state).
// CHECK:       nvvm.setmaxregister decrease 40
// CHECK:       scf.while
// CHECK:       scf.condition
// CHECK:       arith.minui
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[LEN:.*]] step
// CHECK:       nvgpu.tma.async.load
// Consumers: the same items.
// CHECK:       nvvm.setmaxregister increase 232
// CHECK:       llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// CHECK:       scf.while
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 0
// A block that did not start the tile stores its 32 float4 partials and
// releases its flag after its warpgroup's named barrier.
// CHECK:       %[[CONTRIB:.*]] = arith.cmpi ugt
// CHECK:       scf.if %[[CONTRIB]] {
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:       st.release.gpu.global.b32
// The finisher acquires the flags of the blocks after it, clears them, and
// adds their partials in the epilogue.
// CHECK:       ld.acquire.gpu.global.b32
// CHECK:       st.relaxed.gpu.global.b32
// CHECK:       nvvm.barrier id
// CHECK:       %[[NOTC:.*]] = arith.xori %[[CONTRIB]]
// CHECK:       scf.if %[[NOTC]] {
// Eight quads per loop over the slots, their loads in flight together.
// CHECK:       scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, !llvm.ptr<1>)
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:       vector.store
// CHECK-COUNT-3: scf.for {{.*}} -> ({{.*}}!llvm.ptr<1>)
// CHECK-NOT:   scf.for {{.*}} -> ({{.*}}!llvm.ptr<1>)
// CHECK:       gpu.return

// Data-parallel: no workspace, no flags.
// DP-LABEL: gpu.func @mm_kernel(
// DP-SAME:    memref<256x512xf32>) kernel
// DP-SAME:    tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 197632, 1>
// DP-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C"]
// DP-NOT:     scf.while
// DP-NOT:     ld.acquire
// DP:         gpu.return
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
