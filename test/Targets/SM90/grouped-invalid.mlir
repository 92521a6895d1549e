// RUN: tcgen-opt %s -split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-grouped)'

// Grouped products (tcgen/Analysis/Grouped.h) that differ from the form,
// or that the sm90 grouped kernel does not take yet: a located error each.

#a = affine_map<(t, n, k, g) -> (t, k)>
#b = affine_map<(t, n, k, g) -> (g, n, k)>
#g = affine_map<(t, n, k, g) -> (g)>
#c = affine_map<(t, n, k, g) -> (t, n)>
// The group ends are not offsets[1 ..< G + 1].
func.func @ends(%A: memref<?x64xf16>, %B: memref<4x64x64xf16>, %off: memref<5xi32>, %C: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x64xf32>)
  %lo = memref.subview %off[0] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1]>>
  // expected-error @+1 {{grouped product: the group ends (input #3) must be memref.subview %offsets[1] [4] [1] of a function argument %offsets of 5 i32 or i64 (G + 1 row offsets)}}
  linalg.generic {indexing_maps = [#a, #b, #g, #g, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B, %lo, %lo : memref<?x64xf16>, memref<4x64x64xf16>, memref<4xi32, strided<[1]>>, memref<4xi32, strided<[1]>>) outs(%C : memref<?x64xf32>) {
  ^bb0(%x: f16, %w: f16, %s0: i32, %s1: i32, %acc: f32):
    %t = linalg.index 0 : index
    %ti = arith.index_cast %t : index to i32
    %ge = arith.cmpi sge, %ti, %s0 : i32
    %lt = arith.cmpi slt, %ti, %s1 : i32
    %in = arith.andi %ge, %lt : i1
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %sum = arith.addf %acc, %p : f32
    %r = arith.select %in, %sum, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#a = affine_map<(t, n, k, g) -> (t, k)>
#b = affine_map<(t, n, k, g) -> (g, n, k)>
#g = affine_map<(t, n, k, g) -> (g)>
#c = affine_map<(t, n, k, g) -> (t, n)>
// The body tests t <= hi (not t < hi).
func.func @body(%A: memref<?x64xf16>, %B: memref<4x64x64xf16>, %off: memref<5xi32>, %C: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x64xf32>)
  %lo = memref.subview %off[0] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1]>>
  %hi = memref.subview %off[1] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1], offset: 1>>
  // expected-error @+1 {{a comparison is not t >= lo or t < hi (signed, t the output's row index)}}
  linalg.generic {indexing_maps = [#a, #b, #g, #g, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B, %lo, %hi : memref<?x64xf16>, memref<4x64x64xf16>, memref<4xi32, strided<[1]>>, memref<4xi32, strided<[1], offset: 1>>) outs(%C : memref<?x64xf32>) {
  ^bb0(%x: f16, %w: f16, %s0: i32, %s1: i32, %acc: f32):
    %t = linalg.index 0 : index
    %ti = arith.index_cast %t : index to i32
    %ge = arith.cmpi sge, %ti, %s0 : i32
    %lt = arith.cmpi sle, %ti, %s1 : i32
    %in = arith.andi %ge, %lt : i1
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %sum = arith.addf %acc, %p : f32
    %r = arith.select %in, %sum, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#a = affine_map<(t, n, k, g) -> (t, k)>
#b = affine_map<(t, n, k, g) -> (n, g, k)>
#g = affine_map<(t, n, k, g) -> (g)>
#c = affine_map<(t, n, k, g) -> (t, n)>
// The group is not B's outermost dimension.
func.func @b_layout(%A: memref<?x64xf16>, %B: memref<64x4x64xf16>, %off: memref<5xi32>, %C: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x64xf32>)
  %lo = memref.subview %off[0] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1]>>
  %hi = memref.subview %off[1] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1], offset: 1>>
  // expected-error @+1 {{grouped product: A must be read at (t, k), C written at (t, n), B read at (g, n, k) or (g, k, n) and both offsets' slices at (g)}}
  linalg.generic {indexing_maps = [#a, #b, #g, #g, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B, %lo, %hi : memref<?x64xf16>, memref<64x4x64xf16>, memref<4xi32, strided<[1]>>, memref<4xi32, strided<[1], offset: 1>>) outs(%C : memref<?x64xf32>) {
  ^bb0(%x: f16, %w: f16, %s0: i32, %s1: i32, %acc: f32):
    %t = linalg.index 0 : index
    %ti = arith.index_cast %t : index to i32
    %ge = arith.cmpi sge, %ti, %s0 : i32
    %lt = arith.cmpi slt, %ti, %s1 : i32
    %in = arith.andi %ge, %lt : i1
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %sum = arith.addf %acc, %p : f32
    %r = arith.select %in, %sum, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#a = affine_map<(t, n, k, g) -> (t, k)>
#b = affine_map<(t, n, k, g) -> (g, n, k)>
#g = affine_map<(t, n, k, g) -> (g)>
#c = affine_map<(t, n, k, g) -> (t, n)>
// K = 36: A's rows are 72 bytes apart, which TMA cannot step.
func.func @rows(%A: memref<?x36xf16>, %B: memref<4x64x36xf16>, %off: memref<5xi32>, %C: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x64xf32>)
  %lo = memref.subview %off[0] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1]>>
  %hi = memref.subview %off[1] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1], offset: 1>>
  // expected-error @+1 {{grouped product: A and B are read through TMA only, whose rows must be a multiple of 16 bytes apart: K must be multiples of 8 (K = 36, N = 64)}}
  linalg.generic {indexing_maps = [#a, #b, #g, #g, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B, %lo, %hi : memref<?x36xf16>, memref<4x64x36xf16>, memref<4xi32, strided<[1]>>, memref<4xi32, strided<[1], offset: 1>>) outs(%C : memref<?x64xf32>) {
  ^bb0(%x: f16, %w: f16, %s0: i32, %s1: i32, %acc: f32):
    %t = linalg.index 0 : index
    %ti = arith.index_cast %t : index to i32
    %ge = arith.cmpi sge, %ti, %s0 : i32
    %lt = arith.cmpi slt, %ti, %s1 : i32
    %in = arith.andi %ge, %lt : i1
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %sum = arith.addf %acc, %p : f32
    %r = arith.select %in, %sum, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#a = affine_map<(t, n, k, g) -> (t, k)>
#b = affine_map<(t, n, k, g) -> (g, n, k)>
#g = affine_map<(t, n, k, g) -> (g)>
#c = affine_map<(t, n, k, g) -> (t, n)>
// A written config the grouped kernel does not take (stream-K).
func.func @config(%A: memref<?x64xf16>, %B: memref<4x64x64xf16>, %off: memref<5xi32>, %C: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x64xf32>)
  %lo = memref.subview %off[0] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1]>>
  %hi = memref.subview %off[1] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1], offset: 1>>
  // expected-error @+1 {{grouped product: the sm90 grouped kernel takes no stream-K, cluster or swap}}
  linalg.generic {indexing_maps = [#a, #b, #g, #g, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B, %lo, %hi : memref<?x64xf16>, memref<4x64x64xf16>, memref<4xi32, strided<[1]>>, memref<4xi32, strided<[1], offset: 1>>) outs(%C : memref<?x64xf32>)
      attrs = {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 64, 64], warp = [64, 64, 64], mma = [64, 64, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "global">} {
  ^bb0(%x: f16, %w: f16, %s0: i32, %s1: i32, %acc: f32):
    %t = linalg.index 0 : index
    %ti = arith.index_cast %t : index to i32
    %ge = arith.cmpi sge, %ti, %s0 : i32
    %lt = arith.cmpi slt, %ti, %s1 : i32
    %in = arith.andi %ge, %lt : i1
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %sum = arith.addf %acc, %p : f32
    %r = arith.select %in, %sum, %acc : f32
    linalg.yield %r : f32
  }
  return
}
