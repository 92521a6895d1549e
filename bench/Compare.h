//===- Compare.h - tcgen-gpu compare: A/B of two bundle sets ----*- C++ -*-===//
//
// This file declares `tcgen-gpu compare A_DIR B_DIR`: the bundles of two
// study directories paired by problem (Study.h), each pair timed in one
// process on the same buffers, alternated (Tune.h's round-robin), with
// the per-problem ratio and their geometric mean.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_COMPARE_H
#define TCGEN_BENCH_COMPARE_H

#include <string>
#include <vector>

namespace tcgen::bench {

/// The help of `tcgen-gpu compare`.
extern const char *const kCompareHelp;

/// Runs `tcgen-gpu compare` with the arguments after the command name.
/// Returns the exit status: 0, 1 (an error, a pair that could not be
/// timed) or 2 (a bad command line).
int compareCommand(const std::vector<std::string> &args);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_COMPARE_H
