//===- Timing.h - Pieces shared by the timing loops -------------*- C++ -*-===//
//
// This file declares what `tcgen-gpu bench` and `tcgen-gpu tune` time with:
// a gate that holds a stream until the host has queued a batch of launches
// (so that launch overhead never shows between timed kernels), the median,
// how many buffer sets keep repeated runs out of L2, and the pieces of the
// CSV rows they write.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_TIMING_H
#define TCGEN_BENCH_TIMING_H

#include "CudaUtil.h"

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

namespace tcgen::bench {

/// Holds a stream until the host has queued a batch behind it:
/// cudaLaunchHostFunc(stream, Gate::wait, &gate), queue, then open(). It
/// opens by itself after 2 s, so that it never deadlocks.
struct Gate {
  std::atomic<bool> isOpen{false};
  static void CUDART_CB wait(void *gate);
  void open() { isOpen.store(true, std::memory_order_release); }
};

/// The median of `v` (NaN if empty).
double median(std::vector<double> v);

/// How many buffer sets of `bytesPerSet` keep repeated runs from being
/// served out of the device's L2 (1 when one set is at least twice L2; at
/// most 64, and at most half of the free memory).
int bufferSets(size_t bytesPerSet, const DeviceProps &device);

/// The time now in UTC, ISO 8601 (2026-11-28T16:25:00Z), for CSV rows.
std::string utcNow();

/// `s` as a CSV field: quoted (quotes doubled) where it holds a comma, a
/// quote or a newline.
std::string csvField(const std::string &s);

/// `v` printed with `format` (a printf format of one double), "nan" for
/// NaN.
std::string fmt(const char *format, double v);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_TIMING_H
