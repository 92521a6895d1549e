//===- Pointwise.h - Pointwise kernels of the fusion baselines --*- C++ -*-===//
//
// This file declares the pointwise CUDA kernels that the unfused baselines
// of `tcgen-gpu bench --baseline` run after (or, for a prologue, before)
// cuBLAS: relu(C + D), C + s, gelu(C + bias[j]) + R, relu(X) and C1 + C2
// over row-major [m, n] matrices with a leading dimension.
//
// Each launcher dispatches on the operands' dtypes (f16, bf16 or f32, each
// operand its own) to a kernel templated on them, computes in f32 and
// rounds once to the output dtype. A thread handles a vector of 8
// consecutive elements of a row (16-byte loads and stores of 16-bit data;
// two of f32) when every pointer is 16-byte aligned and every leading
// dimension a multiple of 8; the last n % 8 columns of each row, and
// matrices that are not so aligned, go through a one-element-per-thread
// kernel. Matrices stored densely (ld == n) are treated as one long row.
// Loops are grid-stride, so any size fits the grid limits.
//
// Plain C++: no CUDA types beyond cudaStream_t; launchers return "" or
// why they could not launch (unsupported dtype, CUDA launch error).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_POINTWISE_H
#define TCGEN_BENCH_POINTWISE_H

#include "tcgen/Runtime/Manifest.h"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace tcgen::bench {

/// A read-only rows x cols row-major matrix on the device: element (i, j)
/// at `data` + (i * ld + j) elements. ld = 0 repeats row 0 for every row
/// (a vector indexed by the column j, such as a bias along n).
struct PwInput {
  const void *data = nullptr;
  DType dtype = DType::F32;
  int64_t ld = 0;
};

/// A written rows x cols row-major matrix on the device (ld >= cols).
struct PwOutput {
  void *data = nullptr;
  DType dtype = DType::F32;
  int64_t ld = 0;
};

/// out[i,j] = relu(c[i,j] + d[i,j]) (relu(x) = x < 0 ? 0 : x, so NaN
/// stays NaN).
std::string addRelu(const PwInput &c, const PwInput &d, const PwOutput &out,
                    int64_t m, int64_t n, cudaStream_t stream);

/// out[i,j] = c[i,j] + s.
std::string addScalar(const PwInput &c, float s, const PwOutput &out, int64_t m,
                      int64_t n, cudaStream_t stream);

/// out[i,j] = gelu(c[i,j] + bias[j]) + r[i,j] with the tanh form
/// gelu(x) = 0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3))).
/// `bias` points at n contiguous elements of `biasType`.
std::string biasGeluResidual(const PwInput &c, const void *bias, DType biasType,
                             const PwInput &r, const PwOutput &out, int64_t m,
                             int64_t n, cudaStream_t stream);

/// y[i,j] = relu(x[i,j]) (a ReLU prologue on A, into a separate buffer).
std::string relu(const PwInput &x, const PwOutput &y, int64_t m, int64_t n,
                 cudaStream_t stream);

/// x[i,j] = relu(x[i,j]) in place.
std::string reluInplace(const PwOutput &x, int64_t m, int64_t n,
                        cudaStream_t stream);

/// out[i,j] = c1[i,j] + c2[i,j].
std::string add(const PwInput &c1, const PwInput &c2, const PwOutput &out,
                int64_t m, int64_t n, cudaStream_t stream);

/// A strided copy of `batch` matrices of rows x cols 16-bit or 32-bit
/// elements (`elementBytes`): element (b, i, j) goes from src + b srcBatch
/// + i srcLd + j to dst + b dstBatch + i dstLd + j (strides in elements).
/// Rows are copied 16 bytes per thread where every address is 16-byte
/// aligned, else one element per thread; grid-stride over all rows. (The
/// permuting copy of a cuBLAS baseline of a contraction over two K
/// dimensions.)
std::string copyMatrices(const void *src, int64_t srcBatch, int64_t srcLd,
                         void *dst, int64_t dstBatch, int64_t dstLd,
                         int64_t batch, int64_t rows, int64_t cols,
                         int64_t elementBytes, cudaStream_t stream);

/// The GELU above on the host, in float (references and tests).
inline float geluTanhReference(float x) {
  float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + std::tanh(u));
}

} // namespace tcgen::bench

#endif // TCGEN_BENCH_POINTWISE_H
