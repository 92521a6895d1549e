// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/off.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=OFF

//--- check.mlir
// By default (epilogue-in-half off until it is measured on a GPU) the
// epilogue stays in f32.
// OFF-LABEL: gpu.func @add_relu_kernel(
// OFF-NOT:     vector<2xf16>) -> vector<2xf16>
// OFF:         arith.addf %{{.*}}, %{{.*}} : f32

// With epilogue-in-half: an epilogue written in f32 on f16 values with one rounding op (an add)
// and exact ops after it (max with 0), rounded once to f16: computed on
// the pair in f16 (packed f16x2 instructions), which gives the same bits.
// No f32 arithmetic is left in the epilogue.
// CHECK-LABEL: gpu.func @add_relu_kernel(
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2xf16>
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT:    arith.maximumf %[[S]], %[[ZERO]] : vector<2xf16>
// CHECK-NOT:     arith.addf %{{.*}} : f32
// CHECK:         gpu.return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_in_half = true>} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %zf = arith.constant 0.0 : f32
    %xf = arith.extf %x : f16 to f32
    %df = arith.extf %d : f16 to f32
    %s = arith.addf %xf, %df : f32
    %r = arith.maximumf %s, %zf : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// bf16 with a row bias: bf16x2 pairs too (bf16's 8 bits leave f32's 24
// well over twice as many).
// CHECK-LABEL: gpu.func @bias_relu_bf16_kernel(
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<2xbf16>
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : vector<2xbf16>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu_bf16(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>,
                          %bias: memref<256xbf16>, %out: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %C = memref.alloc() : memref<256x256xbf16>
  linalg.fill ins(%zero : bf16) outs(%C : memref<256x256xbf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_in_half = true>} ins(%A, %B : memref<256x128xbf16>, memref<128x256xbf16>)
                outs(%C : memref<256x256xbf16>)
  linalg.generic {indexing_maps = [#id2, #row, #id2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<256x256xbf16>, memref<256xbf16>)
      outs(%out : memref<256x256xbf16>) {
  ^bb0(%x: bf16, %b: bf16, %o: bf16):
    %zf = arith.constant 0.0 : f32
    %xf = arith.extf %x : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %xf, %bf : f32
    %r = arith.maximumf %s, %zf : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// Two rounding ops ((C + D) * 2 rounds twice in f16 but once in f32): the
// epilogue stays in f32, element by element.
// CHECK-LABEL: gpu.func @two_roundings_kernel(
// CHECK-NOT:     vector<2xf16>) -> vector<2xf16>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
#id3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_roundings(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                         %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_in_half = true>} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id3, #id3, #id3],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %two = arith.constant 2.0 : f32
    %xf = arith.extf %x : f16 to f32
    %df = arith.extf %d : f16 to f32
    %s = arith.addf %xf, %df : f32
    %p = arith.mulf %s, %two : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// A constant f16 cannot hold (0.1): computing in f16 would round it first,
// so the epilogue stays in f32.
// CHECK-LABEL: gpu.func @inexact_constant_kernel(
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
#id4 = affine_map<(d0, d1) -> (d0, d1)>
func.func @inexact_constant(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                            %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_in_half = true>} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id4, #id4],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf16>) outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %c = arith.constant 0.1 : f32
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %xf, %c : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  return
}

//--- off.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %zf = arith.constant 0.0 : f32
    %xf = arith.extf %x : f16 to f32
    %df = arith.extf %d : f16 to f32
    %s = arith.addf %xf, %df : f32
    %r = arith.maximumf %s, %zf : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu_bf16(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>,
                          %bias: memref<256xbf16>, %out: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %C = memref.alloc() : memref<256x256xbf16>
  linalg.fill ins(%zero : bf16) outs(%C : memref<256x256xbf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xbf16>, memref<128x256xbf16>)
                outs(%C : memref<256x256xbf16>)
  linalg.generic {indexing_maps = [#id2, #row, #id2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<256x256xbf16>, memref<256xbf16>)
      outs(%out : memref<256x256xbf16>) {
  ^bb0(%x: bf16, %b: bf16, %o: bf16):
    %zf = arith.constant 0.0 : f32
    %xf = arith.extf %x : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %xf, %bf : f32
    %r = arith.maximumf %s, %zf : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

#id3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_roundings(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                         %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id3, #id3, #id3],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %two = arith.constant 2.0 : f32
    %xf = arith.extf %x : f16 to f32
    %df = arith.extf %d : f16 to f32
    %s = arith.addf %xf, %df : f32
    %p = arith.mulf %s, %two : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

#id4 = affine_map<(d0, d1) -> (d0, d1)>
func.func @inexact_constant(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                            %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id4, #id4],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf16>) outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %c = arith.constant 0.1 : f32
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %xf, %c : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  return
}
