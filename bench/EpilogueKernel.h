//===- EpilogueKernel.h - An epilogue as a CUDA kernel ----------*- C++ -*-===//
//
// This file declares the pointwise kernel of the dual-GEMM baselines of
// `tcgen-gpu bench`: a manifest's op.epilogue written out as CUDA C++ (one
// function of the value numbers, every step rounded to its dtype as the
// checker's reference rounds it, EpilogueRef.h), compiled at run time with
// NVRTC for the current device, and launched over a row-major [m, n]
// output. An unfused program runs such a kernel after its matmuls (what
// torch.compile generates for silu(P) * P2); generating it keeps the
// baseline as fast as a hand-written one for any epilogue, where an
// interpreter of the steps would not be.
//
// Each thread computes 8 consecutive elements of a row (16-byte loads of
// 16-bit data, two of f32) where the reads and the output allow it
// (EpilogueKernel::run), else one; every read takes any strides, fixed in
// the source.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_EPILOGUEKERNEL_H
#define TCGEN_BENCH_EPILOGUEKERNEL_H

#include "tcgen/Runtime/Manifest.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen::bench {

/// Where the kernel reads one epilogue value for output element (i, j):
/// at element i * rowStride + j * colStride of a device array of `dtype`
/// (f16, bf16 or f32). A matrix has both strides, a row vector (a bias
/// along n) rowStride 0, a column vector colStride 0, a scalar neither.
struct EwRead {
  DType dtype = DType::F32;
  int64_t rowStride = 0, colStride = 0;
};

/// The reads and the output of the kernel: `values[0]` is the matmul result
/// (value 0, stored in op.epilogue.matmul_dtype), `values[1..k]` the
/// epilogue's inputs in order (a dual GEMM's product input is its second
/// matmul result); the output is row-major with rows `outLd` apart.
struct EwLayout {
  std::vector<EwRead> values;
  DType outType = DType::F16;
  int64_t outLd = 0;
};

/// The names of the generated kernels: 8 elements a thread, or one.
constexpr const char *kEpilogueKernelVector = "tcgen_epilogue_vec8";
constexpr const char *kEpilogueKernelScalar = "tcgen_epilogue_scalar";

/// Writes the CUDA C++ source of the two kernels computing `epilogue` over
/// `layout` into `source`. Each takes one pointer per read (in order), the
/// output pointer, the rows, the units of a row to compute (vectors of 8
/// elements or single elements) and the first column, each 64-bit. Returns
/// "" or why not: a read or output of a dtype other than f16, bf16 or f32,
/// a read count that is not 1 + the inputs, a step the writer does not
/// know. Needs no CUDA.
std::string epilogueKernelSource(const Epilogue &epilogue,
                                 const EwLayout &layout, std::string &source);

/// Compiles `source` with NVRTC for compute capability `cc` (major * 10 +
/// minor) into a cubin. Returns "" or NVRTC's error and log. Needs no
/// device.
std::string compileEpilogueKernel(const std::string &source, int cc,
                                  std::string &cubin);

/// The compiled kernels of one epilogue and layout, loaded on the current
/// device.
class EpilogueKernel {
public:
  EpilogueKernel() = default;
  EpilogueKernel(const EpilogueKernel &) = delete;
  EpilogueKernel &operator=(const EpilogueKernel &) = delete;
  ~EpilogueKernel();

  /// Writes, compiles and loads the kernels for the current device.
  /// Returns "" or why not.
  std::string init(const Epilogue &epilogue, const EwLayout &layout);

  /// Queues out = epilogue(reads) over [m, n] on `stream`: `reads` holds
  /// one device pointer per layout read. The vector kernel takes the
  /// columns up to the last multiple of 8 where every read along j
  /// (colStride 1) and the output are 16-byte aligned and their rows 8
  /// elements apart (multiples); the scalar one the rest. Returns "" or the
  /// launch error.
  std::string run(const std::vector<const void *> &reads, void *out, int64_t m,
                  int64_t n, cudaStream_t stream) const;

private:
  EwLayout layout;
  cudaLibrary_t library = nullptr;
  cudaKernel_t vector = nullptr, scalar = nullptr;
};

} // namespace tcgen::bench

#endif // TCGEN_BENCH_EPILOGUEKERNEL_H
