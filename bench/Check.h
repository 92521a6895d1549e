//===- Check.h - Correctness check of a bundle's matmul ---------*- C++ -*-===//
//
// This file declares the check behind `tcgen-gpu run --check` and
// tcgen-gpu-tests: launch a bundle once on random inputs and compare its
// output with a float64 reference computed from the rounded inputs (on the
// host for batch*m*n*k <= 2^30; otherwise cuBLAS in pedantic f32 for every
// element, cublasGemmStridedBatchedEx for a batch, plus a float64
// recomputation of sampled elements). A fused epilogue
// (op.epilogue) is applied to that reference, and the matmul's error
// allowance is carried through it (EpilogueRef.h). A dual GEMM's second
// product A B2 (op.dual) is computed the same way beside the first, and
// its own allowance carried through the epilogue with value 0's.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_CHECK_H
#define TCGEN_BENCH_CHECK_H

#include "Gemm.h"
#include "HostTensor.h"
#include "tcgen/Runtime/Runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tcgen::bench {

struct CheckOptions {
  uint64_t seed = 1;
  bool compare = true;    // false: launch and scan for NaN/Inf only
  int64_t samples = 4096; // sampled elements for the cuBLAS path
  /// batch*m*n*k up to this: host reference.
  int64_t hostLimit = int64_t(1) << 30;
  /// Launches before the checked one (C restored in between): a kernel
  /// that keeps state between launches (stream-K flags) must still be right.
  int64_t warmLaunches = 0;
  /// The sizes of a bundle whose sizes are fixed at launch (--sizes).
  std::array<int64_t, 3> sizes = {0, 0, 0};
};

/// Called with true before each launch of a checked kernel and with false
/// once it has finished (or failed): `tcgen-gpu run --timeout` watches that
/// time only, so that host work (filling inputs, the float64 reference) is
/// never taken for a hang. Empty: no hook.
void setKernelWaitHook(std::function<void(bool)> hook);

/// Launches `kernel` once on `dev`'s arguments, waits for it and stores its
/// CUDA-event time in `ms` (under the kernel-wait hook). Returns "" or what
/// failed.
std::string launchTimed(rt::Kernel &kernel, DeviceOperands &dev, double &ms);

struct CheckResult {
  std::string error; // non-empty: the check could not run (not a FAIL)
  bool pass = false;
  std::string entry;
  int64_t batch = 1; // op.batch: matrices of the batched matmul
  int64_t m = 0, n = 0, k = 0;
  /// max |out - ref| / (sum_k |a b| + |c0|); with an epilogue, max
  /// |out - ref| over the element's allowance (allowanceNorm()).
  double maxNorm = 0;
  double frob = 0; // ||out - ref|| / ||ref||
  /// Non-finite outputs (with an epilogue: where the reference allows none).
  int64_t nonFinite = 0;
  /// The compared element with the largest normalized error (-1: none),
  /// in matrix worstBatch of a batch; printed after a FAIL, with an
  /// epilogue also the range it may take.
  int64_t worstBatch = 0, worstRow = -1, worstCol = -1;
  double worstOut = 0, worstRef = 0;
  double worstLo = 0, worstHi = 0;
  double maxNormBound = 0, frobBound = 0;
  std::string reference;           // "host-f64", "cublas+sampled-f64" or "none"
  std::string accumulator = "f32"; // the kernel's op.accumulator
  /// The number of op.epilogue steps; -1 without an epilogue.
  int64_t epilogueSteps = -1;
  double kernelMs = 0; // the checked launch, CUDA events

  /// True if nothing is non-finite and both errors are within their bounds.
  bool withinBounds() const {
    return nonFinite == 0 && maxNorm <= maxNormBound && frob <= frobBound;
  }

  /// "CHECK <entry> m n k PASS|FAIL maxnorm=... frob=... nonfinite=...
  /// ref=... acc=f16|f32", then " batch=<batch>" for a batched matmul
  /// (batch > 1) and " epilogue=<steps>" for a kernel with an epilogue, or
  /// for compare = false "RUN <entry> m n k OK|FAIL ms=... nonfinite=..."
  /// (and " batch=<batch>"). A FAIL ends with " worst=(i,j) out=...
  /// ref=..." (" worst=(b,i,j)" in a batch; and " allowed=[lo,hi]" with an
  /// epilogue).
  std::string line(bool compared) const;
};

/// Sets r's pass bounds for the output (and input) dtypes. A kernel that
/// accumulates in f16 gets the f16-output bounds even for an f32 output;
/// an f32 output from 16-bit inputs gets a Frobenius bound that grows with
/// K (tensor-core f32 accumulation).
void setBounds(const GemmSpec &spec, CheckResult &r);

/// Describes a manifest's matmul like describeGemm(), also when its op has
/// an epilogue: the epilogue inputs (role "in") are then left out of
/// `spec`, whose indices still count every operand, and must have a dtype
/// the checker stores (f16, bf16, f32). A batched matmul with an epilogue
/// is refused.
std::string describeCheckedGemm(const Manifest &manifest, GemmSpec &spec);

/// Describes a standalone pointwise bundle (op kind "pointwise": Y =
/// f(X, E0, ...)) for makeCheckOperands(): m and n, X as A (aIndex) and the
/// out operand as C (cIndex). Returns "" or why the bundle is not one (no
/// op.epilogue, no operand X or out operand, or one that is not [m, n]).
std::string describePointwise(const Manifest &manifest, GemmSpec &spec);
/// Creates the host operands in manifest order like makeHostOperands(),
/// a dual GEMM's B2 (role rhs2) like B, the epilogue inputs included:
/// uniform in [-1, 1) in their dtype, each a
/// HostMatrix laid out so that get(i, j) reads the value output element
/// (i, j) uses only after epilogueInputIndex() (scalar 1 x 1, row 1 x n,
/// col m x 1, each with stride 0 in its missing dimensions).
std::vector<HostMatrix> makeCheckOperands(const Manifest &manifest,
                                          const GemmSpec &spec, uint64_t seed);

/// Returns where output element (i, j) reads an epilogue input of `kind`
/// in the HostMatrix makeCheckOperands() made for it. (A product input is
/// no such read: the checker takes its value from the second product's
/// reference, at (i, j).)
inline std::pair<int64_t, int64_t> epilogueInputIndex(EpilogueInputKind kind,
                                                      int64_t i, int64_t j) {
  switch (kind) {
  case EpilogueInputKind::Scalar:
    return {0, 0};
  case EpilogueInputKind::Row:
    return {0, j};
  case EpilogueInputKind::Col:
    return {i, 0};
  case EpilogueInputKind::Matrix:
  case EpilogueInputKind::Product:
    break;
  }
  return {i, j};
}

/// A dual GEMM's second product A B2 (op.dual) for compareEpilogue(): the
/// reference k-sum of every output element and its scale sum_k |a b2|,
/// row-major m x n like the first product's.
struct SecondProduct {
  std::vector<double> acc, scale;
};

/// Describes a dual GEMM's second product A B2 as a GemmSpec: `spec` (the
/// first product, describeCheckedGemm()) with B replaced by the operand of
/// role rhs2. Returns "" or why not (no such operand, or not B's shape).
std::string describeSecondProduct(const Manifest &manifest,
                                  const GemmSpec &spec, GemmSpec &second);

/// Compares `out`, the output of a kernel with an epilogue, element by
/// element with the epilogue of `manifest` applied to the matmul reference
/// `acc` (row-major m x n, with `scale` = sum_k |a b| + |c0| per element),
/// reading the inputs from `host` (makeCheckOperands()). Takes the
/// matmul's bounds from r.maxNormBound and r.frobBound (setBounds()) and
/// replaces them with the epilogue's: element (i, j) must lie in the range
/// the epilogue takes over acc +- maxNormBound * scale (maxnorm is the
/// error over that allowance, bound 1), and ||out - ref|| may reach the
/// norm of the ranges' half-widths over acc +- frobBound * rms(acc), an
/// error spread evenly over the elements as the matmul's Frobenius bound
/// allows. Sets maxNorm, frob, frobBound, nonFinite, the worst element,
/// epilogueSteps and pass (withinBounds()); an error if the epilogue cannot
/// be evaluated. A dual GEMM's epilogue (a product input) needs `second`:
/// the product input of element (i, j) takes second->acc +- maxNormBound *
/// second->scale at once with value 0's range (and its own Frobenius band,
/// from the rms of second->acc), as the two k-sums err independently.
std::string compareEpilogue(const Manifest &manifest,
                            const std::vector<HostMatrix> &host,
                            const HostMatrix &out,
                            const std::vector<double> &acc,
                            const std::vector<double> &scale, CheckResult &r,
                            const SecondProduct *second = nullptr);

/// Checks an already-loaded kernel. Uses the current device and the legacy
/// default stream.
CheckResult checkKernel(rt::Kernel &kernel, const CheckOptions &options);

/// Loads the bundle at `path` and checks it.
CheckResult checkBundle(const std::string &path, const CheckOptions &options);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_CHECK_H
