//===- BlockScalesTest.cpp - Tests of op.block_scales ---------------------===//
//
// This file implements unit tests of the manifest's block-scaled fp8
// matmuls (op.block_scales, operand roles scale_a and scale_b): a round
// trip and one test per kind of error.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Manifest.h"
#include "SampleManifest.h"

#include <gtest/gtest.h>

using namespace tcgen;
using tcgen::testing::ErrorCase;
using tcgen::testing::parseError;
using tcgen::testing::parseOk;
using tcgen::testing::replaceFirst;
using tcgen::testing::sampleManifestText;

namespace {

/// The sample manifest as a block-scaled fp8 matmul: e4m3 A [1024, 1024]
/// and B, SA [1024, 8] and SB [8, 8] of f32.
std::string blockScaledManifestText() {
  std::string text = replaceFirst(
      sampleManifestText(), R"("accumulate": false, "accumulator": "f32" },)",
      R"("accumulate": false, "accumulator": "f32",
          "block_scales": { "a": [1, 128], "b": [128, 128] } },)");
  text = replaceFirst(text, R"("name": "A", "role": "lhs", "dtype": "f16")",
                      R"("name": "A", "role": "lhs", "dtype": "e4m3")");
  text = replaceFirst(text, R"("name": "B", "role": "rhs", "dtype": "f16")",
                      R"("name": "B", "role": "rhs", "dtype": "e4m3")");
  text = replaceFirst(text, R"(    { "name": "C", "role": "out")",
                      R"(    { "name": "SA", "role": "scale_a", "dtype": "f32", "shape": [1024, 8],
      "strides": [8, 1], "align_bytes": 16 },
    { "name": "SB", "role": "scale_b", "dtype": "f32", "shape": [8, 8],
      "strides": [8, 1], "align_bytes": 16 },
    { "name": "C", "role": "out")");
  return replaceFirst(text, R"({ "kind": "ptr", "operand": "C" })",
                      R"({ "kind": "ptr", "operand": "C" },
              { "kind": "ptr", "operand": "SA" },
              { "kind": "ptr", "operand": "SB" })");
}

TEST(BlockScalesTest, ParseAndRoundTrip) {
  Manifest m = parseOk(blockScaledManifestText());
  ASSERT_TRUE(m.op.blockScales.has_value());
  EXPECT_EQ(m.op.blockScales->a, (std::vector<int64_t>{1, 128}));
  EXPECT_EQ(m.op.blockScales->b, (std::vector<int64_t>{128, 128}));
  ASSERT_NE(m.findRole(OperandRole::ScaleA), nullptr);
  EXPECT_EQ(m.findRole(OperandRole::ScaleA)->name, "SA");
  EXPECT_EQ(m.findRole(OperandRole::ScaleB)->name, "SB");
  Manifest again = parseOk(writeManifest(m));
  EXPECT_TRUE(again == m);
  EXPECT_EQ(writeManifest(parseOk(sampleManifestText())).find("block_scales"),
            std::string::npos);
}

class BlockScaleErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(BlockScaleErrorTest, NamesTheField) {
  const ErrorCase &c = GetParam();
  std::string base = blockScaledManifestText();
  std::string text = replaceFirst(base, c.from, c.to);
  ASSERT_NE(text, base) << "edit did not apply: " << c.from;
  EXPECT_EQ(parseError(text), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BlockScaleErrorTest,
    ::testing::Values(
        ErrorCase{"NoBlockScales",
                  R"(,
          "block_scales": { "a": [1, 128], "b": [128, 128] })",
                  "",
                  "field 'operands': operand 'SA' has role 'scale_a', but op "
                  "has no block_scales"},
        ErrorCase{"OtherBlocks", R"("a": [1, 128])", R"("a": [1, 64])",
                  "field 'op.block_scales': blocks a [1, 64] and b [128, "
                  "128] are not supported (supported: a [1, 128] and b "
                  "[128, 128])"},
        ErrorCase{"NoScaleB", R"("role": "scale_b")", R"("role": "in")",
                  "field 'op.block_scales': a block-scaled matmul needs a "
                  "scale_a and a scale_b operand"},
        ErrorCase{"ScaleAShape", R"("shape": [1024, 8])",
                  R"("shape": [1024, 4])",
                  "operand 'SA' (scale_a): shape [1024, 4] does not match "
                  "the blocks of op.block_scales: [1024, 8]"},
        ErrorCase{"ScaleBDtype",
                  R"("name": "SB", "role": "scale_b", "dtype": "f32")",
                  R"("name": "SB", "role": "scale_b", "dtype": "f16")",
                  "operand 'SB' (scale_b): block scales are f32, got f16"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

} // namespace
