//===- ModelTest.cpp - The tile-size model ----------------------*- C++ -*-===//

#include "tcgen/Config/Model.h"

#include "gtest/gtest.h"

#include <cmath>
#include <utility>

using namespace mlir::tcgen::model;

namespace {

Problem square(int64_t s, int64_t outBytes = 4) {
  Problem p;
  p.m = p.n = p.k = s;
  p.outBytes = outBytes;
  return p;
}

Problem shape(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  Problem p;
  p.m = m, p.n = n, p.k = k, p.batch = batch;
  return p;
}

SM90Candidate first(const Problem &p) {
  std::vector<SM90Candidate> ranked = rankSM90(p, DeviceConstants());
  EXPECT_FALSE(ranked.empty());
  return ranked.empty() ? SM90Candidate() : ranked.front();
}

std::pair<int64_t, int64_t> tile(const Problem &p) {
  SM90Candidate c = first(p);
  return {c.blockM, c.blockN};
}

using P = std::pair<int64_t, int64_t>;

TEST(Model, WaveQuantization) {
  SM90Candidate c;
  c.stages = 4;
  predict(c, square(1536), DeviceConstants());
  EXPECT_EQ(c.tiles, 72);
  EXPECT_NEAR(c.waveEfficiency, 72.0 / 132, 1e-12);
  predict(c, square(3072), DeviceConstants());
  EXPECT_NEAR(c.waveEfficiency, 288.0 / 396, 1e-12);
  predict(c, square(8192), DeviceConstants());
  EXPECT_NEAR(c.waveEfficiency, 2048.0 / 2112, 1e-12);
  EXPECT_EQ(c.kTiles, 128);
  // Edge tiles: 8191^3 on 128x256 makes 64 x 32 tiles, nearly all useful.
  predict(c, square(8191), DeviceConstants());
  EXPECT_EQ(c.tiles, 2048);
  EXPECT_NEAR(c.useful, 8191.0 * 8191 / (8192.0 * 8192), 1e-12);
}

// The first choices the measurements of docs/log/PERFORMANCE-history.md support
// ("Block tiles per shape", "Tuning candidates", "Stream-K", "Batched", "Small
// M").
TEST(Model, FirstChoiceBlockTile) {
  // Enough tiles: the largest.
  EXPECT_EQ(tile(square(2048)), P(128, 256));
  EXPECT_EQ(tile(square(8192)), P(128, 256));
  EXPECT_EQ(tile(square(16384)), P(128, 256));
  // Wave quantization: 288 tiles of 128x256 (2.2 waves) or 384 of 128x192.
  EXPECT_EQ(tile(square(3072)), P(128, 192));
  // 96 tiles of 128x192 or 120 of 128x160 on 132 SMs (measured 0.82 and
  // 0.87 of cuBLAS).
  EXPECT_EQ(tile(square(1536)), P(128, 160));
  // ... but only where they fit one wave: 221 tiles of 128x160 at 2049^3
  // measured 3-6 % slower than 187 of 128x192, and 121 of 192x192 (three
  // consumer warpgroups, one wave) 16-18 % faster than 128x192.
  EXPECT_EQ(tile(square(2049)), P(192, 192));
  // Few tiles: one consumer warpgroup on 64x128 keeps more SMs busy.
  EXPECT_EQ(tile(square(1024)), P(64, 128));
  // ... unless 192-row tiles fill one wave: 128 of 192x128 at M = 3072, N =
  // 1024 measured 6-13 % faster than 384 of 64x128 at K = 1024 and 15-17 %
  // faster than 96 of 128x256 at K = 4096.
  EXPECT_EQ(tile(shape(3072, 1024, 1024)), P(192, 128));
  EXPECT_EQ(tile(shape(3072, 1024, 4096)), P(192, 128));
  EXPECT_EQ(tile(square(1000)), P(64, 128));
  EXPECT_EQ(tile(square(8191)), P(128, 256));
  // A batch counts every matrix's tiles: 16 x 32 tiles of 128x256 are 3.9
  // waves; 128 matrices of 384 x 64 make 384 tiles of 128x64 (measured
  // 0.97-1.03x cuBLAS against 0.91-0.96x with 64x128).
  EXPECT_EQ(tile(shape(1024, 1024, 1024, 16)).second, 256);
  EXPECT_EQ(tile(shape(384, 64, 384, 128)).second, 64);
  // Memory-bound ties go to the tile that pads C least: 128 matrices of
  // 384 x 384 x 64 take 128x192 (1.02 / 1.12-1.13 of cuBLAS, f32 / f16 C)
  // over 128x256 (0.96 / 1.04), whose second column of tiles is half
  // outside C.
  EXPECT_EQ(tile(shape(384, 384, 64, 128)), P(128, 192));
}

TEST(Model, RowsThatStraddleLinesAvoidNarrowTiles) {
  // Rows 16-byte but not 128-byte multiples apart, read unpacked (1000^3
  // and 1400^3 f16: 2000- and 2800-byte rows): tiles of 64 rows (columns)
  // read B (A) twice per flop as often and measured 0.27-0.5 of their
  // rate; 128x128, otherwise not searched, was the fastest (0.86 / 0.76 of
  // cuBLAS against the 64-row defaults' 0.76 / 0.64).
  // In a 2x1 cluster sharing B a 64-row tile reads B as often per flop
  // as a 128-row one alone: 64x128 in 2x1 clusters ran 1000^3 at 0.92 of
  // cuBLAS (128x128 0.88), 64x256 in 2x1 clusters 1400^3 at 0.81 (0.74).
  auto slow = [](Problem p) {
    p.aSlowRows = p.bSlowRows = true;
    return p;
  };
  auto clusterOf = [](const Problem &p) {
    SM90Candidate c = first(p);
    return P(c.clusterM, c.clusterN);
  };
  EXPECT_EQ(tile(slow(square(1000))), P(64, 128));
  EXPECT_EQ(clusterOf(slow(square(1000))), P(2, 1));
  EXPECT_EQ(tile(slow(square(1400))), P(64, 256));
  EXPECT_EQ(clusterOf(slow(square(1400))), P(2, 1));
  // No 64-row tile outside such a cluster, no 64-column one outside a
  // 1x2 cluster.
  for (const SM90Candidate &c :
       rankSM90(slow(square(1000)), DeviceConstants())) {
    EXPECT_FALSE(c.blockM == 64 && c.clusterM != 2) << c.label();
    EXPECT_FALSE(c.blockN == 64 && c.clusterN != 2) << c.label();
  }
  // Where the larger tiles fill the SMs, the choice is the usual one
  // (measured best at 2000^3 and 2400^3).
  EXPECT_EQ(tile(slow(square(2000))), P(128, 256));
  EXPECT_EQ(tile(slow(square(2400))), P(128, 192));
  // Only B's rows: tiles 64 columns wide stay in the search, 64-row ones
  // only in 2x1 clusters.
  Problem b = square(1000);
  b.bSlowRows = true;
  EXPECT_TRUE(tile(b).first != 64 || clusterOf(b) == P(2, 1));
  // A small M keeps its 64-row tiles.
  Problem m64 = slow(shape(64, 4096, 4096));
  EXPECT_EQ(tile(m64).first, 64);
}

TEST(Model, StreamKOnlyWhereTheLastWaveIsPoor) {
  // 5120^3: 800 tiles are 6.06 waves; stream-K measured 0.99 of cuBLAS
  // against 0.90 with whole tiles.
  EXPECT_TRUE(first(square(5120)).streamK);
  // Split ranges of 1.2 tiles whose blocks stay within L2 of each other
  // in k: stream-K (2048 x 11008 x 4096 and x 8192: 0.99 / 0.98 against
  // 0.95 / 0.94 for other tiles).
  EXPECT_TRUE(first(shape(2048, 11008, 4096)).streamK);
  EXPECT_TRUE(first(shape(2048, 11008, 8192)).streamK);
  // Ranges of 1.4 tiles over a long K leave the blocks tens of MB apart:
  // whole tiles (2048 x 5120 x 13824: 64x256 0.94 against 0.77 for
  // 128x256 with stream-K; 1024 x 5120 x 8192 0.87 against 0.51).
  EXPECT_FALSE(first(shape(2048, 5120, 13824)).streamK);
  EXPECT_EQ(tile(shape(2048, 5120, 13824)), P(64, 256));
  EXPECT_FALSE(first(shape(1024, 5120, 8192)).streamK);
  for (const SM90Candidate &c :
       rankSM90(shape(2048, 5120, 13824), DeviceConstants()))
    EXPECT_FALSE(c.streamK && c.blockM == 128 && c.blockN == 256) << c.label();
  // Nearly full last waves or few tiles: whole tiles.
  EXPECT_FALSE(first(square(8192)).streamK);
  EXPECT_FALSE(first(square(1536)).streamK);
  EXPECT_FALSE(first(square(2048)).streamK);
  EXPECT_FALSE(first(square(1024)).streamK);
  // 200 tiles of 128x256 are 1.5 waves: not searched (measured 0.93 of
  // the fastest whole-tile candidate).
  EXPECT_FALSE(first(square(2560)).streamK);
  for (const SM90Candidate &c : rankSM90(square(2560), DeviceConstants()))
    EXPECT_FALSE(c.streamK && c.tiles < 2 * 132) << c.label();
}

TEST(Model, SmallMIsMemoryBound) {
  SM90Candidate c = first(shape(1, 12288, 4096));
  EXPECT_EQ(c.bound, "memory");
  // The DRAM floor: B's 100 MB at 2.4 TB/s.
  EXPECT_NEAR(c.memoryUs, (12288.0 * 4096 * 2 + 4096 * 2 + 12288 * 4) / 2.4e6,
              1e-6);
  EXPECT_GT(c.totalUs, c.memoryUs + DeviceConstants().fixedUs);
  EXPECT_LT(c.totalUs, 1.05 * c.memoryUs + DeviceConstants().fixedUs);
}

TEST(Model, RankedFastestFirstExceptNearTies) {
  for (int64_t s : {512, 1024, 2048, 4096, 5120, 8192}) {
    std::vector<SM90Candidate> ranked = rankSM90(square(s), DeviceConstants());
    ASSERT_GT(ranked.size(), 4u);
    double best = ranked[1].totalUs;
    for (size_t i = 1; i < ranked.size(); ++i) {
      EXPECT_LE(ranked[i - (i > 1)].totalUs, ranked[i].totalUs + 1e-9);
      best = std::min(best, ranked[i].totalUs);
    }
    // The winner is within 1 % of the fastest.
    EXPECT_LE(ranked[0].totalUs, best * 1.01 + 1e-9) << s;
  }
}

TEST(Model, TilesOutsideTheSpaceGetARateByIntensity) {
  // Measured records may name tiles the search space lacks (128 x 128,
  // measured ~0.73 of 128 x 256); the others scale with m n / (m + n).
  SM90Candidate c;
  c.blockM = 128, c.blockN = 128, c.stages = 6;
  predict(c, square(4096), DeviceConstants());
  EXPECT_DOUBLE_EQ(c.tileThroughput, 0.73);
  c.blockM = 64, c.blockN = 192;
  predict(c, square(4096), DeviceConstants());
  EXPECT_NEAR(c.tileThroughput, (64.0 * 192 / 256) / (128.0 * 256 / 384),
              1e-12);
  EXPECT_GT(c.totalUs, 0);
}

/// The swapped problem of an NN square: A' = B^T is MN-major, B' = A^T
/// K-major, C stored from registers.
Problem swappedSquare(int64_t s) {
  Problem p = square(s);
  p.aMNMajor = true;
  p.bKMajor = true;
  p.tmaStore = false;
  return p;
}

TEST(Model, SwappedTilesBeatTheDefaultOnlyWhereTheyFillTheSMs) {
  // 1536^3: 128 swapped 192x96 tiles fill 97 % of the SMs, 120 of
  // 128x160 91 % with less throughput: predicted faster by more than the
  // 2 % margin (measured 7-9 % faster with one consumer warpgroup over the
  // three row blocks and 5 stages).
  std::vector<SM90Candidate> s =
      rankSM90Swapped(swappedSquare(1536), DeviceConstants());
  ASSERT_FALSE(s.empty());
  EXPECT_TRUE(s.front().swap);
  EXPECT_EQ(P(s.front().blockM, s.front().blockN), P(192, 96));
  EXPECT_EQ(s.front().rowBlocks, 3);
  EXPECT_EQ(s.front().stages, 5);
  EXPECT_EQ(s.front().label(), "192x96 s5 swap 1wg");
  EXPECT_EQ(s.front().tiles, 128);
  EXPECT_LT(s.front().totalUs, 0.98 * first(square(1536)).totalUs);
  // A 16-bit C: transposed TMA stores, whose two buffers still leave 5
  // stages.
  Problem half = swappedSquare(1536);
  half.outBytes = 2;
  half.tmaStore = true;
  std::vector<SM90Candidate> h = rankSM90Swapped(half, DeviceConstants());
  ASSERT_FALSE(h.empty());
  EXPECT_EQ(h.front().stages, 5);
  EXPECT_TRUE(isLegal(h.front(), half));
  // Elsewhere 128 x 256 and its neighbours stay ahead.
  for (int64_t size : {1024, 2048, 3072, 4096, 8192}) {
    std::vector<SM90Candidate> w =
        rankSM90Swapped(swappedSquare(size), DeviceConstants());
    ASSERT_FALSE(w.empty());
    EXPECT_GT(w.front().totalUs, 0.98 * first(square(size)).totalUs) << size;
  }
}

TEST(Model, SearchSpaceIsLegal) {
  Problem p = square(4096);
  for (const SM90Candidate &c : rankSM90(p, DeviceConstants())) {
    EXPECT_TRUE(isLegal(c, p)) << c.label();
    EXPECT_FALSE(c.streamK && c.clusterM * c.clusterN > 1) << c.label();
  }
  // A 2x1 cluster splits an N-major B tile in two 64-wide halves: 192 does
  // not split.
  SM90Candidate c;
  c.blockM = 128, c.blockN = 192, c.stages = 4, c.clusterM = 2;
  EXPECT_FALSE(isLegal(c, p));
  p.bKMajor = true; // K-major B tiles split along K rows instead
  EXPECT_TRUE(isLegal(c, p));
  // Shared memory: 128x256 has room for 4 stages next to the store buffers.
  c = SM90Candidate();
  c.stages = 5;
  EXPECT_FALSE(isLegal(c, square(4096)));
  c.stages = 1;
  EXPECT_FALSE(isLegal(c, square(4096)));
}

TEST(Model, ExplainNamesTheWinnerAndTheReason) {
  std::vector<SM90Candidate> ranked = rankSM90(square(3072), DeviceConstants());
  std::string why = explainWinner(ranked, square(3072));
  EXPECT_NE(why.find("128x192"), std::string::npos) << why;
  EXPECT_NE(why.find("beats"), std::string::npos) << why;
  EXPECT_EQ(explainWinner({}, square(3072)), "no candidate fits");
}

TEST(Model, ConstantsRoundTrip) {
  DeviceConstants d;
  d.sms = 114;
  d.smTflops = 4.5;
  d.streamKSlowdown = 1.3;
  std::string error;
  std::optional<DeviceConstants> back = DeviceConstants::parse(d.str(), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->str(), d.str());
  EXPECT_EQ(back->sms, 114);
  // Keys not given keep their defaults.
  back = DeviceConstants::parse("fixed_us=7", error);
  ASSERT_TRUE(back);
  EXPECT_DOUBLE_EQ(back->fixedUs, 7);
  EXPECT_DOUBLE_EQ(back->smTflops, DeviceConstants().smTflops);
}

TEST(Model, ConstantsParseErrors) {
  std::string error;
  EXPECT_FALSE(DeviceConstants::parse("warp_speed=9", error));
  EXPECT_EQ(error, "unknown model constant 'warp_speed'");
  EXPECT_FALSE(DeviceConstants::parse("fixed_us=-1", error));
  EXPECT_EQ(error, "'fixed_us' needs a positive number, not '-1'");
  EXPECT_FALSE(DeviceConstants::parse("fixed_us", error));
  EXPECT_EQ(error, "expected key=value, got 'fixed_us'");
  EXPECT_FALSE(DeviceConstants::parse("sms=abc", error));
}

// Measurements made by the model itself under other constants: the fit
// must recover them.
TEST(Model, CalibrationRecoversTheConstants) {
  DeviceConstants truth;
  truth.fixedUs = 7.5;
  truth.smTflops = 6.4;
  truth.tileUs = 0.9;
  truth.dramTBs = 3.0;
  truth.streamKFixupUs = 8.0;
  truth.streamKSlowdown = 1.25;
  std::vector<Measurement> points;
  std::vector<Problem> problems = {square(1024), square(1536), square(2048),
                                   square(3072), square(4096), square(5120),
                                   square(8192), shape(1, 12288, 4096),
                                   shape(16, 4096, 4096),
                                   shape(64, 8192, 8192)};
  for (const Problem &p : problems)
    for (const SM90Candidate &c : rankSM90(p, truth))
      points.push_back({c, p, c.totalUs});
  std::string error;
  std::optional<DeviceConstants> fit =
      calibrate(points, DeviceConstants(), error);
  ASSERT_TRUE(fit) << error;
  EXPECT_NEAR(fit->fixedUs, 7.5, 1e-3);
  EXPECT_NEAR(fit->smTflops, 6.4, 1e-3);
  EXPECT_NEAR(fit->tileUs, 0.9, 1e-3);
  EXPECT_NEAR(fit->dramTBs, 3.0, 1e-3);
  EXPECT_NEAR(fit->streamKFixupUs, 8.0, 1e-2);
  EXPECT_NEAR(fit->streamKSlowdown, 1.25, 1e-3);
}

TEST(Model, CalibrationNeedsEnoughPoints) {
  std::string error;
  SM90Candidate c = first(square(8192));
  EXPECT_FALSE(calibrate({{c, square(8192), 1500.0}}, DeviceConstants(), error));
  EXPECT_EQ(error, "calibration needs at least 8 measured candidates, got 1");
  // Failed measurements (NaN) do not count.
  std::vector<Measurement> points(8, Measurement{c, square(8192), std::nan("")});
  EXPECT_FALSE(calibrate(points, DeviceConstants(), error));
  EXPECT_EQ(error, "calibration needs at least 8 measured candidates, got 0");
  // Many candidates of two problems leave the constants free.
  std::vector<Measurement> two;
  for (const Problem &p : {square(4096), square(8192)})
    for (const SM90Candidate &r : rankSM90(p, DeviceConstants()))
      two.push_back({r, p, r.totalUs * 1.1});
  ASSERT_GE(two.size(), 8u);
  EXPECT_FALSE(calibrate(two, DeviceConstants(), error));
  EXPECT_EQ(error,
            "calibration needs measured candidates of at least 3 problems, "
            "got 2");
}

TEST(Model, CalibrationKeepsConstantsPositive) {
  // Times no positive fixed cost can explain: the fit goes towards zero
  // but stays positive.
  std::vector<Measurement> points;
  for (int64_t s : {2048, 3072, 4096, 6144, 8192, 10240, 12288, 16384}) {
    SM90Candidate w; // 128x256, 4 stages
    predict(w, square(s), DeviceConstants());
    points.push_back({w, square(s), w.totalUs * 0.5});
  }
  std::string error;
  std::optional<DeviceConstants> fit =
      calibrate(points, DeviceConstants(), error);
  ASSERT_TRUE(fit) << error;
  for (double v : {fit->fixedUs, fit->smTflops, fit->tileUs, fit->dramTBs,
                   fit->roundTripUs, fit->streamKFixupUs})
    EXPECT_GT(v, 0);
  EXPECT_GE(fit->streamKSlowdown, 1.0);
}

} // namespace

namespace {

// The sm80 tile rule: large tiles where they fill the SMs, else 64x64 tiles
// with intra-block split-K as the tiles get fewer (132 SMs).
TEST(SM80Tile, LargeTilesWhereTheyFillTheSMs) {
  SM80Tile t = chooseSM80Tile(4096, 4096, 4096, true, 132);
  EXPECT_EQ(t.block[0], 128);
  EXPECT_EQ(t.block[1], 128);
  EXPECT_EQ(t.block[2], 32);
  EXPECT_EQ(t.warp[0], 64);
}

TEST(SM80Tile, SplitKForFewTiles) {
  // 1024^2: 64 tiles of 128x128, 256 of 64x64 (< 4 x 132): two shares.
  SM80Tile t = chooseSM80Tile(1024, 1024, 4096, true, 132);
  EXPECT_EQ(t.block[0], 64);
  EXPECT_EQ(t.block[2], 64);
  EXPECT_EQ(t.warp[2], 32);
  // 512^2: 64 tiles of 64x64 (< 132): four shares.
  EXPECT_EQ(chooseSM80Tile(512, 512, 8192, true, 132).block[2], 128);
  // C += A*B: no split.
  EXPECT_EQ(chooseSM80Tile(512, 512, 8192, false, 132).block[2], 32);
  // K = 96 is not a multiple of 128 or 64: one share.
  EXPECT_EQ(chooseSM80Tile(512, 512, 96, true, 132).block[2], 32);
  // K = 192: two shares of a 64-deep k-tile.
  EXPECT_EQ(chooseSM80Tile(512, 512, 192, true, 132).block[2], 64);
}

TEST(SM80Tile, NearlyAFullWaveKeepsLargeTiles) {
  // 2048 x 1024: 128 tiles of 128x128 on 132 SMs (measured: 0.50 of cuBLAS
  // against 0.43 with 64x64 tiles and two shares).
  EXPECT_EQ(chooseSM80Tile(2048, 1024, 2048, true, 132).block[0], 128);
  // 96 tiles (< 3/4 of 132): the small tiles.
  EXPECT_EQ(chooseSM80Tile(1536, 1024, 2048, true, 132).block[0], 64);
}

TEST(SM80Tile, SixtyFourWhereOneTwentyEightDoesNotDivide) {
  SM80Tile t = chooseSM80Tile(4032, 4096, 4096, true, 132);
  EXPECT_EQ(t.block[0], 64);
  EXPECT_EQ(t.block[2], 32); // 4032 / 64 x 64 tiles: no split
  // Not a multiple of 64 either: the default (its check reports the size).
  EXPECT_EQ(chooseSM80Tile(1000, 1000, 1000, true, 132).block[0], 128);
}

} // namespace

namespace {

TEST(Model, OneWaveTallTilesTakeOneWarpgroup) {
  // 3072 x 1024: 128 tiles of 192x128, one wave: one consumer warpgroup
  // over the three row blocks (192 accumulator registers), 5 stages.
  SM90Candidate c = first(shape(3072, 1024, 1024));
  EXPECT_EQ(P(c.blockM, c.blockN), P(192, 128));
  EXPECT_EQ(c.rowBlocks, 3);
  EXPECT_EQ(c.stages, 5);
  EXPECT_EQ(c.label(), "192x128 s5 1wg");
  // 6144 x 1024: 256 tiles, two waves: three warpgroups, 4 stages.
  SM90Candidate w = first(shape(6144, 1024, 1024));
  EXPECT_EQ(P(w.blockM, w.blockN), P(192, 128));
  EXPECT_EQ(w.rowBlocks, 1);
  EXPECT_EQ(w.stages, 4);
  // Other tiles never do.
  for (const SM90Candidate &r : rankSM90(square(4096), DeviceConstants()))
    EXPECT_TRUE(r.rowBlocks == 1 || (r.blockM == 192 && r.tiles <= 132))
        << r.label();
}

} // namespace
