//===- BackendTest.cpp - The registry of back ends ------------------------===//
//
// Every back end the IR accepts is registered under its name, and the
// configuration's formulas reach the sm90 and sm80 ones through it. The
// environment below registers them for every test of this binary (the
// tile-size model asks the sm90 back end for its formulas).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Backend.h"
#include "tcgen/Pipelines/Pipelines.h"

#include <gtest/gtest.h>

using namespace mlir::tcgen;

namespace {

class BackendsEnvironment : public ::testing::Environment {
public:
  void SetUp() override { registerTCGenBackends(); }
};

const ::testing::Environment *const backendsEnvironment =
    ::testing::AddGlobalTestEnvironment(new BackendsEnvironment);

TEST(Backend, EveryBackendIsRegisteredUnderItsName) {
  std::vector<const TargetBackend *> all = getTargetBackends();
  ASSERT_EQ(all.size(), 4u);
  // Registration order is the order of their passes in the pipeline.
  const char *names[] = {"wmma", "sm80", "sm90", "simt"};
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i]->getName(), names[i]);
    EXPECT_EQ(lookupTargetBackend(names[i]), all[i]);
    EXPECT_EQ(&getTargetBackend(all[i]->getName()), all[i]);
  }
  EXPECT_EQ(lookupTargetBackend("sm100"), nullptr);
  EXPECT_EQ(lookupTargetBackend(""), nullptr);
}

// Asking for what is not there is a bug of the caller: a fatal error that
// names it, never a silent default.
TEST(BackendDeathTest, UnknownNamesAndMissingFormulasAreFatal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(getTargetBackend("sm100"), "no back end 'sm100' is registered");
  EXPECT_DEATH(getTargetBackend("wmma").getSwapStages(64),
               "the wmma back end has no swapped kernels");
  EXPECT_DEATH(getTargetBackend("simt").getMaxSharedMemoryBytes(),
               "the simt back end has no shared-memory budget");
}

TEST(Backend, RegisteringTwiceKeepsOne) {
  registerTCGenBackends();
  EXPECT_EQ(getTargetBackends().size(), 4u);
}

TEST(Backend, DecisionsOfTheGenericPasses) {
  const TargetBackend &wmma = getTargetBackend("wmma");
  const TargetBackend &sm80 = getTargetBackend("sm80");
  const TargetBackend &sm90 = getTargetBackend("sm90");
  const TargetBackend &simt = getTargetBackend("simt");
  EXPECT_TRUE(sm80.alwaysAsyncCopies());
  EXPECT_FALSE(wmma.alwaysAsyncCopies());
  EXPECT_TRUE(wmma.asyncCopiesOnRequest());
  EXPECT_FALSE(sm80.asyncCopiesOnRequest());
  EXPECT_TRUE(sm80.carriesBF16AsF16());
  EXPECT_FALSE(wmma.carriesBF16AsF16());
  EXPECT_TRUE(sm90.stagesOwnEpilogue());
  EXPECT_FALSE(simt.stagesOwnEpilogue());
}

TEST(Backend, ResourceFormulasOfSM90) {
  const TargetBackend &sm90 = getTargetBackend("sm90");
  EXPECT_EQ(sm90.getMaxSharedMemoryBytes(), 227 * 1024);
  // A 128 x 256 tile of 64-wide k-steps: 48 KiB a stage, two 8 KiB store
  // buffers per consumer warpgroup, 1 KiB of alignment.
  EXPECT_EQ(sm90.getSharedMemoryBytes(128, 256, 64, 4, /*tmaStore=*/true),
            4 * 48 * 1024 + 2 * 2 * 8192 + 1024);
  EXPECT_EQ(sm90.getStagesThatFit(128, 256, 64, /*tmaStore=*/true), 4);
  EXPECT_EQ(sm90.getStagesThatFit(128, 128, 64), 7);
  EXPECT_EQ(sm90.getStreamKSplitTiles(264, 132), 0);
  EXPECT_EQ(sm90.getStreamKSplitTiles(200, 132), 200);
  EXPECT_TRUE(getTargetBackend("sm80").canSwizzleRows(128));
  EXPECT_FALSE(getTargetBackend("sm80").canSwizzleRows(96));
}

} // namespace
