//===- GroupedTileTest.cpp - The grouped product's tile walk ----*- C++ -*-===//
//
// This file tests the tile walk of grouped products (tcgen/Analysis/
// Grouped.h), the one the sm90 kernel's scheduler computes on the device:
// every tile of every group exactly once, empty groups skipped, a group's
// row tiles first within each column tile.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Grouped.h"

#include "gtest/gtest.h"

#include <set>
#include <tuple>

using namespace mlir::tcgen;

namespace {

TEST(GroupedTile, CountsEachGroupsRowTilesTimesColumnTiles) {
  // Rows 300, 0, 128, 1 with 128-row tiles: 3 + 0 + 1 + 1 row tiles.
  std::vector<int64_t> offsets = {0, 300, 300, 428, 429};
  EXPECT_EQ(groupedTileCount(offsets, 128, 4), (3 + 0 + 1 + 1) * 4);
  EXPECT_EQ(groupedTileCount({0, 0, 0}, 128, 4), 0);
}

TEST(GroupedTile, WalksEveryTileOnceSkippingEmptyGroups) {
  std::vector<int64_t> offsets = {0, 300, 300, 428, 429};
  const int64_t blockM = 128, tilesN = 3;
  int64_t count = groupedTileCount(offsets, blockM, tilesN);
  std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
  for (int64_t t = 0; t < count; ++t) {
    std::optional<GroupedTile> tile =
        mapGroupedTile(offsets, blockM, tilesN, t);
    ASSERT_TRUE(tile.has_value()) << "tile " << t;
    EXPECT_NE(tile->group, 1) << "group 1 is empty";
    int64_t rows = offsets[tile->group + 1] - offsets[tile->group];
    // The tile's first row lies inside its group.
    EXPECT_LT(tile->rowTile * blockM, rows);
    EXPECT_LT(tile->colTile, tilesN);
    EXPECT_TRUE(
        seen.insert({tile->group, tile->rowTile, tile->colTile}).second);
  }
  EXPECT_EQ(int64_t(seen.size()), count);
  EXPECT_FALSE(mapGroupedTile(offsets, blockM, tilesN, count).has_value());
}

TEST(GroupedTile, OrdersRowTilesFirstWithinAColumnTile) {
  // One group of 3 row tiles by 2 column tiles: (0,0) (1,0) (2,0) (0,1) ...
  std::vector<int64_t> offsets = {0, 384};
  std::optional<GroupedTile> t1 = mapGroupedTile(offsets, 128, 2, 1);
  std::optional<GroupedTile> t3 = mapGroupedTile(offsets, 128, 2, 3);
  ASSERT_TRUE(t1 && t3);
  EXPECT_EQ(t1->rowTile, 1);
  EXPECT_EQ(t1->colTile, 0);
  EXPECT_EQ(t3->rowTile, 0);
  EXPECT_EQ(t3->colTile, 1);
  // The second group's tiles follow the first's.
  offsets = {0, 128, 256};
  std::optional<GroupedTile> t = mapGroupedTile(offsets, 128, 2, 2);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->group, 1);
  EXPECT_EQ(t->rowTile, 0);
}

} // namespace
