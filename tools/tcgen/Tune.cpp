//===- Tune.cpp - tcgen explain's model table and tcgen tune ----*- C++ -*-===//
//
// This file implements the model's ranking of a module's contractions and
// the host half of the autotuner (Tune.h).
//
//===----------------------------------------------------------------------===//

#include "Tune.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Config/Config.h"
#include "tcgen/Config/TuningCache.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Runtime/TuneFile.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <atomic>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

using namespace mlir;
using namespace mlir::tcgen;

namespace {

std::string printed(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

std::string printed(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

/// `config` with the sm90 back end's decisions the options give (pack,
/// prologue, epilogue_loads, epilogue_in_half; "auto" where not given), as
/// tcgen-configure sets them: the candidates' configs record them.
ConfigAttr withOptionDecisions(ConfigAttr config,
                               const TCGenPipelineOptions &options) {
  if (config.getBackend() != "sm90")
    return config;
  auto given = [](const std::string &value) {
    return value.empty() ? StringRef("auto") : StringRef(value);
  };
  return config.withDecisions(given(options.pack), given(options.prologue),
                              given(options.epilogueLoads),
                              options.epilogueInHalf);
}

/// Splits one CSV line (fields may be quoted, with "" for a quote).
std::vector<std::string> splitCsv(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

std::string today() {
  std::time_t now = std::time(nullptr);
  std::tm tm;
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
  return buf;
}

std::string problemLine(const model::Problem &p) {
  return llvm::formatv("m={0} n={1} k={2} batch={3} in_bytes={4} "
                       "out_bytes={5} a_mn_major={6} b_k_major={7} "
                       "tma_store={8}",
                       p.m, p.n, p.k, p.batch, p.inBytes, p.outBytes,
                       int(p.aMNMajor), int(p.bKMajor), int(p.tmaStore))
      .str();
}

bool parseProblem(const std::string &text, model::Problem &p) {
  std::istringstream in(text);
  std::string word;
  int seen = 0;
  while (in >> word) {
    size_t eq = word.find('=');
    if (eq == std::string::npos)
      return false;
    std::string key = word.substr(0, eq);
    char *end = nullptr;
    long long v = std::strtoll(word.c_str() + eq + 1, &end, 10);
    if (*end)
      return false;
    if (key == "m")
      p.m = v;
    else if (key == "n")
      p.n = v;
    else if (key == "k")
      p.k = v;
    else if (key == "batch")
      p.batch = v;
    else if (key == "in_bytes")
      p.inBytes = v;
    else if (key == "out_bytes")
      p.outBytes = v;
    else if (key == "a_mn_major")
      p.aMNMajor = v != 0;
    else if (key == "b_k_major")
      p.bKMajor = v != 0;
    else if (key == "tma_store")
      p.tmaStore = v != 0;
    else
      return false;
    ++seen;
  }
  return seen == 9 && p.m > 0 && p.n > 0 && p.k > 0 && p.batch > 0;
}

/// A candidate line of DIR/tune.tsv.
struct CandidateRecord {
  std::string id;
  int rank = 0;
  model::SM90Candidate c;
  double predictedUs = 0;
  std::string status = "ok";
  std::string config;
};

/// The shared file format's record of `r`, and back.
::tcgen::TuneCandidateRecord toRecord(const CandidateRecord &r) {
  ::tcgen::TuneCandidateRecord t;
  t.id = r.id;
  t.rank = r.rank;
  t.blockM = r.c.blockM, t.blockN = r.c.blockN, t.stages = r.c.stages;
  t.streamK = r.c.streamK;
  t.clusterM = r.c.clusterM, t.clusterN = r.c.clusterN, t.raster = r.c.raster;
  t.predictedUs = r.predictedUs;
  t.status = r.status;
  t.config = r.config;
  return t;
}

CandidateRecord fromRecord(const ::tcgen::TuneCandidateRecord &t) {
  CandidateRecord r;
  r.id = t.id;
  r.rank = t.rank;
  r.c.blockM = t.blockM, r.c.blockN = t.blockN, r.c.stages = t.stages;
  r.c.streamK = t.streamK;
  r.c.clusterM = t.clusterM, r.c.clusterN = t.clusterN, r.c.raster = t.raster;
  r.predictedUs = t.predictedUs;
  r.status = t.status;
  r.config = t.config;
  // The file keeps the swap and the warp tile in the config only.
  StringRef config(t.config);
  r.c.swap = config.contains("swap = true");
  size_t warp = config.find("warp = [");
  int64_t warpM = 0;
  if (warp != StringRef::npos &&
      !config.substr(warp + 8).split(',').first.trim().getAsInteger(10,
                                                                    warpM) &&
      warpM >= 64)
    r.c.rowBlocks = warpM / 64;
  return r;
}

/// The last line of `log` that says "error", trimmed, tabs as spaces.
std::string lastError(const std::string &logPath) {
  std::ifstream in(logPath);
  std::string line, found;
  while (std::getline(in, line))
    if (line.find("error") != std::string::npos)
      found = line;
  for (char &c : found)
    if (c == '\t')
      c = ' ';
  return found.empty() ? "see " + logPath : found;
}

/// Prints a progress bar on a terminal, a line per step elsewhere.
class Progress {
public:
  Progress(const char *what, size_t total) : what(what), total(total) {}
  void step(const std::string &detail) {
    std::lock_guard<std::mutex> lock(mutex);
    ++done;
    if (llvm::errs().is_displayed()) {
      size_t width = 30, filled = total ? width * done / total : width;
      llvm::errs() << "\rtcgen tune: " << what << " ["
                   << std::string(filled, '#')
                   << std::string(width - filled, '.') << "] " << done << "/"
                   << total;
      if (done == total)
        llvm::errs() << "\n";
    } else {
      llvm::errs() << "tcgen tune: " << what << " " << done << "/" << total
                   << ": " << detail << "\n";
    }
  }

private:
  const char *what;
  size_t total, done = 0;
  std::mutex mutex;
};

/// The measured candidates of one problem.
struct MeasuredShape {
  std::string key;
  model::Problem problem;
  std::vector<model::Measurement> points;
  double bestUs = 0;
};

double meanError(const std::vector<model::Measurement> &points,
                 const model::DeviceConstants &d) {
  double sum = 0;
  for (const model::Measurement &m : points) {
    model::SM90Candidate c = m.candidate;
    model::predict(c, m.problem, d);
    sum += std::abs(c.totalUs / m.measuredUs - 1.0);
  }
  return points.empty() ? 0 : sum / double(points.size());
}

bool sameConfig(const model::SM90Candidate &a, const model::SM90Candidate &b) {
  return a.blockM == b.blockM && a.blockN == b.blockN && a.stages == b.stages &&
         a.streamK == b.streamK && a.clusterM == b.clusterM &&
         a.clusterN == b.clusterN && a.raster == b.raster && a.swap == b.swap &&
         a.rowBlocks == b.rowBlocks;
}

/// The fastest measured time of `shape` over that of the model's first
/// choice under `d` (NaN if that choice was not measured).
double firstChoiceRatio(const MeasuredShape &shape,
                        const model::DeviceConstants &d) {
  std::vector<model::SM90Candidate> ranked = model::rankSM90(shape.problem, d);
  for (const model::SM90Candidate &c : ranked)
    for (const model::Measurement &m : shape.points)
      if (sameConfig(c, m.candidate))
        return shape.bestUs / m.measuredUs;
  return std::nan("");
}

/// Counts first choices within 5 % and 10 % of the fastest.
struct Accuracy {
  int within5 = 0, within10 = 0, count = 0;
  double worst = 1.0;
  void add(double ratio) {
    if (!std::isfinite(ratio))
      return;
    ++count;
    within5 += ratio >= 1.0 / 1.05;
    within10 += ratio >= 1.0 / 1.10;
    worst = std::min(worst, ratio);
  }
  std::string str() const {
    return llvm::formatv("the first choice is within 5 % of the fastest on "
                         "{0} of {1} problems, within 10 % on {2} (worst "
                         "{3:F3})",
                         within5, count, within10, worst)
        .str();
  }
};

} // namespace

FailureOr<std::vector<RankedContraction>>
mlir::tcgen::rankContractions(ModuleOp module,
                              const TCGenPipelineOptions &options) {
  OwningOpRef<ModuleOp> clone(module.clone());
  PassManager pm(module.getContext());
  buildTCGenConfigurePipeline(pm, options);
  if (failed(pm.run(*clone)))
    return failure();
  std::optional<TuningCache> cache;
  if (!options.tuningCache.empty()) {
    std::string error;
    cache = TuningCache::load(options.tuningCache, error);
    if (!cache)
      return module.emitError() << error;
  }
  std::vector<RankedContraction> result;
  // Dual GEMMs: each second product, and where its first is.
  llvm::DenseMap<Operation *, std::string> secondOf;
  clone->walk([&](linalg::LinalgOp op) {
    FailureOr<ContractionInfo> info =
        op->hasAttr(kConfigAttrName) ? analyzeContraction(op)
                                     : FailureOr<ContractionInfo>(failure());
    if (failed(info))
      return;
    std::string whyNot;
    std::optional<EpilogueInfo> epilogue =
        findEpilogue(*info, whyNot, /*allowDualProduct=*/true);
    if (epilogue && epilogue->dualProduct)
      secondOf[epilogue->dualProduct] = printed(op->getLoc());
  });
  clone->walk([&](linalg::LinalgOp op) {
    auto config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (!config)
      return;
    FailureOr<ContractionInfo> info = analyzeContraction(op);
    if (failed(info))
      return;
    TargetAttr target = getTargetOrDefault(op);
    RankedContraction r;
    r.location = printed(op->getLoc());
    r.secondOf = secondOf.lookup(op);
    r.key = getTuningKey(*info, target);
    r.backend = config.getBackend().str();
    r.config = printed(config);
    const model::DeviceConstants *c =
        cache ? cache->constants(options.device) : nullptr;
    r.constants = c ? *c : model::DeviceConstants();
    r.constantsFrom =
        c ? "calibrated for " +
                (options.device.empty() ? std::string("the cache's device")
                                        : std::string(options.device))
          : "built-in (NVIDIA H100 80GB HBM3)";
    if (r.backend == "sm90") {
      r.problem = getModelProblem(*info);
      r.foldsN = r.problem.n != info->n && !ShapedType::isDynamic(info->n) &&
                 !r.problem.dual;
      r.ranked = model::rankSM90(r.problem, r.constants);
      for (const model::SM90Candidate &cand : r.ranked)
        r.rankedConfigs.push_back(
            printed(withOptionDecisions(getSM90Config(*info, cand), options)));
      // A small M: the swapped kernels too (the model does not predict
      // them).
      int64_t sms = getTypicalSMCount(target);
      r.swapped = swapCandidates(*info, sms);
      for (const model::SM90Candidate &cand : r.swapped)
        r.swappedConfigs.push_back(
            printed(withOptionDecisions(getSM90Config(*info, cand), options)));
      r.swapFirst = !r.swapped.empty() && shouldSwap(*info, sms);
      if (!r.ranked.empty() && !info->isDynamic())
        r.predictedSwap =
            predictedSwap(*info, r.problem, r.ranked.front(), r.constants);
      if (r.predictedSwap)
        r.predictedSwapConfig = printed(withOptionDecisions(
            getSM90Config(*info, *r.predictedSwap), options));
    }
    if (r.backend == "simt") {
      r.simtRanked =
          rankSimtCandidates(info->m, info->n, info->k,
                             info->batched ? info->batch : 1,
                             getTypicalSMCount(target));
      // The configs getDefaultConfig gives at each model rank.
      for (size_t rank = 0; rank < r.simtRanked.size(); ++rank)
        r.rankedConfigs.push_back(printed(getDefaultConfig(
            *info, target, "simt", nullptr, int64_t(rank))));
    }
    const TuningEntry *entry =
        cache ? cache->find(options.device, r.key) : nullptr;
    if (entry && entry->config == r.config)
      r.source = "the tuning cache (" + entry->device + ", " + entry->date +
                 ")";
    else if (!r.rankedConfigs.empty() && r.rankedConfigs.front() == r.config)
      r.source = "the tile-size model";
    else if (r.predictedSwap && r.predictedSwapConfig == r.config)
      r.source = "the tile-size model (a swapped kernel, C^T = B^T A^T, "
                 "predicted faster than its first unswapped choice)";
    else if (r.backend == "sm90" &&
             shouldSwap(*info, getTypicalSMCount(target)) &&
             StringRef(r.config).contains("swap = true"))
      r.source = "the small-M rule (C^T = B^T A^T, shouldSwap); "
                 "the model ranks the unswapped kernels below, tcgen "
                 "compile's next choices; tcgen tune times the swapped "
                 "ones too";
    else
      r.source = "the options and the back end's defaults";
    result.push_back(std::move(r));
  });
  return result;
}

void mlir::tcgen::printRanking(llvm::raw_ostream &os,
                               const RankedContraction &r, size_t top) {
  os << "// contraction at " << r.location << "\n"
     << "//   key: " << r.key << "\n";
  if (!r.secondOf.empty()) {
    os << "//   the second product of the dual GEMM at " << r.secondOf
       << ": computed by that contraction's kernel, which is planned "
          "there\n";
    return;
  }
  os << "//   config: " << r.config << "\n"
     << "//   from " << r.source << "\n";
  if (!r.simtRanked.empty()) {
    // simt: waves of 512 threads' worth of blocks per SM at the measured
    // per-SM rates (rankSimtCandidates); the time relative to the first.
    os << "//   simt candidates (block m x n x k, thread tile, rate):\n";
    for (size_t i = 0; i < r.simtRanked.size() && (top == 0 || i < top); ++i) {
      const SimtCandidate &c = r.simtRanked[i];
      os << llvm::formatv("//   {0,4}  {1}x{2}x{3}  {4}x{5}  {6:F3}\n", i + 1,
                          c.bm, c.bn, c.bk, c.tm, c.tn, c.rate);
    }
    return;
  }
  if (r.ranked.empty())
    return;
  if (r.foldsN)
    os << llvm::formatv("//   matrices side by side in N: the model plans "
                        "batch={0} m={1} n={2} k={3}\n",
                        r.problem.batch, r.problem.m, r.problem.n, r.problem.k);
  if (r.problem.dual)
    os << llvm::formatv("//   a dual GEMM (two products of one A, combined in "
                        "the epilogue): the model plans one product of twice "
                        "N, batch={0} m={1} n={2} k={3}\n",
                        r.problem.batch, r.problem.m, r.problem.n, r.problem.k);
  os << "//   model constants: " << r.constantsFrom << ": "
     << r.constants.str() << "\n";
  os << llvm::formatv("//   {0,4}  {1,-22} {2,6} {3,5} {4,-8} {5,9} {6,8} "
                      "{7,8} {8,9} {9,8}\n",
                      "rank", "candidate", "tiles", "wave", "bound",
                      "main us", "epi us", "dram us", "total us", "TFLOP/s");
  for (size_t i = 0; i < r.ranked.size() && (top == 0 || i < top); ++i) {
    const model::SM90Candidate &c = r.ranked[i];
    os << llvm::formatv("//   {0,4}  {1,-22} {2,6} {3,4:P0} {4,-8} {5,9:F1} "
                        "{6,8:F1} {7,8:F1} {8,9:F1} {9,8:F1}\n",
                        i + 1, c.label(), c.tiles, c.waveEfficiency, c.bound,
                        c.mainLoopUs, c.epilogueUs, c.memoryUs, c.totalUs,
                        c.tflops(r.problem));
  }
  os << "//   winner: " << model::explainWinner(r.ranked, r.problem) << "\n";
  if (r.predictedSwap) {
    const model::SM90Candidate &c = *r.predictedSwap;
    os << llvm::formatv("//   swapped: {0}: {1} tiles, {2:P0} of the SM "
                        "slots busy, {3:F1} us, {4:F0} TFLOP/s predicted "
                        "({5:P1} faster than the winner)\n",
                        c.label(), c.tiles, c.waveEfficiency, c.totalUs,
                        c.tflops(r.problem),
                        1.0 - c.totalUs / r.ranked.front().totalUs);
  }
  if (!r.swapped.empty()) {
    os << "//   swapped kernels (C^T = B^T A^T; timed by tcgen tune"
       << (r.swapFirst ? "; the first is the small-M rule's default" : "")
       << "):";
    for (const model::SM90Candidate &c : r.swapped)
      os << " " << c.label() << ";";
    os << "\n";
  }
}

int mlir::tcgen::runTune(ModuleOp module, const TCGenPipelineOptions &options,
                         const TuneRequest &request) {
  FailureOr<std::vector<RankedContraction>> all =
      rankContractions(module, options);
  if (failed(all))
    return 1;
  if (all->size() != 1) {
    llvm::errs() << "tcgen: tune takes one contraction per input; "
                 << request.input << " has " << all->size() << "\n";
    return 1;
  }
  const RankedContraction &r = all->front();
  if (r.backend != "sm90" || r.ranked.empty()) {
    llvm::errs() << "tcgen: tune searches the sm90 back end's "
                    "configurations; the contraction at "
                 << r.location << " goes to the " << r.backend
                 << " back end (tune needs --target=sm_90a and C = A*B)\n";
    return 1;
  }
  if (request.outputDir.empty()) {
    llvm::errs() << "tcgen: tune needs an output directory (-o DIR)\n";
    return 1;
  }
  if (std::error_code ec =
          llvm::sys::fs::create_directories(request.outputDir)) {
    llvm::errs() << "tcgen: cannot create " << request.outputDir << ": "
                 << ec.message() << "\n";
    return 1;
  }

  // The model's ranking, with the swapped kernels of a small M before it
  // where the small-M rule picks one by default, else after it.
  std::vector<std::pair<model::SM90Candidate, std::string>> candidates;
  auto append = [&](const std::vector<model::SM90Candidate> &list,
                    const std::vector<std::string> &configs) {
    for (size_t i = 0; i < list.size(); ++i)
      candidates.push_back({list[i], configs[i]});
  };
  if (r.swapFirst)
    append(r.swapped, r.swappedConfigs);
  append(r.ranked, r.rankedConfigs);
  if (!r.swapFirst)
    append(r.swapped, r.swappedConfigs);
  size_t count =
      request.top == 0 ? candidates.size()
                       : std::min(request.top, candidates.size());
  std::vector<CandidateRecord> records(count);
  for (size_t i = 0; i < count; ++i) {
    records[i].id = llvm::formatv("c{0:d2}", i).str();
    records[i].rank = int(i + 1);
    records[i].c = candidates[i].first;
    records[i].predictedUs =
        candidates[i].first.swap ? std::nan("") : candidates[i].first.totalUs;
    records[i].config = candidates[i].second;
  }
  llvm::outs() << "tcgen tune: " << r.key << "\n"
               << "tcgen tune: compiling the top " << count << " of "
               << candidates.size() << " candidates";
  if (!r.swapped.empty())
    llvm::outs() << " (" << r.swapped.size() << " swapped, "
                 << (r.swapFirst ? "first" : "last") << ")";
  llvm::outs() << " into " << request.outputDir << "\n";
  llvm::outs().flush();

  // Compile each candidate with this binary, in parallel.
  auto started = std::chrono::steady_clock::now();
  unsigned jobs = request.jobs ? request.jobs
                               : std::max(1u, std::thread::hardware_concurrency());
  Progress progress("compiling", count);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < count;) {
      CandidateRecord &rec = records[i];
      const model::SM90Candidate &c = rec.c;
      llvm::SmallString<256> dir(request.outputDir);
      llvm::sys::path::append(dir, rec.id);
      std::string log = (dir + ".log").str();
      std::vector<std::string> args = {
          request.tcgenPath,
          "compile",
          request.input,
          "--target=" + request.target,
          "-o",
          dir.str().str(),
          llvm::formatv("--block-tile={0},{1},{2}", c.blockM, c.blockN,
                        c.blockK)
              .str(),
          llvm::formatv("--stages={0}", c.stages).str(),
          llvm::formatv("--stream-k={0}", int(c.streamK)).str(),
          llvm::formatv("--cluster={0},{1}", c.clusterM, c.clusterN).str(),
          llvm::formatv("--raster={0}", c.raster).str()};
      // A swapped candidate's tile is in the swapped problem's terms; its
      // store is the config's (TMA for the one-warpgroup tile's 16-bit C).
      if (c.swap) {
        args.push_back("--swap=1");
        if (StringRef(rec.config).contains("store = \"tma\""))
          args.push_back("--store=tma");
      }
      // Several row blocks per consumer warpgroup: the warp tile's M.
      if (c.rowBlocks > 1)
        args.push_back(llvm::formatv("--warp-tile={0},{1},{2}",
                                     64 * c.rowBlocks, c.blockN, c.blockK)
                           .str());
      for (const std::string &f : request.forwardedFlags)
        args.push_back(f);
      SmallVector<StringRef> argRefs(args.begin(), args.end());
      std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                              StringRef(log)};
      std::string err;
      int rc = llvm::sys::ExecuteAndWait(request.tcgenPath, argRefs,
                                         std::nullopt, redirects, 0, 0, &err);
      if (rc == 0)
        rec.status = "ok";
      else
        rec.status = "failed: " + (err.empty() ? lastError(log) : err);
      progress.step(rec.id + " " + c.label() + ": " + rec.status);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<size_t>(jobs, count); ++t)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();
  double compileS = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - started)
                        .count();

  llvm::SmallString<256> tsv(request.outputDir);
  llvm::sys::path::append(tsv, "tune.tsv");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tsv, ec);
    if (ec) {
      llvm::errs() << "tcgen: cannot write " << tsv << ": " << ec.message()
                   << "\n";
      return 1;
    }
    ::tcgen::TuneFile file{r.key, request.input, problemLine(r.problem),
                  r.constants.str(), {}};
    for (const CandidateRecord &rec : records)
      file.candidates.push_back(toRecord(rec));
    os << ::tcgen::printTuneFile(file);
  }
  size_t compiled = 0;
  for (const CandidateRecord &rec : records)
    compiled += rec.status == "ok";
  llvm::outs() << llvm::formatv("tcgen tune: {0} of {1} candidates compiled "
                                "in {2:F1} s ({3} jobs); wrote {4}\n",
                                compiled, count, compileS, jobs, tsv);
  for (const CandidateRecord &rec : records)
    if (rec.status != "ok")
      llvm::outs() << "tcgen tune: " << rec.id << " " << rec.c.label() << ": "
                   << rec.status << "\n";
  if (compiled == 0) {
    llvm::errs() << "tcgen: no candidate compiled\n";
    return 1;
  }

  // Measure here if a GPU is present; otherwise say how to do it there.
  std::string how =
      "measure them where the GPU is: `tcgen-gpu tune " + request.outputDir +
      "` (or `tcgen tune` there), then here: `tcgen tune --import " +
      request.outputDir + " --tuning-cache=FILE`";
  if (!request.measure || request.tcgenGpuPath.empty()) {
    llvm::outs() << "tcgen tune: not measured ("
                 << (request.measure ? "no tcgen-gpu beside tcgen"
                                     : "--no-measure")
                 << "); " << how << "\n";
    return 0;
  }
  StringRef probe[] = {request.tcgenGpuPath, "bench", "--device-name"};
  std::optional<StringRef> quiet[] = {std::nullopt, StringRef(""),
                                      StringRef("")};
  if (llvm::sys::ExecuteAndWait(request.tcgenGpuPath, probe, std::nullopt,
                                quiet) != 0) {
    llvm::outs() << "tcgen tune: no GPU here; " << how << "\n";
    return 0;
  }
  std::vector<std::string> gpuArgs = {request.tcgenGpuPath, "tune",
                                      request.outputDir};
  if (!request.budget.empty()) {
    gpuArgs.push_back("--budget");
    gpuArgs.push_back(request.budget);
  }
  SmallVector<StringRef> gpuRefs(gpuArgs.begin(), gpuArgs.end());
  llvm::outs() << "tcgen tune: measuring with " << request.tcgenGpuPath << "\n";
  llvm::outs().flush();
  auto measureStart = std::chrono::steady_clock::now();
  if (llvm::sys::ExecuteAndWait(request.tcgenGpuPath, gpuRefs) != 0) {
    llvm::errs() << "tcgen: tcgen-gpu tune failed\n";
    return 1;
  }
  double measureS = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - measureStart)
                        .count();
  llvm::outs() << llvm::formatv("tcgen tune: compiled in {0:F1} s, measured "
                                "in {1:F1} s\n",
                                compileS, measureS);
  return importTune({request.outputDir}, request.cachePath);
}

namespace {
/// What DIR/measured.csv (tcgen-gpu tune's output) says: milliseconds per
/// measured candidate id, the error of each one that failed, and the
/// device and day of the run.
struct MeasuredCsv {
  std::map<std::string, double> ms;
  std::map<std::string, std::string> failures;
  std::string device, date;
  bool has(const std::string &id) const { return ms.count(id) != 0; }
  double us(const std::string &id) const { return ms.at(id) * 1e3; }
};

/// How often the recorded first choices ran close to the fastest.
struct FirstChoiceTally {
  int within5 = 0, within10 = 0, shapes = 0;
};

/// Reads `csvPath` into `out`; prints the error and returns false where it
/// is missing or not a tcgen-gpu tune CSV (`dir`: its directory).
bool readMeasuredCsv(const std::string &dir, const std::string &csvPath,
                     MeasuredCsv &out) {
  std::string line;
  std::ifstream csv(csvPath);
  if (!csv) {
    llvm::errs() << "tcgen: cannot read " << csvPath
                 << " (written by tcgen-gpu tune " << dir << ")\n";
    return false;
  }
  std::getline(csv, line);
  if (splitCsv(line) !=
      std::vector<std::string>{"date", "device", "id", "entry", "batch", "m",
                               "n", "k", "ms", "tflops", "iters", "error"}) {
    llvm::errs() << "tcgen: " << csvPath
                 << ": not a tcgen-gpu tune CSV (header)\n";
    return false;
  }
  while (std::getline(csv, line)) {
    std::vector<std::string> f = splitCsv(line);
    if (f.size() != 12)
      continue;
    out.device = f[1];
    out.date = f[0].substr(0, 10);
    double ms = std::strtod(f[8].c_str(), nullptr);
    if (f[11].empty() && std::isfinite(ms) && ms > 0)
      out.ms[f[2]] = ms;
    else
      out.failures[f[2]] = f[11];
  }
  return true;
}

/// Prints a line per candidate of one problem: its prediction and its
/// measured time against `best`'s (or why it has none).
void printCandidates(const std::vector<CandidateRecord> &records,
                     const MeasuredCsv &measured, const CandidateRecord *best,
                     const model::Problem &problem) {
  double bestUs = measured.us(best->id);
  llvm::outs() << llvm::formatv("  {0,4}  {1,-22} {2,12} {3,12} {4,8} "
                                "{5,8}\n",
                                "rank", "candidate", "predicted us",
                                "measured us", "TFLOP/s", "vs best");
  for (const CandidateRecord &rec : records) {
    if (!measured.has(rec.id)) {
      auto failure = measured.failures.find(rec.id);
      std::string why = rec.status != "ok"                   ? rec.status
                        : failure != measured.failures.end() ? failure->second
                                                             : std::string();
      llvm::outs() << llvm::formatv("  {0,4}  {1,-22} {2,12:F1} {3}\n",
                                    rec.rank, rec.c.label(), rec.predictedUs,
                                    why.empty() ? "not measured" : why);
      continue;
    }
    double us = measured.us(rec.id);
    llvm::outs() << llvm::formatv("  {0,4}  {1,-22} {2,12:F1} {3,12:F1} "
                                  "{4,8:F1} {5,8:F3}{6}\n",
                                  rec.rank, rec.c.label(), rec.predictedUs, us,
                                  problem.flops() / us * 1e-6, bestUs / us,
                                  &rec == best ? "  <- fastest" : "");
  }
}

/// Prints how the recorded first choice ran against `best` (counted in
/// `tally`) and, where the model (with the cache's constants for the
/// device) now ranks another candidate first, how that one ran.
void reportFirstChoice(const std::vector<CandidateRecord> &records,
                       const MeasuredCsv &measured, const CandidateRecord *best,
                       const model::Problem &problem,
                       const std::optional<TuningCache> &cache,
                       FirstChoiceTally &tally) {
  double bestUs = measured.us(best->id);
  const CandidateRecord &first = records.front();
  if (measured.has(first.id)) {
    double ratio = bestUs / measured.us(first.id);
    ++tally.shapes;
    tally.within5 += ratio >= 1.0 / 1.05;
    tally.within10 += ratio >= 1.0 / 1.10;
    llvm::outs() << llvm::formatv("  the {0} first choice ({1}) runs at "
                                  "{2:F3} of the fastest ({3})\n",
                                  first.c.swap ? "small-M rule's" : "model's",
                                  first.c.label(), ratio, best->c.label());
  }
  // The model may have changed since the candidates were ranked (or the
  // cache holds calibrated constants): its choice now, if another.
  model::DeviceConstants now;
  if (cache && cache->constants(measured.device))
    now = *cache->constants(measured.device);
  std::vector<model::SM90Candidate> ranked = model::rankSM90(problem, now);
  if (!ranked.empty() && !sameConfig(ranked.front(), first.c))
    for (const CandidateRecord &rec : records)
      if (sameConfig(rec.c, ranked.front()) && measured.has(rec.id))
        llvm::outs() << llvm::formatv(
            "  ranked again now, the first choice is {0}: {1:F3} of the "
            "fastest\n",
            rec.c.label(), bestUs / measured.us(rec.id));
}

/// Imports one tuning directory: prints its candidates, adds its fastest
/// configuration to `cache` (if any) and its unswapped measurements to
/// `byDevice`. Prints the error and returns false on a malformed
/// directory.
bool importTuneDir(const std::string &dir, std::optional<TuningCache> &cache,
                   std::map<std::string, std::vector<MeasuredShape>> &byDevice,
                   FirstChoiceTally &tally) {
  ::tcgen::TuneFile file;
  if (std::string e = ::tcgen::readTuneFile(dir, file); !e.empty()) {
    llvm::errs() << "tcgen: " << e << "\n";
    return false;
  }
  std::string key = file.key;
  model::Problem problem;
  if (key.empty() || !parseProblem(file.problem, problem)) {
    llvm::errs() << "tcgen: " << dir
                 << "/tune.tsv lacks its key or a valid problem line\n";
    return false;
  }
  std::vector<CandidateRecord> records;
  for (const ::tcgen::TuneCandidateRecord &t : file.candidates)
    records.push_back(fromRecord(t));
  std::string csvPath = dir + "/measured.csv";
  MeasuredCsv measured;
  if (!readMeasuredCsv(dir, csvPath, measured))
    return false;
  const std::string &device = measured.device;
  const CandidateRecord *best = nullptr;
  for (const CandidateRecord &rec : records)
    if (measured.has(rec.id) &&
        (!best || measured.ms.at(rec.id) < measured.ms.at(best->id)))
      best = &rec;
  llvm::outs() << "tcgen tune: " << key << " on "
               << (device.empty() ? "?" : device) << "\n";
  if (!best) {
    llvm::errs() << "tcgen: " << csvPath << " has no measured candidate\n";
    return false;
  }
  printCandidates(records, measured, best, problem);
  reportFirstChoice(records, measured, best, problem, cache, tally);
  if (cache)
    cache->add({device, key, best->config, measured.ms.at(best->id),
                measured.date.empty() ? today() : measured.date});
  // The model's calibration sees the kernels it predicts: not the
  // swapped ones (nor is the fastest of those its target).
  double bestUnswappedUs = 0;
  for (const CandidateRecord &rec : records)
    if (measured.has(rec.id) && !rec.c.swap &&
        (bestUnswappedUs == 0 || measured.us(rec.id) < bestUnswappedUs))
      bestUnswappedUs = measured.us(rec.id);
  MeasuredShape shape{key, problem, {}, bestUnswappedUs};
  for (const CandidateRecord &rec : records)
    if (measured.has(rec.id) && !rec.c.swap)
      shape.points.push_back({rec.c, problem, measured.us(rec.id)});
  if (!shape.points.empty())
    byDevice[device].push_back(std::move(shape));
  return true;
}

/// Prints how the model's first choices fare with the constants `start`
/// and `fit` on `shapes`: fitted to all of them, and to all but the one
/// chosen for (leave one out).
void printCalibratedChoices(const std::vector<MeasuredShape> &shapes,
                            const model::DeviceConstants &start,
                            const model::DeviceConstants &fit) {
  Accuracy builtIn, inSample, heldOut;
  for (const MeasuredShape &m : shapes)
    builtIn.add(firstChoiceRatio(m, start));
  for (size_t i = 0; i < shapes.size(); ++i) {
    double ratio = firstChoiceRatio(shapes[i], fit);
    inSample.add(ratio);
    if (ratio < 1.0 / 1.05)
      llvm::outs() << llvm::formatv(
          "tcgen tune:   calibrated first "
          "choice {0} runs at {1:F3} of the "
          "fastest: {2}\n",
          model::rankSM90(shapes[i].problem, fit).front().label(), ratio,
          shapes[i].key);
    std::vector<model::Measurement> others;
    for (size_t j = 0; j < shapes.size(); ++j)
      if (j != i)
        others.insert(others.end(), shapes[j].points.begin(),
                      shapes[j].points.end());
    std::string whyNot;
    std::optional<model::DeviceConstants> loo =
        model::calibrate(others, start, whyNot);
    if (loo)
      heldOut.add(firstChoiceRatio(shapes[i], *loo));
  }
  llvm::outs() << "tcgen tune: with the constants before calibration, "
               << builtIn.str() << "\n"
               << "tcgen tune: with the calibrated constants, "
               << inSample.str() << "\n"
               << "tcgen tune: calibrated without the problem itself "
                  "(leave one out), "
               << heldOut.str() << "\n";
}

/// Fits the model's constants for `device` to its measured `shapes`,
/// starting from the cache's (or the built-in) ones; prints the fit and
/// stores it in `cache`, or prints why there is none.
void calibrateDevice(const std::string &device,
                     const std::vector<MeasuredShape> &shapes,
                     std::optional<TuningCache> &cache) {
  std::vector<model::Measurement> all;
  for (const MeasuredShape &m : shapes)
    all.insert(all.end(), m.points.begin(), m.points.end());
  model::DeviceConstants start;
  if (cache && cache->constants(device))
    start = *cache->constants(device);
  std::string why;
  std::optional<model::DeviceConstants> fit = model::calibrate(all, start, why);
  if (!fit) {
    llvm::outs() << "tcgen tune: constants of " << device
                 << " not calibrated: " << why << "\n";
    return;
  }
  llvm::outs() << llvm::formatv("tcgen tune: calibrated {0} from {1} "
                                "measured candidates of {2} problems: {3}\n"
                                "tcgen tune: mean prediction error {4:P1} "
                                "(was {5:P1})\n",
                                device, all.size(), shapes.size(), fit->str(),
                                meanError(all, *fit), meanError(all, start));
  if (shapes.size() > 1)
    printCalibratedChoices(shapes, start, *fit);
  if (cache)
    cache->setConstants(device, *fit);
}
} // namespace

int mlir::tcgen::importTune(const std::vector<std::string> &dirs,
                            const std::string &cachePath) {
  std::optional<TuningCache> cache;
  std::string error;
  if (!cachePath.empty()) {
    cache = TuningCache::load(cachePath, error);
    if (!cache) {
      llvm::errs() << "tcgen: " << error << "\n";
      return 1;
    }
  }
  // Per device: every measured shape, for the calibration.
  std::map<std::string, std::vector<MeasuredShape>> byDevice;
  FirstChoiceTally tally;
  for (const std::string &dir : dirs)
    if (!importTuneDir(dir, cache, byDevice, tally))
      return 1;
  if (tally.shapes > 1)
    llvm::outs() << llvm::formatv("tcgen tune: the model's first choice is "
                                  "within 5 % of the fastest on {0} of {1} "
                                  "problems, within 10 % on {2}\n",
                                  tally.within5, tally.shapes, tally.within10);
  for (auto &[device, measuredShapes] : byDevice)
    calibrateDevice(device, measuredShapes, cache);
  if (!cache) {
    llvm::outs() << "tcgen tune: no --tuning-cache given: nothing saved\n";
    return 0;
  }
  if (!cache->save(cachePath, error)) {
    llvm::errs() << "tcgen: " << error << "\n";
    return 1;
  }
  llvm::outs() << "tcgen tune: updated " << cachePath << " (" << cache->size()
               << " configurations)\n";
  return 0;
}
