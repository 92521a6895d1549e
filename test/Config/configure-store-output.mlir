// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure))' | FileCheck %s
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{store=tma}))' 2>&1 | FileCheck %s --check-prefix=TMA

// The store follows the rows the kernel writes: with a fused conversion
// (a matmul into f32, then truncf to bf16, the way a linalg user writes a
// bf16 output) that is the consumer's bf16 output. N = 100: rows of 400
// bytes of f32 but 200 of bf16, which TMA stores cannot address (16-byte
// multiples only): staged stores.
// CHECK-LABEL: func @truncf_rows_not_16_bytes
// CHECK:       linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", {{.*}}store = "staged"
// TMA: error: 'linalg.matmul' op TMA stores need the rows of C to be a multiple of 16 bytes apart, but N=100 bf16 elements (the fused consumer's output) are 200 bytes (store = "staged" or "global" writes them)
func.func @truncf_rows_not_16_bytes(%a: memref<256x128xbf16>, %b: memref<128x100xbf16>, %d: memref<256x100xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x100xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x100xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x100xbf16>) outs(%c : memref<256x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x100xf32>) outs(%d : memref<256x100xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %c : memref<256x100xf32>
  return
}

// -----

// N = 104: 208-byte bf16 rows, a multiple of 16: TMA stores.
// CHECK-LABEL: func @truncf_rows_of_16_bytes
// CHECK:       linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", {{.*}}store = "tma"
func.func @truncf_rows_of_16_bytes(%a: memref<256x128xbf16>, %b: memref<128x104xbf16>, %d: memref<256x104xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x104xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x104xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x104xbf16>) outs(%c : memref<256x104xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x104xf32>) outs(%d : memref<256x104xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %c : memref<256x104xf32>
  return
}

// -----

// 1536 x 1536: the model's swapped tile (C^T = B^T A^T), whose 16-bit
// output goes out through transposed TMA stores: the consumer's bf16, over
// f32 accumulators (it was refused as "swap needs a 16-bit C").
// CHECK-LABEL: func @truncf_swapped
// CHECK:       linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 96, 64], {{.*}}store = "tma", swap = true>}
func.func @truncf_swapped(%a: memref<1536x512xbf16>, %b: memref<512x1536xbf16>, %d: memref<1536x1536xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1536x1536xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1536x1536xf32>)
  linalg.matmul ins(%a, %b : memref<1536x512xbf16>, memref<512x1536xbf16>) outs(%c : memref<1536x1536xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<1536x1536xf32>) outs(%d : memref<1536x1536xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %c : memref<1536x1536xf32>
  return
}
