//===- RawCheck.h - Host pieces of tcgen-gpu reschedule-check ---*- C++ -*-===//
//
// This file declares what `tcgen-gpu reschedule-check` does on the host,
// with no CUDA: checking that an original and a rescheduled raw kernel
// take the same parameters, filling inputs, poisoning outputs and
// comparing the two kernels' outputs bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_RAWCHECK_H
#define TCGEN_BENCH_RAWCHECK_H

#include "tcgen/Runtime/RawKernel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen::bench {

/// "" when `original` and `rescheduled` are the two variants of one kernel
/// (same entry, parameters and launch) and every parameter has its size or
/// value; else a sentence naming the difference or the missing argument.
std::string checkRawPair(const RawKernel &original,
                         const RawKernel &rescheduled);

/// The bytes of parameter `p`'s buffer (a pointer with elements).
int64_t rawBufferBytes(const RawParam &p);

/// Host data for an input buffer of `p`: uniform in [-1, 1) for floats,
/// in [-8, 8] for integers, from a generator seeded with `seed`.
std::vector<unsigned char> randomBuffer(const RawParam &p, uint64_t seed);

/// The poison an output starts as: all bits set (a NaN for floats).
std::vector<unsigned char> poisonBuffer(const RawParam &p);

/// How two outputs of `p` differ.
struct BitComparison {
  int64_t mismatches = 0; ///< elements whose bits differ
  int64_t firstMismatch = -1;
  int64_t poisoned = 0; ///< elements of `a` still all ones (never written)
};

/// Compares `a` and `b` (outputs of `p`, equal sizes) element by element.
BitComparison compareBits(const RawParam &p,
                          const std::vector<unsigned char> &a,
                          const std::vector<unsigned char> &b);

/// The element `i` of `buffer` (of `p`) printed as a number.
std::string formatElement(const RawParam &p,
                          const std::vector<unsigned char> &buffer, int64_t i);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_RAWCHECK_H
