//===- HostTensor.cpp - Host copies of matrix operands --------------------===//
//
// This file implements HostMatrix and the f16/bf16 conversions.
//
//===----------------------------------------------------------------------===//

#include "HostTensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

using namespace tcgen;
using namespace tcgen::bench;

uint16_t tcgen::bench::floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) // Inf or NaN
    return sign | (absx > 0x7f800000 ? 0x7e00 : 0x7c00);
  if (absx >= 0x477ff000) // Rounds to >= 65520: overflow to Inf.
    return sign | 0x7c00;
  if (absx < 0x38800000) { // Below the smallest normal half (2^-14).
    // Denormal half: value = mant * 2^-24, round to nearest even.
    float f;
    std::memcpy(&f, &absx, 4);
    float scaled = f * 16777216.0f;   // 2^24, exact
    float r = std::nearbyint(scaled); // FE_TONEAREST: ties to even
    return sign | static_cast<uint16_t>(r);
  }
  uint32_t mant = absx & 0x7fffff;
  uint32_t exp = (absx >> 23) - 127 + 15;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // May carry into the exponent, which is still correct.
  return sign | h;
}

float tcgen::bench::halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  float f;
  if (exp == 0) {
    f = std::ldexp(static_cast<float>(mant), -24);
    uint32_t x;
    std::memcpy(&x, &f, 4);
    x |= sign;
    std::memcpy(&f, &x, 4);
    return f;
  }
  uint32_t x;
  if (exp == 31)
    x = sign | 0x7f800000 | (mant << 13);
  else
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t tcgen::bench::floatToBF16(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40); // quiet NaN
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float tcgen::bench::bf16ToFloat(uint16_t bits) {
  uint32_t x = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

namespace {
/// The fields of an 8-bit float: exponent and mantissa bits, bias, the
/// largest finite value.
struct FP8Format {
  int mantissaBits, bias;
  double maxFinite;
};
FP8Format fp8Format(DType dtype) {
  return dtype == DType::E4M3 ? FP8Format{3, 7, 448.0}
                              : FP8Format{2, 15, 57344.0};
}
} // namespace

uint8_t tcgen::bench::doubleToFP8(double value, DType dtype) {
  FP8Format f = fp8Format(dtype);
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value))
    return 0x7f;
  double a = std::fabs(value);
  // Saturating (satfinite): beyond the largest finite value, that value.
  if (a > f.maxFinite)
    a = f.maxFinite;
  int exponent = std::ilogb(a);
  int minExponent = 1 - f.bias;
  if (a == 0 || exponent < minExponent)
    exponent = minExponent; // subnormal: a multiple of 2^(minExp - M)
  // Round to nearest, ties to even, on the grid of the value's binade.
  double quantum = std::ldexp(1.0, exponent - f.mantissaBits);
  double q = std::nearbyint(a / quantum);
  int64_t steps = static_cast<int64_t>(q);
  int64_t unit = int64_t(1) << f.mantissaBits;
  if (a >= std::ldexp(1.0, minExponent) || steps >= unit) {
    // Normal (possibly rounded up into the next binade).
    if (steps >= 2 * unit) {
      ++exponent;
      steps /= 2;
    }
    if (std::ldexp(double(steps), exponent - f.mantissaBits) > f.maxFinite)
      return sign | doubleToFP8(f.maxFinite, dtype); // exact: no recursion
    if (steps < unit) // a subnormal that rounded up to the smallest normal
      steps = unit;
    int64_t field = exponent + f.bias;
    return sign | uint8_t((field << f.mantissaBits) | (steps - unit));
  }
  return sign | uint8_t(steps); // subnormal: exponent field 0
}

double tcgen::bench::fp8ToDouble(uint8_t bits, DType dtype) {
  FP8Format f = fp8Format(dtype);
  int exponentBits = 7 - f.mantissaBits;
  int field = (bits >> f.mantissaBits) & ((1 << exponentBits) - 1);
  int mantissa = bits & ((1 << f.mantissaBits) - 1);
  double sign = bits & 0x80 ? -1.0 : 1.0;
  int maxField = (1 << exponentBits) - 1;
  if (dtype == DType::E4M3 && field == maxField &&
      mantissa == (1 << f.mantissaBits) - 1)
    return std::nan("");
  if (dtype == DType::E5M2 && field == maxField)
    return mantissa ? std::nan("") : sign * HUGE_VAL;
  if (field == 0)
    return sign * std::ldexp(double(mantissa), 1 - f.bias - f.mantissaBits);
  return sign * std::ldexp(double((1 << f.mantissaBits) + mantissa),
                           field - f.bias - f.mantissaBits);
}

std::string tcgen::bench::checkFloatDType(DType dtype,
                                          const std::string &what) {
  if (dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
      dtype == DType::E4M3 || dtype == DType::E5M2)
    return "";
  return what + " has dtype " + dtypeName(dtype) +
         ", which tcgen-gpu does not support yet (f16, bf16, f32, e4m3, "
         "e5m2)";
}

uint64_t tcgen::bench::mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void tcgen::bench::parallelFor(int64_t count,
                               void (*body)(void *, int64_t, int64_t),
                               void *context) {
  int64_t threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  threads = std::min<int64_t>(threads, std::max<int64_t>(1, count / 16));
  if (threads <= 1) {
    body(context, 0, count);
    return;
  }
  std::vector<std::thread> pool;
  int64_t chunk = (count + threads - 1) / threads;
  for (int64_t t = 0; t < threads; ++t) {
    int64_t begin = t * chunk, end = std::min(count, begin + chunk);
    if (begin < end)
      pool.emplace_back(body, context, begin, end);
  }
  for (std::thread &t : pool)
    t.join();
}

void HostMatrix::allocate(DType type, int64_t r, int64_t c, int64_t s0,
                          int64_t s1) {
  allocateBatch(type, 1, r, c, 0, s0, s1);
}

void HostMatrix::allocateBatch(DType type, int64_t n, int64_t r, int64_t c,
                               int64_t sb, int64_t s0, int64_t s1) {
  dtype = type;
  batch = n;
  rows = r;
  cols = c;
  batchStride = sb;
  batchDims.clear();
  batchDimStrides.clear();
  stride0 = s0;
  stride1 = s1;
  bytes.assign(spanElements() * dtypeSize(dtype), 0);
}

void HostMatrix::allocateBatchDims(DType type, const std::vector<int64_t> &dims,
                                   const std::vector<int64_t> &dimStrides,
                                   int64_t r, int64_t c, int64_t s0,
                                   int64_t s1) {
  int64_t n = 1;
  for (int64_t e : dims)
    n *= e;
  allocateBatch(type, n, r, c, dimStrides.back(), s0, s1);
  batchDims = dims;
  batchDimStrides = dimStrides;
  bytes.assign(spanElements() * dtypeSize(dtype), 0);
}

int64_t HostMatrix::spanElements() const {
  if (batch == 0 || rows == 0 || cols == 0)
    return 0;
  // The largest offset: the last matrix of each batch dimension.
  int64_t last = matrixOffset(batch - 1);
  return last + (rows - 1) * stride0 + (cols - 1) * stride1 + 1;
}

double HostMatrix::load(int64_t o) const {
  switch (dtype) {
  case DType::F16: {
    uint16_t h;
    std::memcpy(&h, &bytes[o * 2], 2);
    return halfToFloat(h);
  }
  case DType::BF16: {
    uint16_t h;
    std::memcpy(&h, &bytes[o * 2], 2);
    return bf16ToFloat(h);
  }
  case DType::F32: {
    float f;
    std::memcpy(&f, &bytes[o * 4], 4);
    return f;
  }
  case DType::E4M3:
  case DType::E5M2:
    return fp8ToDouble(bytes[o], dtype);
  default:
    return std::nan("");
  }
}

void HostMatrix::store(int64_t o, double value) {
  float f = static_cast<float>(value);
  switch (dtype) {
  case DType::F16: {
    uint16_t h = floatToHalf(f);
    std::memcpy(&bytes[o * 2], &h, 2);
    return;
  }
  case DType::BF16: {
    uint16_t h = floatToBF16(f);
    std::memcpy(&bytes[o * 2], &h, 2);
    return;
  }
  case DType::F32:
    std::memcpy(&bytes[o * 4], &f, 4);
    return;
  case DType::E4M3:
  case DType::E5M2:
    bytes[o] = doubleToFP8(value, dtype);
    return;
  default:
    return;
  }
}

namespace {
struct FillContext {
  HostMatrix *matrix;
  uint64_t key;
  int64_t b; // the matrix of the batch being filled
};

/// Fills rows [begin, end) of matrix c->b. The element's index in the
/// stacked batch, ((b * rows) + i) * cols + j, keys its value, so batch 0
/// gets what a plain matrix gets.
void fillRows(void *context, int64_t begin, int64_t end) {
  auto *c = static_cast<FillContext *>(context);
  HostMatrix &m = *c->matrix;
  for (int64_t i = begin; i < end; ++i) {
    int64_t row = c->b * m.rows + i;
    for (int64_t j = 0; j < m.cols; ++j) {
      uint64_t bits =
          mix64(c->key ^ mix64(static_cast<uint64_t>(row * m.cols + j)));
      // 24 random bits -> [0, 1) exactly in float, then [-1, 1).
      double u = static_cast<double>(bits >> 40) * (1.0 / 16777216.0);
      m.set(c->b, i, j, 2.0 * u - 1.0);
    }
  }
}
} // namespace

void HostMatrix::fillRandom(uint64_t seed, uint64_t stream) {
  FillContext context{this, mix64(seed * 0x100000001b3ull + stream), 0};
  // One matrix at a time: batches may share storage (a broadcast operand
  // has batch stride 0), and then the last one written wins, every time.
  for (context.b = 0; context.b < batch; ++context.b)
    parallelFor(rows, fillRows, &context);
}

void HostMatrix::poisonNaN() {
  int64_t n = spanElements();
  if (dtype == DType::E4M3 || dtype == DType::E5M2) {
    // S.1111.111 (e4m3) and S.11111.11 (e5m2) are NaNs.
    std::fill(bytes.begin(), bytes.begin() + n, uint8_t(0x7f));
    return;
  }
  if (dtype == DType::F32) {
    uint32_t nan = 0x7fc00000;
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(&bytes[i * 4], &nan, 4);
    return;
  }
  uint16_t nan = dtype == DType::F16 ? 0x7e00 : 0x7fc0;
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(&bytes[i * 2], &nan, 2);
}

HostMatrix HostMatrix::absolute() const {
  HostMatrix copy = *this;
  int64_t size = dtypeSize(dtype);
  // The sign is the top bit of each little-endian element.
  for (size_t i = size - 1; i < copy.bytes.size(); i += size)
    copy.bytes[i] &= 0x7f;
  return copy;
}

std::vector<float> HostMatrix::toDenseFloat() const {
  std::vector<float> dense(static_cast<size_t>(batch * rows * cols));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        dense[(b * rows + i) * cols + j] = static_cast<float>(get(b, i, j));
  return dense;
}
