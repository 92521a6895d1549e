//===- EpilogueTests.cpp - Tests of the epilogue reference and check ------===//
//
// This file implements the EpilogueHost tests of tcgen-gpu-tests, which need
// no device: the float64 epilogue interpreter against hand-computed values
// (bias + ReLU, GELU in its tanh and erf forms, SiLU, sigmoid, leaky ReLU,
// clamp, constants, residual adds, the rounding of the matmul value), its
// interval form, and compareEpilogue() on simulated kernel outputs: right
// ones pass, and ones that skip or botch the epilogue fail; the same for a
// dual GEMM's SwiGLU, silu(A B) * (A B2).
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "EpilogueRef.h"
#include "HostTensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

using namespace tcgen;
using namespace tcgen::bench;

namespace {

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

/// An epilogue from its parts.
Epilogue makeEpilogue(DType matmul, std::vector<EpilogueInput> inputs,
                      std::vector<EpilogueStep> steps, int64_t result) {
  Epilogue e;
  e.matmulDType = matmul;
  e.inputs = std::move(inputs);
  e.steps = std::move(steps);
  e.result = result;
  return e;
}

EpilogueStep constant(double value, const char *dtype = "f32") {
  return {"constant", {}, dtype, value};
}

/// bias (row, f16) + ReLU in f32: values 0 mm, 1 bias, 2 extf(bias),
/// 3 mm + bias, 4 zero, 5 max.
Epilogue biasRelu() {
  return makeEpilogue(DType::F32, {{"bias", EpilogueInputKind::Row}},
                      {{"extf", {1}, "f32"},
                       {"addf", {0, 2}, "f32"},
                       constant(0.0),
                       {"maximumf", {3, 4}, "f32"}},
                      5);
}

/// 0.5 x (1 + tanh(0.79788456 (x + 0.044715 x^3))) in f32.
Epilogue geluTanh() {
  return makeEpilogue(DType::F32, {},
                      {{"mulf", {0, 0}, "f32"},    // 1: x^2
                       {"mulf", {1, 0}, "f32"},    // 2: x^3
                       constant(0.044715),         // 3
                       {"mulf", {3, 2}, "f32"},    // 4
                       {"addf", {0, 4}, "f32"},    // 5
                       constant(0.79788456),       // 6
                       {"mulf", {6, 5}, "f32"},    // 7
                       {"tanh", {7}, "f32"},       // 8
                       constant(1.0),              // 9
                       {"addf", {9, 8}, "f32"},    // 10
                       {"mulf", {0, 10}, "f32"},   // 11
                       constant(0.5),              // 12
                       {"mulf", {12, 11}, "f32"}}, // 13
                      13);
}

/// 0.5 x (1 + erf(x / sqrt(2))) in f32.
Epilogue geluErf() {
  return makeEpilogue(DType::F32, {},
                      {constant(0.70710678118654752), // 1
                       {"mulf", {0, 1}, "f32"},       // 2
                       {"erf", {2}, "f32"},           // 3
                       constant(1.0),                 // 4
                       {"addf", {4, 3}, "f32"},       // 5
                       {"mulf", {0, 5}, "f32"},       // 6
                       constant(0.5),                 // 7
                       {"mulf", {7, 6}, "f32"}},      // 8
                      8);
}

/// 1 / (1 + exp(-x)) (value 5), and x times it for SiLU (value 6).
std::vector<EpilogueStep> sigmoidSteps() {
  return {{"negf", {0}, "f32"},     // 1
          {"exp", {1}, "f32"},      // 2
          constant(1.0),            // 3
          {"addf", {3, 2}, "f32"},  // 4
          {"divf", {3, 4}, "f32"},  // 5
          {"mulf", {0, 5}, "f32"}}; // 6
}

/// x > 0 ? x : slope * x with slope a scalar f32 input.
Epilogue leakyRelu() {
  return makeEpilogue(DType::F32, {{"slope", EpilogueInputKind::Scalar}},
                      {constant(0.0),                    // 2
                       {"cmpf", {0, 2}, "i1", 0, "ogt"}, // 3
                       {"mulf", {1, 0}, "f32"},          // 4
                       {"select", {3, 0, 4}, "f32"}},    // 5
                      5);
}

double eval(const Epilogue &e, double x, std::vector<double> inputs = {}) {
  return evalEpilogue(e, x, inputs);
}

double f32(double x) { return static_cast<float>(x); }

TEST(EpilogueHost, RoundsLikeTheGpu) {
  // f16: 10 fraction bits, ties to even, subnormals, overflow at 65520.
  EXPECT_EQ(roundToType(1 + std::ldexp(1, -11), ValueType::F16), 1.0);
  EXPECT_EQ(roundToType(1 + 3 * std::ldexp(1, -11), ValueType::F16),
            1 + std::ldexp(1, -9));
  EXPECT_EQ(roundToType(65519.99, ValueType::F16), 65504.0);
  EXPECT_EQ(roundToType(65520.0, ValueType::F16), HUGE_VAL);
  EXPECT_EQ(roundToType(-1e6, ValueType::F16), -HUGE_VAL);
  EXPECT_EQ(roundToType(std::ldexp(1, -25), ValueType::F16), 0.0);
  EXPECT_EQ(roundToType(3 * std::ldexp(1, -25), ValueType::F16),
            std::ldexp(1, -23));
  EXPECT_TRUE(std::signbit(roundToType(-std::ldexp(1, -30), ValueType::F16)));
  // bf16: 7 fraction bits.
  EXPECT_EQ(roundToType(1 + std::ldexp(1, -8), ValueType::BF16), 1.0);
  EXPECT_EQ(roundToType(1 + 3 * std::ldexp(1, -8), ValueType::BF16),
            1 + std::ldexp(1, -6));
  EXPECT_EQ(roundToType(0.1, ValueType::F32), double(0.1f));
  EXPECT_EQ(roundToType(0.1, ValueType::F64), 0.1);
  EXPECT_TRUE(std::isnan(roundToType(std::nan(""), ValueType::F16)));
  // The same as the host conversions of HostTensor for every float.
  for (uint64_t s = 0; s < 100000; ++s) {
    uint32_t bits = static_cast<uint32_t>(mix64(s));
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      continue;
    ASSERT_EQ(roundToType(f, ValueType::F16), halfToFloat(floatToHalf(f))) << f;
    ASSERT_EQ(roundToType(f, ValueType::BF16), bf16ToFloat(floatToBF16(f)))
        << f;
  }
}

TEST(EpilogueHost, BiasRelu) {
  Epilogue e = biasRelu();
  EXPECT_EQ(eval(e, 1.5, {-0.25}), 1.25);
  EXPECT_EQ(eval(e, 0.1, {-0.25}), 0.0);
  EXPECT_EQ(eval(e, -3.0, {0.5}), 0.0);
  EXPECT_EQ(eval(e, 2.0, {0.5}), 2.5);
}

TEST(EpilogueHost, GeluTanhForm) {
  Epilogue e = geluTanh();
  EXPECT_NEAR(eval(e, 1.0), 0.8411919903841787, 1e-6);
  EXPECT_NEAR(eval(e, -2.0), -0.0454023060802099, 1e-6);
  EXPECT_NEAR(eval(e, 0.5), 0.34571400973853866, 1e-6);
  EXPECT_EQ(eval(e, 0.0), 0.0);
  EXPECT_EQ(eval(e, 20.0), 20.0); // tanh saturates at 1
}

TEST(EpilogueHost, GeluErfForm) {
  Epilogue e = geluErf();
  EXPECT_NEAR(eval(e, 1.0), 0.8413447460685429, 1e-6);
  EXPECT_NEAR(eval(e, -2.0), -0.04550026389635842, 1e-6);
  EXPECT_EQ(eval(e, -40.0), -0.0); // erf(-28) = -1 in f32
}

TEST(EpilogueHost, SigmoidAndSilu) {
  Epilogue sigmoid = makeEpilogue(DType::F32, {}, sigmoidSteps(), 5);
  Epilogue silu = makeEpilogue(DType::F32, {}, sigmoidSteps(), 6);
  EXPECT_EQ(eval(sigmoid, 0.0), 0.5);
  EXPECT_NEAR(eval(sigmoid, 2.0), 0.8807970779778823, 1e-7);
  EXPECT_NEAR(eval(silu, 1.0), 0.7310585786300049, 1e-7);
  EXPECT_NEAR(eval(silu, -2.0), -0.2384058440442351, 1e-7);
  EXPECT_EQ(eval(silu, -200.0), -0.0); // exp(200) is inf in f32: x / inf
}

TEST(EpilogueHost, LeakyReluThroughCmpfAndSelect) {
  Epilogue e = leakyRelu();
  EXPECT_EQ(eval(e, 2.0, {0.01}), 2.0);
  EXPECT_EQ(eval(e, -2.0, {f32(0.01)}), f32(-2.0 * f32(0.01)));
  EXPECT_EQ(eval(e, 0.0, {0.01}), 0.0);
}

TEST(EpilogueHost, Clamp) {
  // min(max(x, -1), 6)
  Epilogue e = makeEpilogue(DType::F32, {},
                            {constant(-1.0),
                             {"maximumf", {0, 1}, "f32"},
                             constant(6.0),
                             {"minimumf", {2, 3}, "f32"}},
                            4);
  EXPECT_EQ(eval(e, 7.5), 6.0);
  EXPECT_EQ(eval(e, -3.0), -1.0);
  EXPECT_EQ(eval(e, 0.25), 0.25);
  EXPECT_TRUE(std::isnan(eval(e, std::nan("")))); // maximumf keeps NaN
  // maxnumf drops it instead.
  e.steps[1].op = "maxnumf";
  EXPECT_EQ(eval(e, std::nan("")), -1.0);
}

TEST(EpilogueHost, ConstantAddRoundsEachStep) {
  // f16 throughout: x + 2.5 with x first rounded to f16 (ulp 0.5 at 1000).
  Epilogue e = makeEpilogue(DType::F16, {},
                            {constant(2.5, "f16"), {"addf", {0, 1}, "f16"}}, 2);
  EXPECT_EQ(eval(e, 1000.3), 1003.0); // 1000.5 + 2.5
  EXPECT_EQ(eval(e, 2046.1), 2048.0); // 2046 + 2.5 = 2048.5 -> 2048 (ulp 2)
}

TEST(EpilogueHost, ResidualAddInF16) {
  // 0.1 and 0.2 as f16 inputs; their sum 0.2999267578125 is a tie between
  // f16 neighbours 0.2998046875 (even) and 0.300048828125.
  Epilogue e = makeEpilogue(DType::F16, {{"res", EpilogueInputKind::Matrix}},
                            {{"addf", {0, 1}, "f16"}}, 2);
  double a = halfToFloat(floatToHalf(0.1f)), b = halfToFloat(floatToHalf(0.2f));
  EXPECT_EQ(a + b, 0.2999267578125);
  EXPECT_EQ(eval(e, 0.1, {b}), 0.2998046875);
}

TEST(EpilogueHost, MatmulValueIsRoundedToItsDType) {
  Epilogue e = makeEpilogue(DType::F16, {}, {}, 0);
  EXPECT_EQ(eval(e, 1 + std::ldexp(1, -11)), 1.0);
  EXPECT_EQ(eval(e, 2049.0), 2048.0); // a tie, to even
  EXPECT_EQ(eval(e, 2051.0), 2052.0);
  EXPECT_EQ(eval(e, 70000.0), HUGE_VAL);
  e.matmulDType = DType::BF16;
  EXPECT_EQ(eval(e, 257.0), 256.0);
  // Then widened: extf to f32 keeps the f16 value.
  Epilogue widened = makeEpilogue(DType::F16, {}, {{"extf", {0}, "f32"}}, 1);
  EXPECT_EQ(eval(widened, 0.1), halfToFloat(floatToHalf(0.1f)));
  Epilogue narrowed =
      makeEpilogue(DType::F32, {}, {{"truncf", {0}, "bf16"}}, 1);
  EXPECT_EQ(eval(narrowed, 1 + std::ldexp(1, -8)), 1.0);
}

TEST(EpilogueHost, CmpfPredicatesAndNaN) {
  auto cmp = [](const char *predicate, double a, double b) {
    Epilogue e = makeEpilogue(DType::F32, {{"b", EpilogueInputKind::Scalar}},
                              {{"cmpf", {0, 1}, "i1", 0, predicate},
                               constant(1.0),
                               constant(0.0),
                               {"select", {2, 3, 4}, "f32"}},
                              5);
    return eval(e, a, {b}) == 1.0;
  };
  double nan = std::nan("");
  EXPECT_TRUE(cmp("olt", 1, 2));
  EXPECT_FALSE(cmp("olt", nan, 2));
  EXPECT_TRUE(cmp("ult", nan, 2));
  EXPECT_TRUE(cmp("oge", 2, 2));
  EXPECT_FALSE(cmp("one", 2, 2));
  EXPECT_TRUE(cmp("une", nan, nan));
  EXPECT_FALSE(cmp("ord", nan, 1));
  EXPECT_TRUE(cmp("uno", 1, nan));
  EXPECT_TRUE(cmp("true", nan, nan));
  EXPECT_FALSE(cmp("false", 1, 1));
}

TEST(EpilogueHost, MaximumAndMinimumOrderSignedZeros) {
  Epilogue max = makeEpilogue(DType::F32, {{"b", EpilogueInputKind::Scalar}},
                              {{"maximumf", {0, 1}, "f32"}}, 2);
  EXPECT_FALSE(std::signbit(eval(max, -0.0, {0.0})));
  max.steps[0].op = "minimumf";
  EXPECT_TRUE(std::signbit(eval(max, 0.0, {-0.0})));
}

TEST(EpilogueHost, CompileRejectsWhatItCannotEvaluate) {
  EpilogueProgram program;
  Epilogue e = biasRelu();
  EXPECT_EQ(program.compile(e), "");
  EXPECT_EQ(program.numInputs(), 1u);
  EXPECT_EQ(program.numValues(), 6u);
  e.steps[1].op = "fma";
  EXPECT_EQ(program.compile(e), "op.epilogue.ops[1]: unknown op 'fma'");
  e = biasRelu();
  e.steps[1].args = {0, 7};
  EXPECT_EQ(program.compile(e),
            "op.epilogue.ops[1]: value 7 is not defined before it");
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

ValueRange range(const Epilogue &e, double lo, double hi,
                 std::vector<double> inputs = {}) {
  EpilogueProgram program;
  EXPECT_EQ(program.compile(e), "");
  std::vector<ValueRange> values(program.numValues());
  return program.range(lo, hi, inputs.data(), values.data());
}

TEST(EpilogueHost, RangeOfTheIdentityIsTheRoundedInterval) {
  ValueRange r = range(makeEpilogue(DType::F16, {}, {}, 0), 1.0001, 2.0);
  EXPECT_EQ(r.lo, 1.0);
  EXPECT_EQ(r.hi, 2.0);
  EXPECT_FALSE(r.nan);
}

TEST(EpilogueHost, RangeOfReluClampsAtZero) {
  ValueRange r = range(biasRelu(), -1.0, 2.0, {0.5});
  EXPECT_EQ(r.lo, 0.0);
  EXPECT_NEAR(r.hi, 2.5, 1e-6);
  EXPECT_GE(r.hi, 2.5);
  r = range(biasRelu(), -3.0, -1.0, {0.5});
  EXPECT_EQ(r.lo, 0.0);
  EXPECT_EQ(r.hi, 0.0); // all negative: exactly 0
}

TEST(EpilogueHost, RangeOfASaturatedTanhIsNarrow) {
  Epilogue tanh = makeEpilogue(DType::F32, {}, {{"tanh", {0}, "f32"}}, 1);
  ValueRange r = range(tanh, 9.9, 10.1);
  EXPECT_TRUE(r.contains(f32(std::tanh(10.0))));
  EXPECT_LT(r.hi - r.lo, 2e-3); // 2^-10 for tanh.approx, nothing more
  EXPECT_GT(r.lo, 0.99);
  r = range(tanh, -0.1, 0.1);
  EXPECT_LT(r.lo, -0.099);
  EXPECT_GT(r.hi, 0.099);
}

TEST(EpilogueHost, RangeThroughCmpfAndSelect) {
  // Leaky ReLU over [-1, 1] with slope 0.25: either arm may be taken, so
  // the range joins both, [-1, 1] (the exact one is [-0.25, 1]).
  ValueRange r = range(leakyRelu(), -1.0, 1.0, {0.25});
  EXPECT_EQ(r.lo, -1.0);
  EXPECT_EQ(r.hi, 1.0);
  r = range(leakyRelu(), 0.5, 1.0, {0.25});
  EXPECT_EQ(r.lo, 0.5); // surely positive: x, exactly
  r = range(leakyRelu(), -1.0, -0.5, {0.25});
  EXPECT_NEAR(r.lo, -0.25, 1e-7); // surely negative: 0.25 x, to 2 ulps
  EXPECT_NEAR(r.hi, -0.125, 1e-7);
  EXPECT_LE(r.lo, -0.25);
}

TEST(EpilogueHost, RangeOfADivisionByZeroIsUnbounded) {
  // 1 / x over [-1, 1].
  Epilogue e =
      makeEpilogue(DType::F32, {}, {constant(1.0), {"divf", {1, 0}, "f32"}}, 2);
  ValueRange r = range(e, -1.0, 1.0);
  EXPECT_EQ(r.lo, -HUGE_VAL);
  EXPECT_EQ(r.hi, HUGE_VAL);
  r = range(e, 2.0, 4.0);
  EXPECT_NEAR(r.lo, 0.25, 1e-6);
  EXPECT_NEAR(r.hi, 0.5, 1e-6);
}

TEST(EpilogueHost, RangeOfLogBelowZeroHoldsNaN) {
  Epilogue e = makeEpilogue(DType::F32, {}, {{"log", {0}, "f32"}}, 1);
  ValueRange r = range(e, -1.0, 1.0);
  EXPECT_TRUE(r.nan);
  EXPECT_EQ(r.lo, -HUGE_VAL);
  EXPECT_FALSE(range(e, 1.0, 2.0).nan);
}

TEST(EpilogueHost, RangeOfEveryShapedEpilogueHoldsItsValue) {
  // The range over [x - d, x + d] holds the value at x, for every test
  // epilogue and a spread of x.
  std::vector<std::pair<Epilogue, std::vector<double>>> cases = {
      {biasRelu(), {0.375}},
      {geluTanh(), {}},
      {geluErf(), {}},
      {makeEpilogue(DType::F32, {}, sigmoidSteps(), 6), {}},
      {leakyRelu(), {0.125}}};
  for (auto &[e, inputs] : cases)
    for (double x = -9.0; x <= 9.0; x += 0.37)
      for (double d : {0.0, 1e-3, 0.5}) {
        ValueRange r = range(e, x - d, x + d, inputs);
        double v = evalEpilogue(e, x, inputs);
        ASSERT_TRUE(r.contains(v)) << "x=" << x << " d=" << d << " v=" << v
                                   << " [" << r.lo << ", " << r.hi << "]";
      }
}

TEST(EpilogueHost, AllowanceNorm) {
  ValueRange allowed{1.0, 3.0, false};
  EXPECT_EQ(allowanceNorm(2.0, 2.0, allowed), 0.0);
  EXPECT_EQ(allowanceNorm(2.5, 2.0, allowed), 0.5);
  EXPECT_EQ(allowanceNorm(1.0, 2.0, allowed), 1.0);
  EXPECT_EQ(allowanceNorm(4.0, 2.0, allowed), 2.0);
  EXPECT_GT(allowanceNorm(3.0 + 1e-9, 2.0, allowed), 1.0);
  // On a clamp: ReLU may give 0 where the reference is 0.5 (the range
  // reaches 0), which is far from the allowance's half-width 3.5.
  EXPECT_EQ(allowanceNorm(0.0, 0.5, ValueRange{0.0, 4.0, false}), 0.5 / 3.5);
  EXPECT_GT(allowanceNorm(-0.25, 0.5, ValueRange{0.0, 4.0, false}), 1.0);
  EXPECT_EQ(allowanceNorm(0.5, 0.0, ValueRange{0.0, 0.0, false}), HUGE_VAL);
  EXPECT_EQ(allowanceNorm(HUGE_VAL, HUGE_VAL, allowed), 0.0);
  EXPECT_EQ(allowanceNorm(HUGE_VAL, 2.0, ValueRange{1.0, HUGE_VAL, false}),
            1.0);
  EXPECT_EQ(allowanceNorm(std::nan(""), 2.0, allowed), HUGE_VAL);
}

//===----------------------------------------------------------------------===//
// compareEpilogue on simulated kernels
//===----------------------------------------------------------------------===//

/// A 64 x 48 x 256 matmul of f16 with an epilogue, its host operands (from
/// makeCheckOperands), its float64 reference and the f32 k-sums a kernel
/// computes.
struct FusedCase {
  Manifest manifest;
  GemmSpec spec;
  std::vector<HostMatrix> host;
  std::vector<double> acc, scale;
  std::vector<float> acc32;

  FusedCase(Epilogue epilogue, std::vector<Operand> inputs, DType outType) {
    const int64_t m = 64, n = 48, k = 256;
    manifest.entry = "k";
    manifest.ptx = "k.ptx";
    manifest.target = {"sm_80", "test", 80};
    manifest.op = {"matmul", 1, m, n, k, false};
    manifest.operands = {
        {"A", OperandRole::Lhs, DType::F16, {m, k}, {k, 1}, 16},
        {"B", OperandRole::Rhs, DType::F16, {k, n}, {n, 1}, 16},
        {"C", OperandRole::Out, outType, {m, n}, {n, 1}, 16}};
    for (Operand &o : inputs)
      manifest.operands.push_back(o);
    for (const Operand &o : manifest.operands)
      manifest.params.push_back({"ptr", o.name, ""});
    manifest.op.epilogue = epilogue;
    // What parseManifest() checks.
    Manifest parsed;
    EXPECT_EQ(parseManifest(writeManifest(manifest), parsed), "");
    EXPECT_EQ(describeCheckedGemm(manifest, spec), "");
    host = makeCheckOperands(manifest, spec, /*seed=*/3);
    const HostMatrix &a = host[spec.aIndex], &b = host[spec.bIndex];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0, abs = 0;
        float sum32 = 0;
        for (int64_t p = 0; p < k; ++p) {
          double x = a.get(i, p) * b.get(p, j);
          sum += x;
          abs += std::fabs(x);
          sum32 = std::fma(float(a.get(i, p)), float(b.get(p, j)), sum32);
        }
        acc.push_back(sum);
        scale.push_back(abs);
        acc32.push_back(sum32);
      }
  }

  /// The kernel's output: f(i, j, k-sum in f32) stored in C's dtype.
  HostMatrix output(const std::function<double(int64_t, int64_t, float)> &f) {
    HostMatrix out = host[spec.cIndex];
    for (int64_t i = 0; i < spec.m; ++i)
      for (int64_t j = 0; j < spec.n; ++j)
        out.set(i, j, f(i, j, acc32[i * spec.n + j]));
    return out;
  }

  /// Runs compareEpilogue() on `out` with the bounds of the matmul.
  CheckResult check(const HostMatrix &out) {
    CheckResult r;
    setBounds(spec, r);
    EXPECT_EQ(compareEpilogue(manifest, host, out, acc, scale, r), "");
    return r;
  }

  double input(size_t operand, int64_t i, int64_t j) const {
    return host[operand].get(i, j);
  }
};

/// bias (row, f16) + ReLU, all in f16, into an f16 C.
FusedCase biasReluCase() {
  return FusedCase(makeEpilogue(DType::F16, {{"bias", EpilogueInputKind::Row}},
                                {{"addf", {0, 1}, "f16"},
                                 constant(0.0, "f16"),
                                 {"maximumf", {2, 3}, "f16"}},
                                4),
                   {{"bias", OperandRole::In, DType::F16, {48}, {1}, 16}},
                   DType::F16);
}

double f16(double x) { return halfToFloat(floatToHalf(float(x))); }

TEST(EpilogueHost, CheckPassesACorrectBiasReluKernel) {
  FusedCase c = biasReluCase();
  HostMatrix out = c.output([&](int64_t, int64_t j, float acc) {
    return std::max(f16(f16(acc) + c.input(3, 0, j)), 0.0);
  });
  CheckResult r = c.check(out);
  EXPECT_TRUE(r.pass) << r.line(true);
  EXPECT_EQ(r.maxNormBound, 1.0);
  EXPECT_EQ(r.epilogueSteps, 3);
  EXPECT_LT(r.maxNorm, 0.1) << r.line(true);
  // The bound of the plain f16 check, as ReLU passes errors 1:1 or not.
  EXPECT_GT(r.frobBound, 1e-3);
  EXPECT_LT(r.frobBound, 1e-2);
}

TEST(EpilogueHost, CheckFailsAKernelThatIgnoresTheEpilogue) {
  FusedCase c = biasReluCase();
  HostMatrix out = c.output([](int64_t, int64_t, float acc) { return acc; });
  CheckResult r = c.check(out);
  EXPECT_FALSE(r.pass) << r.line(true);
  EXPECT_GT(r.maxNorm, 1.0);
  std::string line = r.line(true);
  EXPECT_NE(line.find(" FAIL "), std::string::npos) << line;
  EXPECT_NE(line.find(" epilogue=3 worst=("), std::string::npos) << line;
  EXPECT_NE(line.find(" allowed=["), std::string::npos) << line;
}

TEST(EpilogueHost, CheckFailsAKernelThatSkipsTheRelu) {
  FusedCase c = biasReluCase();
  HostMatrix out = c.output([&](int64_t, int64_t j, float acc) {
    return f16(f16(acc) + c.input(3, 0, j));
  });
  CheckResult r = c.check(out);
  EXPECT_FALSE(r.pass) << r.line(true);
  // A negative output where the reference is 0: outside its range.
  EXPECT_LT(r.worstOut, 0.0);
  EXPECT_EQ(r.worstRef, 0.0);
}

TEST(EpilogueHost, CheckFailsAKernelThatSkipsTheBias) {
  FusedCase c = biasReluCase();
  HostMatrix out = c.output(
      [](int64_t, int64_t, float acc) { return std::max(f16(acc), 0.0); });
  CheckResult r = c.check(out);
  EXPECT_FALSE(r.pass) << r.line(true);
  EXPECT_GT(r.frob, r.frobBound);
}

TEST(EpilogueHost, CheckFailsABiasReadAlongTheWrongDimension) {
  FusedCase c = biasReluCase();
  // bias[i % n] instead of bias[j]: a column bias in place of a row one.
  HostMatrix out = c.output([&](int64_t i, int64_t, float acc) {
    return std::max(f16(f16(acc) + c.input(3, 0, i % c.spec.n)), 0.0);
  });
  CheckResult r = c.check(out);
  EXPECT_FALSE(r.pass) << r.line(true);
}

TEST(EpilogueHost, CheckNamesOneWrongElement) {
  FusedCase c = biasReluCase();
  HostMatrix out = c.output([&](int64_t i, int64_t j, float acc) {
    double v = std::max(f16(f16(acc) + c.input(3, 0, j)), 0.0);
    return i == 17 && j == 5 ? v + 8.0 : v;
  });
  CheckResult r = c.check(out);
  EXPECT_FALSE(r.pass) << r.line(true);
  EXPECT_EQ(r.worstRow, 17);
  EXPECT_EQ(r.worstCol, 5);
}

/// exp(acc / 2) in f32 into an f32 C: an epilogue that weighs the largest
/// elements most.
FusedCase expCase() {
  return FusedCase(
      makeEpilogue(
          DType::F32, {},
          {constant(0.5), {"mulf", {0, 1}, "f32"}, {"exp", {2}, "f32"}}, 3),
      {}, DType::F32);
}

/// The kernel's output with every k-sum off by `rel` of itself (alternating
/// signs), as f32 accumulation over a long K leaves it.
HostMatrix expWithRelativeError(FusedCase &c, double rel) {
  return c.output([&](int64_t i, int64_t j, float) {
    double acc = c.acc[i * c.spec.n + j];
    double sign = (i + j) % 2 ? 1.0 : -1.0;
    return std::exp(0.5 * acc * (1 + sign * rel));
  });
}

TEST(EpilogueHost, CheckPassesExpOverRelativeAccumulationErrors) {
  // Each element within the Frobenius bound of its own k-sum (1e-5 here):
  // the largest elements dominate ||out - ref|| and their share of the
  // band must grow with them (an fp32 16384-deep exp(acc * scale) of the
  // random-problem run failed on the rms-wide band alone).
  FusedCase c = expCase();
  CheckResult r = c.check(expWithRelativeError(c, 6e-6));
  EXPECT_TRUE(r.pass) << r.line(true);
}

TEST(EpilogueHost, CheckFailsExpWithErrorsPastTheBound) {
  FusedCase c = expCase();
  CheckResult r = c.check(expWithRelativeError(c, 5e-5));
  EXPECT_FALSE(r.pass) << r.line(true);
  EXPECT_GT(r.frob, r.frobBound);
}

TEST(EpilogueHost, CheckFailsAnUnwrittenElement) {
  FusedCase c = biasReluCase();
  HostMatrix out = c.output([&](int64_t i, int64_t j, float acc) {
    double v = std::max(f16(f16(acc) + c.input(3, 0, j)), 0.0);
    return i == 3 && j == 4 ? std::nan("") : v;
  });
  CheckResult r = c.check(out);
  EXPECT_FALSE(r.pass) << r.line(true);
  EXPECT_EQ(r.nonFinite, 1);
}

TEST(EpilogueHost, CheckOfGeluIntoF32) {
  // A tight f32 output: GELU (tanh form) computed in f32 as a kernel would.
  FusedCase c(geluTanh(), {}, DType::F32);
  auto gelu = [](float x) {
    float inner = 0.79788456f * (x + 0.044715f * (x * x * x));
    return 0.5f * x * (1.0f + std::tanh(inner));
  };
  CheckResult r =
      c.check(c.output([&](int64_t, int64_t, float acc) { return gelu(acc); }));
  EXPECT_TRUE(r.pass) << r.line(true);
  // tanh.approx.f32 (relative error about 2^-11) still passes.
  r = c.check(c.output([&](int64_t i, int64_t j, float acc) {
    float inner = 0.79788456f * (acc + 0.044715f * (acc * acc * acc));
    float t = std::tanh(inner) * (1.0f + ((i + j) % 2 ? 1 : -1) * 0x1p-11f);
    return 0.5f * acc * (1.0f + t);
  }));
  EXPECT_TRUE(r.pass) << r.line(true);
  // Skipping it fails; so does the sigmoid form x sigmoid(1.702 x) in its
  // place (up to 0.02 off). The erf form, at most 5e-4 off, is as close
  // as tanh.approx is to tanh: no check that passes the one can tell.
  r = c.check(c.output([](int64_t, int64_t, float acc) { return acc; }));
  EXPECT_FALSE(r.pass) << r.line(true);
  r = c.check(c.output([](int64_t, int64_t, float acc) {
    return acc / (1.0f + std::exp(-1.702f * acc));
  }));
  EXPECT_FALSE(r.pass) << r.line(true);
}

TEST(EpilogueHost, CheckOfAnExpThatOverflows) {
  // exp in f16 overflows to inf for k-sums above 11.1; an infinity the
  // reference has is no error, a NaN is.
  FusedCase c(makeEpilogue(DType::F16, {}, {{"exp", {0}, "f16"}}, 1), {},
              DType::F16);
  auto right = [](int64_t, int64_t, float acc) {
    return f16(std::exp(f16(acc)));
  };
  HostMatrix out = c.output(right);
  int64_t infinities = 0;
  for (int64_t i = 0; i < out.rows; ++i)
    for (int64_t j = 0; j < out.cols; ++j)
      infinities += std::isinf(out.get(i, j));
  ASSERT_GT(infinities, 0);
  CheckResult r = c.check(out);
  EXPECT_TRUE(r.pass) << r.line(true);
  EXPECT_EQ(r.nonFinite, 0);
  r = c.check(c.output([&](int64_t i, int64_t j, float acc) {
    return i == 0 && j == 0 ? std::nan("") : right(i, j, acc);
  }));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.nonFinite, 1);
  // exp(x) - 1 in place of exp(x): a plain relative bound might let
  // large values through; the allowance does not.
  r = c.check(c.output([&](int64_t i, int64_t j, float acc) {
    return f16(right(i, j, acc) - 1.0);
  }));
  EXPECT_FALSE(r.pass) << r.line(true);
}

TEST(EpilogueHost, CheckOfEveryInputKind) {
  // out = (mm * s[i] + t) * r[i, j] + b[j] in f32, inputs of all kinds and
  // dtypes (f32 col, bf16 scalar, f16 matrix, f32 row).
  FusedCase c(makeEpilogue(DType::F32,
                           {{"S", EpilogueInputKind::Col},
                            {"T", EpilogueInputKind::Scalar},
                            {"R", EpilogueInputKind::Matrix},
                            {"Bias", EpilogueInputKind::Row}},
                           {{"mulf", {0, 1}, "f32"},  // 5
                            {"extf", {2}, "f32"},     // 6
                            {"addf", {5, 6}, "f32"},  // 7
                            {"extf", {3}, "f32"},     // 8
                            {"mulf", {7, 8}, "f32"},  // 9
                            {"addf", {9, 4}, "f32"}}, // 10
                           10),
              {{"S", OperandRole::In, DType::F32, {64}, {1}, 4},
               {"T", OperandRole::In, DType::BF16, {}, {}, 2},
               {"R", OperandRole::In, DType::F16, {64, 48}, {48, 1}, 16},
               {"Bias", OperandRole::In, DType::F32, {48}, {1}, 4}},
              DType::F32);
  auto kernel = [&](int64_t i, int64_t j, float acc, bool swapBias) {
    float s = float(c.input(3, i, 0)), t = float(c.input(4, 0, 0));
    float res = float(c.input(5, i, j));
    float bias = float(c.input(6, 0, swapBias ? (j + 1) % c.spec.n : j));
    return (acc * s + t) * res + bias;
  };
  CheckResult r = c.check(c.output([&](int64_t i, int64_t j, float acc) {
    return kernel(i, j, acc, false);
  }));
  EXPECT_TRUE(r.pass) << r.line(true);
  r = c.check(c.output([&](int64_t i, int64_t j, float acc) {
    return kernel(i, j, acc, true);
  }));
  EXPECT_FALSE(r.pass) << r.line(true);
  // The inputs are filled: every kind holds values in [-1, 1), not zeros.
  EXPECT_NE(c.input(4, 0, 0), 0.0);
  EXPECT_NE(c.input(3, 63, 0), c.input(3, 62, 0));
}

TEST(EpilogueHost, DescribeCheckedGemmSkipsTheInputs) {
  FusedCase c = biasReluCase();
  // The bias is operands[3]; A, B, C keep their manifest indices.
  EXPECT_EQ(c.spec.aIndex, 0u);
  EXPECT_EQ(c.spec.cIndex, 2u);
  EXPECT_EQ(c.host[3].rows, 1);
  EXPECT_EQ(c.host[3].cols, 48);
  // An input before C.
  Manifest m = c.manifest;
  std::swap(m.operands[2], m.operands[3]);
  GemmSpec spec;
  ASSERT_EQ(describeCheckedGemm(m, spec), "");
  EXPECT_EQ(spec.cIndex, 3u);
  m.operands[2].dtype = DType::F64;
  EXPECT_EQ(describeCheckedGemm(m, spec),
            "epilogue input 'bias' has dtype f64, which tcgen-gpu does not "
            "support yet (f16, bf16, f32, e4m3, e5m2)");
}

//===----------------------------------------------------------------------===//
// Dual GEMMs: silu(A B) * (A B2)
//===----------------------------------------------------------------------===//

/// SwiGLU in f32 into f16: values 0 A B, 1 A B2 (the product input), 2..6
/// silu(A B) (sigmoidSteps()), 7 silu(A B) * A B2, 8 its f16.
Epilogue swiGlu() {
  std::vector<EpilogueStep> steps = {{"negf", {0}, "f32"},    // 2
                                     {"exp", {2}, "f32"},     // 3
                                     constant(1.0),           // 4
                                     {"addf", {4, 3}, "f32"}, // 5
                                     {"divf", {0, 5}, "f32"}, // 6: silu
                                     {"mulf", {6, 1}, "f32"}, // 7
                                     {"truncf", {7}, "f16"}}; // 8
  return makeEpilogue(DType::F32, {{"B2", EpilogueInputKind::Product}},
                      std::move(steps), 8);
}

/// The reference of SwiGLU computed by hand: each f32 step of swiGlu() as
/// a double operation rounded to f32, then f16.
double swiGluByHand(double p, double p2) {
  double x = f32(p), y = f32(p2);
  double sigmoidDen = f32(1.0 + f32(std::exp(-x)));
  double silu = f32(x / sigmoidDen);
  return f16(f32(silu * y));
}

TEST(EpilogueHost, DualSwiGluReference) {
  Epilogue e = swiGlu();
  // silu(1.5) = 1.5 / (1 + e^-1.5) = 1.22636171..., times -0.75.
  EXPECT_EQ(eval(e, 1.5, {-0.75}), f16(-0.9197712857178492));
  EXPECT_EQ(eval(e, 1.5, {-0.75}), swiGluByHand(1.5, -0.75));
  EXPECT_EQ(eval(e, -2.0, {3.0}), f16(-0.2384058440442351 * 3.0));
  EXPECT_EQ(eval(e, 4.0, {0.0}), 0.0);
  // The product input is a k-sum, rounded to matmul_dtype like value 0:
  // in bf16, 1.003 is 1 (spacing 2^-7).
  Epilogue product =
      makeEpilogue(DType::BF16, {{"B2", EpilogueInputKind::Product}},
                   {{"mulf", {0, 1}, "bf16"}}, 2);
  EXPECT_EQ(eval(product, 1.0, {1.003}), 1.0);
  // A matrix input is read as stored: not rounded.
  Epilogue matrix =
      makeEpilogue(DType::BF16, {{"R", EpilogueInputKind::Matrix}},
                   {{"mulf", {0, 1}, "bf16"}}, 2);
  EXPECT_EQ(eval(matrix, 1.0, {1.5}), 1.5);
}

TEST(EpilogueHost, RangeCarriesTheProductInputsAllowance) {
  EpilogueProgram program;
  ASSERT_EQ(program.compile(swiGlu()), "");
  ASSERT_TRUE(program.isProduct(0));
  std::vector<ValueRange> values(program.numValues());
  double p2 = 0.0;
  // With A B2 exact at 0, the output is 0 whatever A B is (give or take
  // an f16 subnormal a GPU may flush).
  ValueRange exact = program.range(1.0, 3.0, &p2, values.data());
  EXPECT_NEAR(exact.lo, 0.0, 1e-4);
  EXPECT_NEAR(exact.hi, 0.0, 1e-4);
  // With A B2 in [-0.25, 0.25]: silu(3) * 0.25 = 0.7154... at the ends.
  double delta = 0.25;
  ValueRange wide = program.range(1.0, 3.0, &p2, values.data(), &delta);
  EXPECT_LT(wide.lo, -0.71);
  EXPECT_GT(wide.hi, 0.71);
  EXPECT_LT(wide.hi, 0.72);
}

/// A 64 x 48 x 256 dual GEMM of f16 (B row-major, B2 column-major) with the
/// SwiGLU epilogue into an f16 C: its host operands (makeCheckOperands),
/// the float64 references of both products and the f32 k-sums a kernel
/// computes.
struct DualCase {
  Manifest manifest;
  GemmSpec spec, spec2;
  std::vector<HostMatrix> host;
  std::vector<double> acc, scale;
  SecondProduct second;
  std::vector<float> acc32, acc2_32;

  DualCase() {
    const int64_t m = 64, n = 48, k = 256;
    manifest.entry = "dual";
    manifest.ptx = "dual.ptx";
    manifest.target = {"sm_90a", "test", 90};
    manifest.op = {"matmul", 1, m, n, k, false};
    manifest.op.dual = true;
    manifest.operands = {
        {"A", OperandRole::Lhs, DType::F16, {m, k}, {k, 1}, 16},
        {"B", OperandRole::Rhs, DType::F16, {k, n}, {n, 1}, 16},
        {"B2", OperandRole::Rhs2, DType::F16, {k, n}, {1, k}, 16},
        {"C", OperandRole::Out, DType::F16, {m, n}, {n, 1}, 16}};
    for (const Operand &o : manifest.operands)
      manifest.params.push_back({"ptr", o.name, ""});
    manifest.op.epilogue = swiGlu();
    Manifest parsed;
    EXPECT_EQ(parseManifest(writeManifest(manifest), parsed), "");
    EXPECT_EQ(describeCheckedGemm(manifest, spec), "");
    EXPECT_EQ(describeSecondProduct(manifest, spec, spec2), "");
    host = makeCheckOperands(manifest, spec, /*seed=*/5);
    const HostMatrix &a = host[spec.aIndex], &b = host[spec.bIndex];
    const HostMatrix &b2 = host[spec2.bIndex];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0, abs = 0, sum2 = 0, abs2 = 0;
        float sum32 = 0, sum2_32 = 0;
        for (int64_t p = 0; p < k; ++p) {
          double x = a.get(i, p) * b.get(p, j);
          double y = a.get(i, p) * b2.get(p, j);
          sum += x, abs += std::fabs(x);
          sum2 += y, abs2 += std::fabs(y);
          sum32 = std::fma(float(a.get(i, p)), float(b.get(p, j)), sum32);
          sum2_32 = std::fma(float(a.get(i, p)), float(b2.get(p, j)), sum2_32);
        }
        acc.push_back(sum), scale.push_back(abs);
        second.acc.push_back(sum2), second.scale.push_back(abs2);
        acc32.push_back(sum32), acc2_32.push_back(sum2_32);
      }
  }

  /// The kernel's output: f(i, j, A B, A B2 as f32 k-sums) stored in f16.
  HostMatrix
  output(const std::function<double(int64_t, int64_t, float, float)> &f) {
    HostMatrix out = host[spec.cIndex];
    for (int64_t i = 0; i < spec.m; ++i)
      for (int64_t j = 0; j < spec.n; ++j) {
        int64_t at = i * spec.n + j;
        out.set(i, j, f(i, j, acc32[at], acc2_32[at]));
      }
    return out;
  }

  CheckResult check(const HostMatrix &out) {
    CheckResult r;
    setBounds(spec, r);
    EXPECT_EQ(compareEpilogue(manifest, host, out, acc, scale, r, &second), "");
    return r;
  }
};

/// SwiGLU as a kernel computes it: in f32 from its f32 k-sums, into f16.
double swiGluKernel(float p, float p2) {
  float silu = p / (1.0f + std::exp(-p));
  return f16(silu * p2);
}

TEST(EpilogueHost, DualOperandsAndSecondProduct) {
  DualCase c;
  // B2 is the second product's B, in its own (column-major) layout, filled
  // like B (uniform in [-1, 1), stored in f16) but not with B's values.
  EXPECT_EQ(c.spec2.bIndex, 2u);
  EXPECT_EQ(c.spec2.aIndex, c.spec.aIndex);
  EXPECT_EQ(c.spec2.b.stride0, 1);
  EXPECT_EQ(c.spec2.b.stride1, 256);
  const HostMatrix &b = c.host[1], &b2 = c.host[2];
  int64_t same = 0;
  for (int64_t p = 0; p < 256; ++p)
    for (int64_t j = 0; j < 48; ++j) {
      same += b.get(p, j) == b2.get(p, j);
      ASSERT_GE(b2.get(p, j), -1.0);
      ASSERT_LE(b2.get(p, j), 1.0); // [-1, 1) rounded to f16
    }
  EXPECT_LT(same, 100);
  // The output is poisoned until the kernel writes it.
  EXPECT_TRUE(std::isnan(c.host[3].get(0, 0)));
}

TEST(EpilogueHost, CheckPassesACorrectDualKernel) {
  DualCase c;
  CheckResult r = c.check(c.output(
      [](int64_t, int64_t, float p, float p2) { return swiGluKernel(p, p2); }));
  EXPECT_TRUE(r.pass) << r.line(true);
  EXPECT_EQ(r.epilogueSteps, 7);
  EXPECT_LT(r.maxNorm, 0.1) << r.line(true);
}

TEST(EpilogueHost, CheckComparesWithTheHandComputedReference) {
  // One wrong element: the check names it, and its reference is
  // silu(A B) * A B2 computed by hand from the float64 k-sums.
  DualCase c;
  CheckResult r = c.check(c.output([](int64_t i, int64_t j, float p, float p2) {
    double v = swiGluKernel(p, p2);
    return i == 17 && j == 5 ? v + 4.0 : v;
  }));
  EXPECT_FALSE(r.pass) << r.line(true);
  ASSERT_EQ(r.worstRow, 17);
  ASSERT_EQ(r.worstCol, 5);
  int64_t at = 17 * c.spec.n + 5;
  EXPECT_EQ(r.worstRef, swiGluByHand(c.acc[at], c.second.acc[at]));
}

TEST(EpilogueHost, CheckFailsDualKernelsThatMixUpTheProducts) {
  DualCase c;
  std::vector<std::pair<const char *,
                        std::function<double(int64_t, int64_t, float, float)>>>
      wrong = {
          // silu(A B) alone, as if A B2 were 1.
          {"no second product",
           [](int64_t, int64_t, float p, float) { return swiGluKernel(p, 1); }},
          // The products swapped: silu(A B2) * A B.
          {"swapped", [](int64_t, int64_t, float p,
                         float p2) { return swiGluKernel(p2, p); }},
          // B read for B2: silu(A B) * A B.
          {"B for B2",
           [](int64_t, int64_t, float p, float) { return swiGluKernel(p, p); }},
          // A B2 transposed: B2 read row-major though it is column-major.
          {"B2 transposed", [&c](int64_t i, int64_t j, float p, float) {
             return swiGluKernel(p, c.acc2_32[i * c.spec.n + (j + 1) % 48]);
           }}};
  for (auto &[name, f] : wrong) {
    CheckResult r = c.check(c.output(f));
    EXPECT_FALSE(r.pass) << name << ": " << r.line(true);
  }
}

TEST(EpilogueHost, CheckAllowsTheSecondProductItsOwnError) {
  // A B2 off by 0.01 (alternating signs), as a long K's f32 sums may be:
  // within its allowance, which carries through silu(A B) * A B2 even
  // where A B2 is near 0 and A B's allowance alone would give nothing.
  DualCase c;
  auto offBy = [](double err) {
    return [err](int64_t i, int64_t j, float p, float p2) {
      return swiGluKernel(p, p2 + float((i + j) % 2 ? err : -err));
    };
  };
  CheckResult r = c.check(c.output(offBy(0.01)));
  EXPECT_TRUE(r.pass) << r.line(true);
  r = c.check(c.output(offBy(1.0)));
  EXPECT_FALSE(r.pass) << r.line(true);
}

TEST(EpilogueHost, CompareEpilogueNeedsTheSecondProduct) {
  DualCase c;
  HostMatrix out = c.output(
      [](int64_t, int64_t, float p, float p2) { return swiGluKernel(p, p2); });
  CheckResult r;
  setBounds(c.spec, r);
  EXPECT_EQ(compareEpilogue(c.manifest, c.host, out, c.acc, c.scale, r),
            "op.epilogue reads a second product (op.dual), but its reference "
            "is missing");
}

} // namespace
