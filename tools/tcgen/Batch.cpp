//===- Batch.cpp - tcgen compile --batch ------------------------*- C++ -*-===//
//
// This file implements batch compilation (Batch.h): the batch file's
// reader, the classification of each problem's result, and the parallel
// run of child `tcgen compile` processes with progress and DIR/batch.tsv.
//
//===----------------------------------------------------------------------===//

#include "Batch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

using namespace mlir::tcgen;
using llvm::StringRef;

/// Whether `name` may name a problem, an option set or a subset (it
/// becomes a directory name): [A-Za-z0-9_.-]+, not starting with '-' or '.'.
static bool isValidName(StringRef name) {
  return !name.empty() && !name.starts_with("-") && !name.starts_with(".") &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
         });
}

std::optional<BatchFile> mlir::tcgen::parseStudyFile(StringRef text,
                                                     StringRef fileName,
                                                     std::string &error) {
  BatchFile file;
  llvm::StringSet<> names, setNames;
  llvm::StringMap<size_t> subsetIndex;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [i, raw] : llvm::enumerate(lines)) {
    StringRef line = raw.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    auto fail = [&](const llvm::Twine &message) {
      error = (fileName + ":" + llvm::Twine(i + 1) + ": " + message).str();
      return std::nullopt;
    };
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char *> tokens;
    llvm::cl::TokenizeGNUCommandLine(line, saver, tokens);
    StringRef first = tokens.front();
    unsigned lineNo = i + 1;
    if (first == "@set" || first == "@subset") {
      if (tokens.size() < 2 || !isValidName(tokens[1]))
        return fail(first + " needs a NAME (letters, digits, '_', '-' and "
                            "'.', first a letter, digit or '_')");
      StringRef name = tokens[1];
      auto rest = llvm::drop_begin(tokens, 2);
      if (first == "@set") {
        if (!setNames.insert(name).second)
          return fail("a second option set named '" + name + "'");
        BatchOptionSet set{name.str(), {}, lineNo};
        for (const char *t : rest)
          set.args.push_back(t);
        file.sets.push_back(std::move(set));
        continue;
      }
      if (tokens.size() < 3)
        return fail("@subset " + name + " names no problem (GLOB...)");
      auto [it, fresh] = subsetIndex.try_emplace(name, file.subsets.size());
      if (fresh)
        file.subsets.push_back({name.str(), {}, lineNo});
      for (const char *t : rest) {
        if (auto glob = llvm::GlobPattern::create(t); !glob) {
          std::string why = llvm::toString(glob.takeError());
          return fail("'" + llvm::Twine(t) + "' is not a glob pattern: " + why);
        }
        file.subsets[it->second].patterns.push_back(t);
      }
      continue;
    }
    if (first.starts_with("@"))
      return fail("unknown directive '" + first +
                  "' (a study file knows @set and @subset)");
    BatchProblem p;
    p.line = lineNo;
    p.name = first.str();
    if (!isValidName(p.name))
      return fail("'" + p.name +
                  "' is not a problem name (letters, digits, '_', '-' and "
                  "'.', first a letter, digit or '_'); a line is NAME then "
                  "tcgen compile's options");
    if (!names.insert(p.name).second)
      return fail("a second problem named '" + p.name + "'");
    for (const char *t : llvm::drop_begin(tokens))
      p.args.push_back(t);
    if (p.args.empty())
      return fail("problem '" + p.name +
                  "' has no options (an input file or --einsum ...)");
    file.problems.push_back(std::move(p));
  }
  if (file.problems.empty()) {
    error = (fileName + ": no problems (each line: NAME then tcgen compile's "
                        "options)")
                .str();
    return std::nullopt;
  }
  return file;
}

std::optional<std::vector<BatchJob>>
mlir::tcgen::expandBatch(const BatchFile &file, StringRef subset,
                         std::string &error) {
  std::vector<llvm::GlobPattern> globs;
  if (!subset.empty()) {
    const BatchSubset *found = nullptr;
    for (const BatchSubset &s : file.subsets)
      if (s.name == subset)
        found = &s;
    if (!found) {
      std::string known;
      for (const BatchSubset &s : file.subsets)
        known += (known.empty() ? "" : ", ") + s.name;
      error = "no subset named '" + subset.str() + "' in the file" +
              (known.empty() ? std::string(" (it has none)")
                             : " (it has " + known + ")");
      return std::nullopt;
    }
    for (const std::string &p : found->patterns) {
      // parseStudyFile() checked them; a file built otherwise may not be.
      llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(p);
      if (!glob) {
        error = "'" + p + "' is not a glob pattern: " +
                llvm::toString(glob.takeError());
        return std::nullopt;
      }
      globs.push_back(std::move(*glob));
    }
  }
  std::vector<BatchJob> jobs;
  for (const BatchProblem &p : file.problems) {
    if (!globs.empty() && llvm::none_of(globs, [&](const llvm::GlobPattern &g) {
          return g.match(p.name);
        }))
      continue;
    if (file.sets.empty()) {
      jobs.push_back({p.name, p.args});
      continue;
    }
    for (const BatchOptionSet &set : file.sets) {
      BatchJob job{set.name + "/" + p.name, p.args};
      llvm::append_range(job.args, set.args);
      jobs.push_back(std::move(job));
    }
  }
  if (jobs.empty()) {
    error = "subset '" + subset.str() + "' matches no problem";
    return std::nullopt;
  }
  return jobs;
}

BatchOutcome mlir::tcgen::classifyBatchRun(int rc, StringRef log) {
  llvm::SmallVector<StringRef> lines;
  log.split(lines, '\n');
  std::string firstError;
  for (StringRef l : lines)
    if (l.contains("error:") || l.contains("LLVM ERROR") ||
        l.contains("Assertion")) {
      firstError = l.trim().str();
      break;
    }
  if (firstError.empty())
    for (StringRef l : llvm::reverse(lines))
      if (!l.trim().empty()) {
        firstError = l.trim().str();
        break;
      }
  for (char &c : firstError)
    if (c == '\t')
      c = ' ';
  if (rc == 0)
    return {"ok", ""};
  bool crashed = rc < 0 || log.contains("LLVM ERROR") ||
                 log.contains("Assertion") || log.contains("Stack dump") ||
                 log.contains("PLEASE submit a bug report");
  if (crashed)
    return {"crashed", firstError};
  // A refusal is an error at a location: FILE:LINE:COL (an op's, including
  // the spec's "--epilogue":1:1) or a spec option and column.
  static const llvm::Regex located(
      "(^|[[:space:]])[^[:space:]:]+:[0-9]+:[0-9]+: error: |"
      "error: --[a-z-]+(:[0-9]+)?: ");
  bool isLocated =
      llvm::any_of(lines, [](StringRef l) { return located.match(l); });
  if (!isLocated || log.contains("tcgen bug"))
    return {"failed", firstError};
  return {"refused", firstError};
}

namespace {

/// Reads a whole file ("" if it cannot).
std::string readFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

/// The result of one problem.
struct BatchRecord {
  BatchOutcome outcome;
  double seconds = 0;
};

} // namespace

int mlir::tcgen::runBatch(const BatchRequest &request) {
  std::string text = readFile(request.file);
  if (text.empty() && !llvm::sys::fs::exists(request.file)) {
    llvm::errs() << "tcgen: error: cannot read the batch file " << request.file
                 << "\n";
    return 1;
  }
  std::string error;
  std::optional<BatchFile> file = parseStudyFile(text, request.file, error);
  std::optional<std::vector<BatchJob>> expanded;
  if (file)
    expanded = expandBatch(*file, request.subset, error);
  if (!expanded) {
    llvm::errs() << "tcgen: error: " << error << "\n";
    return 1;
  }
  const std::vector<BatchJob> &problems = *expanded;
  if (std::error_code ec =
          llvm::sys::fs::create_directories(request.outputDir)) {
    llvm::errs() << "tcgen: error: cannot create " << request.outputDir << ": "
                 << ec.message() << "\n";
    return 1;
  }
  unsigned jobs = request.jobs
                      ? request.jobs
                      : std::max(1u, std::thread::hardware_concurrency());
  std::vector<BatchRecord> records(problems.size());
  std::atomic<size_t> next{0};
  std::mutex progressMutex;
  size_t done = 0;
  auto worker = [&] {
    for (size_t i; (i = next++) < problems.size();) {
      const BatchJob &p = problems[i];
      llvm::SmallString<256> dir(request.outputDir);
      llvm::sys::path::append(dir, p.path);
      llvm::sys::fs::create_directories(dir);
      llvm::SmallString<256> log(dir);
      llvm::sys::path::append(log, "compile.log");
      std::vector<std::string> args = {request.tcgenPath, "compile"};
      llvm::append_range(args, p.args);
      llvm::append_range(args, request.forwarded);
      args.push_back("-o");
      args.push_back(dir.str().str());
      llvm::SmallVector<StringRef> argRefs(args.begin(), args.end());
      std::optional<StringRef> redirects[] = {StringRef(""), StringRef(log),
                                              StringRef(log)};
      auto started = std::chrono::steady_clock::now();
      std::string err;
      int rc = llvm::sys::ExecuteAndWait(request.tcgenPath, argRefs,
                                         std::nullopt, redirects, 0, 0, &err);
      BatchRecord &rec = records[i];
      rec.seconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - started)
                        .count();
      std::string output = readFile(log);
      if (rc < 0 && !err.empty())
        output += "\n" + err;
      rec.outcome = classifyBatchRun(rc, output);
      std::lock_guard<std::mutex> lock(progressMutex);
      ++done;
      StringRef shown =
          rec.outcome.status == "ok" || rec.outcome.status == "refused"
              ? StringRef(rec.outcome.status)
              : StringRef("FAILED");
      llvm::errs() << "[" << done << "/" << problems.size() << "] " << p.path
                   << " " << shown;
      if (shown == "FAILED")
        llvm::errs() << " (" << rec.outcome.status << ": "
                     << rec.outcome.firstError << ")";
      llvm::errs() << "\n";
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<size_t>(jobs, problems.size()); ++t)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();

  llvm::SmallString<256> tsvPath(request.outputDir);
  llvm::sys::path::append(tsvPath, "batch.tsv");
  std::error_code ec;
  llvm::raw_fd_ostream tsv(tsvPath, ec);
  if (ec) {
    llvm::errs() << "tcgen: error: cannot write " << tsvPath << ": "
                 << ec.message() << "\n";
    return 1;
  }
  tsv << "name\tstatus\tseconds\terror\n";
  std::map<std::string, unsigned> counts;
  for (auto [p, rec] : llvm::zip(problems, records)) {
    tsv << p.path << "\t" << rec.outcome.status << "\t"
        << llvm::formatv("{0:f2}", rec.seconds) << "\t"
        << rec.outcome.firstError << "\n";
    ++counts[rec.outcome.status];
  }
  llvm::errs() << "tcgen: " << problems.size() << " problems:";
  for (auto &[status, n] : counts)
    llvm::errs() << " " << n << " " << status;
  llvm::errs() << " (" << tsvPath << ")\n";
  return counts["failed"] + counts["crashed"] == 0 ? 0 : 1;
}
