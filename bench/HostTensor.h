//===- HostTensor.h - Host copies of matrix operands ------------*- C++ -*-===//
//
// This file declares HostMatrix, a host-side 2-D operand (or a batch of
// them) stored exactly as the kernel sees it (dtype, strides), with
// f16/bf16 conversions, seeded random filling and NaN poisoning. It is used
// by the checker (tcgen-gpu run --check, tcgen-gpu-tests) and the
// benchmark. No CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_HOSTTENSOR_H
#define TCGEN_BENCH_HOSTTENSOR_H

#include "tcgen/Runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen::bench {

/// IEEE half <-> float, round to nearest even.
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
/// bfloat16 <-> float, round to nearest even.
uint16_t floatToBF16(float value);
float bf16ToFloat(uint16_t bits);

/// Returns "" if the checker and benchmark can store `dtype` (f16, bf16,
/// f32), else a message naming `what`.
/// Rounds `value` to an 8-bit float (E4M3 or E5M2): to nearest, ties to
/// even, saturating to the largest finite value; NaN to a NaN.
uint8_t doubleToFP8(double value, DType dtype);
/// The value of an 8-bit float (E4M3 or E5M2).
double fp8ToDouble(uint8_t bits, DType dtype);

std::string checkFloatDType(DType dtype, const std::string &what);

/// Runs body(begin, end) over [0, count) split across hardware threads.
void parallelFor(int64_t count, void (*body)(void *, int64_t, int64_t),
                 void *context);

/// A batch of rows x cols matrices; element (b, i, j) lives at
/// b*batchStride + i*stride0 + j*stride1 (in elements) of `bytes`. A plain
/// matrix is a batch of one (batchStride 0), and the (i, j) accessors read
/// batch 0. With several batch dimensions (batchDims, two or three) matrix
/// b is row-major over them, at the sum of each index times its stride.
struct HostMatrix {
  DType dtype = DType::F32;
  int64_t rows = 0, cols = 0;
  int64_t stride0 = 0, stride1 = 0;
  int64_t batch = 1, batchStride = 0;
  /// Several batch dimensions: their extents and element strides,
  /// outermost first (the innermost stride is batchStride); empty with one.
  std::vector<int64_t> batchDims, batchDimStrides;
  std::vector<uint8_t> bytes;

  /// Allocates zeroed storage covering every addressed element. Requires a
  /// float dtype (checkFloatDType) and non-negative strides.
  void allocate(DType dtype, int64_t rows, int64_t cols, int64_t stride0,
                int64_t stride1);
  /// The same for `batch` matrices, `batchStride` elements apart.
  void allocateBatch(DType dtype, int64_t batch, int64_t rows, int64_t cols,
                     int64_t batchStride, int64_t stride0, int64_t stride1);
  /// The same for a batch of several dimensions (`dims` extents, matrix
  /// (b0, b1, ...) at b0*dimStrides[0] + b1*dimStrides[1] + ...).
  void allocateBatchDims(DType dtype, const std::vector<int64_t> &dims,
                         const std::vector<int64_t> &dimStrides, int64_t rows,
                         int64_t cols, int64_t stride0, int64_t stride1);
  /// The element offset of matrix b.
  int64_t matrixOffset(int64_t b) const {
    if (batchDims.empty())
      return b * batchStride;
    int64_t offset = 0;
    for (size_t d = batchDims.size(); d-- > 0; b /= batchDims[d])
      offset += (b % batchDims[d]) * batchDimStrides[d];
    return offset;
  }
  /// Number of elements the storage spans.
  int64_t spanElements() const;
  int64_t offset(int64_t i, int64_t j) const {
    return i * stride0 + j * stride1;
  }
  int64_t offset(int64_t b, int64_t i, int64_t j) const {
    return matrixOffset(b) + i * stride0 + j * stride1;
  }

  /// Reads element (i, j) (of batch 0) as a double.
  double get(int64_t i, int64_t j) const { return load(offset(i, j)); }
  /// Reads element (b, i, j) as a double.
  double get(int64_t b, int64_t i, int64_t j) const {
    return load(offset(b, i, j));
  }
  /// Stores `value` rounded to the dtype.
  void set(int64_t i, int64_t j, double value) { store(offset(i, j), value); }
  void set(int64_t b, int64_t i, int64_t j, double value) {
    store(offset(b, i, j), value);
  }

  /// Fills every element with a uniform value in [-1, 1) rounded to the
  /// dtype, deterministic in (seed, stream, b, i, j); batch 0 gets the
  /// values a plain matrix of the same size gets.
  void fillRandom(uint64_t seed, uint64_t stream);
  /// Fills the whole storage with quiet NaNs (0x7e00 f16, 0x7fc0 bf16,
  /// 0x7fc00000 f32).
  void poisonNaN();
  /// Returns a copy with every element's sign cleared (|x|).
  HostMatrix absolute() const;
  /// Copies the elements into a dense float array, batch by batch, each
  /// matrix row-major (element (b, i, j) at (b*rows + i)*cols + j).
  std::vector<float> toDenseFloat() const;

private:
  /// The element at `offset` as a double (NaN for a dtype it cannot read).
  double load(int64_t offset) const;
  /// Stores `value` rounded to the dtype at `offset`.
  void store(int64_t offset, double value);
};

/// splitmix64: a fast, well-mixed 64-bit hash.
uint64_t mix64(uint64_t x);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_HOSTTENSOR_H
