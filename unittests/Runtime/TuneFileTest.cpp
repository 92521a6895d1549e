//===- TuneFileTest.cpp - The candidate list of a tuning run --------------===//

#include "tcgen/Runtime/TuneFile.h"

#include <gtest/gtest.h>

using namespace tcgen;

namespace {

TuneFile sample() {
  TuneFile f{"sm_90a f16xf16->f32 batch=1 m=512 n=512 k=512 ab=nn", "in.mlir",
             "m=512 n=512 k=512", "sms=132", {}};
  TuneCandidateRecord a;
  a.id = "c00", a.rank = 1, a.blockM = 64, a.blockN = 64, a.stages = 8;
  a.predictedUs = 6.875;
  a.config = "#tcgen.config<backend = \"sm90\", block = [64, 64, 64]>";
  TuneCandidateRecord b = a;
  b.id = "c01", b.rank = 2, b.blockN = 128, b.streamK = true, b.clusterM = 2;
  b.status = "failed: tcgen: error: spills 8 bytes";
  f.candidates = {a, b};
  return f;
}

TEST(TuneFile, RoundTrip) {
  TuneFile f = sample();
  std::string text = printTuneFile(f);
  TuneFile back;
  ASSERT_EQ(parseTuneFile(text, "t", back), "");
  EXPECT_EQ(back.key, f.key);
  EXPECT_EQ(back.input, "in.mlir");
  EXPECT_EQ(back.problem, f.problem);
  EXPECT_EQ(back.constants, "sms=132");
  ASSERT_EQ(back.candidates.size(), 2u);
  EXPECT_EQ(back.candidates[1].blockN, 128);
  EXPECT_TRUE(back.candidates[1].streamK);
  EXPECT_EQ(back.candidates[1].clusterM, 2);
  EXPECT_EQ(back.candidates[1].status, "failed: tcgen: error: spills 8 bytes");
  EXPECT_DOUBLE_EQ(back.candidates[0].predictedUs, 6.875);
  EXPECT_EQ(back.candidates[0].config, f.candidates[0].config);
  EXPECT_EQ(printTuneFile(back), text);
}

TEST(TuneFile, ErrorsNameTheLine) {
  TuneFile f;
  EXPECT_EQ(parseTuneFile("# c\nkey\tk\ncandidate\tc00\t1\n", "t.tsv", f),
            "t.tsv:3: a candidate line has 13 tab-separated fields, not 3");
  EXPECT_EQ(parseTuneFile("candidate\tc00\tone\t64\t64\t8\t0\t1\t1\t8\t1.0\tok"
                          "\tcfg\n",
                          "t", f),
            "t:1: field 3 of a candidate is not an integer: 'one'");
  EXPECT_EQ(parseTuneFile("candidate\tc00\t1\t64\t64\t8\t0\t1\t1\t8\tfast\tok"
                          "\tcfg\n",
                          "t", f),
            "t:1: the predicted time 'fast' is not a number");
  EXPECT_EQ(parseTuneFile("best\tc00\n", "t", f),
            "t:1: unknown record 'best'");
  EXPECT_EQ(parseTuneFile("key\ta\tb\n", "t", f),
            "t:1: a 'key' line has 2 tab-separated fields, not 3");
}

TEST(TuneFile, MissingFileAndNoCandidates) {
  TuneFile f;
  EXPECT_EQ(readTuneFile("/nonexistent", f),
            "cannot read /nonexistent/tune.tsv (written by tcgen tune)");
  EXPECT_EQ(splitTabs("a\t\tb"), (std::vector<std::string>{"a", "", "b"}));
}

} // namespace
