//===- DecisionsTest.cpp - The sm90 decisions as config fields --*- C++ -*-===//
//
// This file implements the unit tests of the #tcgen.config fields that hold
// the sm90 back end's decisions (pack, prologue, epilogue_loads,
// epilogue_in_half): their parse and print, their errors, the tuning cache
// carrying them, and the option table (Options.def) that tcgen-configure's
// options must agree with.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Passes.h"
#include "tcgen/Config/TuningCache.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Pipelines/Pipelines.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tcgen;

namespace {

const char *kBase = "#tcgen.config<backend = \"sm90\", block = [128, 256, "
                    "64], warp = [64, 256, 64], mma = [64, 256, 16], stages "
                    "= 4, padding = 0";

std::string printed(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

class Decisions : public ::testing::Test {
protected:
  Decisions() { context.loadDialect<TCGenDialect>(); }

  /// Parses `fields` after kBase; the error text in `error` if it fails.
  ConfigAttr parse(const std::string &fields, std::string *error = nullptr) {
    std::string text = std::string(kBase) + fields + ">";
    std::string diag;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      diag = d.str();
      return success();
    });
    auto attr = dyn_cast_or_null<ConfigAttr>(parseAttribute(text, &context));
    if (error)
      *error = diag;
    return attr;
  }

  MLIRContext context;
};

/// Each decision, set, prints as given and parses back to the same
/// attribute; unset, it reads as its default and is not printed.
TEST_F(Decisions, EachFieldRoundTrips) {
  ConfigAttr plain = parse("");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain.getPack(), "auto");
  EXPECT_EQ(plain.getPrologue(), "auto");
  EXPECT_EQ(plain.getEpilogueLoads(), "auto");
  EXPECT_FALSE(plain.getEpilogueInHalf());
  EXPECT_EQ(printed(plain).find("pack"), std::string::npos);
  EXPECT_EQ(printed(plain).find("epilogue"), std::string::npos);
  struct Case {
    std::string field, text;
  };
  for (const Case &c :
       {Case{"pack", ", pack = \"always\""}, Case{"pack", ", pack = \"async\""},
        Case{"prologue", ", prologue = \"smem\""},
        Case{"epilogue_loads", ", epilogue_loads = \"fragments\""},
        Case{"epilogue_in_half", ", epilogue_in_half = true"}}) {
    ConfigAttr config = parse(c.text);
    ASSERT_TRUE(config) << c.text;
    std::string text = printed(config);
    EXPECT_NE(text.find(c.text), std::string::npos) << text;
    EXPECT_NE(config, plain) << c.field;
    EXPECT_EQ(parseAttribute(text, &context), config) << text;
  }
  ConfigAttr all = parse(", pack = \"b\", prologue = \"regs\", "
                         "epilogue_loads = \"tma\", epilogue_in_half = true");
  ASSERT_TRUE(all);
  EXPECT_EQ(all.getPack(), "b");
  EXPECT_EQ(all.getPrologue(), "regs");
  EXPECT_EQ(all.getEpilogueLoads(), "tma");
  EXPECT_TRUE(all.getEpilogueInHalf());
  EXPECT_EQ(all.withDecisions("auto", "auto", "auto", false), plain);
  EXPECT_EQ(plain.withDecisions("b", "regs", "tma", true), all);
}

/// A bad value is refused by the parser with the values it takes; a
/// decision on another back end by the verifier.
TEST_F(Decisions, BadValuesAreRefused) {
  std::string error;
  EXPECT_FALSE(parse(", pack = \"sometimes\"", &error));
  EXPECT_EQ(error, "pack must be auto, always, never, a, b or async, not "
                   "'sometimes'");
  EXPECT_FALSE(parse(", prologue = \"nowhere\"", &error));
  EXPECT_EQ(error, "prologue must be auto, regs, smem or pack, not 'nowhere'");
  EXPECT_FALSE(parse(", epilogue_loads = \"smem\"", &error));
  EXPECT_EQ(error,
            "epilogue_loads must be auto, fragments or tma, not 'smem'");
  EXPECT_FALSE(parse(", epilogue_in_half = yes", &error));
  EXPECT_EQ(error, "expected true or false");
  EXPECT_EQ(ConfigAttr::checkDecision("pack", "never"), "");
  std::string text = "#tcgen.config<backend = \"wmma\", pack = \"always\">";
  std::string diag;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diag = d.str();
    return success();
  });
  EXPECT_FALSE(parseAttribute(text, &context));
  EXPECT_EQ(diag, "pack = \"always\" needs the sm90 back end");
}

/// The tuning cache keeps a config's decisions (format version 2), and a
/// version-1 file (no version record, no decisions) still reads.
TEST_F(Decisions, TuningCacheCarriesThem) {
  ConfigAttr config = parse(", pack = \"a\", prologue = \"pack\", "
                            "epilogue_loads = \"fragments\", "
                            "epilogue_in_half = true");
  ASSERT_TRUE(config);
  TuningCache cache;
  cache.add({"GPU", "key", printed(config), 0.5, "2026-11-28"});
  EXPECT_NE(cache.str().find("\nversion\t2\n"), std::string::npos);
  std::string error;
  std::optional<TuningCache> back = TuningCache::parse(cache.str(), "t", error);
  ASSERT_TRUE(back) << error;
  const TuningEntry *e = back->find("GPU", "key");
  ASSERT_TRUE(e);
  EXPECT_EQ(parseAttribute(e->config, &context), config);

  std::string v1 = std::string("config\tGPU\tkey\t") + kBase +
                   ", store = \"tma\">\t0.5\t2026-11-20\n";
  back = TuningCache::parse(v1, "old", error);
  ASSERT_TRUE(back) << error;
  auto old = dyn_cast_or_null<ConfigAttr>(
      parseAttribute(back->find("GPU", "key")->config, &context));
  ASSERT_TRUE(old);
  EXPECT_EQ(old.getPack(), "auto");
  EXPECT_FALSE(old.getEpilogueInHalf());

  EXPECT_FALSE(TuningCache::parse("version\t3\n", "new", error));
  EXPECT_EQ(error, "new:1: the tuning cache's format version 3 is newer than "
                   "this tcgen reads (up to 2)");
  EXPECT_FALSE(TuningCache::parse("version\tx\n", "bad", error));
  EXPECT_EQ(error, "bad:1: a version record has 2 tab-separated fields "
                   "(version, a positive number)");
}

/// Every configuration option of the pipeline (Options.def) is one of
/// tcgen-configure's, with the same default.
TEST(OptionTable, ConfigureTakesEveryConfigOption) {
  TCGenPipelineOptions pipeline;
  TCGenConfigurePassOptions configure;
  int count = 0;
#define TCGEN_CHECK_Opt(FIELD, FLAG, TYPE)                                    \
  EXPECT_EQ(TYPE(pipeline.FIELD), TYPE(configure.FIELD)) << FLAG;
#define TCGEN_CHECK_List(FIELD, FLAG, TYPE)                                   \
  EXPECT_TRUE(pipeline.FIELD.empty() && configure.FIELD.empty()) << FLAG;
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  ++count;                                                                    \
  TCGEN_CHECK_##KIND(FIELD, FLAG, TYPE)
#include "tcgen/Pipelines/Options.def"
  EXPECT_GT(count, 20);
}

} // namespace
