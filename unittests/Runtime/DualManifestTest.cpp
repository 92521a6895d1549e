//===- DualManifestTest.cpp - Dual GEMMs in the manifest ------------------===//
//
// This file implements unit tests of the manifest's dual GEMMs (op.dual,
// the rhs2 operand B2 and the epilogue input of kind "product",
// docs/BUNDLE.md): C = silu(A B) * (A B2) parses and round-trips, a tensor
// map of B2 is checked like any operand's, and every refusal names what is
// wrong.
//
//===----------------------------------------------------------------------===//

#include "SampleManifest.h"

#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Validate.h"

#include <gtest/gtest.h>

using namespace tcgen;
using tcgen::testing::ErrorCase;
using tcgen::testing::parseError;
using tcgen::testing::parseOk;
using tcgen::testing::replaceFirst;
using tcgen::testing::sampleManifestText;

namespace {

/// SwiGLU over f32 products into f16: values 0 A B, 1 A B2 (the product
/// input), 2 -x, 3 exp(-x), 4 one, 5 1 + exp(-x), 6 silu(x) = x / (1 +
/// exp(-x)), 7 silu(x) * A B2, 8 its f16.
const char *kSwiGluEpilogue = R"(,
          "epilogue": {
            "matmul_dtype": "f32",
            "inputs": [ { "operand": "B2", "kind": "product" } ],
            "ops": [
              { "op": "negf", "args": [0], "dtype": "f32" },
              { "op": "exp", "args": [2], "dtype": "f32" },
              { "op": "constant", "args": [], "dtype": "f32", "value": 1.0 },
              { "op": "addf", "args": [4, 3], "dtype": "f32" },
              { "op": "divf", "args": [0, 5], "dtype": "f32" },
              { "op": "mulf", "args": [6, 1], "dtype": "f32" },
              { "op": "truncf", "args": [7], "dtype": "f16" } ],
            "result": 8 })";

/// The sample manifest as a dual GEMM: C = silu(A B) * (A B2) in f16, with
/// B2 [1024, 1024] column-major (its strides need not be B's).
std::string dualGemmManifestText() {
  std::string text = replaceFirst(sampleManifestText(), R"("k": 1024,)",
                                  R"("k": 1024, "dual": true,)");
  text = replaceFirst(text, R"("accumulator": "f32" },)",
                      std::string(R"("accumulator": "f32")") + kSwiGluEpilogue +
                          " },");
  text = replaceFirst(
      text, R"({ "name": "C", "role": "out", "dtype": "f32",)",
      R"({ "name": "B2", "role": "rhs2", "dtype": "f16", "shape": [1024, 1024],
      "strides": [1, 1024], "align_bytes": 16 },
    { "name": "C", "role": "out", "dtype": "f16",)");
  return replaceFirst(text, R"({ "kind": "ptr", "operand": "B" },)",
                      R"({ "kind": "ptr", "operand": "B" },
              { "kind": "ptr", "operand": "B2" },)");
}

TEST(DualManifestTest, ParsesAndRoundTrips) {
  Manifest m = parseOk(dualGemmManifestText());
  EXPECT_TRUE(m.op.dual);
  EXPECT_EQ(m.op.k2, 0);
  ASSERT_TRUE(m.op.epilogue.has_value());
  ASSERT_EQ(m.op.epilogue->inputs.size(), 1u);
  EXPECT_EQ(m.op.epilogue->inputs[0].kind, EpilogueInputKind::Product);
  EXPECT_EQ(m.op.epilogue->inputs[0].operand, "B2");
  ASSERT_NE(m.findRole(OperandRole::Rhs2), nullptr);
  EXPECT_EQ(m.findRole(OperandRole::Rhs2)->name, "B2");
  EXPECT_EQ(m.findRole(OperandRole::Lhs2), nullptr);
  // The product has the matmul's dtype, not B2's.
  EXPECT_EQ(epilogueValueDType(m, 1), "f32");
  std::string written = writeManifest(m);
  EXPECT_NE(written.find("\"dual\": true"), std::string::npos);
  EXPECT_NE(written.find("\"kind\": \"product\""), std::string::npos);
  Manifest again = parseOk(written);
  EXPECT_TRUE(again == m);
  // op.dual is part of equality, and absent it is not written.
  again.op.dual = false;
  EXPECT_FALSE(again == m);
  EXPECT_EQ(writeManifest(parseOk(sampleManifestText())).find("dual"),
            std::string::npos);
}

TEST(DualManifestTest, InputKindSpelling) {
  EXPECT_STREQ(epilogueInputKindName(EpilogueInputKind::Product), "product");
  EXPECT_EQ(parseEpilogueInputKind("product"), EpilogueInputKind::Product);
}

TEST(DualManifestTest, TakesOtherInputsBesideTheProduct) {
  // silu(A B + bias[j]) * (A B2): the bias E0 (f16) is input 1 and the
  // product input 2; the steps' numbers move up by one.
  std::string text =
      replaceFirst(dualGemmManifestText(),
                   R"("inputs": [ { "operand": "B2", "kind": "product" } ],
            "ops": [
              { "op": "negf", "args": [0], "dtype": "f32" },
              { "op": "exp", "args": [2], "dtype": "f32" },
              { "op": "constant", "args": [], "dtype": "f32", "value": 1.0 },
              { "op": "addf", "args": [4, 3], "dtype": "f32" },
              { "op": "divf", "args": [0, 5], "dtype": "f32" },
              { "op": "mulf", "args": [6, 1], "dtype": "f32" },
              { "op": "truncf", "args": [7], "dtype": "f16" } ],
            "result": 8 })",
                   R"("inputs": [ { "operand": "E0", "kind": "row" },
                        { "operand": "B2", "kind": "product" } ],
            "ops": [
              { "op": "extf", "args": [1], "dtype": "f32" },
              { "op": "addf", "args": [0, 3], "dtype": "f32" },
              { "op": "negf", "args": [4], "dtype": "f32" },
              { "op": "exp", "args": [5], "dtype": "f32" },
              { "op": "constant", "args": [], "dtype": "f32", "value": 1.0 },
              { "op": "addf", "args": [7, 6], "dtype": "f32" },
              { "op": "divf", "args": [4, 8], "dtype": "f32" },
              { "op": "mulf", "args": [9, 2], "dtype": "f32" },
              { "op": "truncf", "args": [10], "dtype": "f16" } ],
            "result": 11 })");
  text = replaceFirst(
      text, R"(    { "name": "C", "role": "out")",
      R"(    { "name": "E0", "role": "in", "dtype": "f16", "shape": [1024],
      "strides": [1], "align_bytes": 16 },
    { "name": "C", "role": "out")");
  text = replaceFirst(text, R"({ "kind": "ptr", "operand": "C" })",
                      R"({ "kind": "ptr", "operand": "C" },
              { "kind": "ptr", "operand": "E0" })");
  Manifest m = parseOk(text);
  EXPECT_EQ(epilogueValueDType(m, 1), "f16"); // E0
  EXPECT_EQ(epilogueValueDType(m, 2), "f32"); // A B2
  Manifest again = parseOk(writeManifest(m));
  EXPECT_TRUE(again == m);
}

TEST(DualManifestTest, TensorMapOfB2IsCheckedLikeB) {
  // TMA for B and B2 alike (B2 row-major here, as B): the launch path
  // treats B2 as any operand, its box checked against its shape.
  std::string text =
      replaceFirst(dualGemmManifestText(), R"("strides": [1, 1024],)",
                   R"("strides": [1024, 1],)");
  std::string box = R"({ "kind": "tensormap", "operand": "B", "box": [64, 32],
                "swizzle": "128B" },
              { "kind": "tensormap", "operand": "B2", "box": [64, 32],
                "swizzle": "128B" },)";
  text = replaceFirst(text, R"({ "kind": "ptr", "operand": "B" },
              { "kind": "ptr", "operand": "B2" },)",
                      box);
  text = replaceFirst(text, R"("min_cc": 80)", R"("min_cc": 90)");
  Manifest m = parseOk(text);
  EXPECT_EQ(validateLaunchable(m, 232448), "");
  // A box of B2's the swizzle cannot take is named like B's would be.
  std::string bad = replaceFirst(text, R"("operand": "B2", "box": [64, 32],)",
                                 R"("operand": "B2", "box": [128, 32],)");
  EXPECT_EQ(parseError(bad),
            "field 'params[2].box[0]': 128 elements of f16 (operand 'B2') "
            "are 256 bytes, more than the 128B swizzle span");
}

TEST(DualManifestTest, SizesBoundAtLaunchGiveB2ItsKAndN) {
  // The parser refuses sizes fixed at launch with op.dual for now; the
  // binding already sizes B2 like B, [k, n].
  Manifest m = parseOk(dualGemmManifestText());
  m.op.k = kDynamicSize;
  for (Operand &o : m.operands)
    if (o.role == OperandRole::Lhs)
      o.shape[1] = kDynamicSize;
    else if (o.role == OperandRole::Rhs || o.role == OperandRole::Rhs2)
      o.shape[0] = kDynamicSize;
  Manifest bound;
  ASSERT_EQ(specializeManifest(m, 0, 0, 96, bound), "");
  EXPECT_EQ(bound.findOperand("B2")->shape, (std::vector<int64_t>{96, 1024}));
  EXPECT_EQ(bound.findOperand("B")->shape, (std::vector<int64_t>{96, 1024}));
}

TEST(DualManifestTest, ProductInputOutsideAMatmulNeedsDual) {
  // A pointwise op is not checked as a matmul: the epilogue check names
  // the product input itself.
  std::string text =
      replaceFirst(dualGemmManifestText(), R"("dual": true,)", "");
  text = replaceFirst(text, R"("kind": "matmul")", R"("kind": "pointwise")");
  EXPECT_EQ(parseError(text),
            "field 'op.epilogue.inputs[0].kind': a product input names the "
            "rhs2 operand of a dual GEMM (op.dual), got operand 'B2' (role "
            "'rhs2') without op.dual");
}

class DualErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DualErrorTest, NamesTheField) {
  const ErrorCase &c = GetParam();
  std::string base = dualGemmManifestText();
  std::string text = replaceFirst(base, c.from, c.to);
  ASSERT_NE(text, base) << "edit did not apply: " << c.from;
  EXPECT_EQ(parseError(text), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, DualErrorTest,
    ::testing::Values(
        // The product input and the rhs2 operand.
        ErrorCase{"ProductWithoutDual", R"("dual": true,)", "",
                  "field 'op.epilogue.inputs[0].kind': a product input needs "
                  "op.dual (a dual GEMM computes the second product A B2)"},
        ErrorCase{"ProductNamesAnotherOperand",
                  R"({ "operand": "B2", "kind": "product" })",
                  R"({ "operand": "B", "kind": "product" })",
                  "field 'op.epilogue.inputs[0].operand': a product input "
                  "names the rhs2 operand 'B2', got 'B'"},
        ErrorCase{"NoProductInput", R"("kind": "product")",
                  R"("kind": "matrix")",
                  "field 'op.epilogue.inputs': a dual GEMM's epilogue reads "
                  "its second product as an input of kind 'product' (operand "
                  "'B2'), but has none"},
        ErrorCase{"TwoProductInputs",
                  R"({ "operand": "B2", "kind": "product" })",
                  R"({ "operand": "B2", "kind": "product" },
                      { "operand": "B2", "kind": "product" })",
                  "field 'op.epilogue.inputs[1].kind': a dual GEMM has one "
                  "product input (op.epilogue.inputs[0] is one)"},
        ErrorCase{"NoEpilogue", kSwiGluEpilogue, "",
                  "field 'op.dual': a dual GEMM needs op.epilogue, which "
                  "combines the two products"},
        ErrorCase{"NoRhs2", R"("role": "rhs2")", R"("role": "in")",
                  "field 'op.dual': a dual GEMM needs an operand of role "
                  "'rhs2' (B2 of the second product A B2)"},
        ErrorCase{"Lhs2", R"("role": "rhs2")", R"("role": "lhs2")",
                  "field 'operands': operand 'B2' has role 'lhs2', but a dual "
                  "GEMM (op.dual) shares A: its second product is A B2"},
        ErrorCase{
            "TwoRhs2", R"(    { "name": "C", "role": "out")",
            R"(    { "name": "B3", "role": "rhs2", "dtype": "f16", "shape": [1024, 1024],
      "strides": [1024, 1], "align_bytes": 16 },
    { "name": "C", "role": "out")",
            "field 'operands': a dual GEMM has one rhs2 operand, got "
            "'B2' and 'B3'"},
        ErrorCase{"K2", R"("dual": true,)", R"("dual": true, "k2": 512,)",
                  "field 'op.k2': a dual GEMM (op.dual) shares A and K; it "
                  "has no second K"},
        ErrorCase{"B2Shape",
                  R"("rhs2", "dtype": "f16", "shape": [1024, 1024],)",
                  R"("rhs2", "dtype": "f16", "shape": [1024, 512],)",
                  "operand 'B2' (rhs2): shape [1024, 512] does not match the "
                  "rhs 'B' [1024, 1024] (a dual GEMM's B2 has B's shape)"},
        ErrorCase{"B2DType", R"("rhs2", "dtype": "f16",)",
                  R"("rhs2", "dtype": "bf16",)",
                  "operand 'B2' (rhs2): dtype bf16 differs from the rhs "
                  "'B' (f16)"},
        ErrorCase{"NotAMatmul", R"("kind": "matmul")", R"("kind": "pointwise")",
                  "field 'op.dual': a dual GEMM is a matmul, got op.kind "
                  "'pointwise'"},
        // What a dual GEMM does not support yet.
        ErrorCase{"Batch", R"("batch": 1,)", R"("batch": 2,)",
                  "field 'op.dual': a dual GEMM is not supported with "
                  "op.batch > 1 (op.batch is 2)"},
        ErrorCase{"BatchReduce", R"("batch": 1,)",
                  R"("batch": 2, "batch_reduce": true,)",
                  "field 'op.dual': a dual GEMM is not supported with a "
                  "summed batch (op.batch_reduce)"},
        ErrorCase{"BatchShape", R"("batch": 1,)",
                  R"("batch": 6, "batch_shape": [2, 3],)",
                  "field 'op.dual': a dual GEMM is not supported with batch "
                  "dimensions (op.batch_shape)"},
        ErrorCase{"Groups", R"("batch": 1,)", R"("batch": 1, "groups": 4,)",
                  "field 'op.dual': a dual GEMM is not supported with a "
                  "grouped product (op.groups)"},
        ErrorCase{"Accumulate", R"("accumulate": false,)",
                  R"("accumulate": true,)",
                  "field 'op.dual': a dual GEMM is not supported with C += "
                  "A*B (op.accumulate)"},
        ErrorCase{"BlockScales", R"("dual": true,)",
                  R"("dual": true,
          "block_scales": { "a": [1, 128], "b": [128, 128] },)",
                  "field 'op.dual': a dual GEMM is not supported with block "
                  "scales (op.block_scales)"},
        ErrorCase{"Prologue", R"("dual": true,)",
                  R"("dual": true,
          "prologue": { "operand": "A", "dtype": "f16", "ops": [],
                        "result": 0 },)",
                  "field 'op.dual': a dual GEMM is not supported with a "
                  "fused prologue (op.prologue)"},
        ErrorCase{"Tf32", R"("dual": true,)", R"("dual": true, "tf32": true,)",
                  "field 'op.dual': a dual GEMM is not supported with tf32 "
                  "math (op.tf32)"},
        ErrorCase{"DynamicSizes", R"("m": 1024,)", R"("m": -1,)",
                  "field 'op.dual': a dual GEMM is not supported with sizes "
                  "fixed at launch (-1)"},
        ErrorCase{"Fp8Inputs", R"("name": "A", "role": "lhs", "dtype": "f16")",
                  R"("name": "A", "role": "lhs", "dtype": "e4m3")",
                  "field 'op.dual': a dual GEMM is not supported with 8-bit "
                  "float inputs (operand 'A' is e4m3)"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(DualManifestTest, SecondProductOfAddGemmGemmIsUnchanged) {
  // rhs2 without k2 or op.dual is still refused as before.
  std::string text =
      replaceFirst(dualGemmManifestText(), R"("dual": true,)", "");
  text = replaceFirst(text, kSwiGluEpilogue, "");
  EXPECT_EQ(parseError(text),
            "field 'operands': operand 'B2' has role 'rhs2', but op has no "
            "k2 (a second product needs op.k2)");
}

} // namespace
