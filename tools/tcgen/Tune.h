//===- Tune.h - tcgen explain's model table and tcgen tune ------*- C++ -*-===//
//
// The model's ranking of a module's contractions (what `tcgen explain`
// prints), and the host half of the autotuner: `tcgen tune` compiles the
// model's top candidates of one contraction in parallel into a directory,
// has `tcgen-gpu tune` time them (here if a GPU is present, else on another
// machine), and `tcgen tune --import` keeps the fastest in the tuning cache
// and calibrates the model's constants for the device.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TOOLS_TUNE_H
#define TCGEN_TOOLS_TUNE_H

#include "tcgen/Config/Config.h"
#include "tcgen/Config/Model.h"
#include "tcgen/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tcgen {

/// One contraction of a module, configured and ranked.
struct RankedContraction {
  std::string location; ///< where it is in the input
  std::string key;      ///< its tuning-cache key
  std::string backend;  ///< the back end configure chose
  std::string config;   ///< the #tcgen.config it got, printed
  /// Where the config came from: "tuning cache", "tile-size model" or
  /// "options and back-end defaults".
  std::string source;
  model::Problem problem;
  /// sm90: the model plans matrices laid side by side in N (a broadcast
  /// batch dimension that A lacks; batchFoldedIntoN), so its problem's N
  /// and batch differ from the key's.
  bool foldsN = false;
  /// A dual GEMM's second product: where its first product is (the kernel
  /// built from that one computes both; this config is not used).
  std::string secondOf;
  model::DeviceConstants constants; ///< what the model ranked with
  std::string constantsFrom;        ///< "built-in (H100)" or the device
  std::vector<model::SM90Candidate> ranked; ///< empty unless sm90
  /// simt: the candidates of rankSimtCandidates, fastest predicted first
  /// (empty unless simt).
  std::vector<SimtCandidate> simtRanked;
  std::vector<std::string> rankedConfigs;   ///< #tcgen.config of each
  /// sm90, a small M: the swapped kernels tune times too (swapCandidates;
  /// the model does not predict them), and whether the small-M rule picks
  /// the first of them by default (shouldSwap).
  std::vector<model::SM90Candidate> swapped;
  std::vector<std::string> swappedConfigs;
  bool swapFirst = false;
  /// sm90, a larger M with an f32 C: the swapped kernel the model predicts
  /// faster than its first unswapped choice (predictedSwap), if any, and
  /// its configuration.
  std::optional<model::SM90Candidate> predictedSwap;
  std::string predictedSwapConfig;
};

/// Runs the configure front of the pipeline (fusion, bufferization,
/// tcgen-configure with `options`) on a clone of `module` and ranks each
/// contraction's sm90 candidates. Diagnostics go to the context's handler.
FailureOr<std::vector<RankedContraction>>
rankContractions(ModuleOp module, const TCGenPipelineOptions &options);

/// Prints the chosen config, its source, the top `top` candidates with
/// their predicted terms, and the winner's reason.
void printRanking(llvm::raw_ostream &os, const RankedContraction &r,
                  size_t top);

/// What `tcgen tune` needs besides the module.
struct TuneRequest {
  std::string input;     ///< the input file, compiled again per candidate
  std::string outputDir; ///< DIR: DIR/tune.tsv and one bundle per candidate
  std::string target;
  size_t top = 8;        ///< candidates to compile (0: all)
  unsigned jobs = 0;     ///< parallel compiles (0: the host's threads)
  std::vector<std::string> forwardedFlags; ///< --pack=..., --store=...
  std::string tcgenPath;    ///< this binary
  std::string tcgenGpuPath; ///< tcgen-gpu beside it ("" if none)
  bool measure = true;      ///< run tcgen-gpu tune here when it exists
  std::string budget;       ///< forwarded to tcgen-gpu tune --budget
  std::string cachePath;    ///< the tuning cache to update ("" none)
};

/// The host half of the autotuner (see the file comment). Returns the exit
/// status.
int runTune(ModuleOp module, const TCGenPipelineOptions &options,
            const TuneRequest &request);

/// Reads DIR/tune.tsv and DIR/measured.csv of each of `dirs`, prints the
/// candidates' predicted and measured times, adds each fastest to the
/// tuning cache at `cachePath` and fits the device's model constants to all
/// of them. Returns the exit status.
int importTune(const std::vector<std::string> &dirs,
               const std::string &cachePath);

} // namespace mlir::tcgen

#endif // TCGEN_TOOLS_TUNE_H
