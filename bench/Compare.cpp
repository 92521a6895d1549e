//===- Compare.cpp - tcgen-gpu compare: A/B of two bundle sets ------------===//
//
// This file implements `tcgen-gpu compare`: pairs the bundles of two study
// directories by name, checks every pair's manifests before the GPU is
// touched, then times each pair with timeCandidates() (both kernels on the
// same buffers, alternated round-robin, medians) and prints the ratio A
// time / B time per problem and its geometric mean.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include "CudaUtil.h"
#include "Study.h"
#include "Timing.h"
#include "Tune.h"
#include "tcgen/Runtime/Manifest.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tcgen;
using namespace tcgen::bench;

const char *const tcgen::bench::kCompareHelp =
    "tcgen-gpu compare A_DIR B_DIR [--csv FILE] [--budget SECONDS]\n"
    "                  [--max-iters N] [--warmup N] [--seed N]\n"
    "\n"
    "A/B comparison of two bundle sets of the same problems: A_DIR and\n"
    "B_DIR are study directories (`tcgen compile --batch` output, whose\n"
    "batch.tsv lists the bundles; or a directory of bundle directories,\n"
    "such as one option set's DIR/SET). Bundles are paired by name; those\n"
    "of one side only are listed and skipped. Each pair is timed in this\n"
    "process on the same buffers, A and B alternated (each launch between\n"
    "its own CUDA events, the order swapped every round), after --warmup\n"
    "untimed launches each (default 3), for about --budget seconds of GPU\n"
    "time a pair (default 1; at least 5 rounds, at most --max-iters,\n"
    "default 50); medians are reported. Inputs rotate over several\n"
    "buffer sets when they are smaller than twice the L2 cache.\n"
    "Prints a line per problem: `COMPARE NAME a_ms=... b_ms=...\n"
    "ratio=...` (ratio = A time / B time: above 1, B is faster), then\n"
    "`COMPARE-SUMMARY pairs=N timed=T geomean=G onlyA=X onlyB=Y`.\n"
    "  --csv FILE   append rows (header when FILE is new):\n"
    "               date,device,problem,a_path,b_path,batch,m,n,k,a_ms,\n"
    "               b_ms,ratio,iters,error\n"
    "A pair whose operands differ (not the same problem) or that does not\n"
    "load or launch gets its error and no ratio (exit status 1); a kernel\n"
    "fault stops the run.\n";

namespace {

int usage(const std::string &message) {
  std::fprintf(stderr, "tcgen-gpu: %s\n(run 'tcgen-gpu compare --help')\n",
               message.c_str());
  return 2;
}

/// One pair's result.
struct PairResult {
  std::string name, aPath, bPath, error;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  double aMs = NAN, bMs = NAN;
  int iters = 0;
  double ratio() const { return aMs / bMs; }
};

/// Appends `results` to the CSV at `path` (header when new).
bool appendCompareCsv(const std::string &path, const std::string &device,
                      const std::vector<PairResult> &results) {
  FILE *probe = std::fopen(path.c_str(), "rb");
  bool fresh = !probe || std::fgetc(probe) == EOF;
  if (probe)
    std::fclose(probe);
  FILE *f = std::fopen(path.c_str(), "ab");
  if (!f) {
    std::fprintf(stderr, "tcgen-gpu: %s: cannot write CSV: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  if (fresh)
    std::fprintf(f, "date,device,problem,a_path,b_path,batch,m,n,k,a_ms,b_ms,"
                    "ratio,iters,error\n");
  std::string date = utcNow();
  for (const PairResult &r : results)
    std::fprintf(f, "%s,%s,%s,%s,%s,%lld,%lld,%lld,%lld,%s,%s,%s,%d,%s\n",
                 date.c_str(), csvField(device).c_str(),
                 csvField(r.name).c_str(), csvField(r.aPath).c_str(),
                 csvField(r.bPath).c_str(), (long long)r.batch, (long long)r.m,
                 (long long)r.n, (long long)r.k, fmt("%.6f", r.aMs).c_str(),
                 fmt("%.6f", r.bMs).c_str(), fmt("%.4f", r.ratio()).c_str(),
                 r.iters, csvField(r.error).c_str());
  return std::fclose(f) == 0;
}

/// Parses a non-negative integer in [min, max].
bool parseInt(const std::string &text, int64_t min, int64_t max, int64_t &out) {
  if (text.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno || *end || v < min || v > max)
    return false;
  out = v;
  return true;
}

/// Loads both manifests of every pair; returns "" or the first error.
std::string checkPairs(const StudyPairing &pairing) {
  for (const auto &[a, b] : pairing.pairs)
    for (const StudyBundle *x : {&a, &b}) {
      std::string manifestPath;
      Manifest m;
      std::string e = findManifest(x->path, manifestPath);
      if (e.empty())
        e = loadManifest(manifestPath, m);
      if (!e.empty())
        return e;
    }
  return "";
}

} // namespace

int tcgen::bench::compareCommand(const std::vector<std::string> &args) {
  std::vector<std::string> dirs;
  std::string csv;
  TuneOptions options;
  options.budgetS = 1.0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kCompareHelp, stdout);
      return 0;
    }
    int64_t v = 0;
    bool hasValue = i + 1 < args.size();
    if (a == "--csv") {
      if (!hasValue)
        return usage("--csv needs a FILE");
      csv = args[++i];
    } else if (a == "--budget") {
      if (!hasValue || !parseInt(args[++i], 1, 600, v))
        return usage("--budget needs whole seconds in [1, 600]");
      options.budgetS = double(v);
    } else if (a == "--max-iters") {
      if (!hasValue || !parseInt(args[++i], options.minIters, 100000, v))
        return usage("--max-iters needs an integer of at least 5");
      options.maxIters = int(v);
    } else if (a == "--warmup") {
      if (!hasValue || !parseInt(args[++i], 0, 100000, v))
        return usage("--warmup needs a non-negative integer");
      options.warmup = int(v);
    } else if (a == "--seed") {
      if (!hasValue || !parseInt(args[++i], 0, INT64_MAX, v))
        return usage("--seed needs a non-negative integer");
      options.seed = uint64_t(v);
    } else if (!a.empty() && a[0] == '-') {
      return usage("compare: unknown option '" + a + "'");
    } else {
      dirs.push_back(a);
    }
  }
  if (dirs.size() != 2)
    return usage("compare needs two directories, A_DIR and B_DIR");
  std::vector<StudyBundle> sides[2];
  for (int s = 0; s < 2; ++s)
    if (std::string e = listStudyBundles(dirs[s], sides[s]); !e.empty()) {
      std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
      return 1;
    }
  StudyPairing pairing = pairStudies(sides[0], sides[1]);
  for (const std::string &n : pairing.onlyA)
    std::printf("COMPARE-SKIP %s only in A\n", n.c_str());
  for (const std::string &n : pairing.onlyB)
    std::printf("COMPARE-SKIP %s only in B\n", n.c_str());
  if (pairing.pairs.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s and %s have no problem in common\n",
                 dirs[0].c_str(), dirs[1].c_str());
    return 1;
  }
  if (std::string e = checkPairs(pairing); !e.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
    return 1;
  }
  if (std::string e = initDevice(); !e.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
    return 1;
  }
  DeviceProps device;
  if (std::string e = getDeviceProps(device); !e.empty()) {
    std::fprintf(stderr, "tcgen-gpu: %s\n", e.c_str());
    return 1;
  }
  std::printf("DEVICE %s\n", device.name.c_str());
  std::vector<PairResult> results;
  std::vector<double> ratios;
  bool failed = false;
  for (const auto &[a, b] : pairing.pairs) {
    PairResult r;
    r.name = a.name, r.aPath = a.path, r.bPath = b.path;
    std::vector<TuneCandidate> candidates = {{"A", "ok", a.path},
                                             {"B", "ok", b.path}};
    std::vector<TuneTiming> timings;
    std::string e = timeCandidates("", candidates, options, device, timings);
    for (const TuneTiming &t : timings)
      if (e.empty() && !t.error.empty())
        e = t.id + ": " + t.error;
    if (timings.size() == 2) {
      r.aMs = timings[0].ms, r.bMs = timings[1].ms;
      r.batch = timings[0].batch, r.m = timings[0].m, r.n = timings[0].n;
      r.k = timings[0].k, r.iters = timings[0].iters;
    }
    r.error = e;
    if (e.empty()) {
      ratios.push_back(r.ratio());
      std::printf("COMPARE %s a_ms=%.6f b_ms=%.6f ratio=%.4f\n", r.name.c_str(),
                  r.aMs, r.bMs, r.ratio());
    } else {
      std::printf("COMPARE %s error: %s\n", r.name.c_str(), e.c_str());
      failed = true;
    }
    std::fflush(stdout);
    results.push_back(r);
    // A fault leaves the context unusable: the other pairs cannot run.
    if (!e.empty() && e.find("cudaStreamSynchronize") != std::string::npos)
      break;
  }
  std::printf("COMPARE-SUMMARY pairs=%zu timed=%zu geomean=%s onlyA=%zu "
              "onlyB=%zu\n",
              pairing.pairs.size(), ratios.size(),
              fmt("%.4f", geomean(ratios)).c_str(), pairing.onlyA.size(),
              pairing.onlyB.size());
  std::printf("ratio = A ms / B ms (> 1: B is faster); medians, A and B "
              "alternated\n");
  if (!csv.empty() && !appendCompareCsv(csv, device.name, results))
    failed = true;
  return failed ? 1 : 0;
}
