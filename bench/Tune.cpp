//===- Tune.cpp - Timing the candidates of one tuning run -----------------===//

#include "Tune.h"

#include "Check.h"
#include "Gemm.h"
#include "Timing.h"
#include "tcgen/Runtime/Runtime.h"
#include "tcgen/Runtime/TuneFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kRoundsPerGate = 4; // rounds queued behind one gate
} // namespace

std::string
tcgen::bench::readTuneCandidates(const std::string &dir,
                                 std::vector<TuneCandidate> &candidates) {
  TuneFile file;
  if (std::string e = readTuneFile(dir, file); !e.empty())
    return e;
  for (const TuneCandidateRecord &r : file.candidates)
    candidates.push_back({r.id, r.status});
  return "";
}

std::string tcgen::bench::timeCandidates(
    const std::string &dir, const std::vector<TuneCandidate> &candidates,
    const TuneOptions &options, const DeviceProps &device,
    std::vector<TuneTiming> &timings) {
  // Load every compiled candidate; the first that loads fixes the problem.
  std::vector<std::unique_ptr<rt::Kernel>> kernels;
  std::vector<size_t> live; // indices into timings of loaded candidates
  // Per candidate, for each of its operands the problem's operand with the
  // same elements (a swapped kernel lists B^T first, A^T second).
  std::vector<std::vector<size_t>> operandOf;
  const Manifest *problem = nullptr;
  for (const TuneCandidate &c : candidates) {
    TuneTiming t;
    t.id = c.id;
    t.ms = kNaN;
    auto kernel = std::make_unique<rt::Kernel>();
    if (c.status != "ok") {
      t.error = "not compiled: " + c.status;
    } else if (std::string e = kernel->load(c.path.empty() ? dir + "/" + c.id : c.path); !e.empty()) {
      t.error = e;
    } else if (!problem) {
      problem = &kernel->manifest();
    }
    std::optional<std::vector<size_t>> match;
    if (t.error.empty() &&
        !(match = matchOperandViews(*problem, kernel->manifest()))) {
      t.error = "its operands differ from the first candidate's: not the "
                "same problem";
    } else if (t.error.empty()) {
      t.entry = kernel->manifest().entry;
      live.push_back(timings.size());
    }
    operandOf.push_back(match.value_or(std::vector<size_t>()));
    kernels.push_back(std::move(kernel));
    timings.push_back(t);
  }
  if (!problem)
    return "no candidate could be loaded";

  GemmSpec spec;
  if (std::string e = describeCheckedGemm(*problem, spec); !e.empty())
    return e;
  for (TuneTiming &t : timings) {
    t.batch = spec.batch;
    t.m = spec.m, t.n = spec.n, t.k = spec.k;
  }
  std::vector<HostMatrix> host =
      makeCheckOperands(*problem, spec, options.seed);
  size_t bytesPerSet = 0;
  for (const HostMatrix &h : host)
    bytesPerSet += h.bytes.size();
  int numSets = bufferSets(bytesPerSet, device);
  std::vector<DeviceOperands> sets(numSets);
  for (DeviceOperands &d : sets)
    if (std::string e = d.create(*problem, host); !e.empty())
      return e;

  cudaStream_t stream;
  if (std::string e = formatCuda("cudaStreamCreate",
                                 cudaStreamCreateWithFlags(
                                     &stream, cudaStreamNonBlocking));
      !e.empty())
    return e;
  // Each candidate's arguments on each buffer set: the problem's buffers
  // as that candidate's manifest describes them.
  std::vector<std::vector<std::vector<TensorArg>>> args(kernels.size());
  for (size_t i : live)
    for (const DeviceOperands &set : sets) {
      std::vector<TensorArg> a;
      const Manifest &m = kernels[i]->manifest();
      for (size_t j = 0; j < m.operands.size(); ++j) {
        TensorArg arg = set.args[operandOf[i][j]];
        arg.name = m.operands[j].name;
        arg.shape = m.operands[j].shape;
        arg.strides = m.operands[j].strides;
        a.push_back(std::move(arg));
      }
      args[i].push_back(std::move(a));
    }
  // Every launch on the next buffer set: no candidate finds its inputs in
  // L2 because the one before it just read them.
  int launches = 0;
  auto launch = [&](size_t i) {
    return kernels[i]->launch(args[i][launches++ % numSets], stream);
  };
  // Warm-up, one candidate at a time, so that a failing one is found and
  // dropped before the timed rounds; then one round timed on the host to
  // size the run.
  std::string error;
  for (size_t i : live) {
    for (int w = 0; w < options.warmup && timings[i].error.empty(); ++w)
      timings[i].error = launch(i);
    // A launch the runtime refuses drops the candidate; a kernel that
    // faults leaves the context unusable: give up on the rest.
    std::string sync =
        formatCuda("cudaStreamSynchronize", cudaStreamSynchronize(stream));
    if (!sync.empty()) {
      timings[i].error = sync;
      error = "candidate " + timings[i].id + ": " + sync;
      break;
    }
  }
  std::vector<size_t> run;
  for (size_t i : live)
    if (timings[i].error.empty())
      run.push_back(i);
  if (error.empty() && run.empty())
    error = "no candidate could be launched";
  int iters = options.minIters;
  if (error.empty()) {
    auto start = std::chrono::steady_clock::now();
    for (size_t i : run)
      launch(i);
    cudaStreamSynchronize(stream);
    double roundS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    iters = std::clamp(int(options.budgetS / std::max(roundS, 1e-6)),
                       options.minIters, options.maxIters);
  }

  // Timed rounds: every candidate once per round, starting one further
  // each round so that none always follows the same neighbour.
  std::vector<cudaEvent_t> events(2 * run.size() * size_t(iters));
  for (cudaEvent_t &ev : events)
    if (error.empty())
      error = formatCuda("cudaEventCreate", cudaEventCreate(&ev));
  for (int begin = 0; begin < iters && error.empty();
       begin += kRoundsPerGate) {
    Gate gate;
    error = formatCuda("cudaLaunchHostFunc",
                       cudaLaunchHostFunc(stream, Gate::wait, &gate));
    int end = std::min(iters, begin + kRoundsPerGate);
    for (int it = begin; it < end && error.empty(); ++it)
      for (size_t r = 0; r < run.size() && error.empty(); ++r) {
        size_t slot = (r + size_t(it)) % run.size();
        cudaEvent_t *ev = &events[2 * (size_t(it) * run.size() + slot)];
        cudaEventRecord(ev[0], stream);
        std::string e = launch(run[slot]);
        cudaEventRecord(ev[1], stream);
        if (!e.empty())
          error = "candidate " + timings[run[slot]].id + ": " + e;
      }
    gate.open();
    std::string sync =
        formatCuda("cudaStreamSynchronize", cudaStreamSynchronize(stream));
    if (error.empty())
      error = sync;
  }
  for (size_t slot = 0; slot < run.size() && error.empty(); ++slot) {
    std::vector<double> ms;
    for (int it = 0; it < iters && error.empty(); ++it) {
      cudaEvent_t *ev = &events[2 * (size_t(it) * run.size() + slot)];
      float t = 0;
      error = formatCuda("cudaEventElapsedTime",
                         cudaEventElapsedTime(&t, ev[0], ev[1]));
      ms.push_back(t);
    }
    timings[run[slot]].ms = median(ms);
    timings[run[slot]].iters = iters;
  }
  for (cudaEvent_t ev : events)
    if (ev)
      cudaEventDestroy(ev);
  cudaStreamDestroy(stream);
  return error;
}
