// RUN: split-file %s %t
// The generated kernels of nine configurations print exactly as stored
// (stream-K with stores from registers, a 2x1 cluster with TMA stores,
// sizes known at run time, a fused epilogue, a fused prologue in shared
// memory and in registers, pack kernels, tf32, two row blocks per
// warpgroup): the typed generator is checked op for op against stored
// modules (Inputs/printout-*.expected: first those of the former text
// generator; regenerated when the consumer's tile coordinates moved after
// the main loop).
// A change that means to alter the kernels regenerates them with the RUN
// line's command.
// RUN: tcgen-opt %t/diagnostics.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-stream-k.expected -
// RUN: tcgen-opt %t/diagnostics-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-cluster.expected -
// RUN: tcgen-opt %t/diagnostics-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-dynamic.expected -
// RUN: tcgen-opt %t/diagnostics-2-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-bias-relu.expected -
// RUN: tcgen-opt %t/diagnostics-2-2-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-relu-a.expected -
// RUN: tcgen-opt %t/diagnostics-2-2-2-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-packs.expected -
// RUN: tcgen-opt %t/diagnostics-2-2-2-2-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-tf32.expected -
// RUN: tcgen-opt %t/diagnostics-2-2-2-2-2-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-row-blocks.expected -
// RUN: tcgen-opt %t/diagnostics-2-2-2-2-2-2-2-2.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | diff %S/Inputs/printout-relu-a-regs.expected -

//--- diagnostics.mlir
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- diagnostics-2.mlir
func.func @mm(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [2, 1], store = "tma">} ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

//--- diagnostics-2-2.mlir
func.func @dyn(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 16, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<?x?xf16>, memref<?x?xf16>)
                outs(%C : memref<?x?xf32>)
  return
}

//--- diagnostics-2-2-2.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                     %bias: memref<256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<256x256xf16>, memref<256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<256x256xf16>
  return
}

//--- diagnostics-2-2-2-2.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf16>
  return
}

//--- diagnostics-2-2-2-2-2.mlir
func.func @pack_b(%A: memref<256x128xf16>, %B: memref<128x324xf16>, %C: memref<256x324xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x324xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", pack = "always">} ins(%A, %B : memref<256x128xf16>, memref<128x324xf16>) outs(%C : memref<256x324xf32>)
  return
}

//--- diagnostics-2-2-2-2-2-2.mlir
func.func @tf32(%A: memref<256x128xf32>, %B: memref<256x128xf32>,
                %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 32], warp = [64, 64, 32], mma = [64, 64, 8], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%A, %B : memref<256x128xf32>, memref<256x128xf32>)
                outs(%C : memref<256x256xf32>)
  return
}

//--- diagnostics-2-2-2-2-2-2-2.mlir
func.func @rows(%A: memref<1536x256xf16>, %B: memref<256x1536xf16>, %C: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<1536x1536xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [128, 64, 64], mma = [64, 64, 16], stages = 5, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<1536x256xf16>, memref<256x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}

//--- diagnostics-2-2-2-2-2-2-2-2.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 8, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf16>
  return
}
