// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-sm80-swizzle-shared))' | FileCheck %s

// Rows of 64 bytes (A's 32-deep k-tile): two rows share a 128-byte line;
// the chunk's place in its line, (row % 2) * 4 + col / 8, is XORed with
// (row / 2) % 8 and may move to the other row of the line. The async copy's
// destination and the ldmatrix address go through the same function; the
// global source is untouched.
// CHECK-LABEL: func @short_rows
// CHECK-SAME:    (%[[G:.*]]: memref<1024x1024xf16>, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK:         %[[CHUNK:.*]] = arith.divui %[[C]], %c8
// CHECK:         %[[WITHIN:.*]] = arith.remui %[[C]], %c8
// CHECK:         %[[LINE:.*]] = arith.divui %[[R]], %c2
// CHECK:         %[[INLINE:.*]] = arith.remui %[[R]], %c2
// CHECK:         %[[POS0:.*]] = arith.muli %[[INLINE]], %c4
// CHECK:         %[[POS:.*]] = arith.addi %[[POS0]], %[[CHUNK]]
// CHECK:         %[[KEY:.*]] = arith.remui %[[LINE]], %c8
// CHECK:         %[[SW:.*]] = arith.xori %[[POS]], %[[KEY]]
// CHECK:         %[[ROWOFF:.*]] = arith.divui %[[SW]], %c4
// CHECK:         %[[ROWBASE:.*]] = arith.muli %[[LINE]], %c2
// CHECK:         %[[ROW:.*]] = arith.addi %[[ROWBASE]], %[[ROWOFF]]
// CHECK:         %[[NCHUNK:.*]] = arith.remui %[[SW]], %c4
// CHECK:         %[[COL0:.*]] = arith.muli %[[NCHUNK]], %c8
// CHECK:         %[[COL:.*]] = arith.addi %[[COL0]], %[[WITHIN]]
// CHECK:         nvgpu.device_async_copy %[[G]][%[[R]], %[[C]]], %{{.*}}[%[[ROW]], %[[COL]]], 8
// CHECK:         arith.xori
// CHECK:         nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false}
func.func @short_rows(%G: memref<1024x1024xf16>, %r: index, %c: index) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 0>} {
  %s = memref.alloc() : memref<128x32xf16, 3>
  %t = nvgpu.device_async_copy %G[%r, %c], %s[%r, %c], 8 {bypassL1} : memref<1024x1024xf16> to memref<128x32xf16, 3>
  %f = nvgpu.ldmatrix %s[%r, %c] {numTiles = 4 : i32, transpose = false} : memref<128x32xf16, 3> -> vector<4x2xf16>
  return
}

// -----

// Rows of 128 bytes or more (B's 128-wide tile: 256 bytes): the row stays,
// the chunk is XORed with row % 8.
// CHECK-LABEL: func @long_rows
// CHECK-SAME:    (%[[R:.*]]: index, %[[C:.*]]: index)
// CHECK:         %[[CHUNK:.*]] = arith.divui %[[C]], %c8
// CHECK:         %[[WITHIN:.*]] = arith.remui %[[C]], %c8
// CHECK:         %[[KEY:.*]] = arith.remui %[[R]], %c8
// CHECK:         %[[SW:.*]] = arith.xori %[[CHUNK]], %[[KEY]]
// CHECK:         %[[COL0:.*]] = arith.muli %[[SW]], %c8
// CHECK:         %[[COL:.*]] = arith.addi %[[COL0]], %[[WITHIN]]
// CHECK:         vector.load %{{.*}}[%[[R]], %[[COL]]] : memref<32x128xf16, 3>, vector<8xf16>
func.func @long_rows(%r: index, %c: index) -> vector<8xf16> attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 0>} {
  %s = memref.alloc() : memref<32x128xf16, 3>
  %v = vector.load %s[%r, %c] : memref<32x128xf16, 3>, vector<8xf16>
  return %v : vector<8xf16>
}

// -----

// Padded tiles (padding = 8) are not swizzled.
// CHECK-LABEL: func @padded
// CHECK-NOT:     arith.xori
func.func @padded(%r: index, %c: index) -> vector<8xf16> attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 8>} {
  %s = memref.alloc() : memref<32x136xf16, 3>
  %v = vector.load %s[%r, %c] : memref<32x136xf16, 3>, vector<8xf16>
  return %v : vector<8xf16>
}

// -----

// Rows that are not a power of two bytes cannot be swizzled.
func.func @odd_rows(%r: index, %c: index) -> vector<8xf16> attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 0>} {
  %s = memref.alloc() : memref<32x40xf16, 3>
  // expected-error @below {{cannot swizzle shared tile 'memref<32x40xf16, 3>': rows must be a power of two from 16 to 1024 bytes (use padding instead)}}
  %v = vector.load %s[%r, %c] : memref<32x40xf16, 3>, vector<8xf16>
  return %v : vector<8xf16>
}

// -----

// An access the pass cannot rewrite is an error, not an unswizzled read.
func.func @unknown_access(%r: index, %c: index) attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 0>} {
  %s = memref.alloc() : memref<32x64xf16, 3>
  // expected-error @below {{accesses a swizzled shared tile in a way tcgen-sm80-swizzle-shared cannot rewrite}}
  %f = gpu.subgroup_mma_load_matrix %s[%r, %c] {leadDimension = 64 : index} : memref<32x64xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

// A 32-byte access would span two chunks the swizzle separates.
func.func @wide_access(%r: index, %c: index) -> vector<16xf16> attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 2, padding = 0>} {
  %s = memref.alloc() : memref<32x128xf16, 3>
  // expected-error @below {{accesses 32 bytes of a swizzled shared tile at once; the XOR swizzle keeps 16-byte chunks together, not wider accesses}}
  %v = vector.load %s[%r, %c] : memref<32x128xf16, 3>, vector<16xf16>
  return %v : vector<16xf16>
}
