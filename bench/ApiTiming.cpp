//===- ApiTiming.cpp - Timing through the public C ABI --------------------===//
//
// This file implements timeThroughApi(): the kernel called through
// tcgen_rt.h as a user's program calls it (prebuilt tcgen_tensor_arg arrays,
// pointers rotating over buffer sets so that every call sees new
// addresses), against cuBLAS called the same way, in the same process.
//
//===----------------------------------------------------------------------===//

#include "ApiTiming.h"

#include "Timing.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kHostCalls = 64;  // Calls per host-cost round (GPU kept busy).
constexpr int kHostRounds = 9;  // Rounds; the median is reported.

/// The calls timed. The first four are the GPU-timed sides (ApiTimes'
/// arrays are in this order).
enum Side { LaunchFresh, PlanFresh, Cublas, Lt, LaunchSame, PlanSame };
constexpr int kTimedSides = 4;

/// The C arguments of every buffer set, built once, and the plan.
struct Calls {
  const ApiSides &sides;
  cudaStream_t stream;
  std::vector<std::vector<tcgen_tensor_arg>> args;
  std::vector<std::vector<CUdeviceptr>> addresses;
  tcgen_plan *plan = nullptr;
  int numSets = 0;
  int next = 0; // rotates over the sets

  Calls(const ApiSides &sides, cudaStream_t stream)
      : sides(sides), stream(stream) {}
  ~Calls() { tcgen_rt_plan_destroy(plan); }

  std::string init() {
    numSets = static_cast<int>(sides.sets->size());
    for (const DeviceOperands &d : *sides.sets) {
      std::vector<tcgen_tensor_arg> set;
      std::vector<CUdeviceptr> addrs;
      for (const TensorArg &t : d.args) {
        set.push_back({t.name.c_str(), static_cast<tcgen_dtype>(t.dtype),
                       static_cast<int>(t.shape.size()), t.shape.data(),
                       t.strides.data(), static_cast<CUdeviceptr>(t.address)});
        addrs.push_back(static_cast<CUdeviceptr>(t.address));
      }
      args.push_back(std::move(set));
      addresses.push_back(std::move(addrs));
    }
    if (tcgen_rt_plan_create(sides.kernel, args[0].data(),
                             static_cast<int>(args[0].size()),
                             &plan) != TCGEN_OK)
      return std::string("tcgen_rt_plan_create: ") + tcgen_rt_last_error();
    return "";
  }
  bool have(int side) const {
    return (side != Cublas || sides.cublas) && (side != Lt || sides.lt);
  }
  /// One call of `side`; fresh sides on the next set of the rotation.
  std::string call(int side) {
    int set = side == LaunchSame || side == PlanSame ? 0 : next++ % numSets;
    tcgen_status s = TCGEN_OK;
    int n = static_cast<int>(args[set].size());
    switch (side) {
    case LaunchFresh:
    case LaunchSame:
      s = tcgen_rt_launch(sides.kernel, args[set].data(), n, stream);
      break;
    case PlanFresh:
      s = tcgen_rt_plan_launch_with(plan, addresses[set].data(), n, stream);
      break;
    case PlanSame:
      s = tcgen_rt_plan_launch(plan, stream);
      break;
    case Cublas:
      return sides.cublas(set, stream);
    case Lt:
      return sides.lt(set, stream);
    }
    return s == TCGEN_OK ? std::string() : tcgen_rt_last_error();
  }
  std::string sync() {
    return formatCuda("cudaStreamSynchronize", cudaStreamSynchronize(stream));
  }
};

/// Microseconds of the calling thread per call of `side`, the median of
/// rounds of kHostCalls calls queued behind each other.
std::string hostCost(Calls &c, int side, double &us) {
  us = kNaN;
  if (!c.have(side))
    return "";
  std::vector<double> perCall;
  for (int r = 0; r < kHostRounds; ++r) {
    std::string e = c.sync();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kHostCalls && e.empty(); ++i)
      e = c.call(side);
    auto t1 = std::chrono::steady_clock::now();
    if (!e.empty())
      return e;
    perCall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() /
                      kHostCalls);
  }
  us = median(perCall);
  return c.sync();
}

/// Captures kApiStreamLaunches calls of `side` into `exec`; false (and no
/// graph) where the capture fails.
bool captureGraph(Calls &c, int side, cudaGraphExec_t &exec) {
  exec = nullptr;
  if (cudaStreamBeginCapture(c.stream, cudaStreamCaptureModeThreadLocal) !=
      cudaSuccess)
    return false;
  std::string e;
  for (int i = 0; i < kApiStreamLaunches && e.empty(); ++i)
    e = c.call(side);
  cudaGraph_t graph = nullptr;
  cudaError_t r = cudaStreamEndCapture(c.stream, &graph);
  bool ok = e.empty() && r == cudaSuccess && graph &&
            cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
  if (graph)
    cudaGraphDestroy(graph);
  cudaGetLastError(); // A failed capture leaves an error; it is reported as NaN.
  return ok;
}

/// One mode of GPU timing: per iteration and side, the stream drained,
/// then `launches` calls (or one replay of the side's graph) between two
/// events; times per launch.
std::string timeMode(Calls &c, int iters, int launches,
                     cudaGraphExec_t *graphs, double *out) {
  std::vector<cudaEvent_t> events(2 * kTimedSides * iters, nullptr);
  std::string e;
  for (cudaEvent_t &ev : events)
    if (e.empty())
      e = formatCuda("cudaEventCreate", cudaEventCreate(&ev));
  for (int it = 0; it < iters && e.empty(); ++it) {
    for (int side = 0; side < kTimedSides && e.empty(); ++side) {
      if (!c.have(side) || (graphs && !graphs[side]))
        continue;
      cudaEvent_t *ev = &events[2 * (it * kTimedSides + side)];
      if (!(e = c.sync()).empty())
        break;
      cudaEventRecord(ev[0], c.stream);
      if (graphs)
        e = formatCuda("cudaGraphLaunch", cudaGraphLaunch(graphs[side], c.stream));
      for (int i = 0; i < launches && !graphs && e.empty(); ++i)
        e = c.call(side);
      cudaEventRecord(ev[1], c.stream);
    }
  }
  if (e.empty())
    e = c.sync();
  for (int side = 0; side < kTimedSides; ++side) {
    out[side] = kNaN;
    if (!e.empty() || !c.have(side) || (graphs && !graphs[side]))
      continue;
    std::vector<double> t;
    for (int it = 0; it < iters; ++it) {
      cudaEvent_t *ev = &events[2 * (it * kTimedSides + side)];
      float ms = 0;
      if (cudaEventElapsedTime(&ms, ev[0], ev[1]) == cudaSuccess)
        t.push_back(1000.0 * ms / (graphs ? kApiStreamLaunches : launches));
    }
    out[side] = median(t);
  }
  for (cudaEvent_t ev : events)
    if (ev)
      cudaEventDestroy(ev);
  return e;
}
} // namespace

std::string tcgen::bench::timeThroughApi(const ApiSides &sides, int iters,
                                         int warmup, cudaStream_t stream,
                                         ApiTimes &out) {
  if (!sides.sets || sides.sets->size() < 2)
    return "timing through the API needs at least two buffer sets";
  Calls c(sides, stream);
  std::string e = c.init();
  // Warm-up: every side, so that plans exist, cuBLAS has picked its
  // algorithms and the modules are loaded.
  for (int w = 0; w < std::max(warmup, 1) && e.empty(); ++w)
    for (int side = 0; side <= PlanSame && e.empty(); ++side)
      if (c.have(side))
        e = c.call(side);
  if (e.empty())
    e = c.sync();
  double *host[] = {&out.hostLaunchFresh, &out.hostPlanFresh, &out.hostCublas,
                    &out.hostLt, &out.hostLaunchSame, &out.hostPlanSame};
  for (int side = 0; side <= PlanSame && e.empty(); ++side)
    e = hostCost(c, side, *host[side]);
  if (e.empty())
    e = timeMode(c, iters, 1, nullptr, out.single);
  if (e.empty())
    e = timeMode(c, iters, kApiStreamLaunches, nullptr, out.stream);
  cudaGraphExec_t graphs[kTimedSides] = {};
  for (int side = 0; side < kTimedSides && e.empty(); ++side)
    if (c.have(side) && !captureGraph(c, side, graphs[side]))
      std::fprintf(stderr, "tcgen-gpu: capturing side %d in a CUDA graph "
                           "failed: not timed\n", side);
  if (e.empty())
    e = timeMode(c, iters, kApiStreamLaunches, graphs, out.graph);
  for (cudaGraphExec_t g : graphs)
    if (g)
      cudaGraphExecDestroy(g);
  return e;
}

const char *const tcgen::bench::kApiCsvHeader =
    "host_launch_fresh_us,host_plan_fresh_us,host_cublas_us,host_cublaslt_us,"
    "host_launch_same_us,host_plan_same_us,"
    "single_launch_us,single_plan_us,single_cublas_us,single_cublaslt_us,"
    "stream_launch_us,stream_plan_us,stream_cublas_us,stream_cublaslt_us,"
    "graph_launch_us,graph_plan_us,graph_cublas_us,graph_cublaslt_us";

std::string tcgen::bench::apiCsvRow(const ApiTimes &t) {
  std::string row;
  auto add = [&](double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3f", v);
    row += (row.empty() ? "" : ",") + std::string(std::isnan(v) ? "nan" : buf);
  };
  for (double v : {t.hostLaunchFresh, t.hostPlanFresh, t.hostCublas, t.hostLt,
                   t.hostLaunchSame, t.hostPlanSame})
    add(v);
  for (const double *mode : {t.single, t.stream, t.graph})
    for (int side = 0; side < kTimedSides; ++side)
      add(mode[side]);
  return row;
}

void tcgen::bench::printApiTimes(const std::string &entry, const ApiTimes &t) {
  std::printf("%s: host us/call: tcgen_rt_launch %.2f (same pointers %.2f), "
              "plan_launch_with %.2f (plan_launch %.2f), cublasGemmEx %.2f, "
              "cublasLtMatmul %.2f\n",
              entry.c_str(), t.hostLaunchFresh, t.hostLaunchSame,
              t.hostPlanFresh, t.hostPlanSame, t.hostCublas, t.hostLt);
  const char *names[] = {"tcgen_rt_launch", "tcgen_rt_plan_launch_with",
                         "cublasGemmEx", "cublasLtMatmul"};
  std::printf("  %-26s %10s %10s %10s   (us per launch; fresh pointers)\n",
              "", "single", "stream", "graph");
  for (int side = 0; side < kTimedSides; ++side)
    std::printf("  %-26s %10.2f %10.2f %10.2f\n", names[side], t.single[side],
                t.stream[side], t.graph[side]);
  std::printf("  cuBLAS / tcgen_rt_launch: %.3f %.3f %.3f; cuBLAS / plan: "
              "%.3f %.3f %.3f; cuBLASLt / plan: %.3f %.3f %.3f\n",
              t.single[Cublas] / t.single[LaunchFresh],
              t.stream[Cublas] / t.stream[LaunchFresh],
              t.graph[Cublas] / t.graph[LaunchFresh],
              t.single[Cublas] / t.single[PlanFresh],
              t.stream[Cublas] / t.stream[PlanFresh],
              t.graph[Cublas] / t.graph[PlanFresh],
              t.single[Lt] / t.single[PlanFresh],
              t.stream[Lt] / t.stream[PlanFresh],
              t.graph[Lt] / t.graph[PlanFresh]);
}
