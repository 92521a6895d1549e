//===- Bench.cpp - Timing a bundle against cuBLAS -------------------------===//
//
// This file implements benchBundle(). Runs alternate tcgen / cuBLAS /
// cuBLASLt each iteration, because the GPU's clock drops under its power cap
// after about a second of load; inputs rotate over several buffer sets when
// they would otherwise stay resident in L2. Work is queued in small batches
// behind a host-side gate so that the GPU never waits on the CPU between
// timed runs.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "CublasGemm.h"
#include "Gemm.h"
#include "tcgen/Runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr int kBatch = 8; // Iterations queued per gate.
constexpr int kMaxBufferSets = 64;
constexpr double kGateTimeoutS = 2.0; // Never deadlock on a closed gate.
constexpr size_t kCublasWorkspace = 32u << 20;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Holds a stream until the host has queued a batch behind it.
struct Gate {
  std::atomic<bool> open{false};

  static void CUDART_CB wait(void *p) {
    auto *gate = static_cast<Gate *>(p);
    auto start = std::chrono::steady_clock::now();
    while (!gate->open.load(std::memory_order_acquire)) {
      std::this_thread::yield();
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                        start)
              .count() > kGateTimeoutS)
        break;
    }
  }
};

double median(std::vector<double> v) {
  if (v.empty())
    return kNaN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// How many buffer sets keep repeated runs from being served out of L2.
int bufferSets(size_t bytesPerSet, const DeviceProps &device) {
  double l2 = double(std::max<int64_t>(device.l2Bytes, 1));
  if (double(bytesPerSet) >= 2.0 * l2)
    return 1;
  int sets =
      int(std::ceil(4.0 * l2 / double(std::max<size_t>(bytesPerSet, 1))));
  sets = std::clamp(sets, 2, kMaxBufferSets);
  size_t freeBytes = 0, totalBytes = 0;
  if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
    sets = std::max<int>(
        1, std::min<int64_t>(sets, int64_t(0.5 * freeBytes / bytesPerSet)));
  return sets;
}

/// The three contenders, their events and timings.
struct Sides {
  rt::Kernel *kernel = nullptr;
  cublasHandle_t cublas = nullptr;
  LtGemm lt;
  bool haveCublas = false, haveLt = false;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F; // both cuBLAS sides
  CublasPlan plan;
  GemmSpec spec;
  std::vector<DeviceOperands> *sets = nullptr;

  std::string runTcgen(int set, cudaStream_t stream) {
    return kernel->launch((*sets)[set].args, stream);
  }
  std::string runCublas(int set) {
    DeviceOperands &d = (*sets)[set];
    return runGemmEx(cublas, plan, d.buffers[spec.aIndex].get(),
                     d.buffers[spec.bIndex].get(), d.buffers[spec.cIndex].get(),
                     spec.aType, spec.cType, spec.accumulate ? 1.0f : 0.0f,
                     compute);
  }
  std::string runLt(int set, cudaStream_t stream) {
    DeviceOperands &d = (*sets)[set];
    return lt.run(d.buffers[spec.aIndex].get(), d.buffers[spec.bIndex].get(),
                  d.buffers[spec.cIndex].get(), stream);
  }
};

/// Queues one iteration: each side between its own pair of events.
std::string queueIteration(Sides &s, int set, cudaStream_t stream,
                           cudaEvent_t *events) {
  std::string e;
  cudaEventRecord(events[0], stream);
  e = s.runTcgen(set, stream);
  cudaEventRecord(events[1], stream);
  if (!e.empty())
    return "tcgen: " + e;
  if (s.haveCublas) {
    cudaEventRecord(events[2], stream);
    e = s.runCublas(set);
    cudaEventRecord(events[3], stream);
    if (!e.empty())
      return e;
  }
  if (s.haveLt) {
    cudaEventRecord(events[4], stream);
    e = s.runLt(set, stream);
    cudaEventRecord(events[5], stream);
    if (!e.empty())
      return e;
  }
  return "";
}

std::string timeAll(Sides &s, const BenchOptions &options, int numSets,
                    cudaStream_t stream, BenchRow &row) {
  // Warm-up: loads lazily-loaded modules and picks cuBLAS algorithms, so
  // nothing synchronizes while a gate is closed.
  std::vector<cudaEvent_t> events(6 * std::max(options.iters, 1));
  for (cudaEvent_t &ev : events)
    if (cudaEventCreate(&ev) != cudaSuccess)
      return "cudaEventCreate failed";
  std::string e;
  for (int w = 0; w < options.warmup && e.empty(); ++w)
    e = queueIteration(s, w % numSets, stream, events.data());
  if (e.empty())
    e = formatCuda("warm-up (cudaStreamSynchronize)",
                   cudaStreamSynchronize(stream));

  for (int begin = 0; begin < options.iters && e.empty(); begin += kBatch) {
    Gate gate;
    e = formatCuda("cudaLaunchHostFunc",
                   cudaLaunchHostFunc(stream, Gate::wait, &gate));
    int end = std::min(options.iters, begin + kBatch);
    for (int it = begin; it < end && e.empty(); ++it)
      e = queueIteration(s, it % numSets, stream, &events[6 * it]);
    gate.open.store(true, std::memory_order_release);
    // The gate lives on this stack frame: wait for the batch to drain.
    std::string sync =
        formatCuda("cudaStreamSynchronize", cudaStreamSynchronize(stream));
    if (e.empty())
      e = sync;
  }
  std::vector<double> t[3];
  for (int it = 0; it < options.iters && e.empty(); ++it) {
    for (int side = 0; side < 3; ++side) {
      if ((side == 1 && !s.haveCublas) || (side == 2 && !s.haveLt))
        continue;
      float ms = 0;
      e = formatCuda("cudaEventElapsedTime",
                     cudaEventElapsedTime(&ms, events[6 * it + 2 * side],
                                          events[6 * it + 2 * side + 1]));
      t[side].push_back(ms);
    }
  }
  for (cudaEvent_t ev : events)
    cudaEventDestroy(ev);
  row.tcgenMs = median(t[0]);
  row.cublasMs = s.haveCublas ? median(t[1]) : kNaN;
  row.ltMs = s.haveLt ? median(t[2]) : kNaN;
  row.iters = options.iters;
  return e;
}

void addNote(BenchRow &row, const std::string &note) {
  row.note += (row.note.empty() ? "" : "; ") + note;
}
} // namespace

std::string tcgen::bench::benchBundle(const std::string &path,
                                      const BenchOptions &options,
                                      const DeviceProps &device,
                                      BenchRow &row) {
  rt::Kernel kernel;
  std::string e = kernel.load(path);
  if (!e.empty())
    return e;
  const Manifest &manifest = kernel.manifest();
  Sides s;
  s.kernel = &kernel;
  if (!(e = describeGemm(manifest, s.spec)).empty())
    return e;
  const GemmSpec &spec = s.spec;
  row.entry = manifest.entry;
  row.backend = manifest.target.backend;
  row.m = spec.m, row.n = spec.n, row.k = spec.k;
  row.aType = dtypeName(spec.aType);
  row.cType = dtypeName(spec.cType);
  row.accumulator = dtypeName(spec.accumulator);
  // cuBLAS accumulates in the kernel's accumulator type.
  s.compute = computeTypeFor(spec.accumulator);

  std::vector<HostMatrix> host = makeHostOperands(manifest, spec, options.seed);
  size_t bytesPerSet = 0;
  for (const HostMatrix &h : host)
    bytesPerSet += h.bytes.size();
  int numSets = bufferSets(bytesPerSet, device);
  row.bufferSets = numSets;
  std::vector<DeviceOperands> sets(numSets);
  for (DeviceOperands &d : sets)
    if (!(e = d.create(manifest, host)).empty())
      return e;
  s.sets = &sets;

  cudaStream_t stream;
  if (!(e = formatCuda("cudaStreamCreate", cudaStreamCreateWithFlags(
                                               &stream, cudaStreamNonBlocking)))
           .empty())
    return e;
  DeviceBuffer workspace;
  std::string why;
  if (spec.aType != spec.bType)
    why = "cuBLAS needs equal A and B dtypes";
  else if ((why = checkComputeType(s.compute, spec.aType, spec.cType)).empty())
    why = planCublas(spec.a, spec.b, spec.c, s.plan);
  if (why.empty()) {
    // Our own workspace: cuBLAS then never allocates inside the timed loop.
    if ((why = formatCublas("cublasCreate", cublasCreate(&s.cublas))).empty() &&
        (why = workspace.allocate(kCublasWorkspace)).empty() &&
        (why = formatCublas(
             "cublasSetWorkspace",
             cublasSetWorkspace(s.cublas, workspace.get(), kCublasWorkspace)))
            .empty())
      why = formatCublas("cublasSetStream", cublasSetStream(s.cublas, stream));
    s.haveCublas = why.empty();
    if (s.haveCublas)
      row.cublasCompute = computeTypeName(s.compute);
    else
      addNote(row, "cuBLAS: " + why);
    if (s.haveCublas && options.cublasLt) {
      std::string ltWhy = s.lt.init(s.plan, spec.aType, spec.cType,
                                    spec.accumulate ? 1.0f : 0.0f, s.compute);
      s.haveLt = ltWhy.empty();
      if (!s.haveLt)
        addNote(row, "cuBLASLt: " + ltWhy);
    }
  } else {
    addNote(row, "no cuBLAS: " + why);
  }

  e = timeAll(s, options, numSets, stream, row);
  if (s.cublas)
    cublasDestroy(s.cublas);
  cudaStreamDestroy(stream);
  return e;
}
