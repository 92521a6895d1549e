//===- StudyTest.cpp - Tests of a study's bundle sets -----------*- C++ -*-===//
//
// This file implements the unit tests of Study.h: reading batch.tsv,
// listing a study directory's bundles, pairing two sets and the geometric
// mean.
//
//===----------------------------------------------------------------------===//

#include "Study.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace tcgen::bench;
namespace fs = std::filesystem;

namespace {

TEST(Study, BatchSummary) {
  std::vector<std::string> names;
  EXPECT_EQ(readBatchSummary("name\tstatus\tseconds\terror\n"
                             "p1\tok\t1.00\t\n"
                             "set/p2\trefused\t0.50\t--einsum:1:1: error\n"
                             "\n"
                             "set/p3\tok\t2.00\t\n",
                             names),
            "");
  EXPECT_EQ(names, (std::vector<std::string>{"p1", "set/p3"}));
  names.clear();
  EXPECT_NE(readBatchSummary("date,device\n", names), "");
  EXPECT_NE(readBatchSummary("name\tstatus\tseconds\terror\nlonely\n", names)
                .find("line 2"),
            std::string::npos);
}

/// A scratch directory, removed at the end of the test.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string &name)
      : path(fs::temp_directory_path() /
             (name + "-" +
              std::to_string(
                  ::testing::UnitTest::GetInstance()->random_seed()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
  void touch(const fs::path &rel, const std::string &text = "{}") {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

TEST(Study, ListFromSubdirectories) {
  ScratchDir dir("tcgen-study-list");
  dir.touch("b/kernel.json");
  dir.touch("a/kernel.json");
  dir.touch("a/compile.log", "");
  dir.touch("empty/compile.log", ""); // no manifest: not a bundle
  dir.touch("loose.json");            // not a directory
  std::vector<StudyBundle> bundles;
  ASSERT_EQ(listStudyBundles(dir.path.string(), bundles), "");
  ASSERT_EQ(bundles.size(), 2u);
  EXPECT_EQ(bundles[0].name, "a");
  EXPECT_EQ(bundles[0].path, (dir.path / "a").string());
  EXPECT_EQ(bundles[1].name, "b");
}

TEST(Study, ListFromBatchSummary) {
  ScratchDir dir("tcgen-study-tsv");
  dir.touch("batch.tsv", "name\tstatus\tseconds\terror\n"
                         "s1/p\tok\t1\t\n"
                         "s2/p\tfailed\t1\tx\n");
  std::vector<StudyBundle> bundles;
  ASSERT_EQ(listStudyBundles(dir.path.string(), bundles), "");
  ASSERT_EQ(bundles.size(), 1u);
  EXPECT_EQ(bundles[0].name, "s1/p");
  EXPECT_EQ(bundles[0].path, (dir.path / "s1/p").string());

  ScratchDir none("tcgen-study-none");
  none.touch("batch.tsv", "name\tstatus\tseconds\terror\np\tfailed\t1\tx\n");
  bundles.clear();
  EXPECT_NE(
      listStudyBundles(none.path.string(), bundles).find("no problem compiled"),
      std::string::npos);
  EXPECT_NE(listStudyBundles((none.path / "missing").string(), bundles)
                .find("not a directory"),
            std::string::npos);
  ScratchDir bare("tcgen-study-bare");
  EXPECT_NE(listStudyBundles(bare.path.string(), bundles).find("no bundle"),
            std::string::npos);
}

TEST(Study, Pairing) {
  std::vector<StudyBundle> a = {{"x", "A/x"}, {"y", "A/y"}, {"z", "A/z"}};
  std::vector<StudyBundle> b = {{"w", "B/w"}, {"z", "B/z"}, {"x", "B/x"}};
  StudyPairing p = pairStudies(a, b);
  ASSERT_EQ(p.pairs.size(), 2u);
  EXPECT_EQ(p.pairs[0].first.path, "A/x");
  EXPECT_EQ(p.pairs[0].second.path, "B/x");
  EXPECT_EQ(p.pairs[1].first.name, "z");
  EXPECT_EQ(p.pairs[1].second.path, "B/z");
  EXPECT_EQ(p.onlyA, (std::vector<std::string>{"y"}));
  EXPECT_EQ(p.onlyB, (std::vector<std::string>{"w"}));
  EXPECT_TRUE(pairStudies({}, b).pairs.empty());
}

TEST(Study, Geomean) {
  EXPECT_DOUBLE_EQ(geomean({2.0, 8.0}), 4.0);
  EXPECT_NEAR(geomean({0.5, 2.0, 1.0}), 1.0, 1e-12);
  // Non-finite and non-positive values (a pair not timed) are left out.
  EXPECT_DOUBLE_EQ(geomean({4.0, NAN, 0.0, -1.0, INFINITY}), 4.0);
  EXPECT_TRUE(std::isnan(geomean({})));
  EXPECT_TRUE(std::isnan(geomean({NAN})));
}

} // namespace
