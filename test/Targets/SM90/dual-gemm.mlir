// RUN: tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// A dual GEMM (a gated MLP's silu(X W1^T + bias) * (X W3^T), weights
// [out, in]): the two products share A and feed one consumer, so they are
// built as one kernel. B2 is a kernel operand after B with half of B's box
// (128 of the tile's 256 rows); each stage loads B's rows of the tile's 128
// output columns at 16 KiB (after A's tile) and B2's same rows at 32 KiB;
// one m64n256 wgmma computes both, and the epilogue reads P2 as the last
// input ("product"). 256 x 384 gives 2 x 3 tiles of 128 x 128 outputs.
// Both products, both fills, both buffers and the consumer are gone.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @swiglu(%X: memref<256x128xbf16>, %W1: memref<384x128xbf16>,
    %W3: memref<384x128xbf16>, %bias: memref<384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xbf16>, memref<384x128xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
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
// CHECK-LABEL: func.func @swiglu(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    {tcgen.operand = "B"}
// CHECK-SAME:    {tcgen.operand = "B2"}
// CHECK-SAME:    {tcgen.operand = "E0"}
// CHECK-SAME:    {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.dual
// CHECK-SAME:    inputs = [{kind = "row", operand = "E0"}, {kind = "product", operand = "B2"}]
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.
// CHECK:         return
// CHECK:       gpu.func @swiglu_kernel(%{{.*}}: !llvm.ptr, %[[PB:.*]]: !llvm.ptr, %[[PB2:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: memref<384xbf16>)
// CHECK-SAME:    tcgen.launch = array<i64: 6, 1, 1, 384,
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:B2", "tensormap:C", "ptr:E0"]
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 128>, B2 = array<i64: 64, 128>, C = array<i64: 64, 64>}
// CHECK:         %[[TB:.*]] = builtin.unrealized_conversion_cast %[[PB]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, 3>
// CHECK:         %[[TB2:.*]] = builtin.unrealized_conversion_cast %[[PB2]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, 3>
// CHECK:         nvgpu.tma.prefetch.descriptor %[[TB2]]
// CHECK:         %[[C16K:.*]] = arith.constant 16384 : index
// CHECK-NEXT:    %[[O1:.*]] = arith.addi %[[BASE:.*]], %[[C16K]] : index
// CHECK-NEXT:    %[[V1:.*]] = memref.view %{{.*}}[%[[O1]]][] : memref<?xi8, 3> to memref<128x64xbf16, 3>
// CHECK-NEXT:    nvgpu.tma.async.load %[[TB]][%[[K:.*]], %[[N0:.*]]], %{{.*}} to %[[V1]]
// CHECK-NEXT:    %[[C32K:.*]] = arith.constant 32768 : index
// CHECK-NEXT:    %[[O2:.*]] = arith.addi %[[BASE]], %[[C32K]] : index
// CHECK-NEXT:    %[[V2:.*]] = memref.view %{{.*}}[%[[O2]]][] : memref<?xi8, 3> to memref<128x64xbf16, 3>
// CHECK-NEXT:    nvgpu.tma.async.load %[[TB2]][%[[K]], %[[N0]]], %{{.*}} to %[[V2]]
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         llvm.inline_asm "cvt.rn.bf16x2.f32
// CHECK:         math.exp

// -----

// B stored [k][n] (N-major): each half of the tile is two 64-wide boxes,
// B's at 16 KiB and 24 KiB, B2's at 32 KiB and 40 KiB.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @swiglu_kn(%X: memref<256x128xbf16>, %W1: memref<128x384xbf16>,
    %W3: memref<128x384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #wt, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x128xbf16>, memref<128x384xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #wt, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x128xbf16>, memref<128x384xbf16>) outs(%U : memref<256x384xbf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : memref<256x384xbf16>, memref<256x384xbf16>) outs(%H : memref<256x384xbf16>) {
  ^bb0(%g: bf16, %u: bf16, %out: bf16):
    %gb = arith.addf %g, %g : bf16
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
// CHECK-LABEL: func.func @swiglu_kn(
// CHECK-SAME:    {tcgen.operand = "B2"}
// CHECK:       gpu.func @swiglu_kn_kernel(%{{.*}}: !llvm.ptr, %[[PB:.*]]: !llvm.ptr, %[[PB2:.*]]: !llvm.ptr,
// CHECK-SAME:    B = array<i64: 64, 64>, B2 = array<i64: 64, 64>
// CHECK:         %[[TB:.*]] = builtin.unrealized_conversion_cast %[[PB]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>
// CHECK:         %[[TB2:.*]] = builtin.unrealized_conversion_cast %[[PB2]]
// CHECK:         arith.constant 16384 : index
// CHECK:         nvgpu.tma.async.load %[[TB]]
// CHECK:         arith.constant 24576 : index
// CHECK:         nvgpu.tma.async.load %[[TB]]
// CHECK:         arith.constant 32768 : index
// CHECK:         nvgpu.tma.async.load %[[TB2]]
// CHECK:         arith.constant 40960 : index
// CHECK:         nvgpu.tma.async.load %[[TB2]]
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>

// -----

// K = 125 (250-byte rows, which TMA cannot read): A, B and B2 are packed
// alike into 128-element rows; the kernel reads the copies.
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#wt = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @swiglu_packed(%X: memref<256x125xbf16>, %W1: memref<384x125xbf16>,
    %W3: memref<384x125xbf16>, %bias: memref<384xbf16>, %H: memref<256x384xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %G = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%G : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W1 : memref<256x125xbf16>, memref<384x125xbf16>) outs(%G : memref<256x384xbf16>)
  %U = memref.alloc() : memref<256x384xbf16>
  linalg.fill ins(%zero : bf16) outs(%U : memref<256x384xbf16>)
  linalg.matmul indexing_maps = [#x, #w, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%X, %W3 : memref<256x125xbf16>, memref<384x125xbf16>) outs(%U : memref<256x384xbf16>)
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
// CHECK-LABEL: func.func @swiglu_packed(
// CHECK:       gpu.func @swiglu_packed_kernel(
// CHECK-SAME:    tcgen.packs = [{{.*}}operand = "A", strides = array<i64: 128, 1>}, {{.*}}operand = "B", strides = array<i64: 128, 1>}, {{.*}}entry = "swiglu_packed_kernel_pack_B2"{{.*}}operand = "B2", strides = array<i64: 128, 1>}]
