//===- Pointwise.cu - Pointwise kernels of the fusion baselines -----------===//
//
// This file implements the launchers of Pointwise.h: one kernel template
// over (operation, output dtype, input dtypes, vector or scalar), a 2-D
// grid-stride loop whose x threads walk a row's vectors (or elements) and
// whose y threads walk rows, so that no thread divides an index and narrow
// rows still fill a block.
//
//===----------------------------------------------------------------------===//

#include "Pointwise.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr int kVec = 8; // 16 bytes of f16/bf16 a vector (two 16-byte f32)
constexpr int kThreads = 256;
constexpr int64_t kMaxGridX = 0x7fffffff; // cudaDeviceProp::maxGridSize[0]
constexpr int64_t kMaxGridY = 65535;      // cudaDeviceProp::maxGridSize[1]

//===----------------------------------------------------------------------===//
// Element access: f32 in registers, the operand's dtype in memory.
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float toFloat(__half x) { return __half2float(x); }
__device__ __forceinline__ float toFloat(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ __forceinline__ float toFloat(float x) { return x; }

template <typename T> __device__ __forceinline__ T fromFloat(float x);
template <> __device__ __forceinline__ __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ __forceinline__ float fromFloat<float>(float x) {
  return x;
}

/// Loads W consecutive elements; for W = kVec `p` is 16-byte aligned.
template <int W, typename T>
__device__ __forceinline__ void load(const T *p, float (&x)[W]) {
  if constexpr (W == kVec && sizeof(T) == 2) {
    uint4 u = *reinterpret_cast<const uint4 *>(p);
    const uint32_t words[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      float2 f;
      if constexpr (std::is_same_v<T, __half>)
        f = __half22float2(*reinterpret_cast<const __half2 *>(&words[q]));
      else
        f = __bfloat1622float2(
            *reinterpret_cast<const __nv_bfloat162 *>(&words[q]));
      x[2 * q] = f.x;
      x[2 * q + 1] = f.y;
    }
  } else if constexpr (W == kVec) { // f32: two 16-byte loads
    float4 lo = reinterpret_cast<const float4 *>(p)[0];
    float4 hi = reinterpret_cast<const float4 *>(p)[1];
    x[0] = lo.x, x[1] = lo.y, x[2] = lo.z, x[3] = lo.w;
    x[4] = hi.x, x[5] = hi.y, x[6] = hi.z, x[7] = hi.w;
  } else {
#pragma unroll
    for (int q = 0; q < W; ++q)
      x[q] = toFloat(p[q]);
  }
}

/// Stores W consecutive elements rounded to T; for W = kVec `p` is 16-byte
/// aligned.
template <int W, typename T>
__device__ __forceinline__ void store(T *p, const float (&x)[W]) {
  if constexpr (W == kVec && sizeof(T) == 2) {
    uint32_t words[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      if constexpr (std::is_same_v<T, __half>) {
        __half2 h = __floats2half2_rn(x[2 * q], x[2 * q + 1]);
        words[q] = *reinterpret_cast<const uint32_t *>(&h);
      } else {
        __nv_bfloat162 h = __floats2bfloat162_rn(x[2 * q], x[2 * q + 1]);
        words[q] = *reinterpret_cast<const uint32_t *>(&h);
      }
    }
    *reinterpret_cast<uint4 *>(p) =
        make_uint4(words[0], words[1], words[2], words[3]);
  } else if constexpr (W == kVec) {
    reinterpret_cast<float4 *>(p)[0] = make_float4(x[0], x[1], x[2], x[3]);
    reinterpret_cast<float4 *>(p)[1] = make_float4(x[4], x[5], x[6], x[7]);
  } else {
#pragma unroll
    for (int q = 0; q < W; ++q)
      p[q] = fromFloat<T>(x[q]);
  }
}

//===----------------------------------------------------------------------===//
// The operations, on f32. kArity inputs are read; the others are not.
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float reluF(float x) { return x < 0.0f ? 0.0f : x; }

__device__ __forceinline__ float geluTanh(float x) {
  float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + tanhf(u));
}

struct AddReluOp {
  static constexpr int kArity = 2;
  __device__ float operator()(float c, float d, float) const {
    return reluF(c + d);
  }
};
struct AddScalarOp {
  static constexpr int kArity = 1;
  float s;
  __device__ float operator()(float c, float, float) const { return c + s; }
};
struct BiasGeluResidualOp {
  static constexpr int kArity = 3;
  __device__ float operator()(float c, float bias, float r) const {
    return geluTanh(c + bias) + r;
  }
};
struct ReluOp {
  static constexpr int kArity = 1;
  __device__ float operator()(float x, float, float) const { return reluF(x); }
};
struct AddOp {
  static constexpr int kArity = 2;
  __device__ float operator()(float a, float b, float) const { return a + b; }
};

//===----------------------------------------------------------------------===//
// The kernel and its launch.
//===----------------------------------------------------------------------===//

template <typename T> struct In {
  const T *p;
  int64_t ld;
};
template <typename T> struct Out {
  T *p;
  int64_t ld;
};

/// y[i, j..j+W) = op(x0, x1, x2)[i, j..j+W) for rows [0, rows) and units
/// [0, units) of W elements (j = unit * W).
template <bool kVector, class Op, typename TO, typename T0, typename T1,
          typename T2>
__global__ void __launch_bounds__(kThreads)
    pointwiseKernel(Op op, In<T0> x0, In<T1> x1, In<T2> x2, Out<TO> y,
                    int64_t rows, int64_t units) {
  constexpr int W = kVector ? kVec : 1;
  const int64_t unitStride = int64_t(gridDim.x) * blockDim.x;
  const int64_t rowStride = int64_t(gridDim.y) * blockDim.y;
  for (int64_t i = int64_t(blockIdx.y) * blockDim.y + threadIdx.y; i < rows;
       i += rowStride) {
    for (int64_t u = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < units;
         u += unitStride) {
      const int64_t j = u * W;
      float a[W], b[W] = {}, c[W] = {}, r[W];
      load<W>(x0.p + i * x0.ld + j, a);
      if constexpr (Op::kArity > 1)
        load<W>(x1.p + i * x1.ld + j, b);
      if constexpr (Op::kArity > 2)
        load<W>(x2.p + i * x2.ld + j, c);
#pragma unroll
      for (int q = 0; q < W; ++q)
        r[q] = op(a[q], b[q], c[q]);
      store<W>(y.p + i * y.ld + j, r);
    }
  }
}

template <bool kVector, class Op, typename TO, typename T0, typename T1,
          typename T2>
cudaError_t launchKernel(const Op &op, In<T0> x0, In<T1> x1, In<T2> x2,
                         Out<TO> y, int64_t rows, int64_t units,
                         cudaStream_t stream) {
  if (rows <= 0 || units <= 0)
    return cudaSuccess;
  // x threads cover a row's units; narrow rows leave the rest to y.
  int bx = 32;
  while (bx < kThreads && bx < units)
    bx *= 2;
  int by = kThreads / bx;
  dim3 block(bx, by);
  dim3 grid(unsigned(std::min<int64_t>((units + bx - 1) / bx, kMaxGridX)),
            unsigned(std::min<int64_t>((rows + by - 1) / by, kMaxGridY)));
  pointwiseKernel<kVector, Op, TO, T0, T1, T2>
      <<<grid, block, 0, stream>>>(op, x0, x1, x2, y, rows, units);
  return cudaGetLastError();
}

template <typename T> In<T> shifted(In<T> x, int64_t columns) {
  return {x.p ? x.p + columns : nullptr, x.ld};
}

bool aligned16(const void *p) {
  return (reinterpret_cast<uintptr_t>(p) & 15) == 0;
}

/// Runs `op` over [m, n]: the vector kernel where the operands allow it,
/// the scalar kernel for the rest.
template <class Op, typename TO, typename T0, typename T1, typename T2>
cudaError_t runTyped(const Op &op, In<T0> x0, In<T1> x1, In<T2> x2, Out<TO> y,
                     int64_t m, int64_t n, cudaStream_t stream) {
  const int64_t lds[3] = {x0.ld, x1.ld, x2.ld};
  const void *ptrs[3] = {x0.p, x1.p, x2.p};
  bool dense = y.ld == n, alignedAll = aligned16(y.p) && y.ld % kVec == 0;
  for (int q = 0; q < Op::kArity; ++q) {
    dense = dense && lds[q] == n;
    alignedAll = alignedAll && aligned16(ptrs[q]) && lds[q] % kVec == 0;
  }
  int64_t rows = m, cols = n;
  if (dense) { // One long row: only the base pointers need alignment.
    rows = 1, cols = m * n;
    alignedAll = aligned16(y.p);
    for (int q = 0; q < Op::kArity; ++q)
      alignedAll = alignedAll && aligned16(ptrs[q]);
  }
  if (!alignedAll)
    return launchKernel<false>(op, x0, x1, x2, y, rows, cols, stream);
  int64_t vectors = cols / kVec, tail = vectors * kVec;
  cudaError_t e = launchKernel<true>(op, x0, x1, x2, y, rows, vectors, stream);
  if (e == cudaSuccess && tail < cols)
    e = launchKernel<false>(op, shifted(x0, tail), shifted(x1, tail),
                            shifted(x2, tail), Out<TO>{y.p + tail, y.ld}, rows,
                            cols - tail, stream);
  return e;
}

//===----------------------------------------------------------------------===//
// Dtype dispatch.
//===----------------------------------------------------------------------===//

template <typename T> struct Tag { using type = T; };

/// Calls f(Tag<T>) for the C++ type of `dtype`; false if it has none here.
template <typename F> bool withType(DType dtype, F &&f) {
  switch (dtype) {
  case DType::F16:
    f(Tag<__half>{});
    return true;
  case DType::BF16:
    f(Tag<__nv_bfloat16>{});
    return true;
  case DType::F32:
    f(Tag<float>{});
    return true;
  default:
    return false;
  }
}

std::string unsupported(const char *kernel, const char *what, DType dtype) {
  return std::string(kernel) + ": " + what + " dtype " + dtypeName(dtype) +
         " is not supported (f16, bf16 or f32)";
}

std::string result(const char *kernel, cudaError_t e) {
  if (e == cudaSuccess)
    return "";
  return std::string(kernel) + ": " + cudaGetErrorName(e) + " (" +
         cudaGetErrorString(e) + ")";
}

template <typename T> In<T> typedIn(const PwInput &x) {
  return {static_cast<const T *>(x.data), x.ld};
}
template <typename T> Out<T> typedOut(const PwOutput &y) {
  return {static_cast<T *>(y.data), y.ld};
}

/// The name of input q of an op with `arity` inputs, for errors.
const char *inputName(int arity, size_t q) {
  static const char *const names[] = {"first input", "second input",
                                      "third input"};
  return arity == 1 ? "input" : names[q];
}

/// Resolves the C++ type of input q = sizeof...(Ts) (the inputs before it
/// are `typed`), one input at a time; past the op's arity the inputs are
/// null f32 pointers, which the kernels never read. Then resolves the
/// output's type and runs `op`.
template <class Op, typename... Ts>
std::string dispatch(const char *name, const Op &op, const PwInput *xs,
                     const PwOutput &y, int64_t m, int64_t n,
                     cudaStream_t stream, In<Ts>... typed) {
  constexpr size_t q = sizeof...(Ts);
  if constexpr (q == 3) {
    cudaError_t e = cudaSuccess;
    withType(y.dtype, [&](auto to) {
      using TO = typename decltype(to)::type;
      e = runTyped(op, typed..., typedOut<TO>(y), m, n, stream);
    });
    return result(name, e);
  } else if constexpr (q >= size_t(Op::kArity)) {
    return dispatch(name, op, xs, y, m, n, stream, typed...,
                    In<float>{nullptr, 0});
  } else {
    std::string out;
    if (!withType(xs[q].dtype, [&](auto t) {
          using T = typename decltype(t)::type;
          out = dispatch(name, op, xs, y, m, n, stream, typed...,
                         typedIn<T>(xs[q]));
        }))
      return unsupported(name, inputName(Op::kArity, q), xs[q].dtype);
    return out;
  }
}

/// y = op(inputs): checks the output's dtype first, then the inputs'.
template <class Op>
std::string run(const char *name, const Op &op,
                std::initializer_list<PwInput> inputs, const PwOutput &y,
                int64_t m, int64_t n, cudaStream_t stream) {
  if (!withType(y.dtype, [](auto) {}))
    return unsupported(name, "output", y.dtype);
  return dispatch(name, op, inputs.begin(), y, m, n, stream);
}

} // namespace

std::string tcgen::bench::addRelu(const PwInput &c, const PwInput &d,
                                  const PwOutput &out, int64_t m, int64_t n,
                                  cudaStream_t stream) {
  return run("addRelu", AddReluOp{}, {c, d}, out, m, n, stream);
}

std::string tcgen::bench::addScalar(const PwInput &c, float s,
                                    const PwOutput &out, int64_t m, int64_t n,
                                    cudaStream_t stream) {
  return run("addScalar", AddScalarOp{s}, {c}, out, m, n, stream);
}

std::string tcgen::bench::biasGeluResidual(const PwInput &c, const void *bias,
                                           DType biasType, const PwInput &r,
                                           const PwOutput &out, int64_t m,
                                           int64_t n, cudaStream_t stream) {
  return run("biasGeluResidual", BiasGeluResidualOp{},
             {c, PwInput{bias, biasType, 0}, r}, out, m, n, stream);
}

std::string tcgen::bench::relu(const PwInput &x, const PwOutput &y, int64_t m,
                               int64_t n, cudaStream_t stream) {
  return run("relu", ReluOp{}, {x}, y, m, n, stream);
}

std::string tcgen::bench::reluInplace(const PwOutput &x, int64_t m, int64_t n,
                                      cudaStream_t stream) {
  // Each element is read and then written by the same thread.
  return run("reluInplace", ReluOp{}, {PwInput{x.data, x.dtype, x.ld}}, x, m,
             n, stream);
}

std::string tcgen::bench::add(const PwInput &c1, const PwInput &c2,
                              const PwOutput &out, int64_t m, int64_t n,
                              cudaStream_t stream) {
  return run("add", AddOp{}, {c1, c2}, out, m, n, stream);
}

namespace {
/// One thread per unit of W elements of type T (uint4: 16 bytes), striding
/// over the rows of all matrices.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    copyMatricesKernel(const T *src, int64_t srcBatch, int64_t srcLd, T *dst,
                       int64_t dstBatch, int64_t dstLd, int64_t rows,
                       int64_t allRows, int64_t units) {
  const int64_t unitStride = int64_t(gridDim.x) * blockDim.x;
  const int64_t rowStride = int64_t(gridDim.y) * blockDim.y;
  for (int64_t r = int64_t(blockIdx.y) * blockDim.y + threadIdx.y;
       r < allRows; r += rowStride) {
    const int64_t b = r / rows, i = r % rows;
    const T *from = src + b * srcBatch + i * srcLd;
    T *to = dst + b * dstBatch + i * dstLd;
    for (int64_t u = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < units;
         u += unitStride)
      to[u] = from[u];
  }
}

template <typename T>
cudaError_t launchCopy(const void *src, int64_t srcBatch, int64_t srcLd,
                       void *dst, int64_t dstBatch, int64_t dstLd,
                       int64_t batch, int64_t rows, int64_t units,
                       cudaStream_t stream) {
  int bx = 32;
  while (bx < kThreads && bx < units)
    bx *= 2;
  int by = kThreads / bx;
  int64_t allRows = batch * rows;
  int64_t gx = std::min<int64_t>((units + bx - 1) / bx, 1024);
  int64_t gy = std::min<int64_t>((allRows + by - 1) / by, 65535);
  copyMatricesKernel<T><<<dim3(unsigned(gx), unsigned(gy)), dim3(bx, by), 0,
                          stream>>>(static_cast<const T *>(src), srcBatch,
                                    srcLd, static_cast<T *>(dst), dstBatch,
                                    dstLd, rows, allRows, units);
  return cudaGetLastError();
}
} // namespace

std::string tcgen::bench::copyMatrices(const void *src, int64_t srcBatch,
                                       int64_t srcLd, void *dst,
                                       int64_t dstBatch, int64_t dstLd,
                                       int64_t batch, int64_t rows,
                                       int64_t cols, int64_t elementBytes,
                                       cudaStream_t stream) {
  if (elementBytes != 2 && elementBytes != 4)
    return "copyMatrices: elements of " + std::to_string(elementBytes) +
           " bytes are not supported (2 or 4)";
  if (batch <= 0 || rows <= 0 || cols <= 0)
    return "";
  // 16-byte units where every row starts 16-byte aligned.
  int64_t perUnit = 16 / elementBytes;
  auto aligned = [&](const void *p) {
    return reinterpret_cast<uintptr_t>(p) % 16 == 0;
  };
  bool vector = aligned(src) && aligned(dst) && cols % perUnit == 0 &&
                srcBatch % perUnit == 0 && srcLd % perUnit == 0 &&
                dstBatch % perUnit == 0 && dstLd % perUnit == 0;
  cudaError_t e;
  if (vector)
    e = launchCopy<uint4>(src, srcBatch / perUnit, srcLd / perUnit, dst,
                          dstBatch / perUnit, dstLd / perUnit, batch, rows,
                          cols / perUnit, stream);
  else if (elementBytes == 2)
    e = launchCopy<uint16_t>(src, srcBatch, srcLd, dst, dstBatch, dstLd,
                             batch, rows, cols, stream);
  else
    e = launchCopy<uint32_t>(src, srcBatch, srcLd, dst, dstBatch, dstLd,
                             batch, rows, cols, stream);
  return result("copyMatrices", e);
}
