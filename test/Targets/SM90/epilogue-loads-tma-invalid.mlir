// RUN: split-file %s %t
// RUN: not tcgen-opt %t/nomat.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=NOMAT
// RUN: tcgen-opt %t/diagnostics.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'
// RUN: not tcgen-opt %t/sk.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=SK
// RUN: not tcgen-opt %t/rows.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not tcgen-opt %t/chunk.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=CHUNK

//--- nomat.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                     %bias: memref<256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
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
  return
}

//--- diagnostics.mlir
// epilogue-loads = tma refuses what it does not cover, naming it.
// NOMAT: error: 'linalg.matmul' op epilogue-loads = tma needs a fused epilogue with a matrix operand of C's dtype
// CHUNK: error: 'linalg.matmul' op epilogue-loads = tma needs a block tile N that is a multiple of the store chunk
// SK: error: 'linalg.matmul' op epilogue-loads = tma needs no batch, stream-K, cluster, run-time sizes or consumer row blocks
// ROWS: error: 'linalg.matmul' op epilogue-loads = tma needs no batch, stream-K, cluster, run-time sizes or consumer row blocks

// Stores from registers (store = global): no chunk buffers to load into.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  // expected-error @below {{epilogue-loads = tma needs TMA stores of a row-major C}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", epilogue_loads = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

//--- sk.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  // expected-error @below {{epilogue-loads = tma needs TMA stores of a row-major C}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma", epilogue_loads = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

//--- rows.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  // expected-error @below {{epilogue-loads = tma needs TMA stores of a row-major C}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [128, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

//--- chunk.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 144, 64], warp = [64, 144, 64], mma = [64, 144, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}
