// RUN: split-file %s %t
// RUN: tcgen-opt %t/diagnostics.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel,func.func(tcgen-verify-lowered))'
// RUN: not tcgen-opt %t/off.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel{fuse-epilogue=false})' 2>&1 | FileCheck %s --check-prefix=OFF

//--- diagnostics.mlir
// Consumers that cannot be computed in the epilogue: a remark at the
// contraction says why, and the consumer is an error, never dropped.

#id = affine_map<(d0, d1) -> (d0, d1)>
// The result is a function argument: the caller can observe it, so the
// kernel would have to write it as well.
func.func @observable(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                      %C: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the consumer of the result is not fused into the kernel: the contraction result is function argument #2, which the caller can observe (the kernel would have to write it as well)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  // expected-error @below {{'linalg.generic' op is not compiled into any kernel}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// An op the epilogue does not implement.
func.func @unsupported_op(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                          %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{not fused into the kernel: the body op 'math.sin' is not supported in an epilogue}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sin %x : f32
    linalg.yield %y : f32
  }
  return
}

// With fusion off, a fusable consumer is refused too.
// OFF: remark: the consumer of the result is not fused into the kernel: fusion is off (fuse-epilogue=false)
// OFF: error: 'linalg.matmul' op operand C must be a function argument

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
// The result read transposed: not element for element.
func.func @transposed(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                      %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the consumer reads the contraction result transposed or broadcast}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The consumer accumulates into its output's old value.
func.func @reads_output(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                        %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the consumer reads the old value of its output}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
// An extra operand read transposed.
func.func @extra_transposed(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                            %D: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{operand #1 is neither a scalar, a row or column vector nor an 256x256 matrix read element for element}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf32>, memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.addf %x, %d : f32
    linalg.yield %y : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Two readers of the intermediate.
func.func @two_readers(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                       %out: memref<256x256xf32>, %out2: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the contraction result is read by more than one op}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out2 : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Integer arithmetic in the body.
func.func @integer_body(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                        %out: memref<256x256xi32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the body op 'arith.fptosi' is not supported in an epilogue}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xi32>) {
  ^bb0(%x: f32, %o: i32):
    %y = arith.fptosi %x : f32 to i32
    linalg.yield %y : i32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The consumer writes a local buffer: nothing the kernel could return.
func.func @output_not_argument(%A: memref<256x128xf16>, %B: memref<128x256xf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  %out = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{the consumer's output is not a function argument}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// An integer extra operand.
func.func @integer_operand(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                           %D: memref<256x256xi32>, %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-remark @below {{operand #1 is not a contiguous memref of f16, bf16 or f32}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf32>, memref<256x256xi32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %d: i32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A consumer of a batch that reads one [m, n] matrix for every batch entry
// is not fused (matrix operands hold one matrix per entry; vectors and
// scalars are shared).
func.func @batched_shared_matrix(%A: memref<2x128x64xf16>, %B: memref<2x64x128xf16>, %D: memref<128x128xf16>, %out: memref<2x128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<2x128x128xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<2x128x128xf16>)
  // expected-remark @below {{not fused into the kernel: operand #1 is neither a scalar, a row or column vector nor an 2x128x128 matrix read element for element (vectors are shared by the whole batch)}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<2x128x64xf16>, memref<2x64x128xf16>) outs(%C : memref<2x128x128xf16>)
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%C, %D : memref<2x128x128xf16>, memref<128x128xf16>) outs(%out : memref<2x128x128xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %y = arith.addf %x, %d : f16
    linalg.yield %y : f16
  }
  return
}

// -----

// A consumer of a batch stored between C's matrix dimensions is not fused.
func.func @batched_middle(%A: memref<2x128x64xf16>, %B: memref<2x64x128xf16>, %out: memref<128x2x128xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<128x2x128xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<128x2x128xf16>)
  // expected-remark @below {{not fused into the kernel: fused epilogues of a batch need C stored with its batch dimensions outermost}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x128x64xf16>, memref<2x64x128xf16>) outs(%C : memref<128x2x128xf16>) attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} {
  ^bb0(%x: f16, %y: f16, %z: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %z, %p : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [affine_map<(i, b, j) -> (i, b, j)>, affine_map<(i, b, j) -> (i, b, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%C : memref<128x2x128xf16>) outs(%out : memref<128x2x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zero : f16
    linalg.yield %y : f16
  }
  return
}

//--- off.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                     %bias: memref<256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
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
