//===- Bench.h - Timing a bundle against cuBLAS -----------------*- C++ -*-===//
//
// This file declares benchBundle(), the measurement behind `tcgen-gpu
// bench`: the tcgen kernel, cublasGemmEx (cublasGemmStridedBatchedEx for a
// batched matmul) and cublasLtMatmul run on the same buffers, alternating
// per iteration, each run timed with its own CUDA events; medians are
// reported. cuBLAS accumulates like the kernel
// (op.accumulator): CUBLAS_COMPUTE_16F for f16, CUBLAS_COMPUTE_32F for f32.
// With a baseline (Baseline.h), a fused bundle is also timed against an
// unfused way to compute the same, in the same alternation; a dual GEMM
// (op.dual) against both dual baselines unless one is named.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_BENCH_H
#define TCGEN_BENCH_BENCH_H

#include "ApiTiming.h"
#include "Baseline.h"
#include "CudaUtil.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tcgen::bench {

struct BenchOptions {
  int iters = 50;
  int warmup = 10;
  uint64_t seed = 1;
  bool cublasLt = true; // also time cublasLtMatmul
  /// cuBLASLt runs the fastest of its heuristic's first `ltAlgos`
  /// algorithms (LtGemm::keepFastest), each timed a few times on the
  /// bundle's buffers first; 1: the heuristic's top algorithm.
  int ltAlgos = 8;
  /// Time the kernel alone, back to back with itself (no cuBLAS sides): a
  /// kernel slower after cuBLAS's than after its own shows it here.
  bool solo = false;
  /// Launches of each side (tcgen, cuBLAS, cuBLASLt) between its event
  /// pair, buffer sets rotating; times are per launch. 1: one launch per
  /// pair, what the sweeps measure; more shows what a launch costs in a
  /// stream of launches, without an event between each two.
  int backToBack = 1;
  /// Also time this unfused baseline (Baseline.h) of a fused bundle. Its
  /// output is first compared with the kernel's (BaselineTiming::check),
  /// and a bundle whose baseline disagrees is not timed. Unset, a dual GEMM
  /// (op.dual) is timed against both dual baselines (those that fit it).
  std::optional<BaselineKind> baseline;
  bool baselineCheckOnly = false; // compare, do not time
  /// Time through the public C ABI with fresh pointers (ApiTiming.h)
  /// instead of the kernel-level alternation.
  bool api = false;
  /// The sizes of bundles whose sizes are fixed at launch (--sizes).
  std::array<int64_t, 3> sizes = {0, 0, 0};
};

/// One baseline timed beside a bundle: its name, its median time (all of
/// its launches) and that of its pointwise kernels alone (NaN for the
/// cuBLASLt ones, or where it has none); `check` compares its output with
/// the kernel's (checkLine: BaselineComparison::line(), empty where no
/// check ran).
struct BaselineTiming {
  std::string name;
  double ms = std::numeric_limits<double>::quiet_NaN();
  double pointwiseMs = std::numeric_limits<double>::quiet_NaN();
  BaselineComparison check;
  std::string checkLine;
};

/// One bundle's timings. Times are medians in milliseconds; NaN where a
/// side could not run (its reason in `note`).
struct BenchRow {
  /// The bundle's name in a study (its path under the study directory),
  /// else the path given.
  std::string problem;
  std::string entry, backend, aType, cType;
  std::string accumulator;   // the kernel's op.accumulator ("f32", "f16")
  std::string cublasCompute; // e.g. "CUBLAS_COMPUTE_16F"; "" if no cuBLAS
  std::string cublasCall;    // "cublasGemmEx" or "cublasGemmStridedBatchedEx"
  int64_t batch = 1;         // op.batch
  int64_t m = 0, n = 0, k = 0;
  double tcgenMs = 0, cublasMs = 0, ltMs = 0;
  int iters = 0;
  int bufferSets = 1;
  std::string note;

  /// The baselines timed in the same alternation (a named one, or a dual
  /// GEMM's two); the cuBLAS and cuBLASLt columns then time the bare matmul
  /// into a scratch of the epilogue's matmul_dtype (a dual GEMM's: A [B |
  /// B2], m x 2n x k, with n here 2n so that the TFLOP/s count both
  /// products).
  std::vector<BaselineTiming> baselines;

  /// With BenchOptions::api: the times through the C ABI.
  std::optional<ApiTimes> api;

  double flops() const {
    return 2.0 * double(batch) * double(m) * double(n) * double(k);
  }
  /// TFLOP/s for a time in ms (NaN for NaN).
  double tflops(double ms) const { return flops() / (ms * 1e9); }
};

/// Why a bundle is timed against a baseline only ("" if it is not): a
/// second product (op.k2: 2cublas+add) or a summed batch (op.batch_reduce:
/// permute+cublas) has no plain cuBLAS call to compare with.
std::string needsBaseline(const Manifest &manifest);

/// Loads and times the bundle at `path` on the current device. Returns ""
/// or why it could not be timed (load error, unsupported op, CUDA error,
/// a baseline that does not match the bundle or whose output check
/// failed; a baseline's checkLine is set once its check ran).
std::string benchBundle(const std::string &path, const BenchOptions &options,
                        const DeviceProps &device, BenchRow &row);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_BENCH_H
