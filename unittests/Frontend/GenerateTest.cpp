//===- GenerateTest.cpp - Tests of the random-problem generator -*- C++ -*-===//
//
// This file implements the unit tests of the problem generator: a seed
// gives the same problems every time, every form is drawn over a few
// hundred problems, every drawn spec parses, the size cap holds,
// --kinds restricts the draws, and grouped products and dual GEMMs are
// drawn only where named.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Frontend/Generate.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

#include <gtest/gtest.h>

using namespace mlir::tcgen;

namespace {

std::vector<std::string> lines(const GenerateOptions &options) {
  std::vector<std::string> out;
  for (const GeneratedProblem &p : generateProblems(options))
    out.push_back(formatBatchLine(p));
  return out;
}

TEST(Generate, SameSeedSameProblems) {
  GenerateOptions options;
  options.seed = 7;
  options.count = 50;
  EXPECT_EQ(lines(options), lines(options));
  // Problem i does not depend on how many are drawn.
  GenerateOptions fewer = options;
  fewer.count = 10;
  std::vector<std::string> all = lines(options);
  EXPECT_EQ(lines(fewer),
            std::vector<std::string>(all.begin(), all.begin() + 10));
  GenerateOptions other = options;
  other.seed = 8;
  EXPECT_NE(lines(options), lines(other));
}

TEST(Generate, EveryFormIsDrawn) {
  GenerateOptions options;
  options.seed = 1;
  options.count = 600;
  std::set<std::string> seen;
  for (const GeneratedProblem &p : generateProblems(options))
    seen.insert(p.forms.begin(), p.forms.end());
  for (const std::string &form : generatorForms())
    EXPECT_TRUE(seen.count(form)) << "never drawn: " << form;
  for (const std::string &form : seen)
    EXPECT_TRUE(llvm::is_contained(generatorForms(), form))
        << "not listed: " << form;
}

TEST(Generate, EverySpecParses) {
  for (uint64_t seed : {1, 2, 3}) {
    GenerateOptions options;
    options.seed = seed;
    options.count = 300;
    for (const GeneratedProblem &p : generateProblems(options)) {
      SpecError error;
      EXPECT_TRUE(succeeded(parseSpec(p.spec, error)))
          << formatBatchLine(p) << "\n  " << error.str();
    }
  }
}

TEST(Generate, GroupedOnlyWhereNamedAndEverySpecParses) {
  GenerateOptions options;
  options.count = 200;
  for (const GeneratedProblem &p : generateProblems(options))
    EXPECT_TRUE(p.spec.group.empty()) << formatBatchLine(p);
  options.kinds = {"grouped"};
  for (const GeneratedProblem &p : generateProblems(options)) {
    EXPECT_EQ(p.spec.group, "g");
    EXPECT_NE(formatBatchLine(p).find(" --group=g"), std::string::npos);
    SpecError error;
    EXPECT_TRUE(succeeded(parseSpec(p.spec, error)))
        << formatBatchLine(p) << "\n  " << error.str();
  }
  // With other kinds, about half are grouped.
  options.kinds = {"grouped", "layout"};
  int grouped = 0;
  for (const GeneratedProblem &p : generateProblems(options))
    grouped += !p.spec.group.empty();
  EXPECT_GT(grouped, 50);
  EXPECT_LT(grouped, 150);
}

/// Whether the spec is a dual GEMM: its epilogue reads acc2.
static bool isDual(const GeneratedProblem &p) {
  return p.spec.epilogue.find("acc2") != std::string::npos;
}

TEST(Generate, DualOnlyWhereNamedAndEverySpecParses) {
  GenerateOptions options;
  options.count = 300;
  for (const GeneratedProblem &p : generateProblems(options))
    EXPECT_FALSE(isDual(p)) << formatBatchLine(p);
  options.kinds = {"dual"};
  options.maxFlops = int64_t(1) << 24;
  std::set<std::string> seen;
  for (const GeneratedProblem &p : generateProblems(options)) {
    EXPECT_TRUE(isDual(p)) << formatBatchLine(p);
    EXPECT_TRUE(p.spec.einsum == "mk,nk->mn" || p.spec.einsum == "mk,kn->mn" ||
                p.spec.einsum == "km,nk->mn" || p.spec.einsum == "km,kn->mn")
        << formatBatchLine(p);
    SpecError error;
    auto spec = parseSpec(p.spec, error);
    ASSERT_TRUE(succeeded(spec)) << formatBatchLine(p) << "\n  " << error.str();
    // Both products count against the cap.
    int64_t flops = 2;
    for (int64_t s : spec->sizes)
      flops *= s;
    EXPECT_LE(flops, options.maxFlops) << formatBatchLine(p);
    seen.insert(p.forms.begin(), p.forms.end());
  }
  std::vector<std::string> dualForms = generatorDualForms();
  for (const std::string &form : dualForms)
    EXPECT_TRUE(seen.count(form)) << "never drawn: " << form;
  for (const std::string &form : seen)
    EXPECT_TRUE(llvm::is_contained(dualForms, form) ||
                llvm::is_contained(generatorForms(), form))
        << "not listed: " << form;
  // With other kinds, about half are dual; with grouped alone besides,
  // half are grouped and the others dual.
  options.kinds = {"dual", "layout"};
  int dual = 0;
  for (const GeneratedProblem &p : generateProblems(options))
    dual += isDual(p);
  EXPECT_GT(dual, 100);
  EXPECT_LT(dual, 200);
  options.kinds = {"dual", "grouped"};
  dual = 0;
  for (const GeneratedProblem &p : generateProblems(options)) {
    dual += isDual(p);
    EXPECT_NE(isDual(p), !p.spec.group.empty()) << formatBatchLine(p);
  }
  EXPECT_GT(dual, 100);
  EXPECT_LT(dual, 200);
}

TEST(Generate, SizesStayUnderTheCap) {
  GenerateOptions options;
  options.count = 300;
  options.maxFlops = int64_t(1) << 20;
  for (const GeneratedProblem &p : generateProblems(options)) {
    SpecError error;
    auto spec = parseSpec(p.spec, error);
    ASSERT_TRUE(succeeded(spec)) << error.str();
    int64_t flops = 1;
    for (int64_t s : spec->sizes)
      flops *= s == kDynamicSpecSize ? 1 : s;
    EXPECT_LE(flops, options.maxFlops) << formatBatchLine(p);
  }
}

TEST(Generate, KindsRestrictTheDraws) {
  GenerateOptions options;
  options.count = 200;
  options.kinds = {"layout"};
  for (const GeneratedProblem &p : generateProblems(options)) {
    EXPECT_TRUE(p.flags.empty()) << formatBatchLine(p);
    EXPECT_TRUE(p.spec.epilogue.empty()) << formatBatchLine(p);
    EXPECT_TRUE(p.spec.dtypes.empty()) << formatBatchLine(p);
    EXPECT_EQ(p.spec.einsum.find('b'), std::string::npos);
  }
  EXPECT_EQ(unknownGeneratorKind({"layout", "dtype"}), "");
  EXPECT_EQ(unknownGeneratorKind({"grouped", "dual"}), "");
  EXPECT_EQ(unknownGeneratorKind({"layout", "layouts"}), "layouts");
}

TEST(Generate, LinesTokenizeBack) {
  GenerateOptions options;
  options.count = 100;
  for (const GeneratedProblem &p : generateProblems(options)) {
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char *> tokens;
    llvm::cl::TokenizeGNUCommandLine(formatBatchLine(p), saver, tokens);
    ASSERT_GE(tokens.size(), 3u);
    EXPECT_EQ(tokens[0], p.name);
    EXPECT_EQ(std::string(tokens[1]), "--einsum=" + p.spec.einsum);
    if (p.spec.epilogue.empty())
      continue;
    std::vector<std::string> args(tokens.begin(), tokens.end());
    EXPECT_TRUE(llvm::is_contained(args, "--epilogue=" + p.spec.epilogue))
        << formatBatchLine(p);
  }
}

} // namespace
