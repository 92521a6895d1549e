//===- BatchTest.cpp - Tests of tcgen compile --batch's helpers -*- C++ -*-===//
//
// This file implements the unit tests of the batch (study) file's reader,
// of the expansion of its problems under option sets and subsets, and of
// the classification of a problem's result (ok, refused, failed, crashed).
//
//===----------------------------------------------------------------------===//

#include "Batch.h"

#include <gtest/gtest.h>

using namespace mlir::tcgen;

namespace {

/// The problems of a batch file ({} where it does not parse).
std::vector<BatchProblem> parseBatchFile(llvm::StringRef text,
                                         llvm::StringRef fileName,
                                         std::string &error) {
  std::optional<BatchFile> file = parseStudyFile(text, fileName, error);
  return file ? file->problems : std::vector<BatchProblem>();
}

TEST(BatchFile, NamesAndQuotedOptions) {
  std::string error;
  std::vector<BatchProblem> problems =
      parseBatchFile("# a comment\n"
                     "\n"
                     "p1 --einsum=\"mk,kn->mn\" --sizes=m=64,n=64,k=64 "
                     "--epilogue=\"relu(acc + bias[n])\"\n"
                     "  file_2 in.mlir --block-tile 128,128,64  \n",
                     "list.txt", error);
  ASSERT_EQ(problems.size(), 2u) << error;
  EXPECT_EQ(problems[0].name, "p1");
  EXPECT_EQ(problems[0].line, 3u);
  ASSERT_EQ(problems[0].args.size(), 3u);
  EXPECT_EQ(problems[0].args[0], "--einsum=mk,kn->mn");
  EXPECT_EQ(problems[0].args[2], "--epilogue=relu(acc + bias[n])");
  EXPECT_EQ(problems[1].name, "file_2");
  EXPECT_EQ(problems[1].line, 4u);
  EXPECT_EQ(problems[1].args, (std::vector<std::string>{
                                  "in.mlir", "--block-tile", "128,128,64"}));
}

TEST(BatchFile, Errors) {
  std::string error;
  EXPECT_TRUE(parseBatchFile("a --x\na --y\n", "f", error).empty());
  EXPECT_EQ(error, "f:2: a second problem named 'a'");
  EXPECT_TRUE(parseBatchFile("--einsum=mk,kn->mn\n", "f", error).empty());
  EXPECT_NE(error.find("f:1: '--einsum=mk,kn->mn' is not a problem name"),
            std::string::npos)
      << error;
  EXPECT_TRUE(parseBatchFile("x/y --a\n", "f", error).empty());
  EXPECT_NE(error.find("f:1: 'x/y'"), std::string::npos) << error;
  EXPECT_TRUE(parseBatchFile("alone\n", "f", error).empty());
  EXPECT_EQ(error, "f:1: problem 'alone' has no options (an input file or "
                   "--einsum ...)");
  EXPECT_TRUE(parseBatchFile("# nothing\n\n", "f", error).empty());
  EXPECT_NE(error.find("f: no problems"), std::string::npos) << error;
}

TEST(StudyFile, SetsCrossEveryProblem) {
  std::string error;
  std::optional<BatchFile> file =
      parseStudyFile("@set base\n"
                     "@set bt --block-tile=128,128,64 --stages 4\n"
                     "p1 --einsum=mk,kn->mn --sizes=m=64,n=64,k=64\n"
                     "p2 in.mlir\n",
                     "s.txt", error);
  ASSERT_TRUE(file) << error;
  ASSERT_EQ(file->sets.size(), 2u);
  EXPECT_EQ(file->sets[0].name, "base");
  EXPECT_TRUE(file->sets[0].args.empty());
  EXPECT_EQ(
      file->sets[1].args,
      (std::vector<std::string>{"--block-tile=128,128,64", "--stages", "4"}));
  std::optional<std::vector<BatchJob>> jobs = expandBatch(*file, "", error);
  ASSERT_TRUE(jobs) << error;
  ASSERT_EQ(jobs->size(), 4u);
  EXPECT_EQ((*jobs)[0].path, "base/p1");
  EXPECT_EQ((*jobs)[1].path, "bt/p1");
  EXPECT_EQ((*jobs)[1].args, (std::vector<std::string>{
                                 "--einsum=mk,kn->mn", "--sizes=m=64,n=64,k=64",
                                 "--block-tile=128,128,64", "--stages", "4"}));
  EXPECT_EQ((*jobs)[3].path, "bt/p2");
  // Without a set, each problem once, under its own name.
  file = parseStudyFile("p1 a.mlir\np2 b.mlir\n", "s.txt", error);
  ASSERT_TRUE(file) << error;
  jobs = expandBatch(*file, "", error);
  ASSERT_TRUE(jobs) << error;
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[1].path, "p2");
  EXPECT_EQ((*jobs)[1].args, (std::vector<std::string>{"b.mlir"}));
}

TEST(StudyFile, Subsets) {
  std::string error;
  std::optional<BatchFile> file =
      parseStudyFile("@subset quick llama.* sq1024\n"
                     "@subset quick odd_[0-9]\n"
                     "@subset none zzz\n"
                     "llama.qkv.t1 a.mlir\n"
                     "llama.ffn.t8 a.mlir\n"
                     "sq1024 a.mlir\n"
                     "sq2048 a.mlir\n"
                     "odd_1 a.mlir\n"
                     "odd_12 a.mlir\n",
                     "s.txt", error);
  ASSERT_TRUE(file) << error;
  ASSERT_EQ(file->subsets.size(), 2u);
  EXPECT_EQ(file->subsets[0].patterns.size(), 3u);
  std::optional<std::vector<BatchJob>> jobs =
      expandBatch(*file, "quick", error);
  ASSERT_TRUE(jobs) << error;
  std::vector<std::string> paths;
  for (const BatchJob &j : *jobs)
    paths.push_back(j.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"llama.qkv.t1", "llama.ffn.t8",
                                             "sq1024", "odd_1"}));
  EXPECT_FALSE(expandBatch(*file, "none", error));
  EXPECT_EQ(error, "subset 'none' matches no problem");
  EXPECT_FALSE(expandBatch(*file, "slow", error));
  EXPECT_EQ(error, "no subset named 'slow' in the file (it has quick, none)");
}

TEST(StudyFile, Errors) {
  std::string error;
  EXPECT_FALSE(parseStudyFile("@set a\n@set a --x\np x.mlir\n", "f", error));
  EXPECT_EQ(error, "f:2: a second option set named 'a'");
  EXPECT_FALSE(parseStudyFile("@set\np x.mlir\n", "f", error));
  EXPECT_NE(error.find("f:1: @set needs a NAME"), std::string::npos) << error;
  EXPECT_FALSE(parseStudyFile("@set a/b\np x.mlir\n", "f", error));
  EXPECT_NE(error.find("f:1: @set needs a NAME"), std::string::npos) << error;
  EXPECT_FALSE(parseStudyFile("@subset q\np x.mlir\n", "f", error));
  EXPECT_EQ(error, "f:1: @subset q names no problem (GLOB...)");
  EXPECT_FALSE(parseStudyFile("@subset q [a\np x.mlir\n", "f", error));
  EXPECT_NE(error.find("f:1: '[a' is not a glob pattern"), std::string::npos)
      << error;
  EXPECT_FALSE(parseStudyFile("@include x\np x.mlir\n", "f", error));
  EXPECT_EQ(error, "f:1: unknown directive '@include' (a study file knows "
                   "@set and @subset)");
  EXPECT_FALSE(parseStudyFile("@set a --x\n", "f", error));
  EXPECT_NE(error.find("f: no problems"), std::string::npos) << error;
}

TEST(BatchOutcome, Classification) {
  EXPECT_EQ(classifyBatchRun(0, "tcgen: wrote x\n").status, "ok");
  // An op's error at the spec's location, and a spec error with a column.
  BatchOutcome op = classifyBatchRun(
      1, "--einsum:1:1: error: 'linalg.generic' op M=100 is not a multiple\n");
  EXPECT_EQ(op.status, "refused");
  EXPECT_EQ(op.firstError,
            "--einsum:1:1: error: 'linalg.generic' op M=100 is not a multiple");
  EXPECT_EQ(classifyBatchRun(1, "tcgen: error: --epilogue:18: unknown "
                                "function 'gleu'\n  gleu(acc)\n  ^\n")
                .status,
            "refused");
  EXPECT_EQ(classifyBatchRun(1, "in.mlir:3:5: error: bad\n").status, "refused");
  // No location, a tcgen bug, a pass failure without a diagnostic.
  EXPECT_EQ(classifyBatchRun(1, "tcgen: error: --emit must be ...\n").status,
            "failed");
  EXPECT_EQ(classifyBatchRun(1, "x.mlir:1:1: error: a tcgen bug: ...\n").status,
            "failed");
  BatchOutcome silent = classifyBatchRun(1, "");
  EXPECT_EQ(silent.status, "failed");
  EXPECT_EQ(silent.firstError, "");
  // A signal, an assertion, LLVM ERROR.
  EXPECT_EQ(classifyBatchRun(-2, "").status, "crashed");
  EXPECT_EQ(classifyBatchRun(1, "LLVM ERROR: out of memory\n").status,
            "crashed");
  BatchOutcome assertion = classifyBatchRun(
      1, "tcgen: Foo.cpp:12: void f(): Assertion `x' failed.\n");
  EXPECT_EQ(assertion.status, "crashed");
  EXPECT_NE(assertion.firstError.find("Assertion"), std::string::npos);
}

} // namespace
