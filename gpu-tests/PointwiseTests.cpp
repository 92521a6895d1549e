//===- PointwiseTests.cpp - The fusion baselines' pointwise kernels -------===//
//
// This file implements the GpuPointwise.* tests of tcgen-gpu-tests: every
// launcher of bench/Pointwise.h against a float64 host reference computed
// from the same rounded inputs, over dtype mixes and over the layouts that
// pick each code path (dense, padded rows, rows with a scalar tail,
// unaligned pointers or leading dimensions, a broadcast bias). They skip
// where no device is found. BenchHost.Pointwise* are the refusals that
// need no device.
//
//===----------------------------------------------------------------------===//

#include "CudaUtil.h"
#include "DeviceSkip.h"
#include "HostTensor.h"
#include "Pointwise.h"
#include "tcgen/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace tcgen;
using namespace tcgen::bench;

namespace {


/// A row-major matrix on the host and its device copy, `offset` elements
/// past a 256-byte aligned allocation (offset 1 makes the pointer
/// unaligned for the vector path).
struct Matrix {
  HostMatrix host;
  DeviceBuffer device;
  int64_t offset = 0;

  void create(DType dtype, int64_t rows, int64_t cols, int64_t ld,
              uint64_t seed, int64_t offsetElements = 0) {
    offset = offsetElements;
    host.allocate(dtype, rows, cols, std::max<int64_t>(ld, 1), 1);
    host.fillRandom(seed, /*stream=*/0);
    // Scale so that GELU sees its whole curve, not just [-1, 1).
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        host.set(i, j, 3.0 * host.get(i, j));
    size_t size = dtypeSize(dtype);
    ASSERT_EQ(device.allocate(host.bytes.size() + offset * size), "");
    ASSERT_EQ(formatCuda("cudaMemcpy",
                         cudaMemcpy(data(), host.bytes.data(),
                                    host.bytes.size(), cudaMemcpyHostToDevice)),
              "");
  }
  /// Poisoned with NaN on the device, for outputs.
  void createOutput(DType dtype, int64_t rows, int64_t cols, int64_t ld,
                    int64_t offsetElements = 0) {
    offset = offsetElements;
    host.allocate(dtype, rows, cols, ld, 1);
    host.poisonNaN();
    size_t size = dtypeSize(dtype);
    ASSERT_EQ(device.allocate(host.bytes.size() + offset * size), "");
    ASSERT_EQ(formatCuda("cudaMemcpy",
                         cudaMemcpy(data(), host.bytes.data(),
                                    host.bytes.size(), cudaMemcpyHostToDevice)),
              "");
  }
  void download() {
    ASSERT_EQ(formatCuda("cudaMemcpy",
                         cudaMemcpy(host.bytes.data(), data(),
                                    host.bytes.size(), cudaMemcpyDeviceToHost)),
              "");
  }
  void *data() const {
    return static_cast<char *>(device.get()) + offset * dtypeSize(host.dtype);
  }
  PwInput in(bool broadcast = false) const {
    return {data(), host.dtype, broadcast ? 0 : host.stride0};
  }
  PwOutput out() const { return {data(), host.dtype, host.stride0}; }
};

/// The rounding error of one store in `dtype`, relative.
double relTolerance(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return std::ldexp(1.0, -8);
  case DType::F16:
    return std::ldexp(1.0, -10);
  default:
    return 1e-5; // f32 compute (tanhf) against float64
  }
}

/// Compares out with ref(i, j) on every element, stopping at the first
/// few mismatches; also checks that the padding past n was not written.
void expectMatches(const Matrix &out, int64_t m, int64_t n,
                   const std::function<double(int64_t, int64_t)> &ref) {
  double tol = relTolerance(out.host.dtype);
  int failures = 0;
  for (int64_t i = 0; i < m && failures < 5; ++i)
    for (int64_t j = 0; j < n && failures < 5; ++j) {
      double want = ref(i, j), got = out.host.get(i, j);
      // Inputs are O(1): an absolute floor of tol covers cancellation.
      if (!(std::fabs(got - want) <= tol * (std::fabs(want) + 1.0))) {
        ADD_FAILURE() << "(" << i << ", " << j << "): got " << got << ", want "
                      << want;
        ++failures;
      }
    }
  // The padding of every row but the last (whose storage ends at n).
  for (int64_t i = 0; i + 1 < m && failures < 5; ++i)
    for (int64_t j = n; j < out.host.stride0 && failures < 5; ++j)
      if (!std::isnan(out.host.get(i, j))) {
        ADD_FAILURE() << "padding (" << i << ", " << j << ") was written";
        ++failures;
      }
}

/// A layout that selects one code path.
struct Shape {
  const char *what;
  int64_t m, n, ld;
  int64_t offset; // elements past an aligned base, for every operand
};
const Shape kShapes[] = {
    {"dense", 64, 96, 96, 0},         // one long row, vectors only
    {"dense-tail", 7, 13, 13, 0},     // one long row, 91 % 8 left over
    {"padded", 33, 64, 72, 0},        // rows of vectors, ld > n
    {"row-tail", 9, 21, 24, 0},       // vectors then 5 scalar columns a row
    {"unaligned-ld", 10, 24, 27, 0},  // ld % 8 != 0: scalar kernel
    {"unaligned-ptr", 16, 32, 32, 1}, // pointers off by one element
    {"narrow", 300, 8, 8, 0},         // one vector a row
};

const DType kTypes[] = {DType::F16, DType::BF16, DType::F32};

std::string label(const Shape &s, DType a, DType b, DType o) {
  return std::string(s.what) + " " + dtypeName(a) + "," + dtypeName(b) + "->" +
         dtypeName(o);
}

/// A two-input pointwise kernel of Pointwise.h.
using BinaryKernel = std::string (*)(const PwInput &, const PwInput &,
                                     const PwOutput &, int64_t, int64_t,
                                     cudaStream_t);

/// Runs `kernel` on random inputs (seeds `seed`, `seed + 1`) in every pair
/// of dtypes into every output dtype and every shape, and compares each
/// element with want(x, y) of the inputs as the kernel reads them (f32).
void expectBinaryMatches(BinaryKernel kernel, uint64_t seed,
                         double (*want)(float, float)) {
  for (const Shape &s : kShapes)
    for (DType t1 : kTypes)
      for (DType t2 : kTypes)
        for (DType to : kTypes) {
          SCOPED_TRACE(label(s, t1, t2, to));
          Matrix x, y, out;
          x.create(t1, s.m, s.n, s.ld, seed, s.offset);
          y.create(t2, s.m, s.n, s.ld, seed + 1, s.offset);
          out.createOutput(to, s.m, s.n, s.ld, s.offset);
          ASSERT_EQ(kernel(x.in(), y.in(), out.out(), s.m, s.n, nullptr), "");
          ASSERT_EQ(formatCuda("sync", cudaDeviceSynchronize()), "");
          out.download();
          expectMatches(out, s.m, s.n, [&](int64_t i, int64_t j) {
            return want(float(x.host.get(i, j)), float(y.host.get(i, j)));
          });
        }
}

TEST(GpuPointwise, AddReluMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  expectBinaryMatches(addRelu, 1, [](float c, float d) {
    return std::max(0.0, double(c + d));
  });
}

TEST(GpuPointwise, AddScalarMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  for (const Shape &s : kShapes)
    for (DType tc : kTypes)
      for (DType to : kTypes) {
        SCOPED_TRACE(label(s, tc, tc, to));
        Matrix c, out;
        c.create(tc, s.m, s.n, s.ld, 3, s.offset);
        out.createOutput(to, s.m, s.n, s.ld, s.offset);
        const float scalar = -0.375f;
        ASSERT_EQ(addScalar(c.in(), scalar, out.out(), s.m, s.n, nullptr), "");
        ASSERT_EQ(formatCuda("sync", cudaDeviceSynchronize()), "");
        out.download();
        expectMatches(out, s.m, s.n, [&](int64_t i, int64_t j) {
          return double(float(c.host.get(i, j)) + scalar);
        });
      }
}

TEST(GpuPointwise, BiasGeluResidualMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  for (const Shape &s : kShapes)
    for (DType tc : kTypes)
      for (DType tb : kTypes)
        for (DType to : kTypes) {
          DType tr = to; // the residual usually has the output's dtype
          SCOPED_TRACE(label(s, tc, tb, to));
          Matrix c, bias, r, out;
          c.create(tc, s.m, s.n, s.ld, 4, s.offset);
          bias.create(tb, 1, s.n, s.n, 5, s.offset);
          r.create(tr, s.m, s.n, s.ld, 6, s.offset);
          out.createOutput(to, s.m, s.n, s.ld, s.offset);
          ASSERT_EQ(biasGeluResidual(c.in(), bias.data(), tb, r.in(), out.out(),
                                     s.m, s.n, nullptr),
                    "");
          ASSERT_EQ(formatCuda("sync", cudaDeviceSynchronize()), "");
          out.download();
          expectMatches(out, s.m, s.n, [&](int64_t i, int64_t j) {
            double x = double(float(c.host.get(i, j))) + bias.host.get(0, j);
            double g =
                0.5 * x *
                (1.0 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
            return g + r.host.get(i, j);
          });
        }
}

TEST(GpuPointwise, ReluMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  for (const Shape &s : kShapes)
    for (DType tx : kTypes)
      for (DType ty : kTypes) {
        SCOPED_TRACE(label(s, tx, tx, ty));
        Matrix x, y;
        x.create(tx, s.m, s.n, s.ld, 7, s.offset);
        y.createOutput(ty, s.m, s.n, s.ld, s.offset);
        ASSERT_EQ(relu(x.in(), y.out(), s.m, s.n, nullptr), "");
        ASSERT_EQ(formatCuda("sync", cudaDeviceSynchronize()), "");
        y.download();
        expectMatches(y, s.m, s.n, [&](int64_t i, int64_t j) {
          return std::max(0.0, x.host.get(i, j));
        });
      }
}

TEST(GpuPointwise, ReluInplaceMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  for (const Shape &s : kShapes)
    for (DType tx : kTypes) {
      SCOPED_TRACE(label(s, tx, tx, tx));
      Matrix x;
      x.create(tx, s.m, s.n, s.ld, 8, s.offset);
      HostMatrix before = x.host;
      ASSERT_EQ(reluInplace(x.out(), s.m, s.n, nullptr), "");
      ASSERT_EQ(formatCuda("sync", cudaDeviceSynchronize()), "");
      x.download();
      int failures = 0;
      for (int64_t i = 0; i < s.m && failures < 5; ++i)
        for (int64_t j = 0; j < (i + 1 < s.m ? s.ld : s.n) && failures < 5;
             ++j) {
          // Columns past n are padding and must stay as they were.
          double want =
              j < s.n ? std::max(0.0, before.get(i, j)) : before.get(i, j);
          if (x.host.get(i, j) != want) {
            ADD_FAILURE() << "(" << i << ", " << j << "): got "
                          << x.host.get(i, j) << ", want " << want;
            ++failures;
          }
        }
    }
}

TEST(GpuPointwise, AddMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  expectBinaryMatches(add, 9, [](float c1, float c2) { return double(c1 + c2); });
}

/// copyMatrices: `batch` matrices of rows x cols from a strided source into
/// a strided destination; every copied element must equal its source, and
/// nothing else of the (NaN-poisoned) destination may be written.
void expectCopy(DType dtype, int64_t batch, int64_t rows, int64_t cols,
                int64_t srcBatch, int64_t srcLd, int64_t dstBatch,
                int64_t dstLd, int64_t offset) {
  SCOPED_TRACE(std::string(dtypeName(dtype)) + " batch " +
               std::to_string(batch) + " " + std::to_string(rows) + "x" +
               std::to_string(cols) + " offset " + std::to_string(offset));
  int64_t srcSpan = (batch - 1) * srcBatch + (rows - 1) * srcLd + cols;
  int64_t dstSpan = (batch - 1) * dstBatch + (rows - 1) * dstLd + cols;
  Matrix src, dst;
  src.create(dtype, 1, srcSpan, srcSpan, 7, offset);
  dst.createOutput(dtype, 1, dstSpan, dstSpan, offset);
  ASSERT_EQ(copyMatrices(src.data(), srcBatch, srcLd, dst.data(), dstBatch,
                         dstLd, batch, rows, cols, dtypeSize(dtype), nullptr),
            "");
  ASSERT_EQ(formatCuda("sync", cudaDeviceSynchronize()), "");
  dst.download();
  std::vector<bool> written(size_t(dstSpan), false);
  int failures = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols && failures < 5; ++j) {
        int64_t to = b * dstBatch + i * dstLd + j;
        double want = src.host.get(0, b * srcBatch + i * srcLd + j);
        double got = dst.host.get(0, to);
        written[size_t(to)] = true;
        if (!(got == want)) {
          ADD_FAILURE() << "(" << b << ", " << i << ", " << j << "): got "
                        << got << ", want " << want;
          ++failures;
        }
      }
  for (int64_t e = 0; e < dstSpan && failures < 5; ++e)
    if (!written[size_t(e)] && !std::isnan(dst.host.get(0, e))) {
      ADD_FAILURE() << "element " << e << " was written";
      ++failures;
    }
}

TEST(GpuPointwise, CopyMatricesPermutesEveryElement) {
  SKIP_WITHOUT_GPU();
  // B[l][k][j] into [k][l][j] (the 3-d contraction's B): 16-byte units.
  expectCopy(DType::F16, 4, 8, 32, /*srcBatch=*/32, /*srcLd=*/4 * 32,
             /*dstBatch=*/8 * 32, /*dstLd=*/32, 0);
  // A[i][k][l] into [i][k l] with padded rows, f32 and bf16.
  expectCopy(DType::F32, 3, 5, 8, 8, 3 * 8 + 4, 8, 3 * 8, 0);
  expectCopy(DType::BF16, 3, 5, 16, 16, 3 * 16, 16, 3 * 16 + 8, 0);
  // Odd columns, an unaligned pointer: one element per thread.
  expectCopy(DType::F16, 3, 7, 13, 13, 3 * 13, 7 * 13, 13, 0);
  expectCopy(DType::F16, 2, 4, 16, 16, 2 * 16, 4 * 16, 16, 1);
}

// Neither of these reaches the driver, so they run anywhere.
TEST(BenchHost, PointwiseEmptyMatrixLaunchesNothing) {
  EXPECT_EQ(addRelu({nullptr, DType::F16, 0}, {nullptr, DType::F16, 0},
                    {nullptr, DType::F16, 0}, 0, 16, nullptr),
            "");
  EXPECT_EQ(relu({nullptr, DType::F16, 16}, {nullptr, DType::F16, 16}, 16, 0,
                 nullptr),
            "");
}

TEST(BenchHost, PointwiseUnsupportedDTypeIsNamed) {
  EXPECT_EQ(
      relu({nullptr, DType::F64, 8}, {nullptr, DType::F16, 8}, 1, 8, nullptr),
      "relu: input dtype f64 is not supported (f16, bf16 or f32)");
  EXPECT_EQ(add({nullptr, DType::F16, 8}, {nullptr, DType::F16, 8},
                {nullptr, DType::I8, 8}, 1, 8, nullptr),
            "add: output dtype i8 is not supported (f16, bf16 or f32)");
  EXPECT_EQ(copyMatrices(nullptr, 0, 8, nullptr, 0, 8, 1, 1, 8, 1, nullptr),
            "copyMatrices: elements of 1 bytes are not supported (2 or 4)");
  EXPECT_EQ(copyMatrices(nullptr, 0, 8, nullptr, 0, 8, 0, 1, 8, 2, nullptr),
            "");
}

} // namespace
