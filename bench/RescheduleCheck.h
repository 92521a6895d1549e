//===- RescheduleCheck.h - tcgen-gpu reschedule-check -----------*- C++ -*-===//
//
// This file declares `tcgen-gpu reschedule-check DIR`: the original and
// the rescheduled kernel `tcgen reschedule` wrote to DIR, run on the same
// random inputs with NaN-poisoned outputs, compared bit for bit, and
// timed in one process, alternated.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_RESCHEDULECHECK_H
#define TCGEN_BENCH_RESCHEDULECHECK_H

#include <string>
#include <vector>

namespace tcgen::bench {

/// The help of `tcgen-gpu reschedule-check`.
extern const char *const kRescheduleCheckHelp;

/// Runs `tcgen-gpu reschedule-check` with the arguments after the command
/// name. Returns the exit status: 0 (outputs equal), 1 (an error, or
/// outputs that differ) or 2 (a bad command line).
int rescheduleCheckCommand(const std::vector<std::string> &args);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_RESCHEDULECHECK_H
