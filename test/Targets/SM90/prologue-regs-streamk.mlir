// RUN: split-file %s %t
// RUN: tcgen-opt %t/smem.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=SMEM
// RUN: tcgen-opt %t/smem-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=SMEM
// RUN: tcgen-opt %t/regs.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=REGS
// RUN: tcgen-opt %t/regs-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=REGS

//--- smem.mlir
// With stream-K the consumers carry the schedule through the main loop,
// and the register form's fragments made ptxas spill (128x256; 128x128
// with A [k][m]), so prologue=auto rewrites A in shared memory there,
// while an explicit prologue=regs is kept (the build guard judges the
// result). Without stream-K auto takes the register form.
// REGS-LABEL: gpu.func @relu_a_streamk_kernel(
// REGS:         nvvm.ldmatrix
// REGS-NOT:     llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// REGS:         llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, ${{[0-9]+}}, 0; wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// SMEM-LABEL:   gpu.func @relu_a_streamk_kernel(
// SMEM-NOT:       nvvm.ldmatrix
// SMEM:           llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// SMEM:           nvvm.wgmma.mma_async
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a_streamk(%A: memref<256x4096xf16>, %B: memref<4096x256xf16>,
                          %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x4096xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x4096xf16>) outs(%R : memref<256x4096xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x4096xf16>, memref<4096x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x4096xf16>
  return
}

//--- smem-2.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a_streamk(%A: memref<256x4096xf16>, %B: memref<4096x256xf16>,
                          %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x4096xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x4096xf16>) outs(%R : memref<256x4096xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x4096xf16>, memref<4096x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x4096xf16>
  return
}

//--- regs.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a_streamk(%A: memref<256x4096xf16>, %B: memref<4096x256xf16>,
                          %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x4096xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x4096xf16>) outs(%R : memref<256x4096xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma", prologue = "regs">} ins(%R, %B : memref<256x4096xf16>, memref<4096x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x4096xf16>
  return
}

//--- regs-2.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a_streamk(%A: memref<256x4096xf16>, %B: memref<4096x256xf16>,
                          %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x4096xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x4096xf16>) outs(%R : memref<256x4096xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x4096xf16>, memref<4096x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x4096xf16>
  return
}
