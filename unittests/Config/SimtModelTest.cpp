//===- SimtModelTest.cpp - The simt back end's tile choice ------*- C++ -*-===//

#include "tcgen/Config/Config.h"

#include "gtest/gtest.h"

using namespace mlir::tcgen;

namespace {

SimtCandidate first(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  return rankSimtCandidates(m, n, k, batch, /*sms=*/132).front();
}

TEST(SimtModel, FullWavesTakeTheWidestTilesAndLongestKSteps) {
  for (int64_t s : {2048, 4096, 8192}) {
    SimtCandidate c = first(s, s, s);
    EXPECT_EQ(c.bm, 128) << s;
    EXPECT_EQ(c.bn, 128) << s;
    EXPECT_EQ(c.bk, 32) << s;
    EXPECT_EQ(c.tm * c.tn, 64) << s;
  }
}

TEST(SimtModel, FewTilesTakeSmallBlocks) {
  // 64 tiles of 128x128 leave half the SMs idle: 64x64 blocks of 4 warps.
  SimtCandidate c = first(1024, 1024, 1024);
  EXPECT_EQ(c.bm, 64);
  EXPECT_EQ(c.bn, 64);
  EXPECT_EQ(c.bk, 16);
}

TEST(SimtModel, AShortLastWaveTakesNarrowerBlocks) {
  // 1600 tiles of 128x128 are 6.06 waves of 264 blocks; 3160 of 64x128
  // are 5.98 waves of 528.
  SimtCandidate c = first(5000, 5000, 5000);
  EXPECT_EQ(c.bm, 64);
  EXPECT_EQ(c.bn, 128);
}

TEST(SimtModel, UnalignedRowsNeverTakeKStepsOf32) {
  for (int64_t s : {4095, 8191, 2049, 1000 + 1})
    for (const SimtCandidate &c : rankSimtCandidates(s, s, s, 1, 132))
      EXPECT_LT(c.bk, 32) << s;
  // Every candidate is offered in some order (the spill fallback walks
  // them): six where aligned, five (no K step of 32) where not.
  EXPECT_EQ(rankSimtCandidates(4096, 4096, 4096, 1, 132).size(), 6u);
  EXPECT_EQ(rankSimtCandidates(4095, 4095, 4095, 1, 132).size(), 5u);
}

TEST(SimtModel, CandidatesAreValidThreadLayouts) {
  for (const SimtCandidate &c : rankSimtCandidates(4096, 4096, 4096, 1, 132)) {
    EXPECT_EQ((c.wm / c.tm) * (c.wn / c.tn), 32);
    EXPECT_EQ(c.bm % c.wm, 0);
    EXPECT_EQ(c.bn % c.wn, 0);
    EXPECT_EQ(c.tm % 4, 0);
    EXPECT_EQ(c.tn % 4, 0);
  }
}

} // namespace
