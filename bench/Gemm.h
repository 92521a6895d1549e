//===- Gemm.h - A bundle's matmul, on the host and the device ---*- C++ -*-===//
//
// This file declares GemmSpec (which operands of a manifest are A, B and C,
// and their layouts) and the helpers that create random host operands and
// upload them into device buffers described by runtime TensorArgs.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_GEMM_H
#define TCGEN_BENCH_GEMM_H

#include "CublasGemm.h"
#include "CudaUtil.h"
#include "HostTensor.h"
#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Runtime.h"
#include "tcgen/Runtime/Validate.h"

#include <array>
#include <string>
#include <vector>

namespace tcgen::bench {

/// A manifest's matmul: C[m,n] (+)= A[m,k] B[k,n], or with batch > 1 that
/// for every matrix b of the batch (each layout's batchStride apart).
struct GemmSpec {
  size_t aIndex = 0, bIndex = 0, cIndex = 0; // into manifest.operands
  int64_t batch = 1;
  /// op.batch_reduce: C[m, n] (+)= sum_b A[b] B[b] (A and B rank 3, C
  /// rank 2).
  bool batchReduce = false;
  int64_t m = 0, n = 0, k = 0;
  bool accumulate = false;
  DType accumulator = DType::F32; // op.accumulator: F32 or F16
  /// op.tf32: f32 A and B multiplied as tf32 (10-bit mantissas); without
  /// it f32 inputs are multiplied in full f32 (the simt back end).
  bool tf32 = false;
  DType aType = DType::F16, bType = DType::F16, cType = DType::F32;
  MatrixLayout a, b, c;
};

/// Fills `spec` from a manifest. Returns "" or why tcgen-gpu cannot drive
/// the kernel (not a matmul, an operand of another rank than 2, or 3 with
/// op.batch > 1, or whose batch extent is not op.batch, extra operands,
/// dtype, an accumulator other than f16 or f32).
std::string describeGemm(const Manifest &manifest, GemmSpec &spec);

/// The layout of a rank-2 operand [rows, cols], or of a rank-3 one [batch,
/// rows, cols] (strides[0] its batchStride).
MatrixLayout layoutOf(const Operand &operand);

/// Allocates `host` for a rank-2 operand, or a batch for a rank-3 one,
/// with the operand's dtype and strides (layoutOf()).
void allocateHostOperand(const Operand &operand, HostMatrix &host);

/// Creates host operands in manifest order: A and B uniform in [-1, 1),
/// C random for an inout C, NaN-poisoned for an out C; a batched operand
/// as one HostMatrix holding the whole batch.
std::vector<HostMatrix> makeHostOperands(const Manifest &manifest,
                                         const GemmSpec &spec, uint64_t seed);

/// Device copies of every operand plus the matching runtime arguments.
struct DeviceOperands {
  std::vector<DeviceBuffer> buffers;
  std::vector<TensorArg> args;

  /// Allocates and uploads `host` (manifest order). Returns "" or the error.
  std::string create(const Manifest &manifest,
                     const std::vector<HostMatrix> &host);
};

/// The sizes M, N and K given for a bundle whose sizes are fixed at launch
/// (`--sizes M,N,K`); all 0 when none are given.
using LaunchSizes = std::array<int64_t, 3>;

/// Returns "" if `sizes` suit the manifest: a dynamic-shape manifest needs
/// them; a static one takes none or its own sizes (so that one command can
/// time static and dynamic bundles of the same problem).
std::string checkLaunchSizes(const Manifest &manifest,
                             const LaunchSizes &sizes);

/// Binds a dynamic-shape kernel to `sizes` (rt::Kernel::bindSizes), so that
/// its manifest() describes tensors of those sizes, after
/// checkLaunchSizes(). Returns "" or why not.
std::string bindLaunchSizes(rt::Kernel &kernel, const LaunchSizes &sizes);

/// Requires kernel.isLoaded(). Returns "" when the kernel runs from the
/// binary its manifest chose (the cubin, or the PTX of a manifest without
/// one); otherwise a note saying that the PTX runs instead of the cubin and
/// why (tcgen_rt_load_note), which tcgen-gpu prints: a measurement of the
/// JIT's code is not one of the cubin's.
std::string ptxFallbackNote(const rt::Kernel &kernel);

/// Parses "M,N,K" (each >= 1) into `out`; false if malformed.
bool parseLaunchSizes(const std::string &text, LaunchSizes &out);

/// Returns a "dtype(A)xdtype(B)->dtype(C)" label, e.g. "f16xf16->f32".
std::string dtypeLabel(const GemmSpec &spec);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_GEMM_H
