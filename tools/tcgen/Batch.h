//===- Batch.h - tcgen compile --batch --------------------------*- C++ -*-===//
//
// Batch compilation: a file of problems (one `NAME <tcgen compile
// options>` per line) compiled in parallel, each as a child process of
// this binary (so that a crash loses one problem, not the batch), with
// progress on stderr and a summary in DIR/batch.tsv. Each result is ok,
// refused (an error with a location: a spec option and column, or
// file:line:col) or failed / crashed (anything else).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TOOLS_BATCH_H
#define TCGEN_TOOLS_BATCH_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::tcgen {

/// One line of a batch file.
struct BatchProblem {
  std::string name;
  std::vector<std::string> args; ///< the options after the name
  unsigned line = 0;             ///< 1-based line in the file
};

/// Parses a batch file's text: blank lines and lines starting with '#'
/// are skipped; each other line is a name ([A-Za-z0-9_.-]+, unique) and
/// options, split as a shell would (double and single quotes, backslash).
/// On a malformed line sets `error` to "FILE:LINE: ..." and returns {}.
std::vector<BatchProblem> parseBatchFile(llvm::StringRef text,
                                         llvm::StringRef fileName,
                                         std::string &error);

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
  std::string file;      ///< the batch file
  std::string outputDir; ///< DIR: DIR/NAME per problem, DIR/batch.tsv
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
