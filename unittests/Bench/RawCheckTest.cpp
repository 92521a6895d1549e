//===- RawCheckTest.cpp - Tests of reschedule-check's host parts *- C++ -*-===//
//
// This file implements the unit tests of RawCheck.h: the pair check and
// each of its refusals, the inputs' data, the poison, and the bitwise
// comparison (a NaN equals the same NaN; -0 differs from +0).
//
//===----------------------------------------------------------------------===//

#include "RawCheck.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace tcgen;
using namespace tcgen::bench;

namespace {

RawKernel kernel(const std::string &variant) {
  RawKernel k;
  k.entry = "mm";
  k.ptx = variant + ".ptx";
  k.arch = "sm_90a";
  k.minCC = 90;
  k.variant = variant;
  k.params = {{"ptr", "f32", "write", 4, std::nullopt},
              {"ptr", "f32", "read", 4, std::nullopt},
              {"i32", "", "", std::nullopt, 2.0}};
  k.grid = {2, 2, 1};
  k.block = {16, 16, 1};
  if (variant == "rescheduled")
    k.stages = 3;
  return k;
}

TEST(RawCheck, Pair) {
  RawKernel a = kernel("original"), b = kernel("rescheduled");
  EXPECT_EQ(checkRawPair(a, b), "");
  EXPECT_EQ(checkRawPair(b, a), "expected an original and a rescheduled "
                                "kernel, got rescheduled and original");
  RawKernel c = b;
  c.entry = "other";
  EXPECT_EQ(checkRawPair(a, c), "the kernels differ: mm and other");
  c = b;
  c.params.pop_back();
  EXPECT_EQ(checkRawPair(a, c), "the kernels take 3 and 2 parameters");
  c = b;
  c.params[1].access = "readwrite";
  EXPECT_EQ(checkRawPair(a, c), "parameter 2 differs between the kernels");
  c = b;
  c.params[2].value = 3.0;
  EXPECT_EQ(checkRawPair(a, c),
            "parameter 3 has different arguments in the two manifests");
  RawKernel d = a;
  c = b;
  c.params[0].elements.reset();
  d.params[0].elements.reset();
  EXPECT_EQ(checkRawPair(d, c),
            "parameter 1 (a pointer) has no element count: pass --args");
  c = b;
  d = a;
  c.params[2].value.reset();
  d.params[2].value.reset();
  EXPECT_EQ(checkRawPair(d, c), "parameter 3 (i32) has no value: pass --args");
  c = b;
  c.block = {32, 32, 1};
  EXPECT_EQ(checkRawPair(a, c), "the kernels' launch configurations differ");
}

TEST(RawCheck, BuffersAndComparison) {
  RawParam f32{"ptr", "f32", "read", 1000, std::nullopt};
  EXPECT_EQ(rawBufferBytes(f32), 4000);
  std::vector<unsigned char> a = randomBuffer(f32, 7);
  ASSERT_EQ(a.size(), 4000u);
  EXPECT_EQ(randomBuffer(f32, 7), a);
  EXPECT_NE(randomBuffer(f32, 8), a);
  for (int i = 0; i < 1000; ++i) {
    float v;
    std::memcpy(&v, &a[i * 4], 4);
    EXPECT_TRUE(v >= -1.0f && v < 1.0f) << v;
  }
  RawParam i64{"ptr", "i64", "read", 100, std::nullopt};
  std::vector<unsigned char> ints = randomBuffer(i64, 1);
  for (int i = 0; i < 100; ++i) {
    int64_t v;
    std::memcpy(&v, &ints[i * 8], 8);
    EXPECT_TRUE(v >= -8 && v <= 8) << v;
  }

  std::vector<unsigned char> poison = poisonBuffer(f32);
  float p;
  std::memcpy(&p, poison.data(), 4);
  EXPECT_TRUE(std::isnan(p));

  BitComparison same = compareBits(f32, a, a);
  EXPECT_EQ(same.mismatches, 0);
  EXPECT_EQ(same.firstMismatch, -1);
  EXPECT_EQ(same.poisoned, 0);
  // The poison equals itself bit for bit, and is counted as unwritten.
  std::vector<unsigned char> b = a;
  std::memcpy(&b[8], poison.data(), 4);
  std::vector<unsigned char> c = b;
  BitComparison both = compareBits(f32, b, c);
  EXPECT_EQ(both.mismatches, 0);
  EXPECT_EQ(both.poisoned, 1);
  // -0 and +0 differ.
  float zero = 0.0f, negZero = -0.0f;
  std::memcpy(&b[40], &zero, 4);
  std::memcpy(&c[40], &negZero, 4);
  std::memcpy(&c[80], &zero, 4);
  BitComparison diff = compareBits(f32, b, c);
  EXPECT_EQ(diff.mismatches, 2);
  EXPECT_EQ(diff.firstMismatch, 10);
  EXPECT_EQ(formatElement(f32, b, 10), "0");
  EXPECT_EQ(formatElement(f32, c, 10), "-0");
}

} // namespace
