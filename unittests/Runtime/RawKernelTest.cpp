//===- RawKernelTest.cpp - Tests of the raw-kernel manifest -----*- C++ -*-===//
//
// This file implements the unit tests of parseRawKernel and writeRawKernel:
// a round trip of every field, the optional fields' defaults, and every
// error the parser reports.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/RawKernel.h"
#include "tcgen/Runtime/Manifest.h"

#include <gtest/gtest.h>

using namespace tcgen;

namespace {

RawKernel sample() {
  RawKernel k;
  k.entry = "_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii";
  k.cubin = "rescheduled.cubin";
  k.ptx = "rescheduled.ptx";
  k.arch = "sm_90a";
  k.minCC = 90;
  k.variant = "rescheduled";
  k.source = "matrix_mul.cu";
  k.kernel = "MatrixMulCUDA<16>";
  k.params = {{"ptr", "f32", "write", 4096, std::nullopt},
              {"ptr", "f32", "read", std::nullopt, std::nullopt},
              {"ptr", "f64", "readwrite", 16, std::nullopt},
              {"i32", "", "", std::nullopt, 64.0},
              {"f32", "", "", std::nullopt, 0.5},
              {"i64", "", "", std::nullopt, std::nullopt}};
  k.grid = {4, 4, 1};
  k.block = {16, 16, 1};
  k.dynamicSmemBytes = 0;
  k.stages = 4;
  k.stageBytes = 2048;
  k.registers = 40;
  k.staticSmemBytes = 8192;
  return k;
}

TEST(RawKernel, RoundTrip) {
  RawKernel k = sample(), back;
  ASSERT_EQ(parseRawKernel(writeRawKernel(k), back), "");
  EXPECT_EQ(back.entry, k.entry);
  EXPECT_EQ(back.cubin, k.cubin);
  EXPECT_EQ(back.ptx, k.ptx);
  EXPECT_EQ(back.arch, "sm_90a");
  EXPECT_EQ(back.minCC, 90);
  EXPECT_EQ(back.variant, "rescheduled");
  EXPECT_EQ(back.kernel, "MatrixMulCUDA<16>");
  ASSERT_EQ(back.params.size(), 6u);
  EXPECT_EQ(back.params[0].access, "write");
  EXPECT_EQ(back.params[0].elements, 4096);
  EXPECT_FALSE(back.params[1].elements);
  EXPECT_EQ(back.params[2].dtype, "f64");
  EXPECT_EQ(back.params[3].value, 64.0);
  EXPECT_EQ(back.params[4].value, 0.5);
  EXPECT_FALSE(back.params[5].value);
  EXPECT_EQ(back.grid, (std::array<int64_t, 3>{4, 4, 1}));
  EXPECT_EQ(back.block, (std::array<int64_t, 3>{16, 16, 1}));
  EXPECT_EQ(back.stages, 4);
  EXPECT_EQ(back.stageBytes, 2048);
  EXPECT_EQ(back.registers, 40);
  EXPECT_EQ(back.staticSmemBytes, 8192);
  EXPECT_EQ(writeRawKernel(back), writeRawKernel(k));
}

TEST(RawKernel, OriginalNeedsNoSchedule) {
  RawKernel k = sample(), back;
  k.variant = "original";
  k.stages = k.stageBytes = 0;
  ASSERT_EQ(parseRawKernel(writeRawKernel(k), back), "");
  EXPECT_EQ(back.stages, 0);
}

TEST(RawKernel, TypeBytes) {
  EXPECT_EQ(rawTypeBytes("f32"), 4);
  EXPECT_EQ(rawTypeBytes("i32"), 4);
  EXPECT_EQ(rawTypeBytes("f64"), 8);
  EXPECT_EQ(rawTypeBytes("ptr"), 8);
  EXPECT_EQ(rawTypeBytes("f16"), 0);
}

/// The sample's text with `from` replaced by `to` (once).
std::string edited(const std::string &from, const std::string &to) {
  std::string text = writeRawKernel(sample());
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string parseError(const std::string &text) {
  RawKernel k;
  return parseRawKernel(text, k);
}

TEST(RawKernel, Errors) {
  EXPECT_EQ(parseError("[1]"), "expected a JSON object");
  EXPECT_EQ(parseError("{}"), "field 'format': missing");
  EXPECT_EQ(parseError(edited("tcgen.raw-kernel", "tcgen.bundle")),
            "field 'format': expected \"tcgen.raw-kernel\", got "
            "\"tcgen.bundle\"");
  EXPECT_EQ(parseError(edited("\"version\": 1", "\"version\": 2")),
            "field 'version': unsupported version 2");
  EXPECT_EQ(
      parseError(edited("\"entry\": \"_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii\"",
                        "\"entry\": \"\"")),
      "field 'entry': empty");
  EXPECT_EQ(parseError(edited("\"variant\": \"rescheduled\"",
                              "\"variant\": \"fast\"")),
            "field 'variant': expected original or rescheduled, got \"fast\"");
  EXPECT_EQ(parseError(edited("\"min_cc\": 90", "\"min_cc\": 9")),
            "field 'target.min_cc': expected an integer >= 10");
  EXPECT_EQ(parseError(edited("\"kind\": \"i64\"", "\"kind\": \"u8\"")),
            "field 'params[5].kind': expected ptr, i32, i64, f32 or f64, got "
            "\"u8\"");
  EXPECT_EQ(parseError(edited("\"dtype\": \"f64\"", "\"dtype\": \"f16\"")),
            "field 'params[2].dtype': expected f32, f64, i32 or i64, got "
            "\"f16\"");
  EXPECT_EQ(parseError(edited("\"access\": \"read\"", "\"access\": \"rw\"")),
            "field 'params[1].access': expected read, write or readwrite, got "
            "\"rw\"");
  EXPECT_EQ(parseError(edited("\"elements\": 4096", "\"elements\": 0")),
            "field 'params[0].elements': expected an integer >= 1");
  EXPECT_EQ(parseError(edited("\"value\": 64", "\"value\": 64.5")),
            "field 'params[3].value': expected an integer");
  EXPECT_EQ(parseError(edited("\"value\": 0.5", "\"value\": \"x\"")),
            "field 'params[4].value': expected a number");
  EXPECT_EQ(parseError(edited("\"kind\": \"i64\"",
                              "\"kind\": \"i64\", \"dtype\": \"f32\"")),
            "field 'params[5].': a scalar has only kind and value");
  EXPECT_EQ(parseError(edited("\"elements\": 4096",
                              "\"elements\": 4096, \"value\": 1")),
            "field 'params[0].value': a pointer has no value");
  EXPECT_EQ(parseError(edited("\"grid\": [4, 4, 1]", "\"grid\": [4, 4]")),
            "field 'launch.grid': expected 3 positive integers");
  EXPECT_EQ(
      parseError(edited("\"block\": [16, 16, 1]", "\"block\": [64, 32, 1]")),
      "field 'launch.block': more than 1024 threads");
  EXPECT_EQ(parseError(edited("\"stages\": 4", "\"stages\": 1")),
            "field 'schedule.stages': expected an integer >= 2");
}

TEST(RawKernel, Args) {
  RawKernel k = sample();
  ASSERT_EQ(applyRawArgs("100,200,300,7,1.5,-3", k), "");
  EXPECT_EQ(k.params[0].elements, 100);
  EXPECT_EQ(k.params[1].elements, 200);
  EXPECT_EQ(k.params[2].elements, 300);
  EXPECT_EQ(k.params[3].value, 7.0);
  EXPECT_EQ(k.params[4].value, 1.5);
  EXPECT_EQ(k.params[5].value, -3.0);
  EXPECT_EQ(applyRawArgs("1,2,3", k),
            "--args has 3 entries; the kernel has 6 parameters");
  EXPECT_EQ(applyRawArgs("0,2,3,4,5,6", k),
            "--args entry 1 ('0', parameter of kind ptr): a buffer has at "
            "least one element");
  EXPECT_EQ(applyRawArgs("1,2,3,4.5,5,6", k),
            "--args entry 4 ('4.5', parameter of kind i32): expected an "
            "integer");
  EXPECT_EQ(applyRawArgs("1,2,3,4,x,6", k),
            "--args entry 5 ('x', parameter of kind f32): expected a number");
  EXPECT_EQ(applyRawArgs("1,,3,4,5,6", k),
            "--args entry 2 ('', parameter of kind ptr): expected an integer");
}

TEST(RawKernel, MissingPiecesAndVariants) {
  std::string text = writeRawKernel(sample());
  // Neither a cubin nor PTX.
  RawKernel k = sample();
  k.cubin.clear();
  k.ptx.clear();
  EXPECT_EQ(parseError(writeRawKernel(k)),
            "fields 'cubin' and 'ptx': the manifest names neither");
  // A rescheduled kernel without its schedule.
  k = sample();
  k.stages = 0;
  EXPECT_EQ(parseError(writeRawKernel(k)),
            "field 'schedule': a rescheduled kernel names its stages");
  // The bundle parser points at the tool that runs raw kernels.
  Manifest m;
  EXPECT_EQ(parseManifest(text, m),
            "field 'format': a raw kernel's manifest (tcgen reschedule); "
            "tcgen-gpu reschedule-check runs it");
}

} // namespace
