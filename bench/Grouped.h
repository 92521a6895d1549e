//===- Grouped.h - Grouped products on the GPU tools ------------*- C++ -*-===//
//
// This file declares what tcgen-gpu does with a grouped product's bundle
// (op.groups, mixtures of experts): the routings it draws (the groups' row
// offsets), the check of every group's rows against a float64 reference,
// and the cuBLAS baselines it is timed against.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_GROUPED_H
#define TCGEN_BENCH_GROUPED_H

#include "Bench.h"
#include "Check.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen::bench {

/// The routings a grouped product is checked and timed on: "balanced"
/// (T / G rows each, the remainder on the first groups), "skewed" (half
/// the rows to group 0, the rest split unevenly, the last group empty)
/// and "sparse" (every other group empty, the rows spread over the rest
/// at random).
const std::vector<std::string> &groupedRoutings();

/// The G + 1 row offsets of routing `kind` over `rows` rows: offsets[0] =
/// 0, non-decreasing, offsets[groups] = rows. `seed` varies the random
/// parts. An unknown kind is balanced.
std::vector<int64_t> groupedOffsets(const std::string &kind, int64_t rows,
                                    int64_t groups, uint64_t seed);

/// `tcgen-gpu run --check` of a grouped product: for each routing, random
/// A and B, the offsets uploaded, C poisoned with NaN; after one launch
/// every element of C must be finite (every row of every group written),
/// and sampled rows (each group's first and last, and random ones; every
/// row where T x N x K is within options.hostLimit) are compared, all their
/// columns, with the float64 product of their group (through op.epilogue
/// where there is one). The result is the worst routing's, its line naming
/// the routing.
CheckResult checkGrouped(rt::Kernel &kernel, const CheckOptions &options);

/// `tcgen-gpu bench` of a grouped product, on each routing: the kernel,
/// a loop of cublasGemmEx calls (one per non-empty group, on the sizes the
/// host knows) and one cublasGemmGroupedBatchedEx call (cuBLAS 12.5 and
/// later), each the median of options.iters launches after
/// options.warmup, the cuBLAS sides computing the bare product into C's
/// dtype. The row holds the balanced routing (cublasMs: the loop;
/// baselineMs: the grouped call), its note every routing's times.
std::string benchGrouped(rt::Kernel &kernel, const BenchOptions &options,
                         BenchRow &row);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_GROUPED_H
