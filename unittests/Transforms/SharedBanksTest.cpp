//===- SharedBanksTest.cpp - Copy orders and their bank conflicts ---------===//

#include "tcgen/Transforms/SharedBanks.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

using namespace mlir::tcgen;

namespace {

// Both orders visit every chunk of the tile exactly once.
TEST(CopyOrderTest, IsABijection) {
  for (CopyOrder order :
       {CopyOrder::RowMajor, CopyOrder::Paired, CopyOrder::Interleaved})
    for (int64_t cols : {1, 2, 4})
      for (int64_t rows : {8, 32, 128}) {
        ASSERT_TRUE(isCopyOrderValid(order, rows, cols));
        std::set<std::pair<int64_t, int64_t>> seen;
        for (int64_t l = 0; l < rows * cols; ++l) {
          int64_t r, c;
          copyChunkOf(order, cols, l, r, c);
          ASSERT_GE(r, 0);
          ASSERT_LT(r, rows);
          ASSERT_GE(c, 0);
          ASSERT_LT(c, cols);
          seen.insert({r, c});
        }
        EXPECT_EQ(int64_t(seen.size()), rows * cols);
      }
}

// The interleaved order needs groups of 8 whole rows inside one warp.
TEST(CopyOrderTest, InterleavedNeedsRowGroupsInAWarp) {
  EXPECT_FALSE(isCopyOrderValid(CopyOrder::Interleaved, 128, 8));
  EXPECT_FALSE(isCopyOrderValid(CopyOrder::Interleaved, 128, 3));
  EXPECT_FALSE(isCopyOrderValid(CopyOrder::Interleaved, 12, 4));
  EXPECT_TRUE(isCopyOrderValid(CopyOrder::RowMajor, 12, 3));
  EXPECT_TRUE(isCopyOrderValid(CopyOrder::Paired, 128, 8));
  EXPECT_FALSE(isCopyOrderValid(CopyOrder::Paired, 12, 4));
  EXPECT_FALSE(isCopyOrderValid(CopyOrder::RowMajor, 0, 4));
}

// A 128 x 32 f16 tile (4 chunks of 16 bytes per row) into rows padded by 8
// f16 (80 bytes apart): in row-major order each phase of 8 threads stores
// two rows whose first chunks share banks (2 wavefronts per phase); the
// interleaved order puts 8 rows at 80-byte steps on 8 different 16-byte
// bank groups (1 wavefront).
TEST(CopyStoreWavefrontsTest, PaddedNarrowRows) {
  int64_t phases = 128 * 4 / 8;
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::RowMajor, 128, 4, 16, 80),
            2 * phases);
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::Interleaved, 128, 4, 16, 80),
            phases);
}

// The paired order visits rows 0 4 1 5 2 6 3 7 of each group of 8.
TEST(CopyOrderTest, PairedVisitsRowsFourApart) {
  int64_t rows[8];
  for (int64_t i = 0; i < 8; ++i) {
    int64_t c;
    copyChunkOf(CopyOrder::Paired, 4, 4 * (8 + i), rows[i], c);
    EXPECT_EQ(c, 0);
  }
  int64_t expected[8] = {8, 12, 9, 13, 10, 14, 11, 15};
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(rows[i], expected[i]) << "i = " << i;
}

// Paired: each phase stores rows r and r + 4 of 80-byte rows, the two
// halves of a 128-byte bank line: conflict-free, like interleaved.
TEST(CopyStoreWavefrontsTest, PairedPaddedNarrowRows) {
  int64_t phases = 128 * 4 / 8;
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::Paired, 128, 4, 16, 80), phases);
}

// Global side: row-major and paired phases read 2 rows (2 lines), the
// interleaved phases 8.
TEST(CopyLoadLinesTest, InterleavedTouchesMoreLines) {
  int64_t phases = 128 * 4 / 8;
  EXPECT_EQ(copyLoadLines(CopyOrder::RowMajor, 128, 4, 16), 2 * phases);
  EXPECT_EQ(copyLoadLines(CopyOrder::Paired, 128, 4, 16), 2 * phases);
  EXPECT_EQ(copyLoadLines(CopyOrder::Interleaved, 128, 4, 16), 8 * phases);
  // 256-byte rows: a phase reads half a row, one line.
  EXPECT_EQ(copyLoadLines(CopyOrder::RowMajor, 32, 16, 16), 32 * 16 / 8);
}

// The choice: paired for padded 64-byte rows, row-major where it is already
// conflict-free (unpadded rows, wide rows) and for tiles the other orders
// do not fit.
TEST(ChooseCopyOrderTest, PicksTheCheapestValidOrder) {
  EXPECT_EQ(chooseCopyOrder(128, 4, 16, 80), CopyOrder::Paired);
  EXPECT_EQ(chooseCopyOrder(128, 4, 16, 64), CopyOrder::RowMajor);
  EXPECT_EQ(chooseCopyOrder(32, 16, 16, 272), CopyOrder::RowMajor);
  EXPECT_EQ(chooseCopyOrder(12, 4, 16, 80), CopyOrder::RowMajor);
}

// Without padding (64-byte rows) row-major is conflict-free and the
// interleaved order stores 8 rows on two bank groups (4 wavefronts).
TEST(CopyStoreWavefrontsTest, UnpaddedNarrowRows) {
  int64_t phases = 128 * 4 / 8;
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::RowMajor, 128, 4, 16, 64), phases);
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::Interleaved, 128, 4, 16, 64),
            4 * phases);
}

// Rows of 256 bytes or more: each phase stores 128 contiguous bytes.
TEST(CopyStoreWavefrontsTest, WideRowsAreConflictFree) {
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::RowMajor, 32, 16, 16, 272),
            32 * 16 / 8);
}

// Narrow accesses: 2-byte stores of one 64-byte row by 32 threads share
// words pairwise and take one wavefront.
TEST(CopyStoreWavefrontsTest, ScalarStores) {
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::RowMajor, 1, 32, 2, 64), 1);
  EXPECT_EQ(copyStoreWavefronts(CopyOrder::Interleaved, 8, 3, 16, 80), 0);
}

} // namespace
