//===- Check.h - Correctness check of a bundle's matmul ---------*- C++ -*-===//
//
// This file declares the check behind `tcgen-gpu run --check` and
// tcgen-gpu-tests: launch a bundle once on random inputs and compare its
// output with a float64 reference computed from the rounded inputs (on the
// host for m*n*k <= 2^30; otherwise cuBLAS in pedantic f32 for every element
// plus a float64 recomputation of sampled elements).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_CHECK_H
#define TCGEN_BENCH_CHECK_H

#include "Gemm.h"
#include "tcgen/Runtime/Runtime.h"

#include <cstdint>
#include <string>

namespace tcgen::bench {

struct CheckOptions {
  uint64_t seed = 1;
  bool compare = true;    // false: launch and scan for NaN/Inf only
  int64_t samples = 4096; // sampled elements for the cuBLAS path
  int64_t hostLimit = int64_t(1) << 30; // m*n*k up to this: host reference
  /// Launches before the checked one (C restored in between): a kernel
  /// that keeps state between launches (stream-K flags) must still be right.
  int64_t warmLaunches = 0;
};

struct CheckResult {
  std::string error; // non-empty: the check could not run (not a FAIL)
  bool pass = false;
  std::string entry;
  int64_t m = 0, n = 0, k = 0;
  double maxNorm = 0; // max |out - ref| / (sum_k |a b| + |c0|)
  double frob = 0;    // ||out - ref|| / ||ref||
  int64_t nonFinite = 0;
  /// The compared element with the largest normalized error (-1: none);
  /// printed after a FAIL.
  int64_t worstRow = -1, worstCol = -1;
  double worstOut = 0, worstRef = 0;
  double maxNormBound = 0, frobBound = 0;
  std::string reference;           // "host-f64", "cublas+sampled-f64" or "none"
  std::string accumulator = "f32"; // the kernel's op.accumulator
  double kernelMs = 0;             // the checked launch, CUDA events

  /// "CHECK <entry> m n k PASS|FAIL maxnorm=... frob=... nonfinite=...
  /// ref=... acc=f16|f32", or for compare = false "RUN <entry> m n k
  /// OK|FAIL ms=... nonfinite=...".
  std::string line(bool compared) const;
};

/// Sets r's pass bounds for the output (and input) dtypes. A kernel that
/// accumulates in f16 gets the f16-output bounds even for an f32 output;
/// an f32 output from 16-bit inputs gets a Frobenius bound that grows with
/// K (tensor-core f32 accumulation).
void setBounds(const GemmSpec &spec, CheckResult &r);

/// Checks an already-loaded kernel. Uses the current device and the legacy
/// default stream.
CheckResult checkKernel(rt::Kernel &kernel, const CheckOptions &options);

/// Loads the bundle at `path` and checks it.
CheckResult checkBundle(const std::string &path, const CheckOptions &options);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_CHECK_H
