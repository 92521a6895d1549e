//===- Batch.h - tcgen compile --batch --------------------------*- C++ -*-===//
//
// Batch compilation: a file of problems (one `NAME <tcgen compile
// options>` per line) compiled in parallel, each as a child process of
// this binary (so that a crash loses one problem, not the batch), with
// progress on stderr and a summary in DIR/batch.tsv. Each result is ok,
// refused (an error with a location: a spec option and column, or
// file:line:col) or failed / crashed (anything else). A study file is a
// batch file with option sets (`@set NAME options`, crossed with every
// problem) and named subsets (`@subset NAME GLOB...`).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TOOLS_BATCH_H
#define TCGEN_TOOLS_BATCH_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tcgen {

/// One line of a batch file.
struct BatchProblem {
  std::string name;
  std::vector<std::string> args; ///< the options after the name
  unsigned line = 0;             ///< 1-based line in the file
};

/// An option set of a study file (`@set NAME options`): its options are
/// added to every problem's, and its bundles go to DIR/NAME/.
struct BatchOptionSet {
  std::string name;
  std::vector<std::string> args;
  unsigned line = 0;
};

/// A named subset of a study file's problems (`@subset NAME GLOB...`,
/// several lines of one name adding up): the problems whose name matches
/// one of the glob patterns.
struct BatchSubset {
  std::string name;
  std::vector<std::string> patterns;
  unsigned line = 0; ///< its first line
};

/// A parsed batch (or study) file.
struct BatchFile {
  std::vector<BatchProblem> problems;
  std::vector<BatchOptionSet> sets;
  std::vector<BatchSubset> subsets;
};

/// Parses a batch file's text: blank lines and lines starting with '#'
/// are skipped; `@set NAME options` declares an option set and `@subset
/// NAME GLOB...` a subset; each other line is a name ([A-Za-z0-9_.-]+,
/// unique) and options, split as a shell would (double and single quotes,
/// backslash). On a malformed line sets `error` to "FILE:LINE: ..." and
/// returns std::nullopt.
std::optional<BatchFile> parseStudyFile(llvm::StringRef text,
                                        llvm::StringRef fileName,
                                        std::string &error);

/// One compilation of a batch: a problem under an option set.
struct BatchJob {
  std::string path; ///< its bundle directory under DIR: NAME or SET/NAME
  std::vector<std::string> args; ///< the problem's options, then the set's
};

/// The jobs of `file`: every problem (of `subset`, if not empty) under
/// every option set (problem-major: a problem's sets run side by side), or
/// each problem once when the file has no set. Returns std::nullopt and
/// sets `error` when `subset` is not one of the file's or selects nothing.
std::optional<std::vector<BatchJob>>
expandBatch(const BatchFile &file, llvm::StringRef subset, std::string &error);

/// How one problem ended.
struct BatchOutcome {
  /// "ok", "refused", "failed" (an error without a location, or a report
  /// of a tcgen bug) or "crashed" (a signal, an assertion, LLVM ERROR).
  std::string status;
  std::string firstError; ///< the first error line of the log ("" if ok)
};

/// Classifies a child's exit status (ExecuteAndWait's: -2 a signal, -1 it
/// did not run) and its output.
BatchOutcome classifyBatchRun(int rc, llvm::StringRef log);

/// What `tcgen compile --batch` needs.
struct BatchRequest {
  std::string file;   ///< the batch file
  std::string subset; ///< compile only this subset ("" all)
  /// DIR: DIR/NAME per problem (DIR/SET/NAME with option sets),
  /// DIR/batch.tsv.
  std::string outputDir;
  unsigned jobs = 0;     ///< problems at once (0: the host's threads)
  std::string tcgenPath; ///< this binary
  /// compile's options given with --batch, appended to every problem's.
  std::vector<std::string> forwarded;
};

/// Runs the batch. Returns 0 when every problem compiled or was refused
/// with a located error, 1 otherwise.
int runBatch(const BatchRequest &request);

} // namespace mlir::tcgen

#endif // TCGEN_TOOLS_BATCH_H
