//===- ManifestTest.cpp - Tests of the bundle manifest --------------------===//
//
// This file implements unit tests of parseManifest(), writeManifest() and
// findManifest(): the docs/BUNDLE.md example, round trips, and one test per
// kind of manifest error.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Manifest.h"
#include "SampleManifest.h"
#include "tcgen/Runtime/Validate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tcgen;
using tcgen::testing::batchedManifestText;
using tcgen::testing::dynamicManifestText;
using tcgen::testing::epilogueManifestText;
using tcgen::testing::packManifestText;
using tcgen::testing::ErrorCase;
using tcgen::testing::parseError;
using tcgen::testing::parseOk;
using tcgen::testing::replaceFirst;
using tcgen::testing::sampleManifestText;
using tcgen::testing::streamKManifestText;
using tcgen::testing::tensorMapManifestText;

namespace {

TEST(ManifestTest, ParsesTheBundleDocExample) {
  Manifest m = parseOk(sampleManifestText());
  EXPECT_EQ(m.entry, "matmul_kernel");
  EXPECT_EQ(m.cubin, "matmul_kernel.cubin");
  EXPECT_EQ(m.ptx, "matmul_kernel.ptx");
  EXPECT_EQ(m.target.arch, "sm_90a");
  EXPECT_EQ(m.target.backend, "wmma");
  EXPECT_EQ(m.target.minCC, 80);
  EXPECT_EQ(m.op.kind, "matmul");
  EXPECT_EQ(m.op.m, 1024);
  EXPECT_FALSE(m.op.accumulate);
  EXPECT_EQ(m.op.accumulator, DType::F32);
  ASSERT_EQ(m.operands.size(), 3u);
  EXPECT_EQ(m.operands[2].name, "C");
  EXPECT_EQ(m.operands[2].role, OperandRole::Out);
  EXPECT_EQ(m.operands[2].dtype, DType::F32);
  EXPECT_EQ(m.operands[0].strides, (std::vector<int64_t>{1024, 1}));
  EXPECT_EQ(m.operands[0].alignBytes, 16);
  ASSERT_EQ(m.params.size(), 3u);
  EXPECT_EQ(m.params[1].kind, "ptr");
  EXPECT_EQ(m.params[1].operand, "B");
  EXPECT_EQ(m.launch.grid, (std::array<int64_t, 3>{8, 16, 1}));
  EXPECT_EQ(m.launch.block, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(m.launch.gridFormula.size(), 3u);
  EXPECT_EQ(m.resources.registers, 96);
  EXPECT_EQ(m.resources.staticSmemBytes, 27648);
  ASSERT_TRUE(m.config.isObject());
  EXPECT_EQ(m.config.get("stages")->getInt(), 1);
  EXPECT_EQ(m.findRole(OperandRole::Rhs)->name, "B");
}

TEST(ManifestTest, WriteParseRoundTrip) {
  Manifest m = parseOk(sampleManifestText());
  std::string text = writeManifest(m);
  Manifest again = parseOk(text);
  EXPECT_EQ(again, m);
  // Writing is stable: the same manifest gives the same bytes.
  EXPECT_EQ(writeManifest(again), text);
}

TEST(ManifestTest, WriterUsesTheDocFieldOrder) {
  std::string text = writeManifest(parseOk(sampleManifestText()));
  const char *order[] = {"\"format\"", "\"version\"",   "\"entry\"",
                         "\"cubin\"",  "\"ptx\"",       "\"target\"",
                         "\"op\"",     "\"operands\"",  "\"params\"",
                         "\"launch\"", "\"resources\"", "\"config\""};
  size_t last = 0;
  for (const char *field : order) {
    size_t pos = text.find(field);
    ASSERT_NE(pos, std::string::npos) << field;
    EXPECT_GT(pos, last) << field;
    last = pos;
  }
  EXPECT_NE(text.find("\"shape\": [1024, 1024]"), std::string::npos) << text;
}

TEST(ManifestTest, RoundTripOfABuiltManifest) {
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx"; // no cubin: --emit=ptx
  m.target = {"sm_80", "sm80", 80};
  m.op = {"matmul", 1, 64, 32, 16, true};
  m.operands = {{"A", OperandRole::Lhs, DType::BF16, {64, 16}, {1, 64}, 16},
                {"B", OperandRole::Rhs, DType::BF16, {16, 32}, {32, 1}, 16},
                {"C", OperandRole::InOut, DType::F32, {64, 32}, {32, 1}, 4}};
  m.params = {{"ptr", "A", ""}, {"ptr", "B", ""}, {"ptr", "C", ""}};
  m.launch.grid = {2, 4, 1};
  m.launch.block = {128, 1, 1};
  m.launch.cluster = {2, 1, 1};
  m.launch.dynamicSmemBytes = 65536;
  m.config.set("stages", 3);
  Manifest again = parseOk(writeManifest(m));
  EXPECT_EQ(again, m);
  EXPECT_EQ(again.op.accumulator, DType::F32);
  EXPECT_EQ(again.cubin, "");
}

// A swapped kernel (C^T = B^T A^T) describes A [m][k] as its B^T [k][m]
// and lists it second: the same elements, matched by their views.
TEST(ManifestTest, MatchesOperandViewsOfASwappedKernel) {
  Manifest plain, swapped;
  plain.operands = {
      {"A", OperandRole::Lhs, DType::F16, {8, 4096}, {4096, 1}, 16},
      {"B", OperandRole::Rhs, DType::F16, {4096, 12288}, {12288, 1}, 16},
      {"C", OperandRole::Out, DType::F16, {8, 12288}, {12288, 1}, 16}};
  swapped.operands = {
      {"B", OperandRole::Rhs, DType::F16, {12288, 4096}, {1, 12288}, 16},
      {"A", OperandRole::Lhs, DType::F16, {4096, 8}, {1, 4096}, 16},
      {"C", OperandRole::Out, DType::F16, {12288, 8}, {1, 12288}, 16}};
  std::optional<std::vector<size_t>> match = matchOperandViews(plain, swapped);
  ASSERT_TRUE(match);
  EXPECT_EQ(*match, (std::vector<size_t>{1, 0, 2}));
  EXPECT_EQ(matchOperandViews(plain, plain), (std::vector<size_t>{0, 1, 2}));
  // Same sizes: the operand of the same name wins.
  Manifest square = plain;
  square.operands[0].shape = {64, 64};
  square.operands[0].strides = {64, 1};
  square.operands[1].shape = {64, 64};
  square.operands[1].strides = {64, 1};
  EXPECT_EQ(matchOperandViews(square, square), (std::vector<size_t>{0, 1, 2}));
  // Other strides (a padded row), another dtype or a missing operand: none.
  Manifest padded = plain;
  padded.operands[1].strides = {12352, 1};
  EXPECT_FALSE(matchOperandViews(plain, padded));
  Manifest bf16 = plain;
  bf16.operands[2].dtype = DType::BF16;
  EXPECT_FALSE(matchOperandViews(plain, bf16));
  Manifest fewer = plain;
  fewer.operands.pop_back();
  EXPECT_FALSE(matchOperandViews(plain, fewer));
}

TEST(ManifestTest, OptionalFieldsDefault) {
  std::string text = sampleManifestText();
  text = replaceFirst(text, R"("backend": "wmma", )", "");
  text = replaceFirst(text, R"("batch": 1, )", "");
  text = replaceFirst(text, R"("cluster": [1, 1, 1],)", "");
  text = replaceFirst(text, ",\n          \"accumulate\": false", "");
  text = replaceFirst(text, R"(, "accumulator": "f32")", "");
  ASSERT_EQ(text.find("accumulat"), std::string::npos) << text;
  Manifest m = parseOk(text);
  EXPECT_EQ(m.target.backend, "");
  EXPECT_EQ(m.op.batch, 1);
  EXPECT_FALSE(m.op.accumulate);
  EXPECT_EQ(m.op.accumulator, DType::F32);
  EXPECT_EQ(m.launch.cluster, (std::array<int64_t, 3>{1, 1, 1}));
}

TEST(ManifestTest, AccumulatorDefaultsToF32WhenAbsent) {
  std::string text =
      replaceFirst(sampleManifestText(), R"(, "accumulator": "f32")", "");
  ASSERT_EQ(text.find("\"accumulator\""), std::string::npos);
  Manifest m = parseOk(text);
  EXPECT_EQ(m.op.accumulator, DType::F32);
  // The writer always writes it.
  EXPECT_NE(writeManifest(m).find("\"accumulator\": \"f32\""),
            std::string::npos);
}

TEST(ManifestTest, F16AccumulatorRoundTrip) {
  std::string text =
      replaceFirst(sampleManifestText(), R"("accumulator": "f32")",
                   R"("accumulator": "f16")");
  text = replaceFirst(text, R"("dtype": "f32")", R"("dtype": "f16")");
  Manifest m = parseOk(text);
  EXPECT_EQ(m.op.accumulator, DType::F16);
  std::string written = writeManifest(m);
  EXPECT_NE(written.find("\"accumulator\": \"f16\""), std::string::npos)
      << written;
  Manifest again = parseOk(written);
  EXPECT_EQ(again.op.accumulator, DType::F16);
  EXPECT_EQ(again, m);
  EXPECT_EQ(writeManifest(again), written);
  // operator== looks at the accumulator.
  again.op.accumulator = DType::F32;
  EXPECT_NE(again, m);
}

TEST(ManifestTest, UnknownFieldsAreIgnored) {
  std::string text = replaceFirst(sampleManifestText(), "\"version\": 1,",
                                  "\"version\": 1, \"future\": [1, {}],");
  parseOk(text);
}

TEST(ManifestTest, MalformedJsonGivesAPosition) {
  EXPECT_EQ(parseError("{\n  \"format\": }"),
            "2:13: expected a JSON value, got '}'");
  EXPECT_EQ(parseError("[]"), "manifest must be a JSON object, got array");
}

/// Applies the case's edit to `base` and expects its parse error.
void expectEditError(const std::string &base, const ErrorCase &c) {
  std::string text = replaceFirst(base, c.from, c.to);
  ASSERT_NE(text, base) << "edit did not apply: " << c.from;
  EXPECT_EQ(parseError(text), c.expected);
}

class ManifestErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ManifestErrorTest, NamesTheField) {
  expectEditError(sampleManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ManifestErrorTest,
    ::testing::Values(
        // Missing fields.
        ErrorCase{"MissingEntry", "\"entry\": \"matmul_kernel\",", "",
                  "missing required field 'entry'"},
        ErrorCase{"MissingFormat", "\"format\": \"tcgen.bundle\",", "",
                  "missing required field 'format'"},
        ErrorCase{"MissingMinCC", "\"min_cc\": 80", "\"minimum_cc\": 80",
                  "missing required field 'target.min_cc'"},
        ErrorCase{"MissingK", "\"k\": 1024,", "",
                  "missing required field 'op.k'"},
        ErrorCase{"MissingDType", "\"dtype\": \"f32\", ", "",
                  "missing required field 'operands[2].dtype'"},
        ErrorCase{"MissingAlignBytes", "\"align_bytes\": 16 }",
                  "\"align\": 16 }",
                  "missing required field 'operands[0].align_bytes'"},
        ErrorCase{"MissingParamOperand",
                  "{ \"kind\": \"ptr\", \"operand\": \"B\" }",
                  "{ \"kind\": \"ptr\" }",
                  "missing required field 'params[1].operand'"},
        ErrorCase{"MissingDynamicSmem", "\"dynamic_smem_bytes\": 0,", "",
                  "missing required field 'launch.dynamic_smem_bytes'"},
        ErrorCase{"MissingBinary",
                  "\"cubin\": \"matmul_kernel.cubin\",\n  \"ptx\": "
                  "\"matmul_kernel.ptx\",",
                  "", "missing required field 'cubin' or 'ptx'"},
        // Wrong types.
        ErrorCase{"MIsString", "\"m\": 1024", "\"m\": \"1024\"",
                  "field 'op.m' must be an integer, got string"},
        ErrorCase{"MIsFractional", "\"m\": 1024", "\"m\": 10.5",
                  "field 'op.m' must be an integer, got number"},
        ErrorCase{"AccumulateIsNumber", "\"accumulate\": false",
                  "\"accumulate\": 0",
                  "field 'op.accumulate' must be a bool, got number"},
        ErrorCase{"AccumulatorIsNumber", "\"accumulator\": \"f32\"",
                  "\"accumulator\": 32",
                  "field 'op.accumulator' must be a string, got number"},
        ErrorCase{"ShapeElementIsString", "\"shape\": [1024, 1024]",
                  "\"shape\": [1024, \"x\"]",
                  "field 'operands[0].shape[1]' must be an integer, got "
                  "string"},
        ErrorCase{"TargetIsNumber", "\"target\": {", "\"target\": 3, \"x\": {",
                  "field 'target' must be an object, got number"},
        ErrorCase{"ParamsIsObject", "\"params\": [", "\"params\": {}, \"p\": [",
                  "field 'params' must be an array, got object"},
        ErrorCase{"GridHasTwoDims", "\"grid\": [8, 16, 1]", "\"grid\": [8, 16]",
                  "field 'launch.grid' must have 3 elements, got 2"},
        ErrorCase{"ConfigIsArray", "\"config\": {", "\"config\": [], \"c\": {",
                  "field 'config' must be an object, got array"},
        // Bad values.
        ErrorCase{"UnknownDType", "\"dtype\": \"f16\"", "\"dtype\": \"f8\"",
                  "field 'operands[0].dtype': unknown dtype 'f8' (expected "
                  "f16, bf16, f32, f64, i8, i32, i64, e4m3 or e5m2)"},
        ErrorCase{"UnknownAccumulator", "\"accumulator\": \"f32\"",
                  "\"accumulator\": \"fp16\"",
                  "field 'op.accumulator': unknown dtype 'fp16' (expected "
                  "f16, bf16, f32, f64, i8, i32, i64, e4m3 or e5m2)"},
        ErrorCase{"UnknownRole", "\"role\": \"rhs\"", "\"role\": \"weights\"",
                  "field 'operands[1].role': unknown role 'weights' "
                  "(expected lhs, rhs, out, inout, in, lhs2, rhs2, scale_a or "
                  "scale_b)"},
        ErrorCase{"WrongFormat", "\"tcgen.bundle\"", "\"other\"",
                  "field 'format': expected \"tcgen.bundle\", got \"other\""},
        ErrorCase{"WrongVersion", "\"version\": 1", "\"version\": 2",
                  "field 'version': unsupported manifest version 2 (this "
                  "runtime reads version 1)"},
        ErrorCase{"ZeroExtent", "\"shape\": [1024, 1024]",
                  "\"shape\": [1024, 0]",
                  "field 'operands[0].shape[1]' must be >= 1, or -1 (fixed at "
                  "launch), got 0"},
        ErrorCase{"StridesRank", "\"strides\": [1024, 1]",
                  "\"strides\": [1024]",
                  "field 'operands[0].strides' has 1 elements but shape has "
                  "2"},
        ErrorCase{"AlignNotPowerOf2", "\"align_bytes\": 16",
                  "\"align_bytes\": 12",
                  "field 'operands[0].align_bytes' must be a power of 2, got "
                  "12"},
        ErrorCase{"DuplicateName", "\"name\": \"B\"", "\"name\": \"A\"",
                  "field 'operands[1].name': duplicate operand name 'A'"},
        ErrorCase{"ParamUnknownOperand", "\"operand\": \"C\"",
                  "\"operand\": \"D\"",
                  "field 'params[2].operand': no operand named 'D'"},
        ErrorCase{"TooManyThreads", "\"block\": [256, 1, 1]",
                  "\"block\": [256, 8, 1]",
                  "field 'launch.block': 2048 threads per block exceeds "
                  "1024"},
        ErrorCase{"GridNotClusterMultiple", "\"cluster\": [1, 1, 1]",
                  "\"cluster\": [1, 3, 1]",
                  "field 'launch.cluster': grid [8, 16, 1] is not a multiple "
                  "of cluster [1, 3, 1]"},
        ErrorCase{"NegativeMinCC", "\"min_cc\": 80", "\"min_cc\": -1",
                  "field 'target.min_cc' must be >= 0, got -1"},
        // Matmul consistency.
        ErrorCase{"LhsShapeMismatch",
                  "\"shape\": [1024, 1024],\n      \"strides\": [1024, 1], "
                  "\"align_bytes\": 16 },\n    { \"name\": \"B\"",
                  "\"shape\": [1024, 512],\n      \"strides\": [512, 1], "
                  "\"align_bytes\": 16 },\n    { \"name\": \"B\"",
                  "operand 'A' (lhs): shape [1024, 512] does not match op "
                  "[m, k] = [1024, 1024]"},
        ErrorCase{"AccumulateNeedsInOut", "\"accumulate\": false",
                  "\"accumulate\": true",
                  "field 'operands': op.accumulate is true but operand 'C' "
                  "has role 'out' (expected 'inout')"},
        ErrorCase{"MissingRhs", "\"role\": \"rhs\"", "\"role\": \"lhs\"",
                  "field 'operands': a matmul needs an lhs, an rhs and an "
                  "out or inout operand"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

//===----------------------------------------------------------------------===//
// tensormap params
//===----------------------------------------------------------------------===//

TEST(ManifestTest, ParsesTensorMapParams) {
  Manifest m = parseOk(tensorMapManifestText());
  ASSERT_EQ(m.params.size(), 3u);
  const Param &a = m.params[0];
  EXPECT_EQ(a.kind, "tensormap");
  EXPECT_EQ(a.operand, "A");
  EXPECT_EQ(a.box, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(a.swizzle, "128B");
  EXPECT_EQ(a.l2Promotion, "256B");
  EXPECT_EQ(a.oobFill, "zero");
  // Optional fields default.
  const Param &b = m.params[1];
  EXPECT_EQ(b.box, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(b.swizzle, "128B");
  EXPECT_EQ(b.l2Promotion, "none");
  EXPECT_EQ(b.oobFill, "zero");
  // A ptr param keeps the defaults.
  EXPECT_EQ(m.params[2], (Param{"ptr", "C", ""}));
  EXPECT_TRUE(m.params[2].box.empty());
}

TEST(ManifestTest, ParsesPacks) {
  Manifest m = parseOk(packManifestText());
  ASSERT_EQ(m.packs.size(), 1u);
  const Pack &p = m.packs[0];
  EXPECT_EQ(p.operand, "B");
  EXPECT_EQ(p.entry, "matmul_kernel_pack_B");
  EXPECT_EQ(p.strides, (std::vector<int64_t>{1088, 1}));
  EXPECT_EQ(p.grid, (std::array<int64_t, 3>{132, 1, 1}));
  EXPECT_EQ(p.block, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(m.findPack("B"), &m.packs[0]);
  EXPECT_EQ(m.findPack("A"), nullptr);
  // Round trip; a manifest without packs writes none.
  Manifest again = parseOk(writeManifest(m));
  ASSERT_EQ(again.packs.size(), 1u);
  EXPECT_EQ(again.packs[0].strides, p.strides);
  EXPECT_EQ(again.packs[0].entry, p.entry);
  EXPECT_EQ(writeManifest(parseOk(sampleManifestText())).find("packs"),
            std::string::npos);
}

TEST(ManifestTest, PackErrorsNameTheField) {
  std::string text = packManifestText();
  auto edit = [&](const std::string &from, const std::string &to) {
    return parseError(replaceFirst(text, from, to));
  };
  EXPECT_EQ(edit(R"("operand": "B", "entry")", R"("operand": "X", "entry")"),
            "field 'packs[0].operand': no operand named 'X'");
  EXPECT_EQ(edit(R"("operand": "B", "entry")", R"("operand": "C", "entry")"),
            "field 'packs[0].operand': operand 'C' is written by the kernel; "
            "only inputs are packed");
  EXPECT_EQ(edit(R"("strides": [1088, 1])", R"("strides": [1088])"),
            "field 'packs[0].strides': expected one stride per dimension of "
            "operand 'B' (rank 2), one of them 1");
  EXPECT_EQ(edit(R"("strides": [1088, 1])", R"("strides": [1088, 2])"),
            "field 'packs[0].strides': expected one stride per dimension of "
            "operand 'B' (rank 2), one of them 1");
  EXPECT_EQ(edit(R"("entry": "matmul_kernel_pack_B")", R"("entry": "")"),
            "field 'packs[0].entry' must not be empty");
  EXPECT_EQ(edit(R"("block": [256, 1, 1])", R"("block": [2048, 1, 1])"),
            "field 'packs[0].block': 2048 threads per block exceeds 1024");
  EXPECT_EQ(edit(R"("packs": [)", R"("packs": [ { "operand": "B", "entry": "x",
      "strides": [1088, 1], "grid": [1, 1, 1], "block": [32, 1, 1] },)"),
            "field 'packs[1].operand': operand 'B' is packed twice");
  EXPECT_EQ(edit(R"("grid": [132, 1, 1],)", ""),
            "missing required field 'packs[0].grid'");
}

TEST(ManifestTest, TensorMapRoundTrip) {
  Manifest m = parseOk(tensorMapManifestText());
  std::string text = writeManifest(m);
  Manifest again = parseOk(text);
  EXPECT_EQ(again, m);
  EXPECT_EQ(writeManifest(again), text);
  // Every tensormap field is written, defaults included; ptr params print
  // as before, one per line.
  EXPECT_NE(text.find("\"box\": [64, 128]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"l2_promotion\": \"none\""), std::string::npos) << text;
  EXPECT_NE(text.find("\n    { \"kind\": \"ptr\", \"operand\": \"C\" }\n"),
            std::string::npos)
      << text;
  // operator== looks at every tensormap field.
  for (int field = 0; field < 4; ++field) {
    Manifest other = m;
    Param &p = other.params[0];
    switch (field) {
    case 0:
      p.box[1] = 64;
      break;
    case 1:
      p.swizzle = "64B";
      break;
    case 2:
      p.l2Promotion = "128B";
      break;
    case 3:
      p.oobFill = "nan";
      break;
    }
    EXPECT_NE(other, m) << "field " << field;
  }
}

TEST(ManifestTest, PtrParamsPrintAsBefore) {
  std::string text = writeManifest(parseOk(sampleManifestText()));
  for (const char *name : {"A", "B", "C"})
    EXPECT_NE(text.find(std::string("{ \"kind\": \"ptr\", \"operand\": \"") +
                        name + "\" }"),
              std::string::npos)
        << text;
  EXPECT_EQ(text.find("box"), std::string::npos) << text;
  EXPECT_EQ(text.find("swizzle"), std::string::npos) << text;
}

TEST(ManifestTest, RoundTripOfABuiltTensorMapManifest) {
  Manifest m;
  m.entry = "k";
  m.cubin = "k.cubin";
  m.target = {"sm_90a", "sm90", 90};
  m.op = {"matmul", 1, 128, 256, 64, false};
  m.operands = {{"A", OperandRole::Lhs, DType::BF16, {128, 64}, {1, 128}, 16},
                {"B", OperandRole::Rhs, DType::F32, {64, 256}, {256, 1}, 16},
                {"C", OperandRole::Out, DType::F32, {128, 256}, {256, 1}, 16}};
  Param a{"tensormap", "A", ""};
  a.box = {64, 64}; // column-major A: 64 contiguous rows of m by 64 k
  a.swizzle = "128B";
  a.l2Promotion = "128B";
  Param b{"tensormap", "B", ""};
  b.box = {8, 64}; // 32 bytes per row
  b.swizzle = "32B";
  b.oobFill = "nan";
  m.params = {a, b, {"ptr", "C", ""}};
  m.launch.cluster = {2, 1, 1};
  m.launch.grid = {2, 2, 1};
  Manifest again = parseOk(writeManifest(m));
  EXPECT_EQ(again, m);
  EXPECT_EQ(again.params[1].oobFill, "nan");
}

TEST(ManifestTest, TensorMapBoxRankFollowsTheOperand) {
  // A rank-1 operand takes a one-entry box; a rank-3 one a three-entry box.
  std::string text = replaceFirst(
      tensorMapManifestText(),
      "\"shape\": [1024, 1024],\n      \"strides\": [1024, 1], "
      "\"align_bytes\": 16 },\n    { \"name\": \"C\"",
      "\"shape\": [1024, 1024],\n      \"strides\": [1024, 1], "
      "\"align_bytes\": 16 },\n    { \"name\": \"D\", \"role\": \"lhs\", "
      "\"dtype\": \"f32\", \"shape\": [4, 8, 64], \"strides\": [512, 64, 1], "
      "\"align_bytes\": 16 },\n    { \"name\": \"E\", \"role\": \"lhs\", "
      "\"dtype\": \"i8\", \"shape\": [4096], \"strides\": [1], "
      "\"align_bytes\": 16 },\n    { \"name\": \"C\"");
  text = replaceFirst(text, R"({ "kind": "ptr", "operand": "C" })",
                      R"({ "kind": "ptr", "operand": "C" },
              { "kind": "tensormap", "operand": "D", "box": [32, 8, 2], "swizzle": "128B" },
              { "kind": "tensormap", "operand": "E", "box": [256], "swizzle": "none" })");
  text = replaceFirst(text, "\"kind\": \"matmul\"", "\"kind\": \"custom\"");
  Manifest m = parseOk(text);
  ASSERT_EQ(m.params.size(), 5u);
  EXPECT_EQ(m.params[3].box, (std::vector<int64_t>{32, 8, 2}));
  EXPECT_EQ(m.params[4].box, (std::vector<int64_t>{256}));
  EXPECT_EQ(parseOk(writeManifest(m)), m);
}

TEST(ManifestTest, UnknownParamKindsParse) {
  // The runtime refuses them by name; the parser keeps them.
  std::string text = replaceFirst(
      sampleManifestText(), R"({ "kind": "ptr", "operand": "C" })",
      R"({ "kind": "ptr", "operand": "C" }, { "kind": "i64", "value": "m" })");
  Manifest m = parseOk(text);
  ASSERT_EQ(m.params.size(), 4u);
  EXPECT_EQ(m.params[3].kind, "i64");
  EXPECT_EQ(m.params[3].value, "m");
}

class TensorMapErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(TensorMapErrorTest, NamesTheField) {
  expectEditError(tensorMapManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, TensorMapErrorTest,
    ::testing::Values(
        ErrorCase{"MissingOperand",
                  "\"kind\": \"tensormap\", \"operand\": "
                  "\"B\", ",
                  "\"kind\": \"tensormap\", ",
                  "missing required field 'params[1].operand'"},
        ErrorCase{"EmptyOperand", "\"operand\": \"A\"", "\"operand\": \"\"",
                  "field 'params[0].operand' must not be empty"},
        ErrorCase{"UnknownOperand", "\"operand\": \"A\"", "\"operand\": \"X\"",
                  "field 'params[0].operand': no operand named 'X'"},
        ErrorCase{"MissingBox", "\"box\": [64, 32],", "",
                  "missing required field 'params[1].box'"},
        ErrorCase{"MissingSwizzle", "\"swizzle\": \"128B\", ", "",
                  "missing required field 'params[0].swizzle'"},
        ErrorCase{"BoxIsString", "\"box\": [64, 128]", "\"box\": \"64x128\"",
                  "field 'params[0].box' must be an array of integers, got "
                  "string"},
        ErrorCase{"SwizzleIsNumber", "\"swizzle\": \"128B\"",
                  "\"swizzle\": 128",
                  "field 'params[0].swizzle' must be a string, got number"},
        ErrorCase{"EmptyBox", "\"box\": [64, 128]", "\"box\": []",
                  "field 'params[0].box' must have 1 to 5 elements, got 0"},
        ErrorCase{"BoxRankAboveFive", "\"box\": [64, 128]",
                  "\"box\": [64, 1, 1, 1, 1, 1]",
                  "field 'params[0].box' must have 1 to 5 elements, got 6"},
        ErrorCase{"BoxRankNotOperandRank", "\"box\": [64, 128]",
                  "\"box\": [64, 128, 1]",
                  "field 'params[0].box' has 3 elements but operand 'A' has "
                  "rank 2"},
        ErrorCase{"BoxEntryZero", "\"box\": [64, 128]", "\"box\": [64, 0]",
                  "field 'params[0].box[1]' must be >= 1, got 0"},
        ErrorCase{"BoxEntryAbove256", "\"box\": [64, 128]",
                  "\"box\": [64, 257]",
                  "field 'params[0].box[1]' must be <= 256, got 257"},
        ErrorCase{"InnerBoxNotMultipleOf16Bytes", "\"box\": [64, 32]",
                  "\"box\": [4, 32]",
                  "field 'params[1].box[0]': 4 elements of f16 (operand 'B') "
                  "are 8 bytes, not a multiple of 16"},
        ErrorCase{"InnerBoxAbove128BSwizzle", "\"box\": [64, 128]",
                  "\"box\": [72, 128]",
                  "field 'params[0].box[0]': 72 elements of f16 (operand "
                  "'A') are 144 bytes, more than the 128B swizzle span"},
        ErrorCase{"InnerBoxAbove64BSwizzle", "\"swizzle\": \"128B\", \"l2",
                  "\"swizzle\": \"64B\", \"l2",
                  "field 'params[0].box[0]': 64 elements of f16 (operand "
                  "'A') are 128 bytes, more than the 64B swizzle span"},
        ErrorCase{"InnerBoxAbove32BSwizzle",
                  "\"box\": [64, 32],\n                \"swizzle\": \"128B\"",
                  "\"box\": [32, 32],\n                \"swizzle\": \"32B\"",
                  "field 'params[1].box[0]': 32 elements of f16 (operand "
                  "'B') are 64 bytes, more than the 32B swizzle span"},
        ErrorCase{"UnknownSwizzle", "\"swizzle\": \"128B\"",
                  "\"swizzle\": \"16B\"",
                  "field 'params[0].swizzle': unknown swizzle '16B' "
                  "(expected none, 32B, 64B or 128B)"},
        ErrorCase{"UnknownL2Promotion", "\"l2_promotion\": \"256B\"",
                  "\"l2_promotion\": \"32B\"",
                  "field 'params[0].l2_promotion': unknown L2 promotion "
                  "'32B' (expected none, 64B, 128B or 256B)"},
        ErrorCase{"UnknownOobFill", "\"oob_fill\": \"zero\"",
                  "\"oob_fill\": \"inf\"",
                  "field 'params[0].oob_fill': unknown OOB fill 'inf' "
                  "(expected zero or nan)"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(ManifestTest, TensorMapNanFillNeedsAFloatOperand) {
  std::string text = replaceFirst(
      tensorMapManifestText(), R"({ "kind": "ptr", "operand": "C" })",
      R"({ "kind": "tensormap", "operand": "C", "box": [4, 8], "swizzle": "none", "oob_fill": "nan" })");
  EXPECT_EQ(parseError(text), "");
  text = replaceFirst(text, R"("dtype": "f32")", R"("dtype": "i32")");
  EXPECT_EQ(parseError(text),
            "field 'params[2].oob_fill': \"nan\" needs a floating-point "
            "operand, 'C' is i32");
}

//===----------------------------------------------------------------------===//
// workspace params and stream-K launches
//===----------------------------------------------------------------------===//

TEST(ManifestTest, ParsesWorkspaceAndStreamK) {
  Manifest m = parseOk(streamKManifestText());
  ASSERT_EQ(m.params.size(), 4u);
  const Param &w = m.params[3];
  EXPECT_EQ(w.kind, "workspace");
  EXPECT_EQ(w.bytesPerBlock, 131584);
  EXPECT_EQ(w.operand, "");
  EXPECT_TRUE(w.box.empty());
  // Other kinds keep the default.
  EXPECT_EQ(m.params[2].bytesPerBlock, 0);
  EXPECT_TRUE(m.launch.persistent);
  EXPECT_TRUE(m.launch.streamK);
  // Both default to off.
  Manifest plain = parseOk(sampleManifestText());
  EXPECT_FALSE(plain.launch.persistent);
  EXPECT_FALSE(plain.launch.streamK);
}

TEST(ManifestTest, StreamKRoundTrip) {
  Manifest m = parseOk(streamKManifestText());
  std::string text = writeManifest(m);
  Manifest again = parseOk(text);
  EXPECT_EQ(again, m);
  EXPECT_EQ(writeManifest(again), text);
  EXPECT_NE(
      text.find("{ \"kind\": \"workspace\", \"bytes_per_block\": 131584 }"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("\"persistent\": true"), std::string::npos) << text;
  EXPECT_NE(text.find("\"stream_k\": true"), std::string::npos) << text;
  // operator== looks at both.
  Manifest other = m;
  other.params[3].bytesPerBlock = 256;
  EXPECT_NE(other, m);
  other = m;
  other.launch.streamK = false;
  EXPECT_NE(other, m);
  // stream_k_blocks: written when set, read back, compared.
  EXPECT_EQ(text.find("stream_k_blocks"), std::string::npos) << text;
  other = m;
  other.launch.streamKBlocks = 24;
  EXPECT_NE(other, m);
  std::string blocks = writeManifest(other);
  EXPECT_NE(blocks.find("\"stream_k_blocks\": 24"), std::string::npos)
      << blocks;
  EXPECT_EQ(parseOk(blocks), other);
}

TEST(ManifestTest, WriterLeavesOutWorkspaceFieldsWhenUnused) {
  std::string text = writeManifest(parseOk(sampleManifestText()));
  EXPECT_EQ(text.find("bytes_per_block"), std::string::npos) << text;
  EXPECT_EQ(text.find("stream_k"), std::string::npos) << text;
  // A persistent kernel that is not stream-K writes no stream_k.
  Manifest m = parseOk(streamKManifestText());
  m.launch.streamK = false;
  text = writeManifest(m);
  EXPECT_EQ(text.find("stream_k"), std::string::npos) << text;
  EXPECT_EQ(parseOk(text), m);
}

TEST(ManifestTest, RoundTripOfABuiltStreamKManifest) {
  Manifest m;
  m.entry = "k";
  m.cubin = "k.cubin";
  m.target = {"sm_90a", "sm90", 90};
  m.op = {"matmul", 1, 1024, 1024, 4096, false};
  m.operands = {
      {"A", OperandRole::Lhs, DType::F16, {1024, 4096}, {4096, 1}, 16},
      {"B", OperandRole::Rhs, DType::F16, {4096, 1024}, {1024, 1}, 16},
      {"C", OperandRole::Out, DType::F32, {1024, 1024}, {1024, 1}, 16}};
  Param workspace{"workspace", "", ""};
  workspace.bytesPerBlock = 128 * 256 * 4 + 16;
  m.params = {{"ptr", "A", ""}, {"ptr", "B", ""}, {"ptr", "C", ""}, workspace};
  m.launch.grid = {32, 1, 1};
  m.launch.block = {384, 1, 1};
  m.launch.persistent = true;
  m.launch.streamK = true;
  Manifest again = parseOk(writeManifest(m));
  EXPECT_EQ(again, m);
  EXPECT_EQ(again.params[3].bytesPerBlock, 131088);
}

class StreamKErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(StreamKErrorTest, NamesTheField) {
  expectEditError(streamKManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, StreamKErrorTest,
    ::testing::Values(
        ErrorCase{"MissingBytesPerBlock", ", \"bytes_per_block\": 131584", "",
                  "missing required field 'params[3].bytes_per_block'"},
        ErrorCase{"BytesPerBlockZero", "\"bytes_per_block\": 131584",
                  "\"bytes_per_block\": 0",
                  "field 'params[3].bytes_per_block' must be >= 1, got 0"},
        ErrorCase{"BytesPerBlockNegative", "\"bytes_per_block\": 131584",
                  "\"bytes_per_block\": -16",
                  "field 'params[3].bytes_per_block' must be >= 1, got -16"},
        ErrorCase{"BytesPerBlockNotMultipleOf16", "\"bytes_per_block\": 131584",
                  "\"bytes_per_block\": 131580",
                  "field 'params[3].bytes_per_block' must be a multiple of "
                  "16, got 131580"},
        ErrorCase{"BytesPerBlockIsFractional", "\"bytes_per_block\": 131584",
                  "\"bytes_per_block\": 131584.5",
                  "field 'params[3].bytes_per_block' must be an integer, got "
                  "number"},
        ErrorCase{"BytesPerBlockIsString", "\"bytes_per_block\": 131584",
                  "\"bytes_per_block\": \"131584\"",
                  "field 'params[3].bytes_per_block' must be an integer, got "
                  "string"},
        ErrorCase{"TwoWorkspaces", "\"bytes_per_block\": 131584 }",
                  "\"bytes_per_block\": 131584 },\n"
                  "              { \"kind\": \"workspace\", "
                  "\"bytes_per_block\": 16 }",
                  "field 'params[4].kind': a manifest has at most one "
                  "workspace param (params[3] is one)"},
        ErrorCase{"WorkspaceWithOperand", "{ \"kind\": \"workspace\", ",
                  "{ \"kind\": \"workspace\", \"operand\": \"C\", ",
                  "field 'params[3].operand': a workspace param takes no "
                  "operand"},
        ErrorCase{"StreamKWithoutPersistent", "\"persistent\": true",
                  "\"persistent\": false",
                  "field 'launch.stream_k': a stream-K kernel must be "
                  "persistent, but launch.persistent is false"},
        ErrorCase{"StreamKWithPersistentAbsent", "\"persistent\": true,", "",
                  "field 'launch.stream_k': a stream-K kernel must be "
                  "persistent, but launch.persistent is false"},
        ErrorCase{"StreamKIsNumber", "\"stream_k\": true", "\"stream_k\": 1",
                  "field 'launch.stream_k' must be a bool, got number"},
        ErrorCase{"StreamKBlocksZero", "\"stream_k\": true",
                  "\"stream_k\": true, \"stream_k_blocks\": 0",
                  "field 'launch.stream_k_blocks' must be >= 1, got 0"},
        ErrorCase{"StreamKBlocksWithoutStreamK", "\"stream_k\": true",
                  "\"stream_k\": false, \"stream_k_blocks\": 24",
                  "field 'launch.stream_k_blocks': only a stream-K kernel "
                  "(launch.stream_k) takes a block count"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

//===----------------------------------------------------------------------===//
// op.epilogue and operands of role "in"
//===----------------------------------------------------------------------===//

TEST(ManifestTest, ParsesTheEpilogue) {
  Manifest m = parseOk(epilogueManifestText());
  ASSERT_TRUE(m.op.epilogue.has_value());
  const Epilogue &e = *m.op.epilogue;
  EXPECT_EQ(e.matmulDType, DType::F16);
  ASSERT_EQ(e.inputs.size(), 3u);
  EXPECT_EQ(e.inputs[0].operand, "E0");
  EXPECT_EQ(e.inputs[0].kind, EpilogueInputKind::Row);
  EXPECT_EQ(e.inputs[1].kind, EpilogueInputKind::Matrix);
  EXPECT_EQ(e.inputs[2].kind, EpilogueInputKind::Scalar);
  ASSERT_EQ(e.steps.size(), 8u);
  EXPECT_EQ(e.steps[0].op, "addf");
  EXPECT_EQ(e.steps[0].args, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(e.steps[0].dtype, "f16");
  EXPECT_EQ(e.steps[3].op, "constant");
  EXPECT_EQ(e.steps[3].args, std::vector<int64_t>{});
  EXPECT_EQ(e.steps[3].value, 0.0);
  EXPECT_EQ(e.steps[4].predicate, "ogt");
  EXPECT_EQ(e.steps[4].dtype, "i1");
  EXPECT_EQ(e.steps[6].args, (std::vector<int64_t>{8, 6, 9}));
  EXPECT_EQ(e.result, 11);
  EXPECT_EQ(e.numValues(), 12);
  const Operand *e2 = m.findOperand("E2");
  ASSERT_NE(e2, nullptr);
  EXPECT_EQ(e2->role, OperandRole::In);
  EXPECT_EQ(e2->shape, std::vector<int64_t>{});
  EXPECT_EQ(e2->strides, std::vector<int64_t>{});
  EXPECT_EQ(m.findResult()->name, "C");
  ASSERT_EQ(m.params.size(), 6u);
  EXPECT_EQ(m.params[5].operand, "E2");
}

TEST(ManifestTest, EpilogueValueDTypes) {
  Manifest m = parseOk(epilogueManifestText());
  EXPECT_EQ(epilogueValueDType(m, 0), "f16"); // the matmul result
  EXPECT_EQ(epilogueValueDType(m, 1), "f16"); // E0
  EXPECT_EQ(epilogueValueDType(m, 3), "f32"); // E2
  EXPECT_EQ(epilogueValueDType(m, 8), "i1");  // cmpf
  EXPECT_EQ(epilogueValueDType(m, 11), "f16");
  EXPECT_EQ(epilogueValueDType(m, 12), "");
  EXPECT_EQ(epilogueValueDType(m, -1), "");
  EXPECT_EQ(epilogueValueDType(parseOk(sampleManifestText()), 0), "");
}

TEST(ManifestTest, EpilogueRoundTrip) {
  Manifest m = parseOk(epilogueManifestText());
  std::string text = writeManifest(m);
  Manifest again = parseOk(text);
  EXPECT_EQ(again, m);
  EXPECT_EQ(writeManifest(again), text);
  EXPECT_NE(text.find("\"role\": \"in\""), std::string::npos) << text;
  // The epilogue is part of equality.
  again.op.epilogue->steps[3].value = 1.0;
  EXPECT_NE(again, m);
  again = m;
  again.op.epilogue->inputs[0].kind = EpilogueInputKind::Col;
  EXPECT_NE(again, m);
  again = m;
  again.op.epilogue.reset();
  EXPECT_NE(again, m);
}

TEST(ManifestTest, WriterLeavesOutAnAbsentEpilogue) {
  std::string text = writeManifest(parseOk(sampleManifestText()));
  EXPECT_EQ(text.find("epilogue"), std::string::npos) << text;
}

TEST(ManifestTest, RoundTripOfABuiltEpilogueManifest) {
  // out = clamp(tanh(mm) * s[i] + bias, -inf, 6) in bf16, with the constants
  // written as strings where JSON has no number for them.
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx";
  m.target = {"sm_90a", "sm90", 90};
  m.op = {"matmul", 1, 64, 32, 16, false};
  m.operands = {{"A", OperandRole::Lhs, DType::BF16, {64, 16}, {16, 1}, 16},
                {"B", OperandRole::Rhs, DType::BF16, {16, 32}, {32, 1}, 16},
                {"C", OperandRole::Out, DType::BF16, {64, 32}, {32, 1}, 16},
                {"S", OperandRole::In, DType::F32, {64}, {1}, 4},
                {"Z", OperandRole::In, DType::F32, {}, {}, 4}};
  m.params = {{"ptr", "A", ""},
              {"ptr", "B", ""},
              {"ptr", "C", ""},
              {"ptr", "S", ""},
              {"ptr", "Z", ""}};
  Epilogue e;
  e.matmulDType = DType::F32;
  e.inputs = {{"S", EpilogueInputKind::Col}, {"Z", EpilogueInputKind::Scalar}};
  e.steps = {{"tanh", {0}, "f32"},                  // 3
             {"mulf", {3, 1}, "f32"},               // 4
             {"addf", {4, 2}, "f32"},               // 5
             {"constant", {}, "f32", -HUGE_VAL},    // 6
             {"constant", {}, "f32", 6.0},          // 7
             {"maximumf", {5, 6}, "f32"},           // 8
             {"minimumf", {8, 7}, "f32"},           // 9
             {"constant", {}, "f32", std::nan("")}, // 10
             {"cmpf", {9, 9}, "i1", 0, "uno"},      // 11
             {"select", {11, 10, 9}, "f32"},        // 12
             {"truncf", {12}, "bf16"}};             // 13
  e.result = 13;
  m.op.epilogue = e;
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("\"value\": \"-inf\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"value\": \"nan\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"value\": 6 }"), std::string::npos) << text;
  EXPECT_NE(text.find("\"shape\": []"), std::string::npos) << text;
  Manifest again = parseOk(text);
  EXPECT_EQ(again, m);
  EXPECT_TRUE(std::isinf(again.op.epilogue->steps[3].value));
  EXPECT_TRUE(std::isnan(again.op.epilogue->steps[7].value));
}

TEST(ManifestTest, EpilogueHelpers) {
  EXPECT_EQ(epilogueOpArity("addf"), 2);
  EXPECT_EQ(epilogueOpArity("tanh"), 1);
  EXPECT_EQ(epilogueOpArity("constant"), 0);
  EXPECT_EQ(epilogueOpArity("select"), 3);
  EXPECT_EQ(epilogueOpArity("arith.addf"), -1);
  EXPECT_TRUE(isCmpFPredicate("une"));
  EXPECT_TRUE(isCmpFPredicate("true"));
  EXPECT_FALSE(isCmpFPredicate("gt"));
  EXPECT_STREQ(epilogueInputKindName(EpilogueInputKind::Col), "col");
  EXPECT_EQ(parseEpilogueInputKind("row"), EpilogueInputKind::Row);
  EXPECT_EQ(parseEpilogueInputKind("vector"), std::nullopt);
  EXPECT_STREQ(roleName(OperandRole::In), "in");
  EXPECT_EQ(parseRole("in"), OperandRole::In);
}

TEST(ManifestTest, RowAndColInputsFollowNAndM) {
  // m = 64, n = 32: a row input has n elements, a col input m.
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx";
  m.target = {"sm_80", "wmma", 80};
  m.op = {"matmul", 1, 64, 32, 16, false};
  m.operands = {{"A", OperandRole::Lhs, DType::F16, {64, 16}, {16, 1}, 16},
                {"B", OperandRole::Rhs, DType::F16, {16, 32}, {32, 1}, 16},
                {"C", OperandRole::Out, DType::F16, {64, 32}, {32, 1}, 16},
                {"R", OperandRole::In, DType::F16, {32}, {1}, 16},
                {"S", OperandRole::In, DType::F16, {64}, {1}, 16}};
  m.params = {{"ptr", "A", ""},
              {"ptr", "B", ""},
              {"ptr", "C", ""},
              {"ptr", "R", ""},
              {"ptr", "S", ""}};
  Epilogue e;
  e.matmulDType = DType::F16;
  e.inputs = {{"R", EpilogueInputKind::Row}, {"S", EpilogueInputKind::Col}};
  e.steps = {{"addf", {0, 1}, "f16"}, {"mulf", {3, 2}, "f16"}};
  e.result = 4;
  m.op.epilogue = e;
  EXPECT_EQ(parseOk(writeManifest(m)), m);
  m.op.epilogue->inputs[0].kind = EpilogueInputKind::Col;
  EXPECT_EQ(parseError(writeManifest(m)),
            "field 'op.epilogue.inputs[0]': a col input needs shape [m] = "
            "[64], but operand 'R' has shape [32]");
  m.op.epilogue->inputs[0].kind = EpilogueInputKind::Row;
  m.op.epilogue->inputs[1].kind = EpilogueInputKind::Row;
  EXPECT_EQ(parseError(writeManifest(m)),
            "field 'op.epilogue.inputs[1]': a row input needs shape [n] = "
            "[32], but operand 'S' has shape [64]");
}

TEST(ManifestTest, AnEmptyEpilogueStoresTheMatmulResult) {
  // No inputs, no steps: the result is value 0, in the out dtype (f16).
  std::string text =
      replaceFirst(sampleManifestText(), R"("accumulator": "f32" },)",
                   R"("accumulator": "f32", "epilogue": { "matmul_dtype": "f32",
          "inputs": [], "ops": [], "result": 0 } },)");
  Manifest m = parseOk(text);
  ASSERT_TRUE(m.op.epilogue.has_value());
  EXPECT_EQ(m.op.epilogue->numValues(), 1);
}

class EpilogueErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(EpilogueErrorTest, NamesTheField) {
  expectEditError(epilogueManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, EpilogueErrorTest,
    ::testing::Values(
        // Structure.
        ErrorCase{"EpilogueIsArray", "\"epilogue\": {",
                  "\"epilogue\": [], \"e\": {",
                  "field 'op.epilogue' must be an object, got array"},
        ErrorCase{"MissingMatmulDType", "\"matmul_dtype\": \"f16\",", "",
                  "missing required field 'op.epilogue.matmul_dtype'"},
        ErrorCase{"MatmulDTypeNotFloat", "\"matmul_dtype\": \"f16\"",
                  "\"matmul_dtype\": \"i32\"",
                  "field 'op.epilogue.matmul_dtype': expected f16, bf16, f32 "
                  "or f64, got 'i32'"},
        ErrorCase{"MissingInputs", "\"inputs\": [", "\"inputz\": [",
                  "missing required field 'op.epilogue.inputs'"},
        ErrorCase{"InputsIsObject", "\"inputs\": [", "\"inputs\": {}, \"i\": [",
                  "field 'op.epilogue.inputs' must be an array, got object"},
        ErrorCase{"InputMissingOperand", "{ \"operand\": \"E1\", ", "{ ",
                  "missing required field 'op.epilogue.inputs[1].operand'"},
        ErrorCase{"InputEmptyOperand", "\"operand\": \"E1\", \"kind\"",
                  "\"operand\": \"\", \"kind\"",
                  "field 'op.epilogue.inputs[1].operand' must not be empty"},
        ErrorCase{"UnknownInputKind", "\"kind\": \"row\"",
                  "\"kind\": \"vector\"",
                  "field 'op.epilogue.inputs[0].kind': unknown input kind "
                  "'vector' (expected scalar, row, col, matrix or product)"},
        ErrorCase{"MissingOps", "\"ops\": [", "\"steps\": [",
                  "missing required field 'op.epilogue.ops'"},
        ErrorCase{"StepIsNumber",
                  "{ \"op\": \"extf\", \"args\": [5], "
                  "\"dtype\": \"f32\" }",
                  "7",
                  "field 'op.epilogue.ops[2]' must be an object, got number"},
        ErrorCase{"MissingStepOp", "{ \"op\": \"extf\", ", "{ ",
                  "missing required field 'op.epilogue.ops[2].op'"},
        ErrorCase{"MissingStepDType", "\"args\": [5], \"dtype\": \"f32\"",
                  "\"args\": [5]",
                  "missing required field 'op.epilogue.ops[2].dtype'"},
        ErrorCase{"UnknownOp", "\"op\": \"mulf\"", "\"op\": \"fma\"",
                  "field 'op.epilogue.ops[5].op': unknown epilogue op 'fma' "
                  "(expected addf, subf, mulf, divf, maximumf, minimumf, "
                  "maxnumf, minnumf, powf, negf, absf, exp, exp2, log, tanh, "
                  "erf, sqrt, rsqrt, constant, cmpf, select, extf or "
                  "truncf)"},
        ErrorCase{"DialectPrefixedOp", "\"op\": \"mulf\"",
                  "\"op\": \"arith.mulf\"",
                  "field 'op.epilogue.ops[5].op': unknown epilogue op "
                  "'arith.mulf' (expected addf, subf, mulf, divf, maximumf, "
                  "minimumf, maxnumf, minnumf, powf, negf, absf, exp, exp2, "
                  "log, tanh, erf, sqrt, rsqrt, constant, cmpf, select, extf "
                  "or truncf)"},
        ErrorCase{"UnknownStepDType", "\"args\": [6, 3], \"dtype\": \"f32\"",
                  "\"args\": [6, 3], \"dtype\": \"tf32\"",
                  "field 'op.epilogue.ops[5].dtype': unknown dtype 'tf32' "
                  "(expected f16, bf16, f32, f64 or i1)"},
        ErrorCase{"BinaryWithOneArg", "\"args\": [6, 3]", "\"args\": [6]",
                  "field 'op.epilogue.ops[5].args': mulf takes 2 args, got 1"},
        ErrorCase{"UnaryWithTwoArgs", "\"args\": [5]", "\"args\": [5, 5]",
                  "field 'op.epilogue.ops[2].args': extf takes 1 arg, got 2"},
        ErrorCase{"ConstantWithArgs", "\"args\": [], \"dtype\": \"f32\"",
                  "\"args\": [1], \"dtype\": \"f32\"",
                  "field 'op.epilogue.ops[3].args': constant takes 0 args, "
                  "got 1"},
        ErrorCase{"SelectWithTwoArgs", "\"args\": [8, 6, 9]",
                  "\"args\": [8, 6]",
                  "field 'op.epilogue.ops[6].args': select takes 3 args, got "
                  "2"},
        ErrorCase{"ArgNotYetDefined", "\"args\": [4, 2]", "\"args\": [4, 7]",
                  "field 'op.epilogue.ops[1].args[1]': value 7 is not "
                  "defined before step 1"},
        ErrorCase{"ArgIsItself", "\"args\": [6, 7]", "\"args\": [6, 8]",
                  "field 'op.epilogue.ops[4].args[1]': value 8 is not "
                  "defined before step 4"},
        ErrorCase{"ArgNegative", "\"args\": [0, 1]", "\"args\": [0, -1]",
                  "field 'op.epilogue.ops[0].args[1]' must be >= 0, got -1"},
        ErrorCase{"ArgIsString", "\"args\": [0, 1]", "\"args\": [0, \"E0\"]",
                  "field 'op.epilogue.ops[0].args[1]' must be an integer, got "
                  "string"},
        ErrorCase{"ConstantWithoutValue", ", \"value\": 0.0", "",
                  "missing required field 'op.epilogue.ops[3].value'"},
        ErrorCase{"ConstantValueIsBool", "\"value\": 0.0", "\"value\": false",
                  "field 'op.epilogue.ops[3].value' must be a number, \"inf\", "
                  "\"-inf\" or \"nan\", got bool"},
        ErrorCase{"ConstantValueIsWord", "\"value\": 0.0",
                  "\"value\": \"zero\"",
                  "field 'op.epilogue.ops[3].value' must be a number, \"inf\", "
                  "\"-inf\" or \"nan\", got \"zero\""},
        ErrorCase{"CmpfWithoutPredicate", ", \"predicate\": \"ogt\"", "",
                  "missing required field 'op.epilogue.ops[4].predicate'"},
        ErrorCase{"UnknownPredicate", "\"predicate\": \"ogt\"",
                  "\"predicate\": \"gt\"",
                  "field 'op.epilogue.ops[4].predicate': unknown cmpf "
                  "predicate 'gt' (expected one of: false oeq ogt oge olt ole "
                  "one ord ueq ugt uge ult ule une uno true)"},
        ErrorCase{"MissingResult", "\"result\": 11", "\"results\": 11",
                  "missing required field 'op.epilogue.result'"},
        ErrorCase{"ResultUndefined", "\"result\": 11", "\"result\": 12",
                  "field 'op.epilogue.result': value 12 is not defined (the "
                  "epilogue has 12 values)"},
        ErrorCase{"ResultNegative", "\"result\": 11", "\"result\": -1",
                  "field 'op.epilogue.result' must be >= 0, got -1"},
        // Inputs against the operands.
        ErrorCase{"InputNamesNoOperand", "{ \"operand\": \"E1\"",
                  "{ \"operand\": \"E9\"",
                  "field 'op.epilogue.inputs[1].operand': no operand named "
                  "'E9'"},
        ErrorCase{"InputIsNotRoleIn", "{ \"operand\": \"E1\"",
                  "{ \"operand\": \"A\"",
                  "field 'op.epilogue.inputs[1].operand': operand 'A' has "
                  "role 'lhs' (epilogue inputs have role 'in')"},
        ErrorCase{"InputUsedTwice",
                  "{ \"operand\": \"E1\", \"kind\": "
                  "\"matrix\" }",
                  "{ \"operand\": \"E0\", \"kind\": \"row\" }",
                  "field 'op.epilogue.inputs[1].operand': operand 'E0' is "
                  "already op.epilogue.inputs[0]"},
        ErrorCase{"InOperandNotAnInput", "{ \"name\": \"E2\", \"role\"",
                  "{ \"name\": \"E3\", \"role\": \"in\", \"dtype\": "
                  "\"f16\", \"shape\": [], \"strides\": [], "
                  "\"align_bytes\": 2 },\n    { \"name\": \"E2\", \"role\"",
                  "field 'operands[5].role': operand 'E3' has role 'in' but "
                  "is not an input of op.epilogue"},
        ErrorCase{"InOperandWithoutEpilogue", "\"epilogue\": {",
                  "\"epilog\": {",
                  "field 'operands[3].role': operand 'E0' has role 'in', but "
                  "op has no epilogue to read it"},
        ErrorCase{"InputDTypeNotFloat",
                  "\"name\": \"E1\", \"role\": \"in\", \"dtype\": \"f16\"",
                  "\"name\": \"E1\", \"role\": \"in\", \"dtype\": \"i8\"",
                  "field 'op.epilogue.inputs[1].operand': operand 'E1' has "
                  "dtype i8 (epilogue inputs are f16, bf16, f32 or f64)"},
        ErrorCase{"RowInputWithMatrixShape", "\"kind\": \"row\"",
                  "\"kind\": \"matrix\"",
                  "field 'op.epilogue.inputs[0]': a matrix input needs shape "
                  "[m, n] = [1024, 1024], but operand 'E0' has shape [1024]"},
        ErrorCase{"ScalarOperandAsARow", "\"kind\": \"scalar\"",
                  "\"kind\": \"row\"",
                  "field 'op.epilogue.inputs[2]': a row input needs shape "
                  "[n] = [1024], but operand 'E2' has shape []"},
        ErrorCase{"RowInputOfTheWrongLength", "\"shape\": [1024],",
                  "\"shape\": [512],",
                  "field 'op.epilogue.inputs[0]': a row input needs shape "
                  "[n] = [1024], but operand 'E0' has shape [512]"},
        ErrorCase{"RankZeroIsForInputsOnly",
                  "\"shape\": [1024, 1024],\n      \"strides\": [1024, 1], "
                  "\"align_bytes\": 16 },\n    { \"name\": \"B\"",
                  "\"shape\": [],\n      \"strides\": [], "
                  "\"align_bytes\": 16 },\n    { \"name\": \"B\"",
                  "field 'operands[0].shape' must not be empty (only an "
                  "operand of role 'in' may have rank 0)"},
        // Dtypes.
        ErrorCase{"AddfOfMixedDTypes", "\"args\": [4, 2], \"dtype\": \"f16\"",
                  "\"args\": [4, 3], \"dtype\": \"f16\"",
                  "field 'op.epilogue.ops[1].args[1]': value 3 is f32, but "
                  "addf computes in f16"},
        ErrorCase{"MulfOfTheWrongDType", "\"args\": [6, 3], \"dtype\": \"f32\"",
                  "\"args\": [5, 3], \"dtype\": \"f32\"",
                  "field 'op.epilogue.ops[5].args[0]': value 5 is f16, but "
                  "mulf computes in f32"},
        ErrorCase{"FloatOpYieldsI1", "\"args\": [6, 3], \"dtype\": \"f32\"",
                  "\"args\": [6, 3], \"dtype\": \"i1\"",
                  "field 'op.epilogue.ops[5].dtype': mulf needs a float "
                  "dtype, got i1"},
        ErrorCase{"FloatOpOfI1", "\"args\": [6, 3], \"dtype\": \"f32\"",
                  "\"args\": [8, 3], \"dtype\": \"f32\"",
                  "field 'op.epilogue.ops[5].args[0]': value 8 is i1, but "
                  "mulf computes in f32"},
        ErrorCase{"CmpfYieldsFloat", "\"dtype\": \"i1\"", "\"dtype\": \"f32\"",
                  "field 'op.epilogue.ops[4].dtype': cmpf yields i1, got f32"},
        ErrorCase{"CmpfOfMixedDTypes", "\"args\": [6, 7], \"dtype\": \"i1\"",
                  "\"args\": [6, 5], \"dtype\": \"i1\"",
                  "field 'op.epilogue.ops[4].args[1]': value 5 is f16, but "
                  "value 6 is f32 (cmpf compares two values of one dtype)"},
        ErrorCase{"SelectOnAFloat", "\"args\": [8, 6, 9]",
                  "\"args\": [7, 6, 9]",
                  "field 'op.epilogue.ops[6].args[0]': value 7 is f32, but "
                  "the condition of select must be i1"},
        ErrorCase{"SelectOfMixedDTypes", "\"args\": [8, 6, 9]",
                  "\"args\": [8, 6, 5]",
                  "field 'op.epilogue.ops[6].args[2]': value 5 is f16, but "
                  "select yields f32"},
        ErrorCase{"ExtfThatNarrows", "\"args\": [5], \"dtype\": \"f32\"",
                  "\"args\": [3], \"dtype\": \"f16\"",
                  "field 'op.epilogue.ops[2]': extf from f32 to f16 does not "
                  "widen"},
        ErrorCase{"ExtfBetween16BitTypes", "\"args\": [5], \"dtype\": \"f32\"",
                  "\"args\": [5], \"dtype\": \"bf16\"",
                  "field 'op.epilogue.ops[2]': extf from f16 to bf16 does not "
                  "widen"},
        ErrorCase{"TruncfThatWidens", "\"args\": [10], \"dtype\": \"f16\"",
                  "\"args\": [10], \"dtype\": \"f64\"",
                  "field 'op.epilogue.ops[7]': truncf from f32 to f64 does "
                  "not narrow"},
        ErrorCase{"ResultIsI1", "\"result\": 11", "\"result\": 8",
                  "field 'op.epilogue.result': value 8 is i1, but the result "
                  "must be a float"},
        ErrorCase{"ResultIsNotTheOutDType", "\"result\": 11", "\"result\": 10",
                  "field 'op.epilogue.result': value 10 is f32, but the "
                  "result operand 'C' is f16"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

//===----------------------------------------------------------------------===//
// Batched matmuls (op.batch > 1)
//===----------------------------------------------------------------------===//

TEST(ManifestTest, ParsesABatchedMatmul) {
  Manifest m = parseOk(batchedManifestText());
  EXPECT_EQ(m.op.batch, 3);
  EXPECT_EQ(m.op.m, 64);
  ASSERT_EQ(m.operands.size(), 3u);
  // The batch outermost; a transposed A keeps its logical shape.
  EXPECT_EQ(m.operands[0].shape, (std::vector<int64_t>{3, 64, 32}));
  EXPECT_EQ(m.operands[0].strides, (std::vector<int64_t>{2048, 1, 64}));
  EXPECT_EQ(m.operands[1].shape, (std::vector<int64_t>{3, 32, 128}));
  EXPECT_EQ(m.operands[2].shape, (std::vector<int64_t>{3, 64, 128}));
  EXPECT_EQ(m.params[0].box, (std::vector<int64_t>{64, 32, 1}));
  EXPECT_EQ(m.params[1].box, (std::vector<int64_t>{64, 32, 1}));
  EXPECT_EQ(parseOk(writeManifest(m)), m);
}

TEST(ManifestTest, BatchedStridesAreFree) {
  // Matrices padded apart, and a batch stride that interleaves the rows.
  std::string text =
      replaceFirst(batchedManifestText(), R"("strides": [8192, 128, 1],)",
                   R"("strides": [8448, 128, 1],)");
  text = replaceFirst(text, R"("strides": [4096, 128, 1],)",
                      R"("strides": [128, 384, 1],)");
  Manifest m = parseOk(text);
  EXPECT_EQ(m.operands[2].strides, (std::vector<int64_t>{8448, 128, 1}));
  EXPECT_EQ(m.operands[1].strides, (std::vector<int64_t>{128, 384, 1}));
}

TEST(ManifestTest, BatchOneKeepsRankTwo) {
  // batch 1 is the plain matmul: a rank-3 [1, m, k] operand is refused.
  std::string text =
      replaceFirst(batchedManifestText(), R"("batch": 3,)", R"("batch": 1,)");
  EXPECT_EQ(parseError(text),
            "operand 'A' (lhs): shape [3, 64, 32] has rank 3, but op.batch 1 "
            "needs rank 2: [m, k] = [64, 32]");
}

class BatchedManifestErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(BatchedManifestErrorTest, NamesTheField) {
  expectEditError(batchedManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BatchedManifestErrorTest,
    ::testing::Values(
        ErrorCase{"BatchZero", "\"batch\": 3", "\"batch\": 0",
                  "field 'op.batch' must be >= 1, got 0"},
        ErrorCase{
            "RankTwoOut",
            "\"shape\": [3, 64, 128],\n      \"strides\": [8192, 128, 1],",
            "\"shape\": [64, 128],\n      \"strides\": [128, 1],",
            "operand 'C' (out): shape [64, 128] has rank 2, but op.batch "
            "3 needs rank 3: [batch, m, n] = [3, 64, 128]"},
        ErrorCase{"WrongBatchExtentRhs", "\"shape\": [3, 32, 128]",
                  "\"shape\": [2, 32, 128]",
                  "operand 'B' (rhs): shape [2, 32, 128] does not match op "
                  "[batch, k, n] = [3, 32, 128]"},
        ErrorCase{"WrongBatchExtentOut", "\"shape\": [3, 64, 128]",
                  "\"shape\": [4, 64, 128]",
                  "operand 'C' (out): shape [4, 64, 128] does not match op "
                  "[batch, m, n] = [3, 64, 128]"},
        ErrorCase{"BatchInnermost", "\"shape\": [3, 64, 128]",
                  "\"shape\": [64, 128, 3]",
                  "operand 'C' (out): shape [64, 128, 3] does not match op "
                  "[batch, m, n] = [3, 64, 128]"},
        ErrorCase{
            "RankFourOut",
            "\"shape\": [3, 64, 128],\n      \"strides\": [8192, 128, 1],",
            "\"shape\": [1, 3, 64, 128],\n      \"strides\": [24576, "
            "8192, 128, 1],",
            "operand 'C' (out): shape [1, 3, 64, 128] has rank 4, but "
            "op.batch 3 needs rank 3: [batch, m, n] = [3, 64, 128]"},
        ErrorCase{"TensorMapBoxOfRankTwo", "\"box\": [64, 32, 1],",
                  "\"box\": [64, 32],",
                  "field 'params[0].box' has 2 elements but operand 'A' has "
                  "rank 3"},
        ErrorCase{"InOperandWithoutEpilogue", "\"align_bytes\": 16 }\n  ],",
                  "\"align_bytes\": 16 },\n    { \"name\": \"s\", \"role\": "
                  "\"in\", \"dtype\": \"f32\", \"shape\": [], \"strides\": "
                  "[], \"align_bytes\": 4 }\n  ],",
                  "field 'operands[3].role': operand 's' has role 'in', but "
                  "op has no epilogue to read it"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

/// The batched manifest with C = A*B * s + D: a scalar input shared by
/// the batch and a matrix input D of `dShape`.
std::string batchedEpilogueText(const std::string &dShape,
                                const std::string &dStrides) {
  std::string text = replaceFirst(
      batchedManifestText(), R"("accumulate": false, "accumulator": "f32" },)",
      R"("accumulate": false, "accumulator": "f32",
          "epilogue": { "matmul_dtype": "f32",
            "inputs": [ { "operand": "s", "kind": "scalar" },
                        { "operand": "D", "kind": "matrix" } ],
            "ops": [ { "op": "mulf", "args": [0, 1], "dtype": "f32" },
                     { "op": "addf", "args": [3, 2], "dtype": "f32" } ],
            "result": 4 } },)");
  text = replaceFirst(text, R"("align_bytes": 16 }
  ],)",
                      R"("align_bytes": 16 },
    { "name": "s", "role": "in", "dtype": "f32", "shape": [], "strides": [],
      "align_bytes": 4 },
    { "name": "D", "role": "in", "dtype": "f32", "shape": )" +
                          dShape + R"(, "strides": )" + dStrides + R"(,
      "align_bytes": 16 }
  ],)");
  return replaceFirst(text, R"({ "kind": "ptr", "operand": "C" } ],)",
                      R"({ "kind": "ptr", "operand": "C" },
              { "kind": "ptr", "operand": "s" },
              { "kind": "ptr", "operand": "D" } ],)");
}

TEST(ManifestTest, BatchedEpilogueTakesBatchedMatricesAndSharedScalars) {
  // A matrix input holds one matrix per batch entry; the scalar is shared.
  Manifest m =
      parseOk(batchedEpilogueText("[3, 64, 128]", "[8192, 128, 1]"));
  ASSERT_TRUE(m.op.epilogue.has_value());
  EXPECT_EQ(m.op.epilogue->inputs.size(), 2u);
  EXPECT_EQ(parseOk(writeManifest(m)), m);
  // One [m, n] matrix for the whole batch is refused, naming the shape.
  EXPECT_EQ(parseError(batchedEpilogueText("[64, 128]", "[128, 1]")),
            "field 'op.epilogue.inputs[1]': a matrix input needs shape "
            "[batch, m, n] = [3, 64, 128], but operand 'D' has shape "
            "[64, 128]");
}

//===----------------------------------------------------------------------===//
// A summed batch (op.batch_reduce): C = sum_b A[b] B[b]
//===----------------------------------------------------------------------===//

/// The batched manifest with its batch summed into one C [64, 128].
std::string summedManifestText() {
  std::string text = replaceFirst(batchedManifestText(), R"("batch": 3,)",
                                  R"("batch": 3, "batch_reduce": true,)");
  return replaceFirst(text, R"("shape": [3, 64, 128],
      "strides": [8192, 128, 1],)",
                      R"("shape": [64, 128],
      "strides": [128, 1],)");
}

TEST(ManifestTest, ParsesASummedBatch) {
  Manifest m = parseOk(summedManifestText());
  EXPECT_EQ(m.op.batch, 3);
  EXPECT_TRUE(m.op.batchReduce);
  EXPECT_EQ(m.operands[0].shape, (std::vector<int64_t>{3, 64, 32}));
  EXPECT_EQ(m.operands[2].shape, (std::vector<int64_t>{64, 128}));
  Manifest again = parseOk(writeManifest(m));
  EXPECT_EQ(again, m);
  // The flag makes a difference to equality, and is written only if set.
  again.op.batchReduce = false;
  EXPECT_FALSE(again == m);
  EXPECT_EQ(writeManifest(parseOk(batchedManifestText())).find("batch_reduce"),
            std::string::npos);
}

TEST(ManifestTest, SummedBatchTakesAnEpilogue) {
  // The epilogue reads the one [m, n] result.
  parseOk(replaceFirst(
      summedManifestText(), R"("accumulate": false, "accumulator": "f32" },)",
      R"("accumulate": false, "accumulator": "f32",
          "epilogue": { "matmul_dtype": "f32", "inputs": [], "ops": [],
                        "result": 0 } },)"));
}

class SummedManifestErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SummedManifestErrorTest, NamesTheField) {
  expectEditError(summedManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, SummedManifestErrorTest,
    ::testing::Values(
        ErrorCase{"BatchOne", "\"batch\": 3", "\"batch\": 1",
                  "field 'op.batch_reduce': a summed batch needs op.batch >= "
                  "2, got 1"},
        ErrorCase{"NotABoolean", "\"batch_reduce\": true",
                  "\"batch_reduce\": 1",
                  "field 'op.batch_reduce' must be a bool, got number"},
        ErrorCase{
            "RankThreeOut",
            "\"shape\": [64, 128],\n      \"strides\": [128, 1],",
            "\"shape\": [3, 64, 128],\n      \"strides\": [8192, 128, 1],",
            "operand 'C' (out): shape [3, 64, 128] has rank 3, but op.batch "
            "3 summed (op.batch_reduce) needs rank 2: [m, n] = [64, 128]"},
        ErrorCase{"WrongBatchExtentRhs", "\"shape\": [3, 32, 128]",
                  "\"shape\": [2, 32, 128]",
                  "operand 'B' (rhs): shape [2, 32, 128] does not match op "
                  "[batch, k, n] = [3, 32, 128]"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

//===----------------------------------------------------------------------===//
// Two batch dimensions (op.batch_shape)
//===----------------------------------------------------------------------===//

/// The batched manifest with its 3 matrices as 1 x 3 (rank-4 operands).
std::string twoBatchManifestText() {
  std::string text = replaceFirst(batchedManifestText(), R"("batch": 3,)",
                                  R"("batch": 3, "batch_shape": [1, 3],)");
  text = replaceFirst(text, R"("shape": [3, 64, 32],
      "strides": [2048, 1, 64],)",
                      R"("shape": [1, 3, 64, 32],
      "strides": [6144, 2048, 1, 64],)");
  text = replaceFirst(text, R"("shape": [3, 32, 128],
      "strides": [4096, 128, 1],)",
                      R"("shape": [1, 3, 32, 128],
      "strides": [12288, 128, 384, 1],)");
  text = replaceFirst(text, R"("shape": [3, 64, 128],
      "strides": [8192, 128, 1],)",
                      R"("shape": [1, 3, 64, 128],
      "strides": [24576, 8192, 128, 1],)");
  text = replaceFirst(text, R"("box": [64, 32, 1],)",
                      R"("box": [64, 32, 1, 1],)");
  return replaceFirst(text, R"("box": [64, 32, 1],)",
                      R"("box": [64, 1, 32, 1],)");
}

TEST(ManifestTest, ParsesTwoBatchDimensions) {
  Manifest m = parseOk(twoBatchManifestText());
  EXPECT_EQ(m.op.batch, 3);
  EXPECT_EQ(m.op.batchShape, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(m.operands[1].strides, (std::vector<int64_t>{12288, 128, 384, 1}));
  Manifest again = parseOk(writeManifest(m));
  EXPECT_EQ(again, m);
  again.op.batchShape = {3, 1};
  EXPECT_FALSE(again == m);
  EXPECT_EQ(writeManifest(parseOk(batchedManifestText())).find("batch_shape"),
            std::string::npos);
  // An epilogue reads the [b0, b1, m, n] result.
  parseOk(replaceFirst(
      twoBatchManifestText(), R"("accumulate": false, "accumulator": "f32" },)",
      R"("accumulate": false, "accumulator": "f32",
          "epilogue": { "matmul_dtype": "f32", "inputs": [], "ops": [],
                        "result": 0 } },)"));
}

/// The two-batch manifest with its 1 x 3 matrices as 1 x 1 x 3 (rank-5
/// operands, the tensor maps' most).
std::string threeBatchManifestText() {
  std::string text =
      replaceFirst(twoBatchManifestText(), R"("batch_shape": [1, 3],)",
                   R"("batch_shape": [1, 1, 3],)");
  text = replaceFirst(text, R"("shape": [1, 3, 64, 32],
      "strides": [6144, 2048, 1, 64],)",
                      R"("shape": [1, 1, 3, 64, 32],
      "strides": [6144, 6144, 2048, 1, 64],)");
  text = replaceFirst(text, R"("shape": [1, 3, 32, 128],
      "strides": [12288, 128, 384, 1],)",
                      R"("shape": [1, 1, 3, 32, 128],
      "strides": [12288, 12288, 128, 384, 1],)");
  text = replaceFirst(text, R"("shape": [1, 3, 64, 128],
      "strides": [24576, 8192, 128, 1],)",
                      R"("shape": [1, 1, 3, 64, 128],
      "strides": [24576, 24576, 8192, 128, 1],)");
  text = replaceFirst(text, R"("box": [64, 32, 1, 1],)",
                      R"("box": [64, 32, 1, 1, 1],)");
  return replaceFirst(text, R"("box": [64, 1, 32, 1],)",
                      R"("box": [64, 1, 32, 1, 1],)");
}

TEST(ManifestTest, ParsesThreeBatchDimensions) {
  Manifest m = parseOk(threeBatchManifestText());
  EXPECT_EQ(m.op.batchShape, (std::vector<int64_t>{1, 1, 3}));
  EXPECT_EQ(m.operands[0].shape, (std::vector<int64_t>{1, 1, 3, 64, 32}));
  EXPECT_EQ(parseOk(writeManifest(m)), m);
  // An epilogue reads the [b0, b1, b2, m, n] result.
  parseOk(replaceFirst(threeBatchManifestText(),
                       R"("accumulate": false, "accumulator": "f32" },)",
                       R"("accumulate": false, "accumulator": "f32",
          "epilogue": { "matmul_dtype": "f32", "inputs": [], "ops": [],
                        "result": 0 } },)"));
}

class TwoBatchManifestErrorTest : public ::testing::TestWithParam<ErrorCase> {
};

TEST_P(TwoBatchManifestErrorTest, NamesTheField) {
  expectEditError(twoBatchManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, TwoBatchManifestErrorTest,
    ::testing::Values(
        ErrorCase{"WrongProduct", "\"batch_shape\": [1, 3]",
                  "\"batch_shape\": [2, 3]",
                  "field 'op.batch_shape' must list two or three batch "
                  "extents whose product is op.batch (3), got [2, 3]"},
        ErrorCase{"FourExtents", "\"batch_shape\": [1, 3]",
                  "\"batch_shape\": [1, 3, 1, 1]",
                  "field 'op.batch_shape' must list two or three batch "
                  "extents whose product is op.batch (3), got [1, 3, 1, 1]"},
        ErrorCase{"ThreeExtentsRankFour", "\"batch_shape\": [1, 3]",
                  "\"batch_shape\": [1, 3, 1]",
                  "operand 'A' (lhs): shape [1, 3, 64, 32] has rank 4, "
                  "but op.batch 3 needs rank 5: [batch0, batch1, batch2, m, "
                  "k] = [1, 3, 1, 64, 32]"},
        ErrorCase{"ZeroExtent", "\"batch_shape\": [1, 3]",
                  "\"batch_shape\": [0, 3]",
                  "field 'op.batch_shape[0]' must be >= 1, got 0"},
        ErrorCase{"Summed", "\"batch_shape\": [1, 3]",
                  "\"batch_shape\": [1, 3], \"batch_reduce\": true",
                  "field 'op.batch_shape': a summed batch (op.batch_reduce) "
                  "has one batch dimension"},
        ErrorCase{"RankThreeOut",
                  "\"shape\": [1, 3, 64, 128],\n      \"strides\": [24576, "
                  "8192, 128, 1],",
                  "\"shape\": [3, 64, 128],\n      \"strides\": [8192, 128, "
                  "1],",
                  "operand 'C' (out): shape [3, 64, 128] has rank 3, but "
                  "op.batch 3 needs rank 4: [batch0, batch1, m, n] = [1, 3, "
                  "64, 128]"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(ManifestTest, PointwiseOpsHaveNoK) {
  // A standalone pointwise kernel's op: no k, written without one.
  std::string text = replaceFirst(sampleManifestText(), "\"kind\": \"matmul\"",
                                  "\"kind\": \"pointwise\"");
  text = replaceFirst(text, "\"k\": 1024,", "");
  Manifest m = parseOk(text);
  EXPECT_EQ(m.op.kind, "pointwise");
  EXPECT_EQ(m.op.k, 0);
  std::string written = writeManifest(m);
  EXPECT_EQ(written.find("\"k\":"), std::string::npos);
  EXPECT_EQ(parseOk(written), m);
  // A matmul still needs its k.
  EXPECT_EQ(parseError(replaceFirst(sampleManifestText(), "\"k\": 1024,", "")),
            "missing required field 'op.k'");
}

TEST(ManifestTest, NonMatmulOpsSkipTheMatmulChecks) {
  std::string text = replaceFirst(sampleManifestText(), "\"kind\": \"matmul\"",
                                  "\"kind\": \"custom\"");
  text = replaceFirst(text, "\"role\": \"rhs\"", "\"role\": \"lhs\"");
  parseOk(text);
}

class BundleDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("tcgen-manifest-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  void write(const std::string &name, const std::string &text) {
    std::ofstream(dir / name) << text;
  }
  std::filesystem::path dir;
};

TEST_F(BundleDirTest, FindsTheOneManifest) {
  write("k.json", sampleManifestText());
  write("k.ptx", "");
  std::string path;
  EXPECT_EQ(findManifest(dir.string(), path), "");
  EXPECT_EQ(path, (dir / "k.json").string());
  EXPECT_EQ(findManifest((dir / "k.json").string(), path), "");
  Manifest m;
  EXPECT_EQ(loadManifest(path, m), "");
  EXPECT_EQ(m.entry, "matmul_kernel");
}

TEST_F(BundleDirTest, ReportsMissingAndAmbiguousBundles) {
  std::string path;
  EXPECT_EQ(findManifest(dir.string(), path),
            dir.string() + ": no manifest (*.json) in bundle directory");
  write("a.json", "{}");
  write("b.json", "{}");
  EXPECT_EQ(findManifest(dir.string(), path),
            dir.string() +
                ": 2 manifests (*.json) in bundle directory; pass one of them");
  EXPECT_EQ(findManifest((dir / "nope").string(), path),
            (dir / "nope").string() + ": bundle not found");
}

TEST_F(BundleDirTest, ListsEveryManifestOfADirectory) {
  std::vector<std::string> found;
  EXPECT_EQ(listManifests(dir.string(), found),
            dir.string() + ": no manifest (*.json) in bundle directory");
  write("b_pointwise0.json", "{}");
  write("a_kernel.json", "{}");
  write("a_kernel.ptx", "");
  EXPECT_EQ(listManifests(dir.string(), found), "");
  EXPECT_EQ(found, (std::vector<std::string>{(dir / "a_kernel.json").string(),
                                             (dir / "b_pointwise0.json").string()}));
  EXPECT_EQ(listManifests((dir / "a_kernel.json").string(), found), "");
  EXPECT_EQ(found.size(), 1u);
  EXPECT_EQ(listManifests((dir / "nope").string(), found),
            (dir / "nope").string() + ": bundle not found");
}

TEST_F(BundleDirTest, LoadErrorsNameThePath) {
  write("bad.json", "{\"format\": \"tcgen.bundle\"}");
  Manifest m;
  std::string p = (dir / "bad.json").string();
  EXPECT_EQ(loadManifest(p, m), p + ": missing required field 'version'");
  EXPECT_EQ(loadManifest((dir / "none.json").string(), m),
            (dir / "none.json").string() + ": cannot open manifest");
}

} // namespace

/// The sample manifest with a ReLU prologue on A: A' = max(A, 0) in f16.
static std::string prologueManifestText() {
  return replaceFirst(
      sampleManifestText(), R"("accumulate": false, "accumulator": "f32" },)",
      R"("accumulate": false, "accumulator": "f32",
          "prologue": { "operand": "A", "dtype": "f16",
            "ops": [ { "op": "constant", "args": [], "dtype": "f16", "value": 0.0 },
                     { "op": "maximumf", "args": [0, 1], "dtype": "f16" } ],
            "result": 2 } },)");
}

TEST(ManifestTest, PrologueParsesAndRoundTrips) {
  Manifest m = parseOk(prologueManifestText());
  ASSERT_TRUE(m.op.prologue.has_value());
  EXPECT_EQ(m.op.prologue->operand, "A");
  EXPECT_EQ(m.op.prologue->body.matmulDType, DType::F16);
  ASSERT_EQ(m.op.prologue->body.steps.size(), 2u);
  EXPECT_EQ(m.op.prologue->body.steps[1].op, "maximumf");
  EXPECT_EQ(m.op.prologue->body.result, 2);
  Manifest again = parseOk(writeManifest(m));
  EXPECT_TRUE(again == m);
  EXPECT_EQ(writeManifest(again), writeManifest(m));
}

class PrologueErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(PrologueErrorTest, NamesTheField) {
  expectEditError(prologueManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, PrologueErrorTest,
    ::testing::Values(
        ErrorCase{"MissingOperand", R"("operand": "A", "dtype": "f16",)",
                  R"("dtype": "f16",)",
                  "missing required field 'op.prologue.operand'"},
        ErrorCase{"EmptyOperand", R"("operand": "A", "dtype")",
                  R"("operand": "", "dtype")",
                  "field 'op.prologue.operand' must not be empty"},
        ErrorCase{"NoSuchOperand", R"("operand": "A", "dtype")",
                  R"("operand": "X", "dtype")",
                  "field 'op.prologue.operand': no operand named 'X'"},
        ErrorCase{"OnTheOutput", R"("operand": "A", "dtype")",
                  R"("operand": "C", "dtype")",
                  "field 'op.prologue.operand': operand 'C' has role 'out' (a "
                  "prologue transforms the lhs or the rhs)"},
        ErrorCase{"NotAFloat", R"("dtype": "f16",
            "ops")",
                  R"("dtype": "i8",
            "ops")",
                  "field 'op.prologue.dtype': expected f16, bf16, f32 or f64, "
                  "got 'i8'"},
        ErrorCase{"DTypeIsNotTheOperands", R"("dtype": "f16",
            "ops")",
                  R"("dtype": "f32",
            "ops")",
                  "field 'op.prologue.dtype': f32, but operand 'A' is f16"},
        ErrorCase{"ResultUndefined", R"("result": 2 })", R"("result": 3 })",
                  "field 'op.prologue.result': value 3 is not defined (the "
                  "prologue has 3 values)"},
        ErrorCase{"UnknownOp", R"("op": "maximumf")", R"("op": "relu")",
                  "field 'op.prologue.ops[1].op': unknown epilogue op 'relu' "
                  "(expected addf, subf, mulf, divf, maximumf, minimumf, "
                  "maxnumf, minnumf, powf, negf, absf, exp, exp2, log, tanh, "
                  "erf, sqrt, rsqrt, constant, cmpf, select, extf or "
                  "truncf)"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(ManifestTest, PrologueResultMustHaveTheOperandsDType) {
  // extf to f32 as the result: A' would not be f16.
  std::string text = replaceFirst(
      prologueManifestText(), R"("result": 2 })",
      R"("result": 3 })");
  text = replaceFirst(text,
                      R"({ "op": "maximumf", "args": [0, 1], "dtype": "f16" } ],)",
                      R"({ "op": "maximumf", "args": [0, 1], "dtype": "f16" },
                     { "op": "extf", "args": [2], "dtype": "f32" } ],)");
  EXPECT_EQ(parseError(text),
            "field 'op.prologue.result': value 3 is f32, but operand 'A' is "
            "f16");
  // A dtype that is not the operand's.
  text = replaceFirst(sampleManifestText(),
                      R"("accumulate": false, "accumulator": "f32" },)",
                      R"("accumulate": false, "accumulator": "f32",
          "prologue": { "operand": "A", "dtype": "bf16", "ops": [],
                        "result": 0 } },)");
  EXPECT_EQ(parseError(text),
            "field 'op.prologue.dtype': bf16, but operand 'A' is f16");
}

/// The sample manifest with a second product: C = A B + A2 B2, k2 = 512.
static std::string dualManifestText() {
  std::string text = replaceFirst(sampleManifestText(), R"("k": 1024,)",
                                  R"("k": 1024, "k2": 512,)");
  text = replaceFirst(text, R"(    { "name": "C", "role": "out")",
                      R"(    { "name": "A2", "role": "lhs2", "dtype": "f16", "shape": [1024, 512],
      "strides": [512, 1], "align_bytes": 16 },
    { "name": "B2", "role": "rhs2", "dtype": "f16", "shape": [512, 1024],
      "strides": [1024, 1], "align_bytes": 16 },
    { "name": "C", "role": "out")");
  return replaceFirst(text, R"({ "kind": "ptr", "operand": "C" })",
                      R"({ "kind": "ptr", "operand": "A2" },
              { "kind": "ptr", "operand": "B2" },
              { "kind": "ptr", "operand": "C" })");
}

TEST(ManifestTest, SecondProductParsesAndRoundTrips) {
  Manifest m = parseOk(dualManifestText());
  EXPECT_EQ(m.op.k2, 512);
  ASSERT_NE(m.findRole(OperandRole::Lhs2), nullptr);
  EXPECT_EQ(m.findRole(OperandRole::Lhs2)->name, "A2");
  EXPECT_EQ(m.findRole(OperandRole::Rhs2)->name, "B2");
  Manifest again = parseOk(writeManifest(m));
  EXPECT_TRUE(again == m);
  // Without k2 nothing is written.
  EXPECT_EQ(writeManifest(parseOk(sampleManifestText())).find("k2"),
            std::string::npos);
}

class SecondProductErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SecondProductErrorTest, NamesTheField) {
  expectEditError(dualManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, SecondProductErrorTest,
    ::testing::Values(
        ErrorCase{"NoK2", R"("k2": 512,)", "",
                  "field 'operands': operand 'A2' has role 'lhs2', but op has "
                  "no k2 (a second product needs op.k2)"},
        ErrorCase{"K2Zero", R"("k2": 512,)", R"("k2": 0,)",
                  "field 'op.k2' must be >= 1, got 0"},
        ErrorCase{"NoRhs2", R"("role": "rhs2")", R"("role": "rhs")",
                  "field 'op.k2': a second product needs an lhs2 and an rhs2 "
                  "operand"},
        ErrorCase{"A2Shape", R"("shape": [1024, 512])",
                  R"("shape": [1024, 256])",
                  "operand 'A2' (lhs2): shape [1024, 256] does not match op "
                  "[m, k2] = [1024, 512]"},
        ErrorCase{"B2Shape", R"("shape": [512, 1024])",
                  R"("shape": [512, 1000])",
                  "operand 'B2' (rhs2): shape [512, 1000] does not match op "
                  "[k2, n] = [512, 1024]"},
        ErrorCase{"Batched", R"("batch": 1,)", R"("batch": 2,)",
                  "field 'op.k2': a second product of a batched matmul is not "
                  "supported (op.batch is 2)"},
        ErrorCase{"UnknownRole", R"("role": "lhs2")", R"("role": "lhs3")",
                  "field 'operands[2].role': unknown role 'lhs3' (expected "
                  "lhs, rhs, out, inout, in, lhs2, rhs2, scale_a or "
                  "scale_b)"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(ManifestTest, Tf32NeedsF32Operands) {
  // The sample's A and B are f16: tf32 math is refused.
  std::string text = replaceFirst(sampleManifestText(), R"("k": 1024,)",
                                  R"("k": 1024, "tf32": true,)");
  EXPECT_EQ(parseError(text), "field 'op.tf32': tf32 math reads f32 "
                              "operands, but operand 'A' is f16");
  text = replaceFirst(text, R"("name": "A", "role": "lhs", "dtype": "f16")",
                      R"("name": "A", "role": "lhs", "dtype": "f32")");
  text = replaceFirst(text, R"("name": "B", "role": "rhs", "dtype": "f16")",
                      R"("name": "B", "role": "rhs", "dtype": "f32")");
  Manifest m = parseOk(text);
  EXPECT_TRUE(m.op.tf32);
  Manifest again = parseOk(writeManifest(m));
  EXPECT_TRUE(again == m);
  EXPECT_NE(writeManifest(m).find("\"tf32\": true"), std::string::npos);
}

TEST(ManifestTest, DynamicSizesParseAndRoundTrip) {
  Manifest m = parseOk(dynamicManifestText());
  EXPECT_TRUE(m.isDynamic());
  EXPECT_EQ(m.op.m, kDynamicSize);
  EXPECT_EQ(m.op.n, 512);
  EXPECT_EQ(m.op.k, kDynamicSize);
  EXPECT_EQ(m.operands[0].strides, (std::vector<int64_t>{1, kDynamicSize}));
  EXPECT_EQ(m.launch.grid[0], kDynamicSize);
  ASSERT_EQ(m.params.size(), 5u);
  EXPECT_EQ(m.params[3].kind, "size");
  EXPECT_EQ(m.params[3].value, "m");
  Manifest again = parseOk(writeManifest(m));
  EXPECT_TRUE(again == m);
  EXPECT_FALSE(parseOk(sampleManifestText()).isDynamic());
}

class DynamicErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DynamicErrorTest, NamesTheField) {
  expectEditError(dynamicManifestText(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, DynamicErrorTest,
    ::testing::Values(
        ErrorCase{"SizeZero", R"("m": -1,)", R"("m": 0,)",
                  "field 'op.m' must be >= 1, or -1 (fixed at launch), got 0"},
        ErrorCase{"SizeBelowDynamic", R"("k": -1 })", R"("k": -2 })",
                  "field 'op.k' must be >= -1, got -2"},
        ErrorCase{"ShapeZero", R"("shape": [-1, 512],)", R"("shape": [0, 512],)",
                  "field 'operands[1].shape[0]' must be >= 1, or -1 (fixed at "
                  "launch), got 0"},
        ErrorCase{"ShapeNotTheOps", R"("shape": [-1, 512],)",
                  R"("shape": [-1, -1],)",
                  "operand 'B' (rhs): shape [-1, -1] does not match op [k, n] "
                  "= [-1, 512]"},
        ErrorCase{"SizeValue", R"("value": "k")", R"("value": "batch")",
                  "field 'params[4].value': a size param names m, n or k, got "
                  "'batch'"},
        ErrorCase{"SizeWithOperand", R"("kind": "size", "value": "k")",
                  R"("kind": "size", "operand": "A", "value": "k")",
                  "field 'params[4].operand': a size param takes no operand"},
        ErrorCase{"SizeWithoutValue", R"("kind": "size", "value": "k")",
                  R"("kind": "size")",
                  "missing required field 'params[4].value'"},
        ErrorCase{"GridNotDynamic", R"("grid": [-1, 1, 1])",
                  R"("grid": [132, 1, 1])",
                  "field 'launch.grid': a kernel of sizes fixed at launch is "
                  "persistent with grid[0] = -1 (one block per SM)"},
        ErrorCase{"NotPersistent", R"("persistent": true)",
                  R"("persistent": false)",
                  "field 'launch.grid': a kernel of sizes fixed at launch is "
                  "persistent with grid[0] = -1 (one block per SM)"},
        ErrorCase{"GridYDynamic", R"("grid": [-1, 1, 1])",
                  R"("grid": [-1, -1, 1])",
                  "field 'launch.grid[1]' must be >= 1, got -1"},
        ErrorCase{"WithK2", R"("k": -1 })", R"("k": -1, "k2": 64 })",
                  "field 'op.k2': a second product needs an lhs2 and an rhs2 "
                  "operand"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(ManifestTest, DynamicEntriesNeedADynamicOp) {
  // -1 in a shape, a stride or the grid of a kernel with fixed sizes.
  EXPECT_EQ(parseError(replaceFirst(sampleManifestText(),
                                    R"("strides": [1024, 1], "align_bytes": 16 },
    { "name": "C")",
                                    R"("strides": [-1, 1], "align_bytes": 16 },
    { "name": "C")")),
            "field 'operands[1].strides[0]' is -1 (fixed at launch), but op.m, "
            "op.n and op.k are all fixed: only a kernel of sizes fixed at "
            "launch takes them");
  EXPECT_EQ(parseError(replaceFirst(sampleManifestText(), R"("grid": [8, 16, 1])",
                                    R"("grid": [-1, 16, 1])")),
            "field 'launch.grid[0]' is -1 (fixed at launch), but op.m, op.n "
            "and op.k are all fixed: only a kernel of sizes fixed at launch "
            "takes them");
}

TEST(ManifestTest, DynamicSizesRefuseEpiloguesAndPacks) {
  // The epilogue manifest with k fixed at launch: A [m, ?], B [?, n].
  std::string text = epilogueManifestText();
  text = replaceFirst(text, R"("shape": [1024, 1024])",
                      R"("shape": [1024, -1])");
  text = replaceFirst(text, R"("shape": [1024, 1024])",
                      R"("shape": [-1, 1024])");
  text = replaceFirst(text, R"("k": 1024,)", R"("k": -1,)");
  text = replaceFirst(text, R"("grid": [8, 16, 1])", R"("grid": [-1, 1, 1])");
  std::string error = parseError(text);
  EXPECT_NE(error.find("op: sizes fixed at launch (-1) are not supported "
                       "with a matrix input of the fused epilogue without a "
                       "stride param of its rows (operand 'E1')"),
            std::string::npos)
      << error;
}

TEST(ManifestTest, DynamicSizesTakeAMatrixEpilogueInputWithItsRowStride) {
  // The dynamic sample with a residual E0 [m][n]: its row stride is a
  // param (kind "stride", dim 0), passed at launch.
  std::string text = replaceFirst(dynamicManifestText(), R"("k": -1 })",
                                  R"("k": -1,
          "epilogue": { "matmul_dtype": "f32",
            "inputs": [ { "operand": "E0", "kind": "matrix" } ],
            "ops": [ { "op": "addf", "args": [0, 1], "dtype": "f32" } ],
            "result": 2 } })");
  text = replaceFirst(text, R"(    { "name": "C", "role": "out")",
                      R"(    { "name": "E0", "role": "in", "dtype": "f32", "shape": [-1, 512],
      "strides": [-1, 1], "align_bytes": 16 },
    { "name": "C", "role": "out")");
  text = replaceFirst(text, R"({ "kind": "size", "value": "m" },)",
                      R"({ "kind": "ptr", "operand": "E0" },
              { "kind": "size", "value": "m" },)");
  // Without the stride param: refused, naming the input.
  std::string error = parseError(text);
  EXPECT_NE(error.find("a matrix input of the fused epilogue without a "
                       "stride param of its rows (operand 'E0')"),
            std::string::npos)
      << error;
  text = replaceFirst(text, R"({ "kind": "size", "value": "k" } ],)",
                      R"({ "kind": "size", "value": "k" },
              { "kind": "stride", "operand": "E0", "dim": 0 } ],)");
  Manifest m = parseOk(text);
  const Param &stride = m.params.back();
  EXPECT_EQ(stride.kind, "stride");
  EXPECT_EQ(stride.operand, "E0");
  EXPECT_EQ(stride.dim, 0);
  // Printed and parsed back alike.
  Manifest again = parseOk(writeManifest(m));
  EXPECT_EQ(again.params.back().kind, "stride");
  EXPECT_EQ(again.params.back().operand, "E0");
  EXPECT_EQ(again.params.back().dim, 0);
}

TEST(ManifestTest, StrideParamErrors) {
  std::string text = epilogueManifestText();
  std::string anchor = R"({ "kind": "ptr", "operand": "E1" })";
  auto with = [&](const std::string &param) {
    return parseError(replaceFirst(text, anchor, anchor + ",\n" + param));
  };
  EXPECT_NE(with(R"({ "kind": "stride", "dim": 0 })").find("operand"),
            std::string::npos);
  EXPECT_NE(with(R"({ "kind": "stride", "operand": "Z", "dim": 0 })")
                .find("no operand named 'Z'"),
            std::string::npos);
  EXPECT_NE(with(R"({ "kind": "stride", "operand": "E1" })").find("dim"),
            std::string::npos);
  EXPECT_NE(with(R"({ "kind": "stride", "operand": "E1", "dim": 2 })")
                .find("operand 'E1' has 2 dimensions, not 3"),
            std::string::npos);
  EXPECT_NE(with(R"({ "kind": "stride", "operand": "E1", "dim": -1 })")
                .find("dim"),
            std::string::npos);
}

TEST(ManifestTest, DynamicSizesTakeRowColumnAndScalarEpilogueInputs) {
  // The dynamic sample with a bias along N (a row [n]) and a scale.
  std::string text = replaceFirst(dynamicManifestText(), R"("k": -1 })",
                                  R"("k": -1,
          "epilogue": { "matmul_dtype": "f32",
            "inputs": [ { "operand": "E0", "kind": "row" },
                        { "operand": "E1", "kind": "scalar" } ],
            "ops": [ { "op": "addf", "args": [0, 1], "dtype": "f32" },
                     { "op": "mulf", "args": [3, 2], "dtype": "f32" } ],
            "result": 4 } })");
  text = replaceFirst(text, R"(    { "name": "C", "role": "out")",
                      R"(    { "name": "E0", "role": "in", "dtype": "f32", "shape": [512],
      "strides": [1], "align_bytes": 16 },
    { "name": "E1", "role": "in", "dtype": "f32", "shape": [],
      "strides": [], "align_bytes": 4 },
    { "name": "C", "role": "out")");
  text = replaceFirst(text, R"({ "kind": "size", "value": "m" },)",
                      R"({ "kind": "ptr", "operand": "E0" },
              { "kind": "ptr", "operand": "E1" },
              { "kind": "size", "value": "m" },)");
  Manifest m = parseOk(text);
  ASSERT_TRUE(m.op.epilogue.has_value());
  // The row input of a dynamic n takes the bound n.
  text = replaceFirst(text, R"("n": 512,)", R"("n": -1,)");
  text = replaceFirst(text, R"("shape": [-1, 512],
      "strides": [512, 1])", R"("shape": [-1, -1],
      "strides": [-1, 1])");
  text = replaceFirst(text, R"("shape": [-1, 512],
      "strides": [-1, 1])", R"("shape": [-1, -1],
      "strides": [-1, 1])");
  text = replaceFirst(text, R"("shape": [512],)", R"("shape": [-1],)");
  m = parseOk(text);
  Manifest bound;
  ASSERT_EQ(specializeManifest(m, 100, 64, 32, bound), "");
  EXPECT_EQ(bound.findOperand("E0")->shape, (std::vector<int64_t>{64}));
  EXPECT_EQ(bound.findOperand("C")->shape, (std::vector<int64_t>{100, 64}));
}
