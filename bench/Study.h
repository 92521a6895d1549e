//===- Study.h - Bundle sets of a study -------------------------*- C++ -*-===//
//
// This file declares the parts of `tcgen-gpu bench --study` and `tcgen-gpu
// compare` that need no GPU: the bundles of a study directory (written by
// `tcgen compile --batch`), the pairing of two such sets by problem, and
// the geometric mean of the ratios.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_STUDY_H
#define TCGEN_BENCH_STUDY_H

#include <string>
#include <utility>
#include <vector>

namespace tcgen::bench {

/// A bundle of a study directory.
struct StudyBundle {
  std::string name; ///< its path under the directory: NAME or SET/NAME
  std::string path; ///< the directory joined with `name`
};

/// The names of the `ok` rows of a `tcgen compile --batch` summary
/// (batch.tsv: a header `name\tstatus\t...`, then a row per problem).
/// Returns "" or why the text is not such a summary.
std::string readBatchSummary(const std::string &text,
                             std::vector<std::string> &okNames);

/// The bundles of study directory `dir`: the `ok` rows of dir/batch.tsv,
/// or where there is none, every subdirectory of `dir` holding one
/// manifest (a set's directory, DIR/SET, of a study with option sets), in
/// name order. Returns "" or why there is none.
std::string listStudyBundles(const std::string &dir,
                             std::vector<StudyBundle> &bundles);

/// Two bundle sets paired by name.
struct StudyPairing {
  std::vector<std::pair<StudyBundle, StudyBundle>> pairs; ///< in A's order
  std::vector<std::string> onlyA, onlyB; ///< names without a partner
};

/// Pairs the bundles of `a` and `b` that have the same name.
StudyPairing pairStudies(const std::vector<StudyBundle> &a,
                         const std::vector<StudyBundle> &b);

/// The geometric mean of the finite positive values of `values` (NaN if
/// there is none).
double geomean(const std::vector<double> &values);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_STUDY_H
