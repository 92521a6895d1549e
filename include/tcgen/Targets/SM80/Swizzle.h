//===- Swizzle.h - XOR swizzle of 16-byte chunks in shared memory -*- C++ -*-===//
//
// The sm80 back end's shared layout without padding: a 2-d buffer of rows
// `rowBytes` long (a multiple of 16) is seen as 128-byte lines of eight
// 16-byte chunks (the 32 banks), and each line's chunks are permuted by an
// XOR with a line-dependent value. Eight consecutive rows read at the same
// logical chunk (one ldmatrix 8x8 matrix) then hit eight different chunk
// positions of the bank space: conflict-free, without padding.
//
// - Rows of 128 bytes or more: the XOR value is row % 8, applied to the
//   low three bits of the chunk index (a permutation within each 128-byte
//   segment of the row).
// - Shorter rows (q = 128 / rowBytes rows share a line): the chunk's
//   position within its line, (row % q) * chunksPerRow + chunk, is XORed
//   with (row / q) % 8; the chunk may move to another row of the same line.
//
// Both are bijections on every line, hence on the buffer. The functions are
// pure and free of MLIR, so that unit tests can check them exhaustively.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_SM80_SWIZZLE_H
#define TCGEN_TARGETS_SM80_SWIZZLE_H

#include <cstdint>

namespace mlir::tcgen::sm80 {

/// Where a 16-byte chunk lives after the swizzle: its row and chunk index.
struct ChunkPos {
  int64_t row;
  int64_t chunk;
  bool operator==(const ChunkPos &o) const {
    return row == o.row && chunk == o.chunk;
  }
};

/// Whether rows of `rowBytes` can be swizzled: a power of two from 16 to
/// 1024 bytes (rows of 16-byte chunks whose lines hold whole rows, or whose
/// rows hold whole lines).
inline bool canSwizzle(int64_t rowBytes) {
  return rowBytes >= 16 && rowBytes <= 1024 && (rowBytes & (rowBytes - 1)) == 0;
}

/// The swizzled position of logical chunk `chunk` of row `row` (rows of
/// `rowBytes`, which canSwizzle accepts).
inline ChunkPos swizzleChunk(int64_t row, int64_t chunk, int64_t rowBytes) {
  int64_t chunksPerRow = rowBytes / 16;
  if (rowBytes >= 128)
    return {row, chunk ^ (row % 8)};
  int64_t rowsPerLine = 128 / rowBytes;
  int64_t line = row / rowsPerLine;
  int64_t pos = (row % rowsPerLine) * chunksPerRow + chunk;
  int64_t swizzled = pos ^ (line % 8);
  return {line * rowsPerLine + swizzled / chunksPerRow,
          swizzled % chunksPerRow};
}

/// The 16-byte bank group (0-7: banks 4g .. 4g + 3) a chunk occupies when
/// the buffer starts on a 128-byte boundary.
inline int64_t bankGroup(ChunkPos pos, int64_t rowBytes) {
  return (pos.row * rowBytes / 16 + pos.chunk) % 8;
}

} // namespace mlir::tcgen::sm80

#endif // TCGEN_TARGETS_SM80_SWIZZLE_H
