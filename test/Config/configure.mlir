// RUN: tcgen-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tcgen-configure))' | FileCheck %s

// CHECK-LABEL: func @default_config
// CHECK: linalg.matmul {tcgen.config = #tcgen.config<backend = "wmma", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 16, 16], stages = 2, padding = 8, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">}
// The wmma default (sm_75).
module attributes {tcgen.target = #tcgen.target<"sm_75">} {
  func.func @default_config(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
    linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

// A config written by hand is kept.
// CHECK-LABEL: func @keep_config
// CHECK: #tcgen.config<backend = "wmma", block = [64, 64, 64]
func.func @keep_config(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf16>) {
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 64], warp = [32, 32, 32]>}
    ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>) outs(%c : memref<128x128xf16>)
  return
}

// -----

// Sizes known at run time only: the sm90 back end, a persistent
// data-parallel kernel with TMA stores (stream-K is planned for one tile
// count).
// CHECK-LABEL: func @dynamic_sm90
// CHECK: linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", {{.*}}persistent = true, streamk = false, {{.*}}store = "tma">}
func.func @dynamic_sm90(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// The other back ends compile static sizes only.
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @dynamic_sm80(%a: memref<?x128xf16>, %b: memref<128x256xf16>, %c: memref<?x256xf32>) {
    // expected-error @+1 {{sizes known only at run time (M, N or K is `?`) need the sm90 back end (--target=sm_90a); the sm80 back end compiles static sizes only}}
    linalg.matmul ins(%a, %b : memref<?x128xf16>, memref<128x256xf16>) outs(%c : memref<?x256xf32>)
    return
  }
}

// -----

// A config written by hand for another back end is checked too.
func.func @dynamic_wmma_config(%a: memref<?x128xf16>, %b: memref<128x256xf16>, %c: memref<?x256xf32>) {
  // expected-error @+1 {{sizes known only at run time (M, N or K is `?`) need the sm90 back end (--backend=sm90); the wmma back end compiles static sizes only}}
  linalg.matmul {tcgen.config = #tcgen.config<block = [64, 64, 64], warp = [32, 32, 32]>}
    ins(%a, %b : memref<?x128xf16>, memref<128x256xf16>) outs(%c : memref<?x256xf32>)
  return
}

// -----

// An sm90 config that is not the dynamic-shape kernel's.
func.func @dynamic_staged(%a: memref<?x128xf16>, %b: memref<128x256xf16>, %c: memref<?x256xf32>) {
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 kernel needs store = "tma" (C written by TMA stores), not "staged"}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, store = "staged">}
    ins(%a, %b : memref<?x128xf16>, memref<128x256xf16>) outs(%c : memref<?x256xf32>)
  return
}

// -----

func.func @dynamic_streamk(%a: memref<?x128xf16>, %b: memref<128x256xf16>, %c: memref<?x256xf32>) {
  // expected-error @+1 {{with sizes known only at run time (M, N or K is `?`) the sm90 kernel needs persistent = true and streamk = false (one block per SM walking whole tiles)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, streamk = true, store = "tma">}
    ins(%a, %b : memref<?x128xf16>, memref<128x256xf16>) outs(%c : memref<?x256xf32>)
  return
}

// -----

func.func @dynamic_batch(%a: memref<?x128x128xf16>, %b: memref<?x128x128xf16>, %c: memref<?x128x128xf32>) {
  // expected-error @+1 {{a dynamic batch size is not supported yet (M, N and K may be dynamic, the batch must be static)}}
  linalg.batch_matmul ins(%a, %b : memref<?x128x128xf16>, memref<?x128x128xf16>) outs(%c : memref<?x128x128xf32>)
  return
}

// -----

// f32 x f32 without tf32: full f32 on CUDA cores (simt), 8x8 outputs per
// thread in 128x128x32 blocks where the grid fills the GPU, 4x8 in
// 64x64x16 blocks where it does not.
// CHECK-LABEL: func.func @f32_inputs
// CHECK: linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", block = [64, 64, 16], warp = [32, 32, 16], mma = [4, 8, 1], stages = 2, padding = 4
func.func @f32_inputs(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

func.func @mixed_inputs(%a: memref<128x128xf16>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{unsupported element types f16 x f32 -> f32 (supported: f16 x f16 or bf16 x bf16 -> f16, bf16 or f32, f32 x f32 -> f32 (CUDA cores, or tf32 on sm90), and f8E4M3FN x f8E4M3FN or f8E5M2 x f8E5M2 -> f16, bf16 or f32 on sm90)}}
  linalg.matmul ins(%a, %b : memref<128x128xf16>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// The wmma back end (sm_80) needs sizes that are multiples of the block tile.
module attributes {tcgen.target = #tcgen.target<"sm_80">} {
  func.func @not_multiple(%a: memref<200x128xf16>, %b: memref<128x256xf16>, %c: memref<200x256xf32>) {
    // expected-error @+1 {{M=200 is not a multiple of the block tile 128}}
    linalg.matmul ins(%a, %b : memref<200x128xf16>, memref<128x256xf16>) outs(%c : memref<200x256xf32>)
    return
  }
}

// -----

// On sm_75 the wmma back end refuses transposed operands.
module attributes {tcgen.target = #tcgen.target<"sm_75">} {
  func.func @transposed_b(%a: memref<128x64xf16>, %b: memref<128x64xf16>, %c: memref<128x128xf32>) {
    // expected-error @+1 {{the wmma back end takes A[m,k] and B[k,n] only; transposed operands need --target=sm_80 or later (the sm80 back end) or the sm90 back end}}
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<128x64xf16>, memref<128x64xf16>) outs(%c : memref<128x128xf32>)
    return
  }
}

// -----

// C += A*B on a batch goes to the sm90 back end, like C = A*B (the epilogue
// adds C's old value, one matrix per batch entry).
// CHECK-LABEL: func @batched_accumulate
// CHECK: linalg.batch_matmul {tcgen.config = #tcgen.config<backend = "sm90"
func.func @batched_accumulate(%a: memref<2x128x64xf16>, %b: memref<2x64x128xf16>, %c: memref<2x128x128xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x128x64xf16>, memref<2x64x128xf16>) outs(%c : memref<2x128x128xf32>)
  return
}

// -----

// A config for the wmma back end, which has no batched form: the sm90 back
// end is one option away on this target (sm_90a, the default), so the
// error names the option, not the target.
func.func @batched_wmma(%a: memref<2x128x64xf16>, %b: memref<2x64x128xf16>, %c: memref<2x128x128xf32>) {
  // expected-error @+1 {{the wmma back end takes unbatched matmuls only; batched contractions need the sm90 back end (--backend=sm90)}}
  linalg.batch_matmul {tcgen.config = #tcgen.config<block = [64, 64, 32], warp = [32, 32, 32]>}
    ins(%a, %b : memref<2x128x64xf16>, memref<2x64x128xf16>) outs(%c : memref<2x128x128xf32>)
  return
}

// -----

// Two batch dimensions in different orders in A and C (tcgen-collapse-dims
// leaves them): the analysis takes them (the sm90 back end reads them
// through 4-d tensor maps) and configures the sm90 back end (whose kernel
// then refuses C += A*B with C's batch dimensions in another order:
// test/Targets/SM90/build-kernel.mlir).
// CHECK-LABEL: func @two_batch_dims
// CHECK: linalg.generic {{.*}}tcgen.config = #tcgen.config<backend = "sm90"
func.func @two_batch_dims(%a: memref<2x3x128x64xf16>, %b: memref<2x3x64x128xf16>, %c: memref<3x2x128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>, affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>, affine_map<(b0, b1, m, n, k) -> (b1, b0, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x3x128x64xf16>, memref<2x3x64x128xf16>) outs(%c : memref<3x2x128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The batch dimension may be outermost or between the two matrix
// dimensions, never innermost (TMA reads the innermost one contiguously).
func.func @inner_batch(%a: memref<128x64x2xf16>, %b: memref<2x64x128xf16>, %c: memref<2x128x128xf32>) {
  // expected-error @+1 {{batched operands must be A[b,m,k] or A[b,k,m], B[b,k,n] or B[b,n,k], and C[b,m,n] or C[b,n,m], each batch dimension outermost or between the two others (A[m,b,k], A[b1,m,b2,k], ...), never innermost}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k, b)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64x2xf16>, memref<2x64x128xf16>) outs(%c : memref<2x128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @strided(%a: memref<128x64xf16, strided<[128, 1]>>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{operand A has a non-identity layout}}
  linalg.matmul ins(%a, %b : memref<128x64xf16, strided<[128, 1]>>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

module attributes {tcgen.target = #tcgen.target<"sm_75">} {
  func.func @smem_budget(%a: memref<512x768xf16>, %b: memref<768x512xf16>, %c: memref<512x512xf32>) {
    // expected-error @+1 {{configuration needs 98304 bytes of shared memory, more than the 49152 bytes available to one block on sm_75}}
    linalg.matmul {tcgen.config = #tcgen.config<block = [256, 256, 96], warp = [128, 64, 96], padding = 0>}
      ins(%a, %b : memref<512x768xf16>, memref<768x512xf16>) outs(%c : memref<512x512xf32>)
    return
  }
}

// -----

// sm90: 5 stages of 128x192 tiles fit (201 KiB) until the TMA-store
// buffers (32 KiB) join them: 5 x 40 KiB + 32 KiB + 1 KiB > 227 KiB.
module attributes {tcgen.target = #tcgen.target<"sm_90a">} {
  func.func @sm90_smem_budget(%a: memref<1536x512xf16>, %b: memref<512x1536xf16>, %c: memref<1536x1536xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<1536x1536xf32>)
    // expected-error @+1 {{5 stages need 238592 bytes of shared memory; sm90 kernels need 2 or more stages within 232448 bytes}}
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 192, 64], warp = [64, 192, 64], mma = [64, 192, 16], stages = 5, padding = 0, store = "tma">}
      ins(%a, %b : memref<1536x512xf16>, memref<512x1536xf16>) outs(%c : memref<1536x1536xf32>)
    return
  }
}

// -----

// The same ring without TMA stores fits.
// CHECK-LABEL: func.func @sm90_smem_budget_global
// CHECK: stages = 5{{.*}}store = "global"
module attributes {tcgen.target = #tcgen.target<"sm_90a">} {
  func.func @sm90_smem_budget_global(%a: memref<1536x512xf16>, %b: memref<512x1536xf16>, %c: memref<1536x1536xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<1536x1536xf32>)
    linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 192, 64], warp = [64, 192, 64], mma = [64, 192, 16], stages = 5, padding = 0, store = "global">}
      ins(%a, %b : memref<1536x512xf16>, memref<512x1536xf16>) outs(%c : memref<1536x1536xf32>)
    return
  }
}

// -----

// bf16 has no WMMA path.
// On sm_75:
module attributes {tcgen.target = #tcgen.target<"sm_75">} {
  func.func @bf16_wmma(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %c: memref<128x128xf32>) {
    // expected-error @+1 {{the wmma back end takes f16 inputs and an f16 or f32 output}}
    linalg.matmul ins(%a, %b : memref<128x128xbf16>, memref<128x128xbf16>) outs(%c : memref<128x128xf32>)
    return
  }
}

// -----

// On sm_75 the wmma back end refuses a column-major C (it writes row-major
// C only).
module attributes {tcgen.target = #tcgen.target<"sm_75">} {
  func.func @transposed_c(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
    // expected-error @+1 {{the wmma back end writes a row-major C[m,n] only; a column-major C[n,m] needs the sm80 or sm90 back end}}
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]
      ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
    return
  }
}

// -----

// A k-tile must be one 128-byte swizzle atom: 64 f16, so a tf32-shaped tile
// (K 32, wgmma K 8) is refused for f16 inputs.
func.func @k32_f16(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{sm90 k-tiles are one 128-byte swizzle atom of A and B: 64 f16 elements, not 32}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
    ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// The other back ends take no fp8.
module attributes {tcgen.target = #tcgen.target<"sm_89">} {
  func.func @sm89(%A: memref<256x256xf8E4M3FN>, %B: memref<256x256xf8E4M3FN>, %C: memref<256x256xf32>) {
    // expected-error @+1 {{fp8 (f8E4M3FN) inputs need the sm90 back end (--target=sm_90a), whose wgmma takes 8-bit floats; the sm80 back end takes f16 and bf16}}
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%A, %B : memref<256x256xf8E4M3FN>, memref<256x256xf8E4M3FN>) outs(%C : memref<256x256xf32>)
    return
  }
}

// -----

// An empty contraction is refused, naming the operand and the dimension.
func.func @empty_n(%a: memref<64x32xf16>, %b: memref<32x0xf16>, %c: memref<64x0xf32>) {
  // expected-error @+1 {{operand B (#1) of type memref<32x0xf16> is empty: its dimension 1, the contraction's N dimension, has extent 0 (tcgen compiles contractions whose extents are all at least 1)}}
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x0xf16>) outs(%c : memref<64x0xf32>)
  return
}
