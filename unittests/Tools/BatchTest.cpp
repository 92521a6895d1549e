//===- BatchTest.cpp - Tests of tcgen compile --batch's helpers -*- C++ -*-===//
//
// This file implements the unit tests of the batch file's reader and of
// the classification of a problem's result (ok, refused, failed, crashed).
//
//===----------------------------------------------------------------------===//

#include "Batch.h"

#include <gtest/gtest.h>

using namespace mlir::tcgen;

namespace {

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
