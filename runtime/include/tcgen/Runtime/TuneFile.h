//===- TuneFile.h - The candidate list of a tuning run ----------*- C++ -*-===//
//
// DIR/tune.tsv, written by `tcgen tune` (the host half of the autotuner) and
// read by `tcgen-gpu tune` (the measuring half) and `tcgen tune --import`:
// one record per line, fields separated by tabs, '#' lines are comments.
//
//   key        <TAB> the tuning-cache key of the contraction
//   input      <TAB> the input file
//   problem    <TAB> m=.. n=.. k=.. batch=.. in_bytes=.. out_bytes=.. ...
//   constants  <TAB> the model constants the candidates were ranked with
//   candidate  <TAB> id, rank, block_m, block_n, stages, streamk, cluster_m,
//                    cluster_n, raster, predicted_us, status, config
//
// Each candidate's bundle is DIR/<id>; status is "ok" or why it did not
// compile. No MLIR here: both halves share this file format; its lines are
// the tab-separated records of tcgen/Support/Records.h.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_TUNEFILE_H
#define TCGEN_RUNTIME_TUNEFILE_H

#include "tcgen/Support/Records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen {

struct TuneCandidateRecord {
  std::string id;
  int rank = 0;
  int64_t blockM = 0, blockN = 0, stages = 0;
  bool streamK = false;
  int64_t clusterM = 1, clusterN = 1, raster = 8;
  double predictedUs = 0;
  std::string status = "ok";
  std::string config; ///< the #tcgen.config, printed
};

struct TuneFile {
  std::string key, input, problem, constants;
  std::vector<TuneCandidateRecord> candidates;
};

/// Parses the text of a tune.tsv (`name` for messages). Returns "" or the
/// first error, "name:line: why".
std::string parseTuneFile(const std::string &text, const std::string &name,
                          TuneFile &out);

/// Reads DIR/tune.tsv. Returns "" or why not ("cannot read DIR/tune.tsv
/// (written by tcgen tune)", a parse error, or "... lists no candidate").
std::string readTuneFile(const std::string &dir, TuneFile &out);

/// The text of a tune.tsv, header comments first.
std::string printTuneFile(const TuneFile &file);

} // namespace tcgen

#endif // TCGEN_RUNTIME_TUNEFILE_H
