//===- ApiTiming.h - Timing through the public C ABI ------------*- C++ -*-===//
//
// This file declares `tcgen-gpu bench --api`: the kernel timed as a user's
// program reaches it, through tcgen_rt.h's C ABI with fresh device pointers
// each call, against cublasGemmEx and cublasLtMatmul called the same way,
// in the same process, alternated. It reports
//   - host cost: microseconds of the calling thread per call (the GPU kept
//     busy), for tcgen_rt_launch with fresh and with the same pointers,
//     tcgen_rt_plan_launch_with (fresh), tcgen_rt_plan_launch (same),
//     cublasGemmEx and cublasLtMatmul;
//   - one launch per event pair, the stream drained before each: host
//     latency included, as a program that launches one kernel and waits;
//   - a stream of launches between one event pair (per launch);
//   - a CUDA graph of those launches, replayed (per launch).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_APITIMING_H
#define TCGEN_BENCH_APITIMING_H

#include "Gemm.h"
#include "tcgen/tcgen_rt.h"

#include <cuda_runtime.h>
#include <functional>
#include <string>
#include <vector>

namespace tcgen::bench {

/// The sides timed through the API: the kernel and the buffer sets whose
/// pointers rotate (at least two), and the cuBLAS calls on set i (empty
/// functions where cuBLAS or cuBLASLt cannot run the problem).
struct ApiSides {
  tcgen_kernel *kernel = nullptr;
  std::vector<DeviceOperands> *sets = nullptr;
  std::function<std::string(int, cudaStream_t)> cublas, lt;
};

/// Microseconds, NaN where a side did not run.
struct ApiTimes {
  // Host cost per call.
  double hostLaunchFresh, hostLaunchSame, hostPlanFresh, hostPlanSame,
      hostCublas, hostLt;
  // One launch per event pair (drained stream), per launch in a stream, per
  // launch replayed from a CUDA graph: tcgen_rt_launch (fresh pointers),
  // tcgen_rt_plan_launch_with (fresh), cublasGemmEx, cublasLtMatmul.
  double single[4], stream[4], graph[4];
};

/// Launches of each side between one event pair, and in one graph.
constexpr int kApiStreamLaunches = 20;

/// Times `sides` on `stream` (`iters` iterations after `warmup`).
/// Returns "" or the first error.
std::string timeThroughApi(const ApiSides &sides, int iters, int warmup,
                           cudaStream_t stream, ApiTimes &out);

/// The header of `tcgen-gpu bench --api --csv` files, and one row.
extern const char *const kApiCsvHeader;
std::string apiCsvRow(const ApiTimes &t);

/// Prints the table of `tcgen-gpu bench --api` for one bundle.
void printApiTimes(const std::string &entry, const ApiTimes &t);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_APITIMING_H
