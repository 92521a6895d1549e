// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s

// A dual GEMM (two products of one A combined by their consumer) is
// planned as one product of twice N: a tile of at most 256 wgmma columns
// (128 of each product), never swapped (the halves would land in
// different warpgroups), without stream-K or clusters. The second
// product's own config is not used (the first builds both).

#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// Decode (M = 8): the swapped kernel the model takes for one product is
// not a choice; the 64-row tile whose 126 tiles fill the 132 SMs in one
// wave is (88 output columns a tile of llama2-7b's 11008).
func.func @decode(%X: memref<8x4096xbf16>, %W1: memref<11008x4096xbf16>, %W3: memref<11008x4096xbf16>,
    %H: memref<8x11008xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<8x11008xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<8x11008xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c]
    ins(%X, %W1 : memref<8x4096xbf16>, memref<11008x4096xbf16>) outs(%G : memref<8x11008xbf16>)
  %U = memref.alloc() : memref<8x11008xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<8x11008xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c]
    ins(%X, %W3 : memref<8x4096xbf16>, memref<11008x4096xbf16>) outs(%U : memref<8x11008xbf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<8x11008xbf16>, memref<8x11008xbf16>) outs(%H : memref<8x11008xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %h = arith.mulf %g, %u : bf16
    linalg.yield %h : bf16
  }
  return
}
// CHECK-LABEL: func.func @decode(
// CHECK:         linalg.matmul {{.*}}tcgen.config = #tcgen.config<backend = "sm90", block = [64, 176, 64], {{.*}}streamk = false, cluster = [1, 1], store = "tma">}

// -----


#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// Prefill: 128 x 256 (128 output columns per tile).
func.func @prefill(%X: memref<4096x4096xbf16>, %W1: memref<11008x4096xbf16>, %W3: memref<11008x4096xbf16>,
    %H: memref<4096x11008xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<4096x11008xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<4096x11008xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c]
    ins(%X, %W1 : memref<4096x4096xbf16>, memref<11008x4096xbf16>) outs(%G : memref<4096x11008xbf16>)
  %U = memref.alloc() : memref<4096x11008xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<4096x11008xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c]
    ins(%X, %W3 : memref<4096x4096xbf16>, memref<11008x4096xbf16>) outs(%U : memref<4096x11008xbf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<4096x11008xbf16>, memref<4096x11008xbf16>) outs(%H : memref<4096x11008xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %h = arith.mulf %g, %u : bf16
    linalg.yield %h : bf16
  }
  return
}
// CHECK-LABEL: func.func @prefill(
// CHECK:         linalg.matmul {{.*}}tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], {{.*}}streamk = false, cluster = [1, 1], store = "tma">}

// -----


#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// B stored [k][n]: N tiles of whole 64-wide boxes per half (256).
func.func @kn(%X: memref<512x4096xbf16>, %W1: memref<4096x4096xbf16>, %W3: memref<4096x4096xbf16>,
    %H: memref<512x4096xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<512x4096xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<512x4096xbf16>)
  linalg.matmul indexing_maps = [#x, #wt, #c]
    ins(%X, %W1 : memref<512x4096xbf16>, memref<4096x4096xbf16>) outs(%G : memref<512x4096xbf16>)
  %U = memref.alloc() : memref<512x4096xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<512x4096xbf16>)
  linalg.matmul indexing_maps = [#x, #wt, #c]
    ins(%X, %W3 : memref<512x4096xbf16>, memref<4096x4096xbf16>) outs(%U : memref<512x4096xbf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<512x4096xbf16>, memref<512x4096xbf16>) outs(%H : memref<512x4096xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %h = arith.mulf %g, %u : bf16
    linalg.yield %h : bf16
  }
  return
}
// CHECK-LABEL: func.func @kn(
// CHECK:         linalg.matmul {{.*}}tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], {{.*}}streamk = false, cluster = [1, 1], store = "tma">}

