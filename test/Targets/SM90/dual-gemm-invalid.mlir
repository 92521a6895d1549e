// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
// Swapped, B's and B2's halves would land in different warpgroups.
func.func @swapped(%X: memref<256x128xbf16>, %W1: memref<384x128xbf16>,
    %W3: memref<384x128xbf16>, %bias: memref<384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  // expected-error @below {{a dual GEMM (two products of one A combined in the epilogue) in one sm90 kernel needs no swap (swap = false)}}
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", swap = true>}
    ins(%X, %W1 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", swap = true>}
    ins(%X, %W3 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %bias, %U : memref<256x384xbf16>, memref<384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %b: bf16, %u: bf16, %out: bf16):
    %gb = arith.addf %g, %b : bf16
    %gf = arith.extf %gb : bf16 to f32
    %uf = arith.extf %u : bf16 to f32
    %ng = arith.negf %gf : f32
    %ex = math.exp %ng : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %s = arith.divf %gf, %den : f32
    %h = arith.mulf %s, %uf : f32
    %r = arith.truncf %h : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %G : memref<256x384xbf16>
  memref.dealloc %U : memref<256x384xbf16>
  return
}

// -----

// No stream-K with a dual GEMM yet.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @streamk(%X: memref<256x128xbf16>, %W1: memref<384x128xbf16>,
    %W3: memref<384x128xbf16>, %bias: memref<384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  // expected-error @below {{a dual GEMM (two products of one A combined in the epilogue) in one sm90 kernel needs no stream-K and no cluster}}
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %bias, %U : memref<256x384xbf16>, memref<384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %b: bf16, %u: bf16, %out: bf16):
    %gb = arith.addf %g, %b : bf16
    %gf = arith.extf %gb : bf16 to f32
    %uf = arith.extf %u : bf16 to f32
    %ng = arith.negf %gf : f32
    %ex = math.exp %ng : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %s = arith.divf %gf, %den : f32
    %h = arith.mulf %s, %uf : f32
    %r = arith.truncf %h : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %G : memref<256x384xbf16>
  memref.dealloc %U : memref<256x384xbf16>
  return
}

// -----

// B stored [k][n]: B's and B2's halves are whole 64-wide boxes.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @narrow_n_major(%X: memref<256x128xbf16>, %W1: memref<128x384xbf16>,
    %W3: memref<128x384xbf16>, %bias: memref<384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  // expected-error @below {{a dual GEMM (two products of one A combined in the epilogue) in one sm90 kernel needs a block tile N of 128 or more (a store chunk of output columns per product) that is a multiple of 128 (B stored [k][n] is loaded in 64-wide boxes, B's and B2's halves)}}
  linalg.matmul indexing_maps = [#x, #wt, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 192, 64], warp = [64, 192, 64], mma = [64, 192, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xbf16>, memref<128x384xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #wt, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 192, 64], warp = [64, 192, 64], mma = [64, 192, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xbf16>, memref<128x384xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %bias, %U : memref<256x384xbf16>, memref<384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %b: bf16, %u: bf16, %out: bf16):
    %gb = arith.addf %g, %b : bf16
    %gf = arith.extf %gb : bf16 to f32
    %uf = arith.extf %u : bf16 to f32
    %ng = arith.negf %gf : f32
    %ex = math.exp %ng : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %s = arith.divf %gf, %den : f32
    %h = arith.mulf %s, %uf : f32
    %r = arith.truncf %h : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %G : memref<256x384xbf16>
  memref.dealloc %U : memref<256x384xbf16>
  return
}

// -----

// B and B2 in different layouts: not a dual GEMM; the first product's
// result stays an allocation, which is refused (the remark says why).
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @layouts(%X: memref<256x128xbf16>, %W1: memref<384x128xbf16>,
    %W3: memref<128x384xbf16>, %bias: memref<384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  // expected-remark @below {{the consumer of the result is not fused into the kernel: operand #2 is not a function argument (a second product (dual GEMM) needs B and B2 stored in one layout and a row-major C)}}
  // expected-error @below {{operand C must be a function argument}}
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #wt, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xbf16>, memref<128x384xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %bias, %U : memref<256x384xbf16>, memref<384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %b: bf16, %u: bf16, %out: bf16):
    %gb = arith.addf %g, %b : bf16
    %gf = arith.extf %gb : bf16 to f32
    %uf = arith.extf %u : bf16 to f32
    %ng = arith.negf %gf : f32
    %ex = math.exp %ng : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %s = arith.divf %gf, %den : f32
    %h = arith.mulf %s, %uf : f32
    %r = arith.truncf %h : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %G : memref<256x384xbf16>
  memref.dealloc %U : memref<256x384xbf16>
  return
}

// -----

// A block tile N below 128: less than a store chunk of output columns per
// product.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @narrow_k_major(%X: memref<256x128xbf16>, %W1: memref<384x128xbf16>,
    %W3: memref<384x128xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  // expected-error @below {{a dual GEMM (two products of one A combined in the epilogue) in one sm90 kernel needs a block tile N of 128 or more (a store chunk of output columns per product) that is a multiple of 16}}
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<256x384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %h = arith.mulf %g, %u : bf16
    linalg.yield %h : bf16
  }
  return
}

// -----

// A prologue on B (relu(W1)): not fused into a dual GEMM yet.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @prologue_b(%X: memref<256x128xbf16>, %W1: memref<384x128xbf16>,
    %W3: memref<384x128xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %W1r = memref.alloc() : memref<384x128xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%W1 : memref<384x128xbf16>) outs(%W1r : memref<384x128xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %r = arith.maximumf %a, %zero : bf16
    linalg.yield %r : bf16
  }
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  // expected-error @below {{a dual GEMM (two products of one A combined in the epilogue) in one sm90 kernel needs no fused prologue and no add(gemm, gemm)}}
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1r : memref<256x128xbf16>, memref<384x128xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<256x384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %h = arith.mulf %g, %u : bf16
    linalg.yield %h : bf16
  }
  return
}

// -----

// f32 operands (tf32 on the tensor cores): not a dual GEMM's yet.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @tf32(%X: memref<256x128xf32>, %W1: memref<384x128xf32>,
    %W3: memref<384x128xf32>, %H: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  %G = memref.alloc() : memref<256x384xf32>
  linalg.fill ins(%zero : f32) outs(%G : memref<256x384xf32>)
  // expected-error @below {{a dual GEMM (two products of one A combined in the epilogue) in one sm90 kernel needs f16 or bf16 operands}}
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 32], warp = [64, 256, 32], mma = [64, 256, 8], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xf32>, memref<384x128xf32>) outs(%G : memref<256x384xf32>)
  %U = memref.alloc() : memref<256x384xf32>
  linalg.fill ins(%zero : f32) outs(%U : memref<256x384xf32>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 32], warp = [64, 256, 32], mma = [64, 256, 8], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xf32>, memref<384x128xf32>) outs(%U : memref<256x384xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<256x384xf32>, memref<256x384xf32>) outs(%H : memref<256x384xf32>) {
  ^bb0(%g: f32, %u: f32, %out: f32):
    %h = arith.mulf %g, %u : f32
    linalg.yield %h : f32
  }
  return
}
