//===- EpilogueKernelTests.cpp - The generated epilogue kernel ------------===//
//
// This file implements the tests of bench/EpilogueKernel.h, the pointwise
// kernel the dual-GEMM baselines generate from a bundle's epilogue:
// BenchHost.EpilogueKernel* write its source for SwiGLU and for an epilogue
// of every op, predicate, dtype and input kind and compile it with NVRTC
// (no device needed), and check the refusals; GpuEpilogueKernel.* run it
// over the layouts that pick each code path against the float64 reference
// of EpilogueRef.h, and skip where no device is found.
//
//===----------------------------------------------------------------------===//

#include "CudaUtil.h"
#include "DeviceSkip.h"
#include "EpilogueKernel.h"
#include "EpilogueRef.h"
#include "HostTensor.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tcgen;
using namespace tcgen::bench;

namespace {

EpilogueStep constant(double value, const char *dtype = "f32") {
  return {"constant", {}, dtype, value};
}

/// silu(P + bias[j]) * P2 + R[i, j] in f32 into `out`: values 0 P, 1 the
/// bias (row), 2 P2 (the product input), 3 R (matrix).
Epilogue swiGluBiasResidual(const char *out = "f16") {
  Epilogue e;
  e.matmulDType = DType::F32;
  e.inputs = {{"bias", EpilogueInputKind::Row},
              {"B2", EpilogueInputKind::Product},
              {"R", EpilogueInputKind::Matrix}};
  e.steps = {{"addf", {0, 1}, "f32"},  // 4: x
             {"negf", {4}, "f32"},     // 5
             {"exp", {5}, "f32"},      // 6
             constant(1.0),            // 7
             {"addf", {7, 6}, "f32"},  // 8
             {"divf", {4, 8}, "f32"},  // 9: silu(x)
             {"mulf", {9, 2}, "f32"},  // 10
             {"addf", {10, 3}, "f32"}, // 11
             {"truncf", {11}, out}};   // 12
  e.result = 12;
  if (std::string(out) == "f32") {
    e.steps.pop_back();
    e.result = 11;
  }
  return e;
}

/// The reads of swiGluBiasResidual() for an [m, n] problem whose products
/// lie in one [m, ld] scratch (P at column 0, P2 at some column): the bias
/// a contiguous row, R and the output row-major with rows `rowLd` apart
/// (default n).
EwLayout swiGluLayout(int64_t n, int64_t ld, DType productType,
                      int64_t rowLd = 0) {
  EwLayout l;
  l.values = {{productType, ld, 1},
              {DType::F16, 0, 1},
              {productType, ld, 1},
              {DType::BF16, rowLd ? rowLd : n, 1}};
  l.outType = DType::F16;
  l.outLd = rowLd ? rowLd : n;
  return l;
}

/// An epilogue that uses every step op, every cmpf predicate, every float
/// dtype and every input kind, in the dtypes the manifest allows.
Epilogue everyOp() {
  Epilogue e;
  e.matmulDType = DType::F32;
  e.inputs = {{"s", EpilogueInputKind::Scalar},
              {"r", EpilogueInputKind::Row},
              {"c", EpilogueInputKind::Col},
              {"m", EpilogueInputKind::Matrix},
              {"B2", EpilogueInputKind::Product}};
  int64_t next = 6;
  auto add = [&](EpilogueStep step) {
    e.steps.push_back(std::move(step));
    return next++;
  };
  int64_t x = 0;
  for (const char *op : {"addf", "subf", "mulf", "divf", "maximumf", "minimumf",
                         "maxnumf", "minnumf", "powf"})
    x = add({op, {x, 1 + (x % 5)}, "f32"});
  for (const char *op :
       {"negf", "absf", "exp", "exp2", "log", "tanh", "erf", "sqrt", "rsqrt"})
    x = add({op, {x}, "f32"});
  int64_t inf = add(constant(INFINITY)), nan = add(constant(NAN));
  int64_t small = add(constant(-0.1));
  for (const char *p :
       {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
        "uge", "ult", "ule", "une", "uno", "true"}) {
    int64_t c = add({"cmpf", {x, small}, "i1", 0, p});
    x = add({"select", {c, x, p[0] == 'u' ? inf : nan}, "f32"});
  }
  // Through f64, f16 and bf16 and back.
  int64_t d = add({"extf", {x}, "f64"});
  d = add({"addf", {d, d}, "f64"});
  d = add({"exp", {d}, "f64"});
  d = add({"maximumf", {d, add(constant(-1.0, "f64"))}, "f64"});
  int64_t cd = add({"cmpf", {d, d}, "i1", 0, "olt"});
  d = add({"select", {cd, d, d}, "f64"});
  int64_t h = add({"truncf", {d}, "f16"});
  h = add({"mulf", {h, add(constant(0.5, "f16"))}, "f16"});
  x = add({"extf", {h}, "f32"});
  int64_t b = add({"truncf", {x}, "bf16"});
  b = add({"minimumf", {b, b}, "bf16"});
  x = add({"extf", {b}, "f32"});
  e.steps.push_back({"truncf", {x}, "f16"});
  e.result = next;
  return e;
}

EwLayout everyOpLayout() {
  EwLayout l;
  l.values = {{DType::F32, 64, 1}, // P
              {DType::F32, 0, 0},  // s
              {DType::BF16, 0, 1}, // r
              {DType::F16, 1, 0},  // c
              {DType::F16, 1, 64}, // m, column-major
              {DType::F32, 64, 1}};
  l.outType = DType::F16;
  l.outLd = 64;
  return l;
}

TEST(BenchHost, EpilogueKernelCompilesSwiGlu) {
  std::string source, cubin;
  ASSERT_EQ(epilogueKernelSource(swiGluBiasResidual(),
                                 swiGluLayout(96, 192, DType::BF16), source),
            "");
  // The layout is fixed in the source: P and P2 rows 192 apart, R's 96.
  EXPECT_NE(source.find("tcgen_read<1, 192LL, 1LL, W>(r0"), std::string::npos)
      << source;
  EXPECT_NE(source.find("tcgen_read<1, 96LL, 1LL, W>(r3"), std::string::npos);
  EXPECT_NE(source.find("tcgen_write<0, W>(out, i * 96LL + j"),
            std::string::npos);
  for (int cc : {80, 90}) {
    EXPECT_EQ(compileEpilogueKernel(source, cc, cubin), "") << source;
    EXPECT_GT(cubin.size(), 1000u);
  }
}

TEST(BenchHost, EpilogueKernelCompilesEveryOp) {
  std::string source, cubin;
  ASSERT_EQ(epilogueKernelSource(everyOp(), everyOpLayout(), source), "");
  EXPECT_EQ(compileEpilogueKernel(source, 90, cubin), "") << source;
  // Non-finite constants are written as bit patterns.
  EXPECT_NE(source.find("__int_as_float(0x7f800000)"), std::string::npos);
  // An f32 output too.
  ASSERT_EQ(epilogueKernelSource(
                swiGluBiasResidual("f32"),
                [] {
                  EwLayout l = swiGluLayout(96, 96, DType::F32);
                  l.outType = DType::F32;
                  return l;
                }(),
                source),
            "");
  EXPECT_EQ(compileEpilogueKernel(source, 90, cubin), "") << source;
}

TEST(BenchHost, EpilogueKernelRefusesWhatItCannotRead) {
  std::string source;
  EwLayout l = swiGluLayout(96, 96, DType::F32);
  l.values.pop_back();
  EXPECT_EQ(epilogueKernelSource(swiGluBiasResidual(), l, source),
            "the pointwise kernel reads the matmul result and 3 inputs, got "
            "3 reads");
  l = swiGluLayout(96, 96, DType::F64);
  EXPECT_EQ(epilogueKernelSource(swiGluBiasResidual(), l, source),
            "the pointwise kernel reads f16, bf16 or f32, not f64 (value 0)");
  l = swiGluLayout(96, 96, DType::F32);
  l.outType = DType::E4M3;
  EXPECT_EQ(epilogueKernelSource(swiGluBiasResidual(), l, source),
            "the pointwise kernel writes f16, bf16 or f32, not e4m3");
  Epilogue e = swiGluBiasResidual();
  e.steps[0].op = "fma";
  EXPECT_EQ(epilogueKernelSource(e, swiGluLayout(96, 96, DType::F32), source),
            "op.epilogue.ops[0]: cannot write 'fma'");
}

TEST(BenchHost, EpilogueKernelCompileErrorsCarryTheLog) {
  std::string cubin;
  std::string error = compileEpilogueKernel("this is not C++", 90, cubin);
  EXPECT_NE(error.find("nvrtcCompileProgram (--gpu-architecture=sm_90)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("error"), std::string::npos) << error;
}

/// A device copy of a host matrix (its bytes as laid out).
struct Device {
  HostMatrix host;
  DeviceBuffer buffer;
  void upload() {
    ASSERT_EQ(buffer.allocate(host.bytes.size()), "");
    ASSERT_EQ(buffer.upload(host.bytes.data(), host.bytes.size()), "");
  }
};

/// Runs swiGluBiasResidual() over [m, n] with P and P2 in one [m, ld]
/// scratch of `productType` (P2 at column `p2Column`), R and the output
/// rows `rowLd` apart, and compares every element with
/// EpilogueProgram::eval on the same values: the kernel rounds like the
/// reference, up to f32 contraction (within an f16 ulp).
void expectSwiGluMatches(int64_t m, int64_t n, int64_t ld, int64_t p2Column,
                         DType productType, int64_t rowLd) {
  SCOPED_TRACE("m " + std::to_string(m) + " n " + std::to_string(n) + " ld " +
               std::to_string(ld) + " p2 at " + std::to_string(p2Column) +
               " rows " + std::to_string(rowLd));
  Device products, bias, residual, out;
  products.host.allocate(productType, m, ld, ld, 1);
  products.host.fillRandom(7, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < ld; ++j)
      products.host.set(i, j, 6.0 * products.host.get(i, j));
  bias.host.allocate(DType::F16, 1, n, 0, 1);
  bias.host.fillRandom(7, 1);
  residual.host.allocate(DType::BF16, m, n, rowLd, 1);
  residual.host.fillRandom(7, 2);
  out.host.allocate(DType::F16, m, n, rowLd, 1);
  out.host.poisonNaN();
  for (Device *d : {&products, &bias, &residual, &out})
    d->upload();
  EwLayout layout = swiGluLayout(n, ld, productType, rowLd);
  EpilogueKernel kernel;
  ASSERT_EQ(kernel.init(swiGluBiasResidual(), layout), "");
  size_t bytes = dtypeSize(productType);
  const char *base = static_cast<const char *>(products.buffer.get());
  ASSERT_EQ(kernel.run({base, bias.buffer.get(), base + p2Column * bytes,
                        residual.buffer.get()},
                       out.buffer.get(), m, n, nullptr),
            "");
  ASSERT_EQ(formatCuda("cudaDeviceSynchronize", cudaDeviceSynchronize()), "");
  ASSERT_EQ(out.buffer.download(out.host.bytes.data(), out.host.bytes.size()),
            "");
  EpilogueProgram program;
  ASSERT_EQ(program.compile(swiGluBiasResidual()), "");
  std::vector<double> values(program.numValues());
  int64_t bad = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double x[3] = {bias.host.get(0, j), products.host.get(i, p2Column + j),
                     residual.host.get(i, j)};
      double ref = program.eval(products.host.get(i, j), x, values.data());
      double got = out.host.get(i, j);
      if (!(std::fabs(got - ref) <= std::ldexp(std::fabs(ref), -10) + 1e-6) &&
          bad++ < 5)
        ADD_FAILURE() << "(" << i << ", " << j << "): " << got << " vs " << ref;
    }
  EXPECT_EQ(bad, 0);
}

TEST(GpuEpilogueKernel, MatchesTheHostOnTwoScratches) {
  SKIP_WITHOUT_GPU();
  // "cublas x2 + pointwise": P and P2 rows n apart (here in one buffer of
  // 2n columns, P2 from column n), n a multiple of 8: the vector kernel.
  expectSwiGluMatches(64, 96, 192, 96, DType::BF16, 96);
  expectSwiGluMatches(33, 64, 128, 64, DType::F32, 64);
}

TEST(GpuEpilogueKernel, MatchesTheHostOnTheConcatenatedScratchAndTails) {
  SKIP_WITHOUT_GPU();
  // n = 100 with rows padded to 104: the vector kernel on 96 columns, the
  // scalar one on the last 4. P2 at column 100 is 8-byte aligned only, and
  // rows 37 apart are not 16-byte multiples: the scalar kernel everywhere.
  expectSwiGluMatches(17, 100, 208, 104, DType::F16, 104);
  expectSwiGluMatches(17, 100, 200, 100, DType::F16, 104);
  expectSwiGluMatches(5, 37, 74, 37, DType::F16, 37);
}

} // namespace
