//===- StagesTest.cpp - Tests of the stage count's choice -------*- C++ -*-===//
//
// This file implements the unit tests of chooseStages: the automatic
// choice under the shared-memory budget, the trip count and the cap, and
// every refusal of a requested or impossible count.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Pipeline.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tcgen;

namespace {

TEST(ChooseStages, AutomaticIsBoundedByBudgetTripsAndCap) {
  std::string error;
  // MatrixMul 16: 2 KiB a stage; the cap (4) binds.
  EXPECT_EQ(*chooseStages(2048, 0, std::nullopt, 0, kStaticSharedBudget, error),
            4);
  // 20 KiB a stage: two fit 48 KiB.
  EXPECT_EQ(
      *chooseStages(20480, 0, std::nullopt, 0, kStaticSharedBudget, error), 2);
  // Other buffers count against the budget: 16 KiB a stage + 10 KiB.
  EXPECT_EQ(
      *chooseStages(16384, 10240, std::nullopt, 0, kStaticSharedBudget, error),
      2);
  // A three-iteration loop takes three stages at most.
  EXPECT_EQ(*chooseStages(1024, 0, 3, 0, kStaticSharedBudget, error), 3);
  // A larger cap.
  EXPECT_EQ(
      *chooseStages(1024, 0, std::nullopt, 0, kStaticSharedBudget, error, 8),
      8);
}

TEST(ChooseStages, RequestedCountsAreKeptOrRefused) {
  std::string error;
  // Asked for: kept even above the automatic cap or the trip count.
  EXPECT_EQ(*chooseStages(2048, 0, 2, 6, kStaticSharedBudget, error), 6);
  EXPECT_TRUE(failed(
      chooseStages(2048, 0, std::nullopt, 1, kStaticSharedBudget, error)));
  EXPECT_EQ(error, "--stages must be at least 2 (one stage is the original "
                   "kernel)");
  EXPECT_TRUE(failed(
      chooseStages(8192, 0, std::nullopt, 7, kStaticSharedBudget, error)));
  EXPECT_EQ(error, "7 stages of 8192 bytes (and 0 bytes of other shared "
                   "buffers) exceed the 49152-byte shared-memory budget");
}

TEST(ChooseStages, NothingToOverlap) {
  std::string error;
  EXPECT_TRUE(failed(chooseStages(1024, 0, 1, 0, kStaticSharedBudget, error)));
  EXPECT_EQ(error, "the loop runs 1 iteration(s); there is nothing to overlap");
  EXPECT_TRUE(failed(
      chooseStages(30000, 0, std::nullopt, 0, kStaticSharedBudget, error)));
  EXPECT_EQ(error, "2 stages of 30000 bytes (and 0 bytes of other shared "
                   "buffers) exceed the 49152-byte shared-memory budget");
}

} // namespace
