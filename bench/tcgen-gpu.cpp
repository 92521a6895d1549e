//===- tcgen-gpu.cpp - Run, check and benchmark kernel bundles ------------===//
//
// This file implements the tcgen-gpu command line: `run` launches a bundle
// on random inputs (optionally checking it against a float64 reference) and
// `bench` times bundles (or a study's) against cuBLAS, `compare` times two
// bundle sets against each other. See usage() for the options.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "Check.h"
#include "Compare.h"
#include "RescheduleCheck.h"
#include "CublasGemm.h"
#include "Study.h"
#include "Timing.h"
#include "Tune.h"
#include "CudaUtil.h"
#include "tcgen/Runtime/Manifest.h"

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr int kExitFail = 1;  // a check failed or an error occurred
constexpr int kExitUsage = 2; // bad command line
constexpr int kExitHang = 3;  // run --timeout: a check did not finish

const char *kUsage =
    "tcgen-gpu: run, check and benchmark tcgen kernel bundles on the GPU\n"
    "\n"
    "usage:\n"
    "  tcgen-gpu run BUNDLE [--check] [--seed N] [--launches N]\n"
    "                [--sizes M,N,K] [--timeout SECONDS\n"
    "                [--keep-going-after-hang]]\n"
    "  tcgen-gpu bench BUNDLE... [--study DIR]... [--iters N] [--warmup N]\n"
    "                  [--csv FILE] [--seed N] [--no-cublaslt]\n"
    "                  [--lt-algos N] [--solo] [--device-name]\n"
    "                  [--sizes M,N,K] [--back-to-back N] [--api]\n"
    "                  [--baseline=NAME [--check-baseline]]\n"
    "  tcgen-gpu compare A_DIR B_DIR [--csv FILE] [--budget SECONDS]\n"
    "  tcgen-gpu tune DIR [--csv FILE] [--budget SECONDS] [--max-iters N]\n"
    "                 [--warmup N] [--seed N]\n"
    "  tcgen-gpu reschedule-check DIR [--args LIST] [--grid X,Y,Z]\n"
    "                 [--iters N] [--warmup N] [--batch N] [--seed N]\n"
    "                 [--csv FILE]\n"
    "  tcgen-gpu --help | tcgen-gpu run --help | tcgen-gpu bench --help |\n"
    "  tcgen-gpu compare --help | tcgen-gpu tune --help |\n"
    "  tcgen-gpu reschedule-check --help\n"
    "\n"
    "BUNDLE is a bundle directory holding exactly one manifest (*.json) or\n"
    "the manifest itself (docs/BUNDLE.md).\n";

const char *kRunHelp =
    "tcgen-gpu run BUNDLE... [--check] [--seed N] [--launches N]\n"
    "              [--sizes M,N,K] [--timeout SECONDS\n"
    "              [--keep-going-after-hang]]\n"
    "\n"
    "With several bundles, each is checked in turn in one process (each\n"
    "line prefixed with its path; --sizes applies to the bundles whose\n"
    "sizes are fixed at launch), and a last line says\n"
    "`RUN-SUMMARY bundles=N pass=P fail=F error=E`.\n"
    "\n"
    "Allocates the bundle's operands, fills A and B (and an inout C, and\n"
    "the epilogue inputs of role \"in\" of a fused epilogue) with uniform\n"
    "random values in [-1, 1) stored in the operand dtype, poisons an out C\n"
    "with NaN, and launches the kernel once through libtcgen_rt.\n"
    "Prints `RUN <entry> m n k OK|FAIL ms=... nonfinite=...` (with an\n"
    "epilogue, which may overflow to infinity, nonfinite counts NaNs).\n"
    "A batched matmul (manifest op.batch > 1: A [batch, m, k], B [batch, k,\n"
    "n], C [batch, m, n]) is run and checked as a whole; its lines end with\n"
    "` batch=<batch>`.\n"
    "\n"
    "  --check   compare with a float64 reference computed from the rounded\n"
    "            inputs: on the host when batch*m*n*k <= 2^30, otherwise\n"
    "            cuBLAS (CUBLAS_COMPUTE_32F_PEDANTIC; a batch with\n"
    "            cublasGemmStridedBatchedEx) for every element plus 4096\n"
    "            sampled elements (spread over the batch) in float64. Prints\n"
    "            `CHECK <entry> m n k PASS|FAIL maxnorm=... frob=...\n"
    "            nonfinite=... ref=... acc=f16|f32`; maxnorm is max\n"
    "            |out-ref| / (sum_k |a*b| + |c0|), |out-ref| less half the\n"
    "            out dtype's smallest subnormal spacing (what rounding a tiny\n"
    "            value may lose), frob is ||out-ref|| /\n"
    "            ||ref||, acc the kernel's op.accumulator. PASS needs\n"
    "            nonfinite=0 and maxnorm <= 1e-2 (f16/bf16 out; f32 out from "
    "f32\n"
    "            in) or 1e-4 (f32 out from f16/bf16 in), frob <= 5e-3 (f16\n"
    "            out), 1e-2 (bf16 out), max(1e-5, K * 2^-29) (f32 out from\n"
    "            f16/bf16 in: f32 accumulation error grows with K).\n"
    "            With acc=f16 an f32 out gets the f16-out bounds. A FAIL\n"
    "            line ends with `worst=(i,j) out=... ref=...`, the element\n"
    "            of largest normalized error (`worst=(b,i,j)` in a batch).\n"
    "            With a fused epilogue (manifest op.epilogue) the reference\n"
    "            is the epilogue applied to the float64 matmul reference,\n"
    "            each step rounded to its dtype, and the matmul's bounds are\n"
    "            carried through it: element (i,j) may take any value the\n"
    "            epilogue takes for a matmul value within acc +- maxnorm\n"
    "            bound * (sum_k |a*b| + |c0|), plus a few ulps per step\n"
    "            (2^-19 relative for transcendental steps, 2^-10 for tanh);\n"
    "            maxnorm is |out-ref| over the allowance's half-width (the\n"
    "            larger side), above 1 outside it (PASS: <= 1), and\n"
    "            the frob bound is ||w|| / ||ref||, w the half-widths of the\n"
    "            epilogue's ranges over acc +- frob bound * rms(acc).\n"
    "            Non-finite outputs count only where the reference allows\n"
    "            none. The line then ends with `epilogue=<steps>`, and a\n"
    "            FAIL with `allowed=[lo,hi]` for the worst element.\n"
    "            A dual GEMM (manifest op.dual: out = f(A B, A B2, ...))\n"
    "            gets B2 filled like B; its second product A B2 is computed\n"
    "            the same way beside A B (host, or cuBLAS plus the sampled\n"
    "            elements) and read as the epilogue's product input, with\n"
    "            an allowance of its own from its k-sum, carried through\n"
    "            the epilogue together with A B's.\n"
    "  --launches N  launch N times, restoring C in between, and check the\n"
    "            last (a kernel keeping state across launches, such as\n"
    "            stream-K flags in its workspace, must stay right)\n"
    "  --seed N  random seed (default 1)\n"
    "  --sizes M,N,K  the sizes of a bundle whose sizes are fixed at launch\n"
    "            (manifest sizes of -1; required for such a bundle; a bundle\n"
    "            of fixed sizes takes only its own): its operands are\n"
    "            allocated dense at these sizes, and the runtime binds the\n"
    "            launch to them\n"
    "  --timeout SECONDS  a bundle whose kernel runs longer (the launch\n"
    "            until it finishes; filling the inputs and the float64\n"
    "            reference do not count) prints `BUNDLE: HANG (a kernel ran\n"
    "            S s without finishing)`;\n"
    "            the driver cannot abort a running kernel, so the process\n"
    "            then prints the summary, which gains `hang=H unchecked=U`\n"
    "            (bundles not checked), and exits with status 3\n"
    "  --keep-going-after-hang  with --timeout: the checks run in a child\n"
    "            process, and after a hang a new one goes on with the\n"
    "            bundles after the hung one (each child sets up the device\n"
    "            afresh); one summary ends the run, and the exit status is\n"
    "            3 if any bundle hung\n"
    "\n"
    "Exit status: 0 pass, 1 fail or error, 2 usage, 3 a check hung\n"
    "(--timeout).\n";

const char *kBenchHelp =
    "tcgen-gpu bench BUNDLE... [--study DIR]... [--iters N] [--warmup N]\n"
    "                [--csv FILE] [--seed N] [--no-cublaslt] [--lt-algos N]\n"
    "                [--solo] [--device-name] [--baseline=NAME\n"
    "                [--check-baseline]] [--sizes M,N,K] [--back-to-back N]\n"
    "                [--api]\n"
    "\n"
    "Times each bundle's kernel against cublasGemmEx (same dtypes, default\n"
    "algorithm; cublasGemmStridedBatchedEx for a batched matmul) and\n"
    "cublasLtMatmul (the fastest of the heuristic's first --lt-algos\n"
    "algorithms, each timed 5 times on the bundle's buffers first; 32 MiB\n"
    "workspace; a batch through its layouts' batch count and strided batch\n"
    "offset) on the same buffers. cuBLAS accumulates like the kernel (manifest\n"
    "op.accumulator): CUBLAS_COMPUTE_16F with __half alpha/beta\n"
    "(cuBLASLt scale type CUDA_R_16F; needs f16 A, B and C) for f16,\n"
    "CUBLAS_COMPUTE_32F with float scalars for f32; a note names it per\n"
    "kernel. Runs alternate tcgen / cuBLAS / cuBLASLt every iteration\n"
    "and each run is timed with its own CUDA events; medians are reported.\n"
    "Inputs rotate over several buffer sets when they are smaller than twice\n"
    "the L2 cache. FLOPs are 2*batch*m*n*k (batch = op.batch, 1 unless\n"
    "the bundle is a batched matmul).\n"
    "\n"
    "With --baseline=NAME a fused bundle (op.epilogue) is also timed against\n"
    "an unfused baseline computing the same from the same buffers, in the\n"
    "same alternation (tcgen / baseline / cuBLAS / cuBLASLt); cuBLAS and\n"
    "cuBLASLt then time the bare matmul into a scratch of the epilogue's\n"
    "matmul_dtype. Row-major out = A B + epilogue; NAME is one of\n"
    "  cublas+add-relu            cuBLAS, then relu(C + D)        (D matrix)\n"
    "  cublas+add-scalar          cuBLAS, then C + s        (s scalar/const)\n"
    "  cublas+bias-gelu-residual  cuBLAS, then gelu(C + bias[j]) + R\n"
    "                             (bias row, R matrix; GELU tanh form)\n"
    "  cublaslt-relu-bias         cublasLtMatmul, CUBLASLT_EPILOGUE_RELU_BIAS\n"
    "  cublaslt-gelu-bias         cublasLtMatmul, CUBLASLT_EPILOGUE_GELU_BIAS\n"
    "                             (bias row, in the out dtype)\n"
    "  relu-a+cublas              relu(A) into a scratch, then cuBLAS (a\n"
    "                             ReLU prologue on A; no epilogue)\n"
    "  2cublas+add                cuBLAS on each K half of A and B, then\n"
    "                             their sum (add(gemm, gemm); no epilogue)\n"
    "  \"cublas x2 + pointwise\"    a dual GEMM (op.dual): cuBLAS P = A B\n"
    "                             and P2 = A B2, then one pointwise kernel\n"
    "                             of the bundle's epilogue (any)\n"
    "  \"cublas concat + pointwise\"  a dual GEMM: one cuBLAS A [B | B2]\n"
    "                             over the concatenated weights (made\n"
    "                             before timing) into [m, 2n], then the\n"
    "                             same kernel over its two halves\n"
    "The intermediate matmul result has the epilogue's matmul_dtype; the\n"
    "pointwise kernels read 16 bytes a thread and compute in f32. A bundle\n"
    "whose epilogue inputs (number, kinds) or values on probe points are not\n"
    "what NAME computes, or that is a batched matmul (op.batch > 1), is\n"
    "refused before the GPU is touched. The baseline's output is then\n"
    "compared with the kernel's, element by element, with\n"
    "err = |tcgen - baseline| / (|baseline| + rms(baseline)):\n"
    "`BASELINE-CHECK <entry> NAME PASS|FAIL maxerr=... tol=... nonfinite=...\n"
    "worst=(i,j) tcgen=... baseline=...`; tol is 1e-3 (f32), 1e-2 (f16) or\n"
    "4e-2 (bf16) after the coarsest dtype of the matmul result, the\n"
    "epilogue and the output. A FAIL is not timed (exit status 1).\n"
    "\n"
    "A dual GEMM (op.dual) is timed against both dual baselines without\n"
    "--baseline (each that fits it, each checked first; the table and the\n"
    "CSV have a line per baseline), and against no other. Their pointwise\n"
    "kernel is the bundle's epilogue written as CUDA C++ and compiled with\n"
    "NVRTC for the device (8 elements a thread where aligned). cuBLAS and\n"
    "cuBLASLt then time the bare A [B | B2] into [m, 2n], and the row's n\n"
    "is 2n, so that every TFLOP/s counts both products.\n"
    "\n"
    "  --study DIR     time every bundle of a study directory: the ok rows\n"
    "                  of DIR/batch.tsv (tcgen compile --batch), or each\n"
    "                  subdirectory holding a manifest; a bundle that only\n"
    "                  a baseline times (op.k2, op.batch_reduce) is skipped\n"
    "                  with a line saying so, and a bundle that fails does\n"
    "                  not stop the others\n"
    "  --iters N       timed iterations (default 50)\n"
    "  --warmup N      untimed iterations first (default 10)\n"
    "  --csv FILE      append rows to FILE (header written when FILE is new):\n"
    "                  date,device,entry,backend,m,n,k,a_dtype,c_dtype,\n"
    "                  tcgen_ms,tcgen_tflops,cublas_ms,cublas_tflops,ratio,\n"
    "                  iters,cublaslt_ms,cublaslt_tflops,accumulator,\n"
    "                  baseline,baseline_ms,baseline_tflops,baseline_ratio,\n"
    "                  baseline_pointwise_ms,baseline_check_maxerr,batch,\n"
    "                  problem\n"
    "                  (ratio = cuBLAS time / tcgen time: >1 is tcgen faster;\n"
    "                  accumulator = the kernel's op.accumulator, which is\n"
    "                  also cuBLAS's compute type; baseline_ratio = baseline\n"
    "                  time / tcgen time; baseline_pointwise_ms = its\n"
    "                  pointwise kernels alone; batch = op.batch; problem\n"
    "                  = the bundle's name in its study, else its path;\n"
    "                  TFLOP/s count 2*batch*m*n*k)\n"
    "  --seed N        random seed (default 1)\n"
    "  --sizes M,N,K   the sizes of bundles whose sizes are fixed at launch\n"
    "                  (as for run)\n"
    "  --no-cublaslt   skip cublasLtMatmul\n"
    "  --lt-algos N    cuBLASLt's candidates (default 8, at most 32; 1: the\n"
    "                  heuristic's top algorithm, untimed)\n"
    "  --solo          time the kernel alone, back to back with itself\n"
    "                  (cuBLAS sides not run; their columns nan)\n"
    "  --back-to-back N  N launches of each side between its two events\n"
    "                  (buffer sets rotating), times per launch (default\n"
    "                  1: an event pair around every launch)\n"
    "  --device-name   print `DEVICE <name> cc=X.Y sms=N l2=MB` first; with "
    "no\n"
    "                  BUNDLE, print it and exit\n"
    "  --baseline=NAME also time the unfused baseline NAME (above);\n"
    "                  `--baseline NAME` works too\n"
    "  --check-baseline  with --baseline: compare the outputs and print the\n"
    "                  BASELINE-CHECK lines only (exit 1 on a FAIL)\n"
    "  --api           time through the public C ABI as a program calls it,\n"
    "                  fresh pointers each call (buffer sets rotating),\n"
    "                  against cublasGemmEx and cublasLtMatmul called the\n"
    "                  same way: host microseconds per call\n"
    "                  (tcgen_rt_launch with fresh and the same pointers,\n"
    "                  tcgen_rt_plan_launch_with, tcgen_rt_plan_launch,\n"
    "                  cuBLAS, cuBLASLt), and microseconds per launch with\n"
    "                  one launch per event pair on a drained stream, 20 in\n"
    "                  a stream, and 20 replayed from a CUDA graph. --csv\n"
    "                  then writes date,device,entry,backend,m,n,k,a_dtype,\n"
    "                  c_dtype,batch,iters, the columns of those times and\n"
    "                  problem\n";

const char *kTuneHelp =
    "tcgen-gpu tune DIR [--csv FILE] [--budget SECONDS] [--max-iters N]\n"
    "               [--warmup N] [--seed N]\n"
    "\n"
    "The measuring half of `tcgen tune`: times the candidates compiled\n"
    "into DIR (listed in DIR/tune.tsv; each in DIR/<id>/) on the same\n"
    "buffers, round-robin (every candidate once per round, each launch\n"
    "between its own CUDA events), after --warmup untimed launches each\n"
    "(default 3). Rounds continue until about --budget seconds of GPU time\n"
    "(default 3), at least 5 and at most --max-iters (default 50); medians\n"
    "are reported. Inputs rotate over several buffer sets when they are\n"
    "smaller than twice the L2 cache, A and B uniform in [-1, 1).\n"
    "Writes DIR/measured.csv (or appends to --csv FILE):\n"
    "  date,device,id,entry,batch,m,n,k,ms,tflops,iters,error\n"
    "which `tcgen tune --import DIR` reads. A candidate that was not\n"
    "compiled, does not load or is refused at launch gets its error and\n"
    "no time; a kernel fault stops the run (exit status 1).\n";

int usageError(const std::string &message) {
  std::fprintf(stderr, "tcgen-gpu: %s\n(run 'tcgen-gpu --help' for usage)\n",
               message.c_str());
  return kExitUsage;
}

bool isHelp(const std::string &arg) { return arg == "--help" || arg == "-h"; }

/// Parses a non-negative integer option value.
bool parseCount(const char *text, int64_t max, int64_t &out) {
  if (!text || !*text)
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (errno || *end || v < 0 || v > max)
    return false;
  out = v;
  return true;
}

/// Checks bundle paths and manifests before touching the GPU, so that these
/// errors read the same on machines without one.
bool checkBundles(const std::vector<std::string> &bundles,
                  const LaunchSizes &sizes, bool plainBench = false) {
  bool ok = true;
  for (const std::string &b : bundles) {
    std::string path;
    std::string error = findManifest(b, path);
    Manifest m;
    if (error.empty())
      error = loadManifest(path, m);
    // The rule bindLaunchSizes() applies, before the GPU is touched.
    if (error.empty() && !(error = checkLaunchSizes(m, sizes)).empty())
      error = path + ": " + error;
    // `bench` without a baseline: bundles that have no plain cuBLAS call.
    if (error.empty() && plainBench && !(error = needsBaseline(m)).empty())
      error = path + ": " + error;
    if (!error.empty()) {
      std::fprintf(stderr, "tcgen-gpu: %s\n", error.c_str());
      ok = false;
    }
  }
  return ok;
}

/// Matches every bundle against the baseline before touching the GPU
/// (planBaseline()), so that a bundle it does not fit is refused the same
/// way everywhere.
bool checkBaselines(const std::vector<std::string> &bundles,
                    BaselineKind baseline, const LaunchSizes &sizes) {
  bool ok = true;
  for (const std::string &b : bundles) {
    std::string path;
    Manifest m;
    BaselinePlan plan;
    std::string error = findManifest(b, path);
    if (error.empty())
      error = loadManifest(path, m);
    // A bundle whose sizes are fixed at launch, at the sizes given.
    if (error.empty() && m.isDynamic() &&
        (error = checkLaunchSizes(m, sizes)).empty()) {
      Manifest bound;
      error = specializeManifest(m, sizes[0], sizes[1], sizes[2], bound);
      m = std::move(bound);
    }
    if (error.empty())
      error = planBaseline(m, baseline, plan);
    if (!error.empty()) {
      std::fprintf(stderr, "tcgen-gpu: %s: %s\n", b.c_str(), error.c_str());
      ok = false;
    }
  }
  return ok;
}

bool initDeviceOrReport() {
  std::string error = initDevice();
  if (error.empty())
    return true;
  std::fprintf(stderr, "tcgen-gpu: %s\n", error.c_str());
  return false;
}

/// Whether the bundle at `path` has sizes fixed at launch (false if its
/// manifest does not load: checkBundles() reports that).
bool isDynamicBundle(const std::string &path) {
  std::string manifestPath;
  Manifest m;
  return findManifest(path, manifestPath).empty() &&
         loadManifest(manifestPath, m).empty() && m.isDynamic();
}

/// The tally of a `run` over several bundles: pass, fail, error, hang.
/// With --keep-going-after-hang it lives in memory shared with the child
/// processes that run the checks, which also record the bundle they check.
struct RunTally {
  int counts[4] = {0, 0, 0, 0}; // pass, fail, error, hang
  int64_t current = -1;         // the bundle being checked
  int64_t done = 0;             // bundles checked (hangs included)
};

/// Prints `RUN-SUMMARY bundles=N pass=P fail=F error=E[ hang=H unchecked=U]`
/// (the hang counts where `timeout`).
void printRunSummary(const RunTally &t, size_t bundles, bool timeout) {
  std::printf("RUN-SUMMARY bundles=%zu pass=%d fail=%d error=%d", bundles,
              t.counts[0], t.counts[1], t.counts[2]);
  if (timeout)
    std::printf(" hang=%d unchecked=%lld", t.counts[3],
                (long long)(bundles - t.done));
  std::printf("\n");
  std::fflush(stdout);
}

/// Ends the process if a checked kernel runs longer than its timeout: the
/// driver cannot abort a kernel that never finishes, and the process would
/// wait for it forever. Only the time of the kernel's launches counts
/// (setKernelWaitHook): host work on a large problem (its inputs, the
/// float64 reference) may take longer and is not a hang. Prints `BUNDLE:
/// HANG` and, unless `quiet` (a child of --keep-going-after-hang, whose
/// parent sums up), the run's summary, then exits with kExitHang.
class HangWatch {
public:
  HangWatch(const std::string &bundle, int seconds, RunTally &tally,
            size_t bundles, bool quiet)
      : thread([this, bundle, seconds, &tally, bundles, quiet] {
          std::unique_lock<std::mutex> lock(mutex);
          while (true) {
            cv.wait(lock, [this] { return finished || waiting; });
            if (finished)
              return;
            if (cv.wait_for(lock, std::chrono::seconds(seconds),
                            [this] { return finished || !waiting; }))
              continue;
            std::fflush(stdout);
            std::printf("%s: HANG (a kernel ran %d s without finishing)\n",
                        bundle.c_str(), seconds);
            ++tally.counts[3];
            ++tally.done;
            if (!quiet)
              printRunSummary(tally, bundles, /*timeout=*/true);
            std::fflush(stdout);
            std::fflush(stderr);
            std::_Exit(kExitHang);
          }
        }) {
    setKernelWaitHook([this](bool wait) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        waiting = wait;
      }
      cv.notify_one();
    });
  }
  ~HangWatch() {
    setKernelWaitHook(nullptr);
    {
      std::lock_guard<std::mutex> lock(mutex);
      finished = true;
    }
    cv.notify_one();
    thread.join();
  }

private:
  std::mutex mutex;
  std::condition_variable cv;
  bool finished = false;
  bool waiting = false;
  std::thread thread;
};

/// What `run` was asked for, besides the check options.
struct RunOptions {
  std::vector<std::string> bundles;
  CheckOptions check;
  int timeout = 0; // seconds a bundle's check may take; 0: no limit
  bool keepGoing = false;
};

/// Checks bundles [first, end) in this process into `tally`; returns false
/// where the device could not be set up (nothing after that is checked).
bool runBundles(const RunOptions &run, size_t first, RunTally &tally,
                bool quiet) {
  bool several = run.bundles.size() > 1;
  bool deviceReady = false;
  for (size_t i = first; i < run.bundles.size(); ++i) {
    const std::string &bundle = run.bundles[i];
    tally.current = int64_t(i);
    CheckOptions o = run.check;
    if (several && !isDynamicBundle(bundle))
      o.sizes = {0, 0, 0};
    if (!checkBundles({bundle}, o.sizes)) {
      ++tally.counts[2];
      ++tally.done;
      continue;
    }
    if (!deviceReady && !(deviceReady = initDeviceOrReport()))
      return false;
    CheckResult r;
    {
      std::optional<HangWatch> watch;
      if (run.timeout > 0)
        watch.emplace(bundle, run.timeout, tally, run.bundles.size(), quiet);
      r = checkBundle(bundle, o);
    }
    ++tally.done;
    if (!r.error.empty()) {
      std::fprintf(stderr, "tcgen-gpu: %s: %s\n", bundle.c_str(),
                   r.error.c_str());
      ++tally.counts[2];
      continue;
    }
    std::printf("%s%s%s\n", several ? bundle.c_str() : "", several ? ": " : "",
                r.line(run.check.compare).c_str());
    std::fflush(stdout);
    ++tally.counts[r.pass ? 0 : 1];
  }
  return true;
}

/// --keep-going-after-hang: the checks run in child processes (this one
/// never touches the GPU); where one hangs (exit status kExitHang), a new
/// child goes on after the hung bundle. The tally lives in shared memory.
int runKeepingGoing(const RunOptions &run) {
  void *mem = mmap(nullptr, sizeof(RunTally), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    std::fprintf(stderr, "tcgen-gpu: cannot map shared memory: %s\n",
                 std::strerror(errno));
    return kExitFail;
  }
  RunTally &tally = *new (mem) RunTally();
  size_t first = 0;
  bool deviceFailed = false;
  while (first < run.bundles.size()) {
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t child = fork();
    if (child < 0) {
      std::fprintf(stderr, "tcgen-gpu: fork: %s\n", std::strerror(errno));
      return kExitFail;
    }
    if (child == 0) {
      bool ok = runBundles(run, first, tally, /*quiet=*/true);
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(ok ? 0 : kExitFail);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExitHang) {
      first = size_t(tally.current) + 1;
      continue;
    }
    // Done, or a child that could not set up the device or died: what it
    // did not check stays unchecked.
    deviceFailed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (!WIFEXITED(status))
      std::fprintf(
          stderr, "tcgen-gpu: the check of %s ended by signal %d\n",
          run.bundles[size_t(std::max<int64_t>(tally.current, 0))].c_str(),
          WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    break;
  }
  RunTally t = tally;
  munmap(mem, sizeof(RunTally));
  printRunSummary(t, run.bundles.size(), /*timeout=*/true);
  if (t.counts[3] > 0)
    return kExitHang;
  return !deviceFailed && t.counts[1] + t.counts[2] == 0 &&
                 t.done == int64_t(run.bundles.size())
             ? 0
             : kExitFail;
}

int runCommand(const std::vector<std::string> &args) {
  RunOptions run;
  CheckOptions &options = run.check;
  options.compare = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (isHelp(a)) {
      std::fputs(kRunHelp, stdout);
      return 0;
    }
    int64_t v;
    if (a == "--check") {
      options.compare = true;
    } else if (a == "--seed") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), INT64_MAX, v))
        return usageError("--seed needs a non-negative integer");
      options.seed = static_cast<uint64_t>(v);
    } else if (a == "--launches") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), 1000, v) ||
          v < 1)
        return usageError("--launches needs an integer in [1, 1000]");
      options.warmLaunches = v - 1;
    } else if (a == "--sizes") {
      if (i + 1 >= args.size() || !parseLaunchSizes(args[++i], options.sizes))
        return usageError("--sizes needs M,N,K (integers >= 1)");
    } else if (a == "--timeout") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), 3600, v) ||
          v < 1)
        return usageError("--timeout needs whole seconds in [1, 3600]");
      run.timeout = int(v);
    } else if (a == "--keep-going-after-hang") {
      run.keepGoing = true;
    } else if (!a.empty() && a[0] == '-') {
      return usageError("run: unknown option '" + a + "'");
    } else {
      // A directory of several kernels (a contraction and the pointwise
      // kernels of consumers it could not fuse): each is checked.
      std::vector<std::string> manifests;
      if (listManifests(a, manifests).empty() && manifests.size() > 1)
        run.bundles.insert(run.bundles.end(), manifests.begin(),
                           manifests.end());
      else
        run.bundles.push_back(a);
    }
  }
  if (run.bundles.empty())
    return usageError("run needs a BUNDLE");
  if (run.keepGoing && run.timeout == 0)
    return usageError("--keep-going-after-hang needs --timeout SECONDS");
  if (run.keepGoing)
    return runKeepingGoing(run);
  // Several bundles: each is checked in this one process, --sizes applying
  // to those whose sizes are fixed at launch; a summary line ends the run.
  RunTally tally;
  if (!runBundles(run, 0, tally, /*quiet=*/false))
    return kExitFail;
  if (run.bundles.size() > 1 || run.timeout > 0)
    printRunSummary(tally, run.bundles.size(), run.timeout > 0);
  return tally.counts[1] + tally.counts[2] == 0 ? 0 : kExitFail;
}

// New columns go at the end, so that older columns keep their positions.
const char *kCsvHeader =
    "date,device,entry,backend,m,n,k,a_dtype,c_dtype,tcgen_ms,tcgen_tflops,"
    "cublas_ms,cublas_tflops,ratio,iters,cublaslt_ms,cublaslt_tflops,"
    "accumulator,baseline,baseline_ms,baseline_tflops,baseline_ratio,"
    "baseline_pointwise_ms,baseline_check_maxerr,batch,problem";

/// Opens `path` for appending, writing `header` first if it is not null;
/// nullptr (and a message) if it cannot be written.
FILE *openCsv(const std::string &path, const char *header) {
  FILE *f = std::fopen(path.c_str(), "ab");
  if (!f) {
    std::fprintf(stderr, "tcgen-gpu: %s: cannot write CSV: %s\n", path.c_str(),
                 std::strerror(errno));
    return nullptr;
  }
  if (header)
    std::fprintf(f, "%s\n", header);
  return f;
}

bool appendCsv(const std::string &path, const std::string &device,
               const std::vector<BenchRow> &rows, int iters) {
  FILE *probe = std::fopen(path.c_str(), "rb");
  bool fresh = true;
  if (probe) {
    char first[512] = "";
    fresh = !std::fgets(first, sizeof(first), probe);
    std::fclose(probe);
    std::string header = first;
    while (!header.empty() && (header.back() == '\n' || header.back() == '\r'))
      header.pop_back();
    // An older version's header is a prefix of this one: its columns keep
    // their positions and the rows only add columns at the end.
    std::string ours = kCsvHeader;
    if (!fresh && header != ours &&
        ours.compare(0, header.size() + 1, header + ",") == 0)
      std::fprintf(stderr,
                   "tcgen-gpu: warning: %s: its header is an older "
                   "version's; appending rows with the columns %s after "
                   "its last one\n",
                   path.c_str(), ours.substr(header.size() + 1).c_str());
    else if (!fresh && header != ours)
      std::fprintf(stderr,
                   "tcgen-gpu: warning: %s: its header is not this version's "
                   "(%s); appending rows with this version's columns\n",
                   path.c_str(), kCsvHeader);
  }
  FILE *f = openCsv(path, fresh ? kCsvHeader : nullptr);
  if (!f)
    return false;
  std::string date = utcNow();
  for (const BenchRow &r : rows) {
    // One line per baseline (a dual GEMM has two), the kernel's columns
    // repeated; one with empty baseline columns where there is none.
    std::vector<BaselineTiming> baselines = r.baselines;
    bool none = baselines.empty();
    if (none)
      baselines.emplace_back();
    for (const BaselineTiming &b : baselines)
      std::fprintf(
          f,
          "%s,%s,%s,%s,%lld,%lld,%lld,%s,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,"
          "%s,%s,%s,%s,%lld,%s\n",
          date.c_str(), csvField(device).c_str(), csvField(r.entry).c_str(),
          csvField(r.backend).c_str(), (long long)r.m, (long long)r.n,
          (long long)r.k, r.aType.c_str(), r.cType.c_str(),
          fmt("%.6f", r.tcgenMs).c_str(),
          fmt("%.3f", r.tflops(r.tcgenMs)).c_str(),
          fmt("%.6f", r.cublasMs).c_str(),
          fmt("%.3f", r.tflops(r.cublasMs)).c_str(),
          fmt("%.4f", r.cublasMs / r.tcgenMs).c_str(), iters,
          fmt("%.6f", r.ltMs).c_str(), fmt("%.3f", r.tflops(r.ltMs)).c_str(),
          r.accumulator.c_str(), csvField(b.name).c_str(),
          fmt("%.6f", b.ms).c_str(), fmt("%.3f", r.tflops(b.ms)).c_str(),
          fmt("%.4f", b.ms / r.tcgenMs).c_str(),
          fmt("%.6f", b.pointwiseMs).c_str(),
          fmt("%.3g", none ? NAN : b.check.maxErr).c_str(),
          (long long)r.batch, csvField(r.problem).c_str());
  }
  bool ok = std::fclose(f) == 0;
  if (!ok)
    std::fprintf(stderr, "tcgen-gpu: %s: cannot write CSV\n", path.c_str());
  return ok;
}

/// Appends `tcgen-gpu bench --api` rows to `path` (header when new).
bool appendApiCsv(const std::string &path, const std::string &device,
                  const std::vector<BenchRow> &rows) {
  FILE *probe = std::fopen(path.c_str(), "rb");
  bool fresh = !probe || std::fgetc(probe) == EOF;
  if (probe)
    std::fclose(probe);
  std::string header = "date,device,entry,backend,m,n,k,a_dtype,c_dtype,"
                       "batch,iters," +
                       std::string(kApiCsvHeader) + ",problem";
  FILE *f = openCsv(path, fresh ? header.c_str() : nullptr);
  if (!f)
    return false;
  std::string date = utcNow();
  for (const BenchRow &r : rows)
    std::fprintf(f, "%s,%s,%s,%s,%lld,%lld,%lld,%s,%s,%lld,%d,%s,%s\n",
                 date.c_str(), csvField(device).c_str(),
                 csvField(r.entry).c_str(), csvField(r.backend).c_str(),
                 (long long)r.m, (long long)r.n, (long long)r.k,
                 r.aType.c_str(), r.cType.c_str(), (long long)r.batch, r.iters,
                 apiCsvRow(*r.api).c_str(), csvField(r.problem).c_str());
  return std::fclose(f) == 0;
}

void printTable(const std::vector<BenchRow> &rows) {
  // A batch column only when some bundle is a batched matmul, so that the
  // table of plain ones reads as it always has.
  bool anyBatch = false;
  for (const BenchRow &r : rows)
    anyBatch = anyBatch || r.batch > 1;
  std::string batchHead = anyBatch ? " batch" : "";
  std::printf("%-32s%s %6s %6s %6s %-14s %10s %8s %10s %8s %6s %11s %8s\n",
              "entry", batchHead.c_str(), "m", "n", "k", "dtypes", "tcgen ms",
              "TFLOP/s", "cuBLAS ms", "TFLOP/s", "ratio", "cuBLASLt ms",
              "TFLOP/s");
  for (const BenchRow &r : rows) {
    std::string dtypes = r.aType + "->" + r.cType;
    char batch[32] = "";
    if (anyBatch)
      std::snprintf(batch, sizeof(batch), " %5lld", (long long)r.batch);
    std::printf(
        "%-32s%s %6lld %6lld %6lld %-14s %10s %8s %10s %8s %6s %11s %8s\n",
        r.entry.c_str(), batch, (long long)r.m, (long long)r.n, (long long)r.k,
        dtypes.c_str(), fmt("%.4f", r.tcgenMs).c_str(),
        fmt("%.1f", r.tflops(r.tcgenMs)).c_str(),
        fmt("%.4f", r.cublasMs).c_str(),
        fmt("%.1f", r.tflops(r.cublasMs)).c_str(),
        fmt("%.3f", r.cublasMs / r.tcgenMs).c_str(),
        fmt("%.4f", r.ltMs).c_str(), fmt("%.1f", r.tflops(r.ltMs)).c_str());
  }
  bool anyBaseline = false;
  for (const BenchRow &r : rows)
    anyBaseline = anyBaseline || !r.baselines.empty();
  if (anyBaseline) {
    std::printf("%-32s %-26s %11s %8s %11s %8s\n", "entry", "baseline",
                "baseline ms", "TFLOP/s", "pointwise ms", "b/t");
    for (const BenchRow &r : rows)
      for (const BaselineTiming &b : r.baselines)
        std::printf("%-32s %-26s %11s %8s %11s %8s\n", r.entry.c_str(),
                    b.name.c_str(), fmt("%.4f", b.ms).c_str(),
                    fmt("%.1f", r.tflops(b.ms)).c_str(),
                    fmt("%.4f", b.pointwiseMs).c_str(),
                    fmt("%.3f", b.ms / r.tcgenMs).c_str());
  }
  for (const BenchRow &r : rows)
    if (!r.note.empty())
      std::printf("note: %s: %s\n", r.entry.c_str(), r.note.c_str());
  // Which compute type cuBLAS ran with, per kernel: the kernel's own
  // accumulator (op.accumulator), whatever the output dtype.
  for (const BenchRow &r : rows)
    if (!r.cublasCompute.empty())
      std::printf("note: %s: %s ran with %s (%s accumulation, like the "
                  "kernel's op.accumulator; %s->%s)%s\n",
                  r.entry.c_str(),
                  std::isnan(r.ltMs) ? "cuBLAS" : "cuBLAS and cuBLASLt",
                  r.cublasCompute.c_str(), r.accumulator.c_str(),
                  r.aType.c_str(), r.cType.c_str(),
                  r.batch > 1 ? ("; a batch of " + std::to_string(r.batch) +
                                 " through " + r.cublasCall)
                                    .c_str()
                              : "");
  if (anyBaseline)
    std::printf("b/t = baseline ms / tcgen ms (> 1: the fused kernel is "
                "faster); cuBLAS and cuBLASLt time the bare matmul\n");
  std::printf("ratio = cuBLAS ms / tcgen ms (> 1: tcgen is faster); medians, "
              "runs alternated tcgen/%scuBLAS/cuBLASLt\n",
              anyBaseline ? "baseline/" : "");
}

/// Appends the bundles of each study directory to `bundles`, and their
/// names in the study to `problems`; the bundles that only a baseline
/// times are skipped (a SKIP line each, counted in `skipped`) unless
/// options.baseline is set. Returns false (and says why) if a directory
/// holds no study.
bool addStudyBundles(const std::vector<std::string> &studies,
                     const BenchOptions &options,
                     std::vector<std::string> &bundles,
                     std::vector<std::string> &problems, size_t &skipped) {
  for (const std::string &dir : studies) {
    std::vector<StudyBundle> found;
    if (std::string e = listStudyBundles(dir, found); !e.empty()) {
      std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
      return false;
    }
    for (const StudyBundle &b : found) {
      // What the plain bench cannot time is skipped, not fatal, in a study.
      std::string manifestPath;
      Manifest m;
      if (!options.baseline && findManifest(b.path, manifestPath).empty() &&
          loadManifest(manifestPath, m).empty()) {
        if (std::string why = needsBaseline(m); !why.empty()) {
          std::printf("SKIP %s: %s\n", b.name.c_str(), why.c_str());
          ++skipped;
          continue;
        }
      }
      bundles.push_back(b.path);
      problems.push_back(b.name);
    }
  }
  return true;
}

/// Keeps the bundles (and their problems) that checkBundles() accepts;
/// each refused one is reported. Returns whether none was refused.
bool keepCheckedBundles(const BenchOptions &options,
                        std::vector<std::string> &bundles,
                        std::vector<std::string> &problems) {
  std::vector<std::string> kept, keptProblems;
  bool all = true;
  for (size_t i = 0; i < bundles.size(); ++i) {
    if (!checkBundles({bundles[i]}, options.sizes,
                      /*plainBench=*/!options.baseline.has_value())) {
      all = false;
      continue;
    }
    kept.push_back(bundles[i]);
    keptProblems.push_back(problems[i]);
  }
  bundles = std::move(kept);
  problems = std::move(keptProblems);
  return all;
}

int benchCommand(const std::vector<std::string> &args) {
  std::vector<std::string> bundles;
  std::vector<std::string> studies;
  BenchOptions options;
  std::string csv;
  bool printDevice = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (isHelp(a)) {
      std::fputs(kBenchHelp, stdout);
      return 0;
    }
    int64_t v;
    // Consumes the option's value into v; false if absent or out of range.
    auto next = [&](int64_t min, int64_t max) {
      return i + 1 < args.size() && parseCount(args[++i].c_str(), max, v) &&
             v >= min;
    };
    if (a == "--iters") {
      if (!next(1, 1000000))
        return usageError("--iters needs an integer in [1, 1000000]");
      options.iters = int(v);
    } else if (a == "--warmup") {
      if (!next(0, 1000000))
        return usageError("--warmup needs an integer in [0, 1000000]");
      options.warmup = int(v);
    } else if (a == "--seed") {
      if (!next(0, INT64_MAX))
        return usageError("--seed needs a non-negative integer");
      options.seed = uint64_t(v);
    } else if (a == "--csv") {
      if (i + 1 >= args.size())
        return usageError("--csv needs a FILE");
      csv = args[++i];
    } else if (a == "--sizes") {
      if (i + 1 >= args.size() || !parseLaunchSizes(args[++i], options.sizes))
        return usageError("--sizes needs M,N,K (integers >= 1)");
    } else if (a == "--no-cublaslt") {
      options.cublasLt = false;
    } else if (a == "--lt-algos") {
      if (!next(1, kMaxLtAlgos))
        return usageError("--lt-algos needs an integer in [1, " +
                          std::to_string(kMaxLtAlgos) + "]");
      options.ltAlgos = int(v);
    } else if (a == "--study") {
      if (i + 1 >= args.size())
        return usageError("--study needs a DIR");
      studies.push_back(args[++i]);
    } else if (a == "--solo") {
      options.solo = true;
    } else if (a == "--back-to-back") {
      if (!next(1, 1000))
        return usageError("--back-to-back needs an integer in [1, 1000]");
      options.backToBack = static_cast<int>(v);
    } else if (a == "--device-name") {
      printDevice = true;
    } else if (a == "--api") {
      options.api = true;
    } else if (a == "--baseline" || a.rfind("--baseline=", 0) == 0) {
      std::string name;
      if (a == "--baseline") {
        if (i + 1 >= args.size())
          return usageError("--baseline needs a NAME (" + baselineNameList() +
                            ")");
        name = args[++i];
      } else {
        name = a.substr(std::strlen("--baseline="));
      }
      options.baseline = parseBaseline(name);
      if (!options.baseline)
        return usageError("unknown baseline '" + name + "' (one of " +
                          baselineNameList() + ")");
    } else if (a == "--check-baseline") {
      options.baselineCheckOnly = true;
    } else if (!a.empty() && a[0] == '-') {
      return usageError("bench: unknown option '" + a + "'");
    } else {
      bundles.push_back(a);
    }
  }
  // The problem name of each bundle: its path, or its name in its study.
  std::vector<std::string> problems = bundles;
  size_t skipped = 0;
  if (!addStudyBundles(studies, options, bundles, problems, skipped))
    return kExitFail;
  size_t studyBundles = bundles.size() + skipped; // as listed
  if (bundles.empty() && !printDevice)
    return usageError(studies.empty() ? "bench needs at least one BUNDLE"
                                      : "the studies hold no bundle to time");
  if (options.baselineCheckOnly && !options.baseline)
    return usageError("--check-baseline needs --baseline=NAME");
  if (options.api && (options.baseline || options.solo ||
                      options.backToBack > 1))
    return usageError("--api takes no --baseline, --solo or --back-to-back");
  // A study goes on without the bundles refused here (each is reported);
  // bundles named one by one must all pass.
  bool refused = false;
  if (!studies.empty()) {
    refused = !keepCheckedBundles(options, bundles, problems);
    if (bundles.empty() && !printDevice) {
      std::fprintf(stderr, "tcgen-gpu: no bundle of the studies can be "
                           "timed\n");
      return kExitFail;
    }
  } else if (!checkBundles(bundles, options.sizes,
                           /*plainBench=*/!options.baseline.has_value())) {
    return kExitFail;
  }
  if (options.baseline && !checkBaselines(bundles, *options.baseline, options.sizes))
    return kExitFail;
  if (!initDeviceOrReport())
    return kExitFail;
  DeviceProps device;
  std::string error = getDeviceProps(device);
  if (!error.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s\n", error.c_str());
    return kExitFail;
  }
  if (printDevice)
    std::printf("DEVICE %s cc=%d.%d sms=%d l2=%.0fMB\n", device.name.c_str(),
                device.ccMajor, device.ccMinor, device.smCount,
                double(device.l2Bytes) / 1e6);
  std::fflush(stdout); // Before the progress lines on stderr.
  if (bundles.empty())
    return 0;

  std::vector<BenchRow> rows;
  bool failed = refused;
  for (size_t bi = 0; bi < bundles.size(); ++bi) {
    const std::string &b = bundles[bi];
    BenchRow row;
    row.problem = problems[bi];
    error = benchBundle(b, options, device, row);
    bool differs = false;
    for (const BaselineTiming &t : row.baselines) {
      if (t.checkLine.empty())
        continue;
      std::printf("%s\n", t.checkLine.c_str());
      differs = differs || !t.check.pass;
    }
    std::fflush(stdout);
    if (differs) {
      std::fprintf(stderr,
                   "tcgen-gpu: %s: the baseline's output differs "
                   "from the kernel's: not timed\n",
                   b.c_str());
      failed = true;
      continue;
    }
    if (options.baselineCheckOnly && error.empty())
      continue;
    if (!error.empty()) {
      std::fprintf(stderr, "tcgen-gpu: %s: %s\n", b.c_str(), error.c_str());
      failed = true;
      continue;
    }
    std::fprintf(stderr, "tcgen-gpu: timed %s (%d buffer set%s)\n",
                 row.entry.c_str(), row.bufferSets,
                 row.bufferSets == 1 ? "" : "s");
    rows.push_back(row);
  }
  if (!studies.empty())
    std::printf("STUDY bundles=%zu timed=%zu skipped=%zu failed=%zu\n",
                studyBundles, rows.size(), skipped,
                studyBundles - skipped - rows.size());
  if (options.api) {
    for (const BenchRow &r : rows)
      printApiTimes(r.entry, *r.api);
    if (!csv.empty() && !rows.empty() && !appendApiCsv(csv, device.name, rows))
      failed = true;
    return failed ? kExitFail : 0;
  }
  if (!rows.empty())
    printTable(rows);
  if (!csv.empty() && !rows.empty() &&
      !appendCsv(csv, device.name, rows, options.iters))
    failed = true;
  return failed ? kExitFail : 0;
}

int tuneCommand(const std::vector<std::string> &args) {
  std::string dir, csv;
  TuneOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (isHelp(a)) {
      std::fputs(kTuneHelp, stdout);
      return 0;
    }
    int64_t v;
    if (a == "--csv") {
      if (i + 1 >= args.size())
        return usageError("--csv needs a file name");
      csv = args[++i];
    } else if (a == "--budget") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), 600, v) ||
          v < 1)
        return usageError("--budget needs whole seconds in [1, 600]");
      options.budgetS = double(v);
    } else if (a == "--max-iters") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), 100000, v) ||
          v < options.minIters)
        return usageError("--max-iters needs an integer of at least 5");
      options.maxIters = int(v);
    } else if (a == "--warmup") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), 100000, v))
        return usageError("--warmup needs a non-negative integer");
      options.warmup = int(v);
    } else if (a == "--seed") {
      if (i + 1 >= args.size() || !parseCount(args[++i].c_str(), INT64_MAX, v))
        return usageError("--seed needs a non-negative integer");
      options.seed = static_cast<uint64_t>(v);
    } else if (!a.empty() && a[0] == '-') {
      return usageError("tune: unknown option '" + a + "'");
    } else if (dir.empty()) {
      dir = a;
    } else {
      return usageError("tune takes one DIR, got '" + dir + "' and '" + a +
                        "'");
    }
  }
  if (dir.empty())
    return usageError("tune needs a DIR written by tcgen tune");
  std::vector<TuneCandidate> candidates;
  if (std::string e = readTuneCandidates(dir, candidates); !e.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
    return kExitFail;
  }
  if (!initDeviceOrReport())
    return kExitFail;
  DeviceProps device;
  if (std::string e = getDeviceProps(device); !e.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
    return kExitFail;
  }
  std::vector<TuneTiming> timings;
  std::string error = timeCandidates(dir, candidates, options, device, timings);
  double best = std::numeric_limits<double>::infinity();
  for (const TuneTiming &t : timings)
    if (std::isfinite(t.ms))
      best = std::min(best, t.ms);
  std::printf("DEVICE %s\n%-6s %-40s %10s %8s %7s %6s\n", device.name.c_str(),
              "id", "entry", "ms", "TFLOP/s", "vs best", "iters");
  for (const TuneTiming &t : timings)
    if (t.error.empty())
      std::printf("%-6s %-40s %10.6f %8.1f %7.3f %6d\n", t.id.c_str(),
                  t.entry.c_str(), t.ms, t.tflops(), best / t.ms, t.iters);
    else
      std::printf("%-6s %-40s %s\n", t.id.c_str(), t.entry.c_str(),
                  t.error.c_str());
  std::string path = csv.empty() ? dir + "/measured.csv" : csv;
  FILE *probe = csv.empty() ? nullptr : std::fopen(path.c_str(), "rb");
  bool fresh = !probe;
  if (probe)
    std::fclose(probe);
  FILE *f = std::fopen(path.c_str(), csv.empty() ? "wb" : "ab");
  if (!f) {
    std::fprintf(stderr, "tcgen-gpu: %s: cannot write CSV: %s\n",
                 path.c_str(), std::strerror(errno));
    return kExitFail;
  }
  if (fresh)
    std::fprintf(f, "date,device,id,entry,batch,m,n,k,ms,tflops,iters,error\n");
  std::string date = utcNow();
  for (const TuneTiming &t : timings)
    std::fprintf(f, "%s,%s,%s,%s,%lld,%lld,%lld,%lld,%s,%s,%d,%s\n",
                 date.c_str(), csvField(device.name).c_str(), t.id.c_str(),
                 csvField(t.entry).c_str(), (long long)t.batch,
                 (long long)t.m, (long long)t.n, (long long)t.k,
                 fmt("%.6f", t.ms).c_str(), fmt("%.3f", t.tflops()).c_str(),
                 t.iters, csvField(t.error).c_str());
  bool ok = std::fclose(f) == 0;
  if (!error.empty())
    std::fprintf(stderr, "tcgen-gpu: %s: %s\n", dir.c_str(), error.c_str());
  return ok && error.empty() ? 0 : kExitFail;
}
} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty())
    return usageError(
        "missing command (run, bench, compare, tune or reschedule-check)");
  if (isHelp(args[0])) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  if (command == "run")
    return runCommand(args);
  if (command == "bench")
    return benchCommand(args);
  if (command == "tune")
    return tuneCommand(args);
  if (command == "compare")
    return compareCommand(args);
  if (command == "reschedule-check")
    return rescheduleCheckCommand(args);
  return usageError("unknown command '" + command +
                    "' (run, bench, compare, tune or reschedule-check)");
}
