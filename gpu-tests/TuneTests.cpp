//===- TuneTests.cpp - The measuring half of tcgen tune -------------------===//
//
//   TuneHost.*  DIR/tune.tsv is read, and its errors named, without a GPU;
//   GpuTune.*   candidates of one problem are timed on the same buffers, and
//               a candidate that was not compiled, or computes another
//               problem, gets its error instead of a time.
//
//===----------------------------------------------------------------------===//

#include "DeviceSkip.h"
#include "Tune.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

using namespace tcgen::bench;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the test temp dir.
fs::path freshDir(const std::string &name) {
  fs::path dir = fs::path(testing::TempDir()) /
                 ("tcgen-tune-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// A candidate line of tune.tsv (13 tab-separated fields).
std::string candidateLine(const std::string &id, const std::string &status) {
  return "candidate\t" + id +
         "\t1\t128\t256\t4\t0\t1\t1\t8\t10.0\t" + status +
         "\t#tcgen.config<backend = \"sm90\">\n";
}

void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream(path) << text;
}

TEST(TuneHost, ReadsTheCandidates) {
  fs::path dir = freshDir("read");
  writeFile(dir / "tune.tsv", "# comment\nkey\tk\n" + candidateLine("c00", "ok") +
                                  candidateLine("c01", "failed: spills"));
  std::vector<TuneCandidate> c;
  ASSERT_EQ(readTuneCandidates(dir.string(), c), "");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].id, "c00");
  EXPECT_EQ(c[0].status, "ok");
  EXPECT_EQ(c[1].status, "failed: spills");
  fs::remove_all(dir);
}

TEST(TuneHost, NamesWhatIsWrong) {
  fs::path dir = freshDir("errors");
  std::vector<TuneCandidate> c;
  EXPECT_EQ(readTuneCandidates(dir.string(), c),
            "cannot read " + (dir / "tune.tsv").string() +
                " (written by tcgen tune)");
  writeFile(dir / "tune.tsv", "key\tk\n");
  EXPECT_EQ(readTuneCandidates(dir.string(), c),
            (dir / "tune.tsv").string() + " lists no candidate");
  writeFile(dir / "tune.tsv", "key\tk\ncandidate\tc00\t1\n");
  EXPECT_EQ(readTuneCandidates(dir.string(), c),
            (dir / "tune.tsv").string() +
                ":2: a candidate line has 13 tab-separated fields, not 3");
  fs::remove_all(dir);
}

class GpuTune : public testing::Test {
protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    rowMajor = fs::path(refBundlesDir()) / "ref_f16_f32_rowmajor";
    ragged = fs::path(refBundlesDir()) / "ref_f32_f32_ragged";
    if (!fs::exists(rowMajor) || !fs::exists(ragged))
      GTEST_SKIP() << "reference bundles not found in " << refBundlesDir()
                   << " (set TCGEN_REF_BUNDLES)";
    ASSERT_EQ(getDeviceProps(device), "");
  }
  /// DIR/<id> as a copy of `bundle`.
  static void addBundle(const fs::path &dir, const std::string &id,
                        const fs::path &bundle) {
    fs::copy(bundle, dir / id, fs::copy_options::recursive);
  }
  /// Reads DIR's candidates and times them with a 0.2 s budget (`options`
  /// gets what was used).
  std::string timeDir(const fs::path &dir, std::vector<TuneTiming> &t,
                      TuneOptions &options) {
    std::vector<TuneCandidate> c;
    std::string error = readTuneCandidates(dir.string(), c);
    if (!error.empty())
      return error;
    options.budgetS = 0.2;
    return timeCandidates(dir.string(), c, options, device, t);
  }
  fs::path rowMajor, ragged;
  DeviceProps device;
};

TEST_F(GpuTune, TimesEveryCandidateOnTheSameBuffers) {
  fs::path dir = freshDir("time");
  addBundle(dir, "c00", rowMajor);
  addBundle(dir, "c01", rowMajor);
  writeFile(dir / "tune.tsv", candidateLine("c00", "ok") +
                                  candidateLine("c01", "ok") +
                                  candidateLine("c02", "failed: spills"));
  TuneOptions options;
  std::vector<TuneTiming> t;
  ASSERT_EQ(timeDir(dir, t, options), "");
  ASSERT_EQ(t.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(t[i].error, "");
    EXPECT_TRUE(std::isfinite(t[i].ms) && t[i].ms > 0) << t[i].ms;
    EXPECT_GE(t[i].iters, options.minIters);
    EXPECT_LE(t[i].iters, options.maxIters);
    EXPECT_GT(t[i].tflops(), 0);
  }
  EXPECT_EQ(t[0].entry, t[1].entry);
  EXPECT_TRUE(std::isnan(t[2].ms));
  EXPECT_EQ(t[2].error, "not compiled: failed: spills");
  fs::remove_all(dir);
}

// A candidate whose manifest lists the same operands in another order (as
// a swapped kernel lists B^T before A^T) is bound to the same buffers.
TEST_F(GpuTune, OperandsInAnotherOrderAreMatched) {
  fs::path dir = freshDir("order");
  addBundle(dir, "c00", rowMajor);
  addBundle(dir, "c01", rowMajor);
  fs::path json = dir / "c01" / (rowMajor.filename().string() + ".json");
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  in.close();
  size_t a = text.find("{ \"name\": \"A\"");
  size_t b = text.find("{ \"name\": \"B\"");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  ASSERT_LT(a, b);
  size_t aEnd = text.find('}', a) + 1, bEnd = text.find('}', b) + 1;
  std::string opA = text.substr(a, aEnd - a), opB = text.substr(b, bEnd - b);
  text.replace(b, bEnd - b, opA);
  text.replace(a, aEnd - a, opB);
  writeFile(json, text);
  writeFile(dir / "tune.tsv",
            candidateLine("c00", "ok") + candidateLine("c01", "ok"));
  TuneOptions options;
  std::vector<TuneTiming> t;
  ASSERT_EQ(timeDir(dir, t, options), "");
  ASSERT_EQ(t.size(), 2u);
  for (const TuneTiming &x : t) {
    EXPECT_EQ(x.error, "");
    EXPECT_TRUE(std::isfinite(x.ms) && x.ms > 0) << x.ms;
  }
  fs::remove_all(dir);
}

TEST_F(GpuTune, AnotherProblemIsRefused) {
  fs::path dir = freshDir("other");
  addBundle(dir, "c00", rowMajor);
  addBundle(dir, "c01", ragged);
  writeFile(dir / "tune.tsv",
            candidateLine("c00", "ok") + candidateLine("c01", "ok"));
  std::vector<TuneCandidate> c;
  ASSERT_EQ(readTuneCandidates(dir.string(), c), "");
  std::vector<TuneTiming> t;
  ASSERT_EQ(timeCandidates(dir.string(), c, TuneOptions(), device, t), "");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(std::isfinite(t[0].ms));
  EXPECT_EQ(t[1].error, "its operands differ from the first candidate's: "
                        "not the same problem");
  fs::remove_all(dir);
}

TEST_F(GpuTune, NothingLoadableIsAnError) {
  fs::path dir = freshDir("none");
  writeFile(dir / "tune.tsv", candidateLine("c00", "ok"));
  std::vector<TuneCandidate> c;
  ASSERT_EQ(readTuneCandidates(dir.string(), c), "");
  std::vector<TuneTiming> t;
  EXPECT_EQ(timeCandidates(dir.string(), c, TuneOptions(), device, t),
            "no candidate could be loaded");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_NE(t[0].error, "");
  fs::remove_all(dir);
}

} // namespace
