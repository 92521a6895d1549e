//===- SM80SwizzleTest.cpp - the sm80 shared-memory swizzle -----*- C++ -*-===//
//
// The XOR swizzle must be a bijection on every buffer it serves and free of
// bank conflicts for the two access patterns of the sm80 kernels: ldmatrix
// (eight rows read at one logical chunk per 8x8 matrix) and the cp.async
// stores (a quarter warp writes eight consecutive chunks of the tile, as
// laid out row by row).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM80/Swizzle.h"

#include "gtest/gtest.h"

#include <set>
#include <utility>

using namespace mlir::tcgen::sm80;

namespace {

const int64_t kRowBytes[] = {16, 32, 64, 128, 256, 512, 1024};

TEST(SM80Swizzle, AcceptsPowersOfTwoFrom16To1024) {
  for (int64_t r : kRowBytes)
    EXPECT_TRUE(canSwizzle(r)) << r;
  for (int64_t r : {0, 8, 48, 80, 96, 2048})
    EXPECT_FALSE(canSwizzle(r)) << r;
}

TEST(SM80Swizzle, IsABijectionOnEveryBuffer) {
  for (int64_t rowBytes : kRowBytes) {
    int64_t chunksPerRow = rowBytes / 16;
    for (int64_t rows : {8, 32, 128, 136}) {
      // The number of rows must fill whole lines (a shared tile always does).
      if (rows * rowBytes % 128 != 0)
        continue;
      std::set<std::pair<int64_t, int64_t>> seen;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < chunksPerRow; ++c) {
          ChunkPos p = swizzleChunk(r, c, rowBytes);
          EXPECT_GE(p.row, 0);
          EXPECT_LT(p.row, rows) << rowBytes << " " << r << " " << c;
          EXPECT_GE(p.chunk, 0);
          EXPECT_LT(p.chunk, chunksPerRow);
          // Within its 128-byte line (or its row, for long rows).
          EXPECT_EQ(p.row * rowBytes / 128, r * rowBytes / 128);
          seen.insert({p.row, p.chunk});
        }
      }
      EXPECT_EQ(int64_t(seen.size()), rows * chunksPerRow)
          << "rowBytes " << rowBytes << " rows " << rows;
    }
  }
}

/// The distinct bank groups of eight rows r0 .. r0 + 7 at chunk c.
static size_t ldmatrixGroups(int64_t r0, int64_t c, int64_t rowBytes,
                             bool swizzled) {
  std::set<int64_t> groups;
  for (int64_t i = 0; i < 8; ++i) {
    ChunkPos p = swizzled ? swizzleChunk(r0 + i, c, rowBytes)
                          : ChunkPos{r0 + i, c};
    groups.insert(bankGroup(p, rowBytes));
  }
  return groups.size();
}

TEST(SM80Swizzle, LdmatrixRowsAreConflictFree) {
  for (int64_t rowBytes : kRowBytes)
    for (int64_t r0 = 0; r0 < 64; r0 += 8)
      for (int64_t c = 0; c < rowBytes / 16; ++c)
        EXPECT_EQ(ldmatrixGroups(r0, c, rowBytes, /*swizzled=*/true), 8u)
            << "rowBytes " << rowBytes << " rows " << r0 << " chunk " << c;
}

TEST(SM80Swizzle, UnswizzledRowsConflict) {
  // What the swizzle is for: without it (and without padding), eight rows
  // of 64 bytes at one chunk fall on two bank groups (4-way conflicts).
  EXPECT_EQ(ldmatrixGroups(0, 0, 64, /*swizzled=*/false), 2u);
  EXPECT_EQ(ldmatrixGroups(0, 0, 256, /*swizzled=*/false), 1u);
}

TEST(SM80Swizzle, QuarterWarpStoresAreConflictFree) {
  // cp.async: eight threads write eight consecutive logical chunks (one
  // 128-byte line of the unswizzled tile) in one wavefront.
  for (int64_t rowBytes : kRowBytes) {
    int64_t chunksPerRow = rowBytes / 16;
    for (int64_t first = 0; first < 64 * chunksPerRow; first += 8) {
      std::set<int64_t> groups;
      for (int64_t i = first; i < first + 8; ++i)
        groups.insert(bankGroup(
            swizzleChunk(i / chunksPerRow, i % chunksPerRow, rowBytes),
            rowBytes));
      EXPECT_EQ(groups.size(), 8u) << "rowBytes " << rowBytes;
    }
  }
}

} // namespace
