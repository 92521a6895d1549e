// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/tma.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=TMA
// RUN: tcgen-opt %t/dp.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=DP

//--- check.mlir
// Stream-K: the kernel takes a workspace (two partial slots of 64 KiB and
// 16 bytes of flags per block) and is launched with one block per SM
// (schedule 2), or with four blocks a tile where that is fewer: its 4 tiles
// on 16 blocks (the launch's ninth entry, the manifest's stream_k_blocks).
// CHECK-LABEL: gpu.func @mm_kernel(
// CHECK-SAME:    memref<256x512xf32>, %{{.*}}: !llvm.ptr) kernel
// CHECK-SAME:    tcgen.launch = array<i64: 4, 1, 1, 384, 1, 1, 197632, 2, 16>
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C", "workspace:131088"]
// With TMA stores the finisher's tile goes out through the chunk buffers;
// blocks that only contribute partials store no chunk.
// TMA-LABEL: gpu.func @mm_kernel(
// TMA-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "workspace:131088"]
// TMA:       scf.if %{{.*}} {
// TMA:       nvvm.cp.async.bulk.wait_group 0 {read}
// TMA:       nvvm.cp.async.bulk.tensor.global.shared.cta
// The partition: with R = T mod P != 0, all T split tiles when there are
// fewer than two waves, else R when 2 R >= P, else R + P, each block a
// contiguous range of their k-tiles.
// CHECK:       %[[W:.*]] = arith.divui %[[TILES:c[0-9_]*]], %[[NBL:.*]] : index
// CHECK-NEXT:  %[[R:.*]] = arith.remui %[[TILES]], %[[NBL]]
// CHECK-NEXT:  %[[RZ:.*]] = arith.cmpi eq, %[[R]], %c0
// CHECK-NEXT:  %[[W0:.*]] = arith.cmpi ule, %[[W]], %c1
// CHECK-NEXT:  %[[R2:.*]] = arith.addi %[[R]], %[[R]]
// CHECK-NEXT:  %[[HALF:.*]] = arith.cmpi uge, %[[R2]], %[[NBL]]
// CHECK-NEXT:  %[[RP:.*]] = arith.addi %[[R]], %[[NBL]]
// CHECK-NEXT:  %[[RS:.*]] = arith.select %[[HALF]], %[[R]], %[[RP]]
// CHECK-NEXT:  %[[T1:.*]] = arith.select %[[W0]], %[[TILES]], %[[RS]]
// CHECK-NEXT:  %[[SKT:.*]] = arith.select %[[RZ]], %c0{{.*}}, %[[T1]]
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
// Consumers: the same items, each block's range walked from its end: an
// item ends at unit %u and starts at the later of its tile's start and the
// range's start.
// CHECK:       nvvm.setmaxregister increase 232
// CHECK:       llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// CHECK:       scf.while (%[[U:.*]] = %[[SKEND:[^,]*]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:       arith.cmpi ugt, %[[U]], %[[SKSTART:.*]] : index
// CHECK:       ^bb0(%[[UB:[^:]*]]: index
// CHECK:       %[[ULAST:.*]] = arith.subi %[[UB]], %{{.*}} : index
// CHECK:       %[[TS:.*]] = arith.divui %[[ULAST]]
// CHECK:       %[[TSK:.*]] = arith.muli %[[TS]]
// CHECK:       %[[UFIRST:.*]] = arith.maxui %[[TSK]], %[[SKSTART]] : index
// CHECK:       arith.subi %[[UB]], %[[UFIRST]] : index
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 0
// A block that does not finish the tile stores its 32 float4 partials and
// releases its flag after its warpgroup's named barrier; the finisher is
// the block that ends the tile without starting it.
// CHECK:       %[[CONTRIB:.*]] = arith.cmpi ult, %{{.*}}, %c8{{.*}} : index
// CHECK-NEXT:  %[[MID:.*]] = arith.cmpi ugt
// CHECK:       %[[NOTC:.*]] = arith.xori %[[CONTRIB]]
// CHECK:       %[[FIN:.*]] = arith.andi %[[MID]], %[[NOTC]]
// CHECK:       scf.if %[[CONTRIB]] {
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:       st.release.gpu.global.b32
// The finisher acquires the flags of the blocks before it (down from block
// %bid - 1 while the block above starts inside the tile), clears them, and
// adds their partials in the epilogue.
// CHECK:       %[[LOW:.*]] = scf.if %[[FIN]] -> (index) {
// CHECK:       scf.while (%[[CB:.*]] = %block_id_x)
// CHECK:       arith.cmpi ugt
// CHECK:       arith.subi
// CHECK:       ld.acquire.gpu.global.b32
// CHECK:       st.relaxed.gpu.global.b32
// CHECK:       nvvm.barrier id
// CHECK:       } else {
// CHECK-NEXT:    scf.yield %block_id_x : index
// CHECK:       scf.if %[[NOTC]] {
// Eight quads per loop over the slots, their loads in flight together.
// CHECK:       scf.for %{{.*}} = %[[LOW]] to %block_id_x step {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, !llvm.ptr<1>)
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
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- tma.mlir
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- dp.mlir
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
