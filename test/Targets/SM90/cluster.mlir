// RUN: split-file %s %t
// RUN: tcgen-opt %t/c21.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=C21
// RUN: tcgen-opt %t/c12.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=C12
// RUN: tcgen-opt %t/c11.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=C11

//--- c21.mlir
// A 2x1 cluster: two blocks on neighbouring tile rows share the B tile.
// Each loads the half of its four 64-wide B boxes that its rank names and
// multicasts it to both (mask 0b11); A stays local. The empty barriers
// count lane 0 of each consumer warp of both blocks (2 x 4 x 2), and the
// release arrives on both blocks' barriers through mapa.
// C21-LABEL: gpu.func @mm_kernel(
// C21-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// C21-SAME:    tcgen.cluster = array<i64: 2, 1, 1>
// C21-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 64>, C = array<i64: {{[0-9]+}}, 64>}
// C21:         %[[C16:.*]] = arith.constant 16 : index
// C21:         nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %[[C16]]
// The inits are fenced at cluster scope by the thread that made them; the
// cluster barrier's arrive is then relaxed (no GPU-wide memory barrier in
// every thread).
// C21:         nvvm.fence.mbarrier.init
// C21-NEXT:    }
// C21-NEXT:    nvvm.cluster.arrive.relaxed
// C21-NEXT:    nvvm.cluster.wait
// C21:         nvvm.read.ptx.sreg.cluster.ctarank
// C21:         %[[ITEND:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// C21:         nvgpu.tma.async.load %{{.*}} to %{{.*}} : <tensor = memref<128x64xf16, 3>
// C21-NOT:     multicast_mask
// C21:         nvgpu.tma.async.load {{.*}} multicast_mask
// C21:         nvgpu.tma.async.load {{.*}} multicast_mask
// C21-NOT:     nvgpu.tma.async.load
// The producer's tail: it waits on every stage's empty barrier as for S
// more loads (all consumers of both blocks done with each stage), so that
// no block needs a cluster barrier before it exits.
// C21:         scf.for %[[TJ:.*]] = %c0 to %[[S:.*]] step %c1 {
// C21-NEXT:      %[[TIT:.*]] = arith.addi %[[ITEND]], %[[TJ]] : index
// C21-NEXT:      %[[TS:.*]] = arith.remui %[[TIT]], %[[S]] : index
// C21:           nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[TS]]]
// C21:         nvvm.setmaxregister increase
// Descriptors keep the 18 low address bits: the rank bits of a cluster's
// shared addresses must not reach the LBO field.
// C21:         %[[MASK:.*]] = arith.constant 262143 : i64
// C21:         arith.andi %{{.*}}, %[[MASK]] : i64
// The cluster addresses of both blocks' first empty barrier are mapped
// once per consumer; a release adds 8 bytes a stage and arrives on both
// from lane 0 of each warp.
// C21:         %[[BAR0:.*]] = nvgpu.mbarrier.get %{{.*}}[%c0]
// C21-NEXT:    %[[MAPPED:.*]] = llvm.inline_asm asm_dialect = att "mapa.shared::cluster.u32 $0, $2, 0; mapa.shared::cluster.u32 $1, $2, 1;", "=r,=r,r" %[[BAR0]]
// C21-NEXT:    %[[R0:.*]] = llvm.extractvalue %[[MAPPED]][0]
// C21-NEXT:    %[[R1:.*]] = llvm.extractvalue %[[MAPPED]][1]
// C21:         %[[OFF:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// C21-NEXT:    %[[A0:.*]] = arith.addi %[[R0]], %[[OFF]] : i32
// C21-NEXT:    %[[A1:.*]] = arith.addi %[[R1]], %[[OFF]] : i32
// C21-NEXT:    llvm.inline_asm has_side_effects {{.*}}@p mbarrier.arrive.shared::cluster.b64 _, [$0]; @p mbarrier.arrive.shared::cluster.b64 _, [$1]; }", "r,r,r" %[[A0]], %[[A1]]
// C21-NOT:     nvvm.cluster.arrive
// C21:         gpu.return

// A 1x2 cluster shares A instead: its [128][64] box splits into two of 64
// rows; B is loaded whole, locally.
// C12-LABEL: gpu.func @mm_kernel(
// C12-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 64>, B = array<i64: 64, 64>, C = array<i64: {{[0-9]+}}, 64>}
// C12:         nvgpu.tma.async.load {{.*}} multicast_mask {{.*}} -> memref<64x64xf16, 3>
// C12-COUNT-4: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} :

// Without a cluster: no cluster barrier, every consumer thread releases.
// C11-LABEL: gpu.func @mm_kernel(
// C11-NOT:     nvvm.cluster_dim
// C11:         %[[C256:.*]] = arith.constant 256 : index
// C11:         nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %[[C256]]
// C11-NOT:     nvvm.cluster.arrive
// C11-NOT:     multicast_mask
// C11:         nvgpu.mbarrier.arrive %{{.*}}
// C11-NOT:     nvvm.cluster.arrive
// C11:         gpu.return

func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- c12.mlir
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 2], store = "tma">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- c11.mlir
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
