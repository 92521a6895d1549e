//===- TuningCacheTest.cpp - The tuning cache's file format -----*- C++ -*-===//

#include "tcgen/Config/TuningCache.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>

using namespace mlir::tcgen;

namespace {

const char *kConfig = "#tcgen.config<backend = \"sm90\", block_tile = [128, "
                      "192, 64]>";

TEST(TuningCache, RoundTrip) {
  TuningCache cache;
  cache.add({"NVIDIA H100 80GB HBM3", "sm_90a f16xf16->f32 m=1536", kConfig,
             0.0195, "2026-11-24"});
  model::DeviceConstants d;
  d.fixedUs = 6.25;
  cache.setConstants("NVIDIA H100 80GB HBM3", d);
  std::string error;
  std::optional<TuningCache> back = TuningCache::parse(cache.str(), "t", error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->str(), cache.str());
  const TuningEntry *e =
      back->find("NVIDIA H100 80GB HBM3", "sm_90a f16xf16->f32 m=1536");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->config, kConfig);
  EXPECT_DOUBLE_EQ(e->ms, 0.0195);
  ASSERT_TRUE(back->constants("NVIDIA H100 80GB HBM3"));
  EXPECT_DOUBLE_EQ(back->constants("NVIDIA H100 80GB HBM3")->fixedUs, 6.25);
  EXPECT_FALSE(back->find("NVIDIA H200", "sm_90a f16xf16->f32 m=1536"));
}

TEST(TuningCache, LaterRecordsReplaceEarlier) {
  std::string text = std::string("config\tGPU\tkey\t") + kConfig +
                     "\t0.5\t2026-11-23\n" + "config\tGPU\tkey\t" + kConfig +
                     "\t0.4\t2026-11-24\n";
  std::string error;
  std::optional<TuningCache> cache = TuningCache::parse(text, "t", error);
  ASSERT_TRUE(cache) << error;
  EXPECT_EQ(cache->size(), 1u);
  EXPECT_DOUBLE_EQ(cache->find("GPU", "key")->ms, 0.4);
}

TEST(TuningCache, EmptyDeviceMeansTheOnlyOne) {
  TuningCache cache;
  cache.add({"A", "key", kConfig, 1, "d"});
  EXPECT_TRUE(cache.find("", "key"));
  cache.add({"B", "key", kConfig, 1, "d"});
  EXPECT_FALSE(cache.find("", "key")) << "two devices: ambiguous";
  EXPECT_TRUE(cache.find("B", "key"));
  EXPECT_FALSE(cache.constants(""));
  cache.setConstants("A", model::DeviceConstants());
  EXPECT_TRUE(cache.constants(""));
}

TEST(TuningCache, MalformedRecordsNameTheLine) {
  std::string error;
  EXPECT_FALSE(TuningCache::parse("# ok\n\nconfig\tGPU\tkey\n", "c.txt", error));
  EXPECT_EQ(error, "c.txt:3: a config record has 6 tab-separated fields "
                   "(config, device, key, #tcgen.config, ms, date), not 3");
  EXPECT_FALSE(TuningCache::parse(
      std::string("config\tGPU\tkey\t") + kConfig + "\tfast\td\n", "c", error));
  EXPECT_EQ(error, "c:1: the time 'fast' is not a positive number");
  EXPECT_FALSE(
      TuningCache::parse("config\tGPU\tkey\t128x256\t1\td\n", "c", error));
  EXPECT_EQ(error, "c:1: a config record needs a device, a key and a "
                   "#tcgen.config<...> attribute");
  EXPECT_FALSE(TuningCache::parse("model\tGPU\tspeed=1\n", "c", error));
  EXPECT_EQ(error, "c:1: unknown model constant 'speed'");
  EXPECT_FALSE(TuningCache::parse("best\tGPU\n", "c", error));
  EXPECT_EQ(error, "c:1: unknown record 'best' (expected version, config or "
                   "model)");
}

TEST(TuningCache, MissingFileIsEmptySavedFileLoads) {
  std::string path = testing::TempDir() + "tcgen-tuning-cache-test.txt";
  std::remove(path.c_str());
  std::string error;
  std::optional<TuningCache> cache = TuningCache::load(path, error);
  ASSERT_TRUE(cache) << error;
  EXPECT_EQ(cache->size(), 0u);
  cache->add({"GPU", "key", kConfig, 0.25, "2026-11-24"});
  ASSERT_TRUE(cache->save(path, error)) << error;
  std::optional<TuningCache> back = TuningCache::load(path, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->size(), 1u);
  std::remove(path.c_str());
  EXPECT_FALSE(cache->save("/nonexistent-dir/cache.txt", error));
  EXPECT_NE(error.find("cannot write /nonexistent-dir/cache.txt.tmp"),
            std::string::npos)
      << error;
}

} // namespace
