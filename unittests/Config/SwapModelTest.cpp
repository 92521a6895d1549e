//===- SwapModelTest.cpp - The swapped sm90 kernel's tile height -*- C++ -*-===//

#include "tcgen/Config/Config.h"

#include "gtest/gtest.h"

using namespace mlir::tcgen;

namespace {

// Measured on H200 (docs/log/PERFORMANCE-history.md): N = 12288 takes 128-row
// tiles (96 tiles, one wave; 64-row tiles make 192, two waves of half the
// height), N = 4096 and 8192 64-row ones (one wave either way, half the
// height).
TEST(SwapModel, MeasuredShapes) {
  EXPECT_EQ(chooseSwapBlockM(12288, 132), 128);
  EXPECT_EQ(chooseSwapBlockM(8192, 132), 64);
  EXPECT_EQ(chooseSwapBlockM(4096, 132), 64);
}

TEST(SwapModel, FewerWavesOfTileRowsWinTiesTakeTheTallerTile) {
  // 132 tiles of 128 rows: one wave; 264 of 64: two.
  EXPECT_EQ(chooseSwapBlockM(132 * 128, 132), 128);
  // One more row: two waves of 128 rows (256) against three of 64 (192;
  // 265 tiles).
  EXPECT_EQ(chooseSwapBlockM(132 * 128 + 1, 132), 64);
  // Small N: one tile either way, the shorter one.
  EXPECT_EQ(chooseSwapBlockM(64, 132), 64);
  EXPECT_EQ(chooseSwapBlockM(1024, 132), 64);
}

} // namespace
