//===- Baseline.h - Unfused baselines of a fused bundle ---------*- C++ -*-===//
//
// This file declares the fusion baselines of `tcgen-gpu bench --baseline`:
// what each one computes from a bundle's operands, how a bundle is matched
// against one (planBaseline(): the inputs' number and kinds, then the
// epilogue's values on probe points), the host operands the benchmark
// fills, and the element-wise comparison of a baseline's output with the
// tcgen kernel's. No CUDA: everything here runs on any machine.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_BASELINE_H
#define TCGEN_BENCH_BASELINE_H

#include "HostTensor.h"
#include "tcgen/Runtime/Manifest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcgen::bench {

/// The baselines, each an unfused way to compute what a fused bundle does.
/// Row-major out[m, n] = A[m, k] B[k, n] + epilogue:
///   AddRelu           cublas+add-relu: cuBLAS C = A B, then relu(C + D)
///   AddScalar         cublas+add-scalar: cuBLAS C = A B, then C + s
///   BiasGeluResidual  cublas+bias-gelu-residual: cuBLAS C = A B, then
///                     gelu(C + bias[j]) + R (GELU tanh form)
///   LtReluBias        cublaslt-relu-bias: cublasLtMatmul with
///                     CUBLASLT_EPILOGUE_RELU_BIAS, relu(A B + bias[j])
///   LtGeluBias        cublaslt-gelu-bias: CUBLASLT_EPILOGUE_GELU_BIAS,
///                     gelu(A B + bias[j])
///   ReluCAdd          relu-c+cublas: a pointwise D = relu(C) into the
///                     output, then cuBLAS D = A B + D (beta 1): the
///                     matmul's init transformed (relu(C) + A B)
///   ReluA             relu-a+cublas: A' = relu(A), then cuBLAS A' B (a
///                     ReLU prologue on A)
///   TwoGemmAdd        2cublas+add: for a bundle with a second product
///                     (op.k2), cuBLAS C1 = A B and C2 = A2 B2, then
///                     C1 + C2 (add(gemm, gemm)); for a plain bundle, the
///                     two halves of K, C1 = A[:, :k/2] B[:k/2, :] and
///                     C2 = A[:, k/2:] B[k/2:, :]
///   PermuteGemm       permute+cublas: for a bundle that sums a batch
///                     (op.batch_reduce: C = sum_b A[b] B[b], a contraction
///                     over two K dimensions), strided copies of A and B
///                     into the layouts of one matmul over K' = batch k
///                     (only the operands that are not already so), then
///                     cuBLAS A' B'
///   DualGemm          cublas x2 + pointwise: for a dual GEMM (op.dual),
///                     cuBLAS P = A B and P2 = A B2 into scratch matrices
///                     of matmul_dtype, then one pointwise kernel that
///                     computes the bundle's epilogue from P, P2 and the
///                     other inputs (generated from it: EpilogueKernel.h)
///   DualConcat        cublas concat + pointwise: for a dual GEMM, one
///                     cuBLAS [P | P2] = A [B | B2] over the concatenated
///                     weights (made once, before timing) into an [m, 2n]
///                     scratch, then the same kernel over its two halves
enum class BaselineKind {
  AddRelu,
  AddScalar,
  BiasGeluResidual,
  LtReluBias,
  LtGeluBias,
  ReluCAdd,
  ReluA,
  TwoGemmAdd,
  PermuteGemm,
  DualGemm,
  DualConcat
};

/// Whether `kind` times a dual GEMM (op.dual).
inline bool isDualBaseline(BaselineKind kind) {
  return kind == BaselineKind::DualGemm || kind == BaselineKind::DualConcat;
}

/// The command-line name, e.g. "cublas+add-relu".
const char *baselineName(BaselineKind kind);
/// What it computes, in one line (help text and errors).
const char *baselineComputes(BaselineKind kind);
/// Parses a command-line name; std::nullopt if unknown.
std::optional<BaselineKind> parseBaseline(std::string_view name);
/// Every name, comma separated, in the order of BaselineKind.
std::string baselineNameList();
/// Every kind, in order.
const std::vector<BaselineKind> &allBaselines();

/// What a baseline reads and writes: indices into manifest.operands and
/// the types it computes with.
struct BaselinePlan {
  BaselineKind kind = BaselineKind::AddRelu;
  size_t a = 0, b = 0, out = 0;
  /// k: the matmul's K; for permute+cublas batch x op.k, the summed
  /// batch's K (A and B are then rank 3, [batch, m, k] and [batch, k, n]).
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 1;
  DType abType = DType::F16, outType = DType::F16;
  DType accumulator = DType::F32; // op.accumulator (cuBLAS's compute type)
  /// The dtype of the intermediate matmul result (op.epilogue.matmul_dtype;
  /// the out dtype where the bundle has no epilogue).
  DType matmulType = DType::F16;
  std::optional<size_t> matrix; // D (add-relu) or R (bias-gelu-residual)
  std::optional<size_t> bias;   // the bias vector along n
  std::optional<size_t> scalar; // s as a rank-0 operand (add-scalar)
  /// add(gemm, gemm) bundles (op.k2 > 0, 2cublas+add only): A2 and B2;
  /// dual GEMMs (op.dual, the dual baselines): B2.
  std::optional<size_t> a2, b2;
  int64_t k2 = 0;
  double constant = 0;          // s when it is a constant of the epilogue
  /// The lowest-precision dtype among the matmul result, the epilogue's
  /// steps and the output: what the comparison tolerance is made for.
  DType coarsest = DType::F32;
};

/// Checks that `manifest` computes what `kind` computes and fills `plan`.
/// Returns "" or a message naming the baseline and what the bundle lacks
/// or has too much of. The bundle must be a matmul (batch 1, C = A B, no
/// accumulate) with rank-2 f16 or bf16 A and B of one dtype and a row-major
/// out (strides [ld, 1]) of f16, bf16 or f32; then per baseline:
///   - the epilogue's inputs, by number and kind: add-relu one matrix;
///     add-scalar one scalar or none (a constant); relu-c+cublas one
///     matrix; bias-gelu-residual one
///     row and one matrix, in either order; the cuBLASLt ones one row;
///     relu-a and 2cublas+add no epilogue at all (and 2cublas+add an even
///     k). Matrix inputs must be row-major and row vectors contiguous;
///   - the epilogue's value on 64 probe points (matmul values in [-6, 6],
///     inputs in [-2, 2], rounded to their dtypes) must equal the
///     baseline's formula within max(1e-3, 16 unit roundoffs of the
///     coarsest step dtype) relative to 1 + |value|, so that a GELU in the
///     erf form matches the tanh one but relu does not match gelu.
/// relu-a+cublas needs op.prologue on the lhs equal to max(x, 0) on 64
/// probe values of the lhs dtype; 2cublas+add a bundle without a prologue;
/// permute+cublas a bundle with op.batch_reduce (rank-3 A and B), no
/// epilogue and no prologue. The dual baselines take a dual GEMM (op.dual)
/// only, and every other baseline refuses one; their pointwise kernel
/// computes the bundle's own epilogue, so any one fits whose reads and
/// output are f16, bf16 or f32 (inputs of any kind and strides).
std::string planBaseline(const Manifest &manifest, BaselineKind kind,
                         BaselinePlan &plan);

/// Host operands for timing a bundle against a baseline, in manifest
/// order: every operand but out uniform in [-1, 1) stored in its dtype
/// (stream = the operand's index, like makeHostOperands()), out poisoned
/// with NaN. Rank-0 operands are 1 x 1, rank-1 ones 1 x len with their
/// stride. Requires an operand set that planBaseline() accepted.
std::vector<HostMatrix> makeBaselineHostOperands(const Manifest &manifest,
                                                 uint64_t seed);

/// The element-wise comparison of the tcgen kernel's output with a
/// baseline's, both [m, n]. The error of an element is
/// |tcgen - baseline| / (|baseline| + rms(baseline)); PASS needs every
/// element finite on both sides and the largest error <= tolerance.
struct BaselineComparison {
  bool pass = false;
  double maxErr = 0, tolerance = 0;
  double rms = 0;        // of the baseline's output
  int64_t nonFinite = 0; // elements not finite on either side
  int64_t worstRow = -1, worstCol = -1;
  double worstTcgen = 0, worstBaseline = 0;

  /// "BASELINE-CHECK <entry> <name> PASS|FAIL maxerr=... tol=...
  /// nonfinite=... worst=(i,j) tcgen=... baseline=...".
  std::string line(const std::string &entry, BaselineKind kind) const;
};

/// The comparison tolerance for outputs computed through `coarsest`: 1e-3
/// for f32, 1e-2 for f16, 4e-2 for bf16 (a few roundings of either side's
/// intermediate; a wrong function, bias index or missing input is off by
/// 1e-1 or more).
double baselineTolerance(DType coarsest);

/// Compares `tcgen` with `baseline` (same shape) element by element.
BaselineComparison compareOutputs(const HostMatrix &tcgen,
                                  const HostMatrix &baseline, double tolerance);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_BASELINE_H
