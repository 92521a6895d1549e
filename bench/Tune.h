//===- Tune.h - Timing the candidates of one tuning run ---------*- C++ -*-===//
//
// This file declares the measuring half of `tcgen tune`: `tcgen-gpu tune
// DIR` reads the candidates `tcgen tune` compiled into DIR (DIR/tune.tsv,
// docs/DESIGN.md "The autotuner"), times them all on the same buffers,
// round-robin (A B C ... A B C ...: the clock under the power cap drifts
// alike for all), each launch between its own CUDA events after a warm-up,
// and reports the medians.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_TUNE_H
#define TCGEN_BENCH_TUNE_H

#include "CudaUtil.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen::bench {

/// A compiled candidate of DIR/tune.tsv.
struct TuneCandidate {
  std::string id;     ///< its bundle directory under DIR
  std::string status; ///< "ok", or why it did not compile
  std::string path;   ///< its bundle, where not DIR/id ("": DIR/id)
};

/// Reads the candidates of DIR/tune.tsv. Returns "" or why it cannot.
std::string readTuneCandidates(const std::string &dir,
                               std::vector<TuneCandidate> &candidates);

struct TuneOptions {
  int warmup = 3;       ///< untimed rounds first
  int minIters = 5;     ///< timed rounds, at least
  int maxIters = 50;    ///< and at most
  double budgetS = 3.0; ///< timed rounds until about this much GPU time
  uint64_t seed = 1;
};

/// One candidate's measurement.
struct TuneTiming {
  std::string id, entry;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  double ms = 0; ///< median, NaN if it could not run
  int iters = 0;
  std::string error;
  double tflops() const {
    return 2.0 * double(batch) * double(m) * double(n) * double(k) /
           (ms * 1e9);
  }
};

/// Times the bundles DIR/<id> (or `path`) of the compiled candidates. They must compute
/// the same problem (same operands); one that cannot load or launch gets
/// its error and NaN. Returns "" or why nothing could be timed.
std::string timeCandidates(const std::string &dir,
                           const std::vector<TuneCandidate> &candidates,
                           const TuneOptions &options,
                           const DeviceProps &device,
                           std::vector<TuneTiming> &timings);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_TUNE_H
