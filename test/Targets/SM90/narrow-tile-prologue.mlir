// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: not tcgen-opt %t/smem.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=SMEM

//--- check.mlir
// A prologue on B with a block tile 144 wide: the consumers split B's tile
// in shared memory in whole 64-wide boxes, so by default (auto) a pack
// kernel transforms B once instead; asking for shared memory is an error.
// CHECK-LABEL: func.func @relu_b(
// CHECK:       gpu.func @relu_b_kernel(
// CHECK-SAME:    tcgen.packs = [{block = array<i64: 256, 1, 1>, entry = "relu_b_kernel_pack_B"
// CHECK-NOT:     !llvm.ptr<3> -> vector<8xf16>
// CHECK:       gpu.func @relu_b_kernel_pack_B(
// CHECK:         arith.maximumf
// SMEM: error: 'linalg.matmul' op a prologue on B in shared memory needs a block tile N that is a multiple of 64, not 144 (prologue = pack transforms B once instead)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_b(%A: memref<256x128xf16>, %B: memref<128x288xf16>,
                  %C: memref<256x288xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x288xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x288xf16>) outs(%R : memref<128x288xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x288xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 144, 64], warp = [64, 144, 64], mma = [64, 144, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %R : memref<256x128xf16>, memref<128x288xf16>)
                outs(%C : memref<256x288xf32>)
  return
}

//--- smem.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_b(%A: memref<256x128xf16>, %B: memref<128x288xf16>,
                  %C: memref<256x288xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x288xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x288xf16>) outs(%R : memref<128x288xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x288xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 144, 64], warp = [64, 144, 64], mma = [64, 144, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%A, %R : memref<256x128xf16>, memref<128x288xf16>)
                outs(%C : memref<256x288xf32>)
  return
}
