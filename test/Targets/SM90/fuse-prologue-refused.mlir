// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// Producers of A or B that cannot be applied to the tiles in the kernel: a
// remark at the contraction says why, and the operand, not being a
// function argument, is an error; nothing is dropped.

#id = affine_map<(d0, d1) -> (d0, d1)>
// A division may not be finite at 0, the value of TMA's zero fill past the
// K edge.
func.func @divide(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.divf %one, %x : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of A is not fused into the kernel: the body op 'arith.divf' may not be finite at 0, the value of the tiles' zero fill}}
  // expected-error @below {{operand A must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A producer with a second input (A + D): a prologue maps one operand.
func.func @two_inputs(%A: memref<256x128xf16>, %D: memref<256x128xf16>,
                      %B: memref<128x256xf16>, %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A, %D : memref<256x128xf16>, memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %y = arith.addf %x, %d : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of A is not fused into the kernel: the producer is not an elementwise op on memrefs of the operand's rank with one input and one output}}
  // expected-error @below {{operand A must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A cast: the producer's input (f32) is not of the operand's dtype.
func.func @cast(%A: memref<256x128xf32>, %B: memref<128x256xf16>,
                %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf32>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of A is not fused into the kernel: the producer does not map one contiguous function argument of the operand's shape and dtype element for element}}
  // expected-error @below {{operand A must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Producers of both A and B: a kernel fuses one prologue (A's).
func.func @both(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %RA = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%RA : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of B is not fused into the kernel: a kernel fuses one prologue, and A's is fused}}
  // expected-error @below {{operand B must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%RA, %R : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The relu'd A is also read by another op: two ops touch the buffer.
func.func @shared_buffer(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                         %C: memref<256x256xf32>, %copy: memref<256x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  memref.copy %R, %copy : memref<256x128xf16> to memref<256x128xf16>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of A is not fused into the kernel: the operand is a local buffer that 2 ops other than the contraction touch (a prologue needs exactly one producer)}}
  // expected-error @below {{operand A must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

// A is filled by a copy, not computed elementwise.
func.func @copied(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %R = memref.alloc() : memref<256x128xf16>
  memref.copy %A, %R : memref<256x128xf16> to memref<256x128xf16>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of A is not fused into the kernel: the operand is written by 'memref.copy', which is not an elementwise linalg op before the contraction}}
  // expected-error @below {{operand A must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The producer reads the old value of its output buffer (A' = max(A, R)).
func.func @reads_output(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                        %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %o : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the producer of A is not fused into the kernel: the producer reads the old value of its output}}
  // expected-error @below {{operand A must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}
