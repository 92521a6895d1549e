//===- SharedBanks.h - Shared-memory bank conflicts of copy stores -*- C++ -*-===//
//
// A model of how many shared-memory wavefronts one warp's stores take, used
// to pick the order in which the threads of a block walk a copied tile.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TRANSFORMS_SHAREDBANKS_H
#define TCGEN_TRANSFORMS_SHAREDBANKS_H

#include <cstdint>

namespace mlir::tcgen {

/// How the threads of a block walk a copied tile of `rows` x `cols` chunks
/// (thread-linear index l, taken in steps of the block size).
enum class CopyOrder {
  /// row = l / cols, col = l % cols: a warp covers 32 / cols whole rows.
  RowMajor,
  /// RowMajor with the rows of each group of 8 visited as 0 4 1 5 2 6 3 7:
  /// with 4 chunks per row, a phase of 8 threads stores rows r and r + 4
  /// (80-byte rows: 320 bytes apart, the two halves of a 128-byte bank
  /// line). A warp covers the same rows as in RowMajor (needs rows to be a
  /// multiple of 8).
  Paired,
  /// Groups of 8 rows: row = (l / (8 cols)) * 8 + l % 8,
  /// col = (l % (8 cols)) / 8. Eight consecutive threads store the same
  /// chunk of eight consecutive rows, and load from eight rows of global
  /// memory (needs cols to divide 4 and rows to be a multiple of 8).
  Interleaved,
};

/// Whether `order` is defined for a tile of `rows` x `cols` chunks.
bool isCopyOrderValid(CopyOrder order, int64_t rows, int64_t cols);

/// Maps the thread-linear index `l` to (row, col) of the chunk it copies.
void copyChunkOf(CopyOrder order, int64_t cols, int64_t l, int64_t &row,
                 int64_t &col);

/// Shared-memory wavefronts of all the store instructions of one copy of a
/// `rows` x `cols` tile of `chunkBytes` chunks into rows `strideBytes`
/// apart, with the threads walking it in `order`. The hardware model: 32
/// banks of 4 bytes; a warp's 16-byte accesses are served in 4 phases of 8
/// threads, 8-byte accesses in 2 phases of 16, narrower ones in one phase;
/// a phase takes as many wavefronts as the largest number of distinct
/// 4-byte words that fall on one bank. Returns 0 for an invalid order.
int64_t copyStoreWavefronts(CopyOrder order, int64_t rows, int64_t cols,
                            int64_t chunkBytes, int64_t strideBytes);

/// Global-memory cache lines the loads of the same copy touch, counted per
/// phase (the phases as above; each row of the source starts a 128-byte
/// line and no two rows share one). Returns 0 for an invalid order.
int64_t copyLoadLines(CopyOrder order, int64_t rows, int64_t cols,
                      int64_t chunkBytes);

/// The valid order with the fewest store wavefronts plus load lines;
/// RowMajor on a tie.
CopyOrder chooseCopyOrder(int64_t rows, int64_t cols, int64_t chunkBytes,
                          int64_t strideBytes);

} // namespace mlir::tcgen

#endif // TCGEN_TRANSFORMS_SHAREDBANKS_H
