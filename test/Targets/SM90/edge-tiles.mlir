// RUN: split-file %s %t
// RUN: tcgen-opt %t/global.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=GLOBAL
// RUN: tcgen-opt %t/tma.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=TMA
// RUN: tcgen-opt %t/auto.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=AUTO
// RUN: tcgen-opt %t/cluster.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=CLUSTER
// RUN: tcgen-opt %t/default.mlir -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=DEFAULT

//--- global.mlir
// Sizes that are not multiples of the tile: 300 x 328 x 72 with 128 x 256
// x 64 tiles is 3 x 2 tiles of two k-tiles each. TMA zero-fills the loads
// past the edges (the second k-tile is 8 wide), so the main loop does not
// change; the epilogue stores only the pairs inside C.
func.func @edge(%A: memref<300x72xf16>, %B: memref<72x328xf16>, %C: memref<300x328xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<300x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<300x72xf16>, memref<72x328xf16>) outs(%C : memref<300x328xf32>)
  return
}
// Stores from registers: each pair is stored if its row is below M = 300
// and its column below N = 328.
// GLOBAL-LABEL: gpu.func @edge_kernel(
// GLOBAL-SAME:    tcgen.launch = array<i64: 6, 1, 1, 384,
// The producer walks the 6 tiles, each of 2 k-tiles.
// GLOBAL:         nvgpu.tma.prefetch.descriptor
// GLOBAL:         scf.for %{{.*}} = %{{.*}} to %c6{{.*}} step
// GLOBAL-NEXT:      arith.constant 0 : index
// GLOBAL-NEXT:      %[[LEN:.*]] = arith.constant 2 : index
// GLOBAL:           scf.for %{{.*}} = %c0 to %[[LEN]] step
// GLOBAL:           nvgpu.tma.async.load
// GLOBAL:         %[[M:.*]] = arith.constant 300 : index
// GLOBAL:         %[[ROWIN:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[M]] : index
// GLOBAL:         %[[N:.*]] = arith.constant 328 : index
// GLOBAL:         %[[COLIN:.*]] = arith.cmpi ult, %[[COL:.*]], %[[N]] : index
// GLOBAL:         %[[IN:.*]] = arith.andi %[[ROWIN]], %[[COLIN]] : i1
// GLOBAL-NEXT:    scf.if %[[IN]] {
// GLOBAL-NEXT:      vector.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]] : memref<300x328xf32>, vector<2xf32>
// GLOBAL-NEXT:    }
// TMA stores clip at the tensor map's edges: no masks.
// TMA-LABEL:    gpu.func @edge_kernel(
// TMA-SAME:       tcgen.launch = array<i64: 6, 1, 1, 384,
// TMA:            nvvm.cp.async.bulk.wait_group 0
// TMA-NOT:        scf.if
// TMA-NOT:        vector.store
// TMA:            nvvm.cp.async.bulk.tensor.global.shared.cta
// Three tile rows round up to two clusters of two: eight tiles, the last
// two entirely below M (they load zeros and store nothing).
// CLUSTER-LABEL: gpu.func @edge_kernel(
// CLUSTER-SAME:    tcgen.launch = array<i64: 8, 1, 1, 384,

// -----

// A fused epilogue on edge tiles: the extra operands' loads are clamped to
// the last row (199) and the last pair (326) so that they stay inside the
// operand; their values past the edge are not stored.
func.func @edge_fused(%A: memref<200x72xf16>, %B: memref<72x328xf16>, %R: memref<200x328xf32>, %D: memref<200x328xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<200x328xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<200x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<200x72xf16>, memref<72x328xf16>) outs(%C : memref<200x328xf32>)
  linalg.add ins(%C, %R : memref<200x328xf32>, memref<200x328xf32>) outs(%D : memref<200x328xf32>)
  memref.dealloc %C : memref<200x328xf32>
  return
}
// TMA-LABEL:    gpu.func @edge_fused_kernel(
// TMA:            %[[LASTROW:.*]] = arith.constant 199 : index
// TMA:            %[[R0:.*]] = arith.minui %{{.*}}, %[[LASTROW]] : index
// TMA:            %[[LASTPAIR:.*]] = arith.constant 326 : index
// TMA:            %[[C0:.*]] = arith.minui %{{.*}}, %[[LASTPAIR]] : index
// TMA:            vector.load %{{.*}}[%[[R0]], %[[C0]]] : memref<200x328xf32>, vector<2xf32>
// By default (epilogue-loads = auto) R is read with TMA instead, which
// zero-fills past the edge: a tensor map and no clamped loads.
// AUTO-LABEL:   gpu.func @edge_fused_kernel(
// AUTO-SAME:      "tensormap:C", "tensormap:E0"
// AUTO-NOT:       vector.load %{{.*}} : memref<200x328xf32>, vector<2xf32>
// AUTO:           gpu.return

// -----

// Sizes that are not multiples of any tile in clusters: a 1000^3 problem,
// whose rows (2000 bytes apart) straddle 128-byte lines, in 64 x 128 tiles
// in 2x1 clusters (128 blocks, one wave; the model's choice for it,
// test/Model/configure-cluster-default.mlir): tiles of 64 rows read B
// twice per flop as often as those of 128, unless a cluster shares it.
func.func @odd_default(%A: memref<1000x1000xf16>, %B: memref<1000x1000xf16>, %C: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%C : memref<1000x1000xf32>)
  return
}
// DEFAULT-LABEL: gpu.func @odd_default_kernel(
// DEFAULT-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// DEFAULT-SAME:    tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64]{{.*}}cluster = [2, 1]
// DEFAULT-SAME:    tcgen.launch = array<i64: 128, 1, 1, 256,

//--- tma.mlir
func.func @edge(%A: memref<300x72xf16>, %B: memref<72x328xf16>, %C: memref<300x328xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<300x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "fragments">} ins(%A, %B : memref<300x72xf16>, memref<72x328xf16>) outs(%C : memref<300x328xf32>)
  return
}

// -----

func.func @edge_fused(%A: memref<200x72xf16>, %B: memref<72x328xf16>, %R: memref<200x328xf32>, %D: memref<200x328xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<200x328xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<200x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "fragments">} ins(%A, %B : memref<200x72xf16>, memref<72x328xf16>) outs(%C : memref<200x328xf32>)
  linalg.add ins(%C, %R : memref<200x328xf32>, memref<200x328xf32>) outs(%D : memref<200x328xf32>)
  memref.dealloc %C : memref<200x328xf32>
  return
}

// -----

func.func @odd_default(%A: memref<1000x1000xf16>, %B: memref<1000x1000xf16>, %C: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "fragments">} ins(%A, %B : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%C : memref<1000x1000xf32>)
  return
}

//--- auto.mlir
func.func @edge(%A: memref<300x72xf16>, %B: memref<72x328xf16>, %C: memref<300x328xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<300x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<300x72xf16>, memref<72x328xf16>) outs(%C : memref<300x328xf32>)
  return
}

// -----

func.func @edge_fused(%A: memref<200x72xf16>, %B: memref<72x328xf16>, %R: memref<200x328xf32>, %D: memref<200x328xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<200x328xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<200x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<200x72xf16>, memref<72x328xf16>) outs(%C : memref<200x328xf32>)
  linalg.add ins(%C, %R : memref<200x328xf32>, memref<200x328xf32>) outs(%D : memref<200x328xf32>)
  memref.dealloc %C : memref<200x328xf32>
  return
}

// -----

func.func @odd_default(%A: memref<1000x1000xf16>, %B: memref<1000x1000xf16>, %C: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%C : memref<1000x1000xf32>)
  return
}

//--- cluster.mlir
func.func @edge(%A: memref<300x72xf16>, %B: memref<72x328xf16>, %C: memref<300x328xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<300x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<300x72xf16>, memref<72x328xf16>) outs(%C : memref<300x328xf32>)
  return
}

// -----

func.func @edge_fused(%A: memref<200x72xf16>, %B: memref<72x328xf16>, %R: memref<200x328xf32>, %D: memref<200x328xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<200x328xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<200x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<200x72xf16>, memref<72x328xf16>) outs(%C : memref<200x328xf32>)
  linalg.add ins(%C, %R : memref<200x328xf32>, memref<200x328xf32>) outs(%D : memref<200x328xf32>)
  memref.dealloc %C : memref<200x328xf32>
  return
}

// -----

func.func @odd_default(%A: memref<1000x1000xf16>, %B: memref<1000x1000xf16>, %C: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%C : memref<1000x1000xf32>)
  return
}

//--- default.mlir
func.func @edge(%A: memref<300x72xf16>, %B: memref<72x328xf16>, %C: memref<300x328xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<300x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<300x72xf16>, memref<72x328xf16>) outs(%C : memref<300x328xf32>)
  return
}

// -----

func.func @edge_fused(%A: memref<200x72xf16>, %B: memref<72x328xf16>, %R: memref<200x328xf32>, %D: memref<200x328xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<200x328xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<200x328xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<200x72xf16>, memref<72x328xf16>) outs(%C : memref<200x328xf32>)
  linalg.add ins(%C, %R : memref<200x328xf32>, memref<200x328xf32>) outs(%D : memref<200x328xf32>)
  memref.dealloc %C : memref<200x328xf32>
  return
}

// -----

func.func @odd_default(%A: memref<1000x1000xf16>, %B: memref<1000x1000xf16>, %C: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1000x1000xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [64, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<1000x1000xf16>, memref<1000x1000xf16>) outs(%C : memref<1000x1000xf32>)
  return
}
