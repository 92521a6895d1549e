//===- Model.cpp - The tile-size model --------------------------*- C++ -*-===//
//
// This file implements the sm90 tile-size model: the search space, the
// predicted time of each candidate, the ranking and the calibration of the
// device constants.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Model.h"
#include "tcgen/Config/Backend.h"
#include "tcgen/IR/TCGenDialect.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

using namespace mlir::tcgen;
using namespace mlir::tcgen::model;

/// The sm90 back end's resource and schedule formulas.
static const TargetBackend &sm90() { return getTargetBackend("sm90"); }

//===----------------------------------------------------------------------===//
// Device constants
//===----------------------------------------------------------------------===//

namespace {
/// The constants by name, for printing and parsing.
struct ConstantField {
  const char *name;
  double DeviceConstants::*value;
};
const ConstantField kFields[] = {
    {"sm_tflops", &DeviceConstants::smTflops},
    {"fixed_us", &DeviceConstants::fixedUs},
    {"tile_us", &DeviceConstants::tileUs},
    {"dram_tbs", &DeviceConstants::dramTBs},
    {"round_trip_us", &DeviceConstants::roundTripUs},
    {"streamk_fixup_us", &DeviceConstants::streamKFixupUs},
    {"streamk_slowdown", &DeviceConstants::streamKSlowdown},
};
} // namespace

std::string DeviceConstants::str() const {
  std::string s = llvm::formatv("sms={0}", sms).str();
  for (const ConstantField &f : kFields) {
    char value[32];
    std::snprintf(value, sizeof(value), "%.4g", this->*f.value);
    s += std::string(" ") + f.name + "=" + value;
  }
  return s;
}

std::optional<DeviceConstants>
DeviceConstants::parse(const std::string &text, std::string &error) {
  DeviceConstants d;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "expected key=value, got '" + word + "'";
      return std::nullopt;
    }
    std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    char *end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end || !std::isfinite(v) || v <= 0) {
      error = "'" + key + "' needs a positive number, not '" + value + "'";
      return std::nullopt;
    }
    if (key == "sms") {
      d.sms = int64_t(v);
      continue;
    }
    const ConstantField *field = nullptr;
    for (const ConstantField &f : kFields)
      if (key == f.name)
        field = &f;
    if (!field) {
      error = "unknown model constant '" + key + "'";
      return std::nullopt;
    }
    d.*(field->value) = v;
  }
  return d;
}

//===----------------------------------------------------------------------===//
// Candidates
//===----------------------------------------------------------------------===//

std::string SM90Candidate::label() const {
  std::string s = llvm::formatv("{0}x{1} s{2}", blockM, blockN, stages).str();
  if (streamK)
    s += " streamk";
  if (clusterM * clusterN > 1)
    s += llvm::formatv(" cluster {0}x{1}", clusterM, clusterN).str();
  if (swap)
    s += " swap";
  if (rowBlocks > 1)
    s += blockM == 64 * rowBlocks ? " 1wg"
                                  : llvm::formatv(" r{0}", rowBlocks).str();
  return s;
}

const std::vector<SM90Tile> &mlir::tcgen::model::sm90Tiles() {
  // H100, f16 in, f32 accumulate, whole waves: 128 x 192 reaches ~0.95 of
  // 128 x 256, 64 x 256 ~0.9, 64 x 128 (one consumer warpgroup) ~0.78; the
  // 64-wide tiles ~0.54 (128 x 64) and ~0.49 (64 x 64). 128 x 128 (two
  // consumers on 128-wide tiles) measured ~0.73 at 4096^3: it needs 4/3
  // the L2 -> SM bytes per flop of 128 x 256 and never won, so it is not
  // searched. 128 x 160 (N not a multiple of 64: a B [k][n] tile loads its
  // last 64-wide box whole) ran 5-6 % faster than 128 x 192 at 1536^3 (120
  // tiles against 96 on 132 SMs), ~0.85 of 128 x 256's rate.
  // 192 x 128 (three consumer warpgroups, 512 threads) ran at 0.92-0.94
  // of 128 x 256's rate (2560^3-8192^3, corrected for wave quantization)
  // and fills 128 of 132 SMs at M = 3072, N = 1024 (0.97 of cuBLAS against
  // 0.84 for 128 x 256 at K = 4096); 192 x 192 0.89-0.95; 192 x 96 and
  // 192 x 160 (a B [k][n] tile loads 128 and 192 columns) lost everywhere
  // and are not searched.
  static const std::vector<SM90Tile> tiles = {
      {128, 256, 1.0},  {128, 192, 0.95}, {192, 128, 0.93},
      {192, 192, 0.92}, {64, 256, 0.9},   {128, 160, 0.85},
      {64, 128, 0.78},  {128, 64, 0.54},  {64, 64, 0.49}};
  return tiles;
}

/// The ring of a swapped 192 x 96 tile: 5 stages (6 fit with an f32 C
/// stored from registers, and ran 4 % slower at 1536^3 on H100).
static constexpr int64_t kSwapTileStages = 5;

const std::vector<SM90Tile> &mlir::tcgen::model::sm90SwapTiles() {
  // 192 x 96 on 96 columns of the swapped problem, cuBLAS's tile at
  // 1536^3, computed as cuBLAS does by one consumer warpgroup (three m64n96
  // accumulators): with three warpgroups it took 17.8-17.9 us at 1536^3
  // with an f32 C in two tuner runs (H100; throughput 0.85 predicted that);
  // with one, 5 stages and TMA stores for a 16-bit C, 7 % less there and
  // 12 % less per k-tile (1536 x 1536 x 3072), which this throughput
  // predicts. The unswapped 128 x 160 took 18.5-18.6 us (predicted 18.9).
  static const std::vector<SM90Tile> tiles = {{192, 96, 0.93, 3}};
  return tiles;
}

static double tileThroughput(int64_t m, int64_t n, bool swap) {
  if (swap)
    for (const SM90Tile &t : sm90SwapTiles())
      if (t.m == m && t.n == n)
        return t.throughput;
  for (const SM90Tile &t : sm90Tiles())
    if (t.m == m && t.n == n)
      return t.throughput;
  // A tile outside the search space (a measured record of another tile):
  // 128 x 128 measured ~0.73 at 4096^3; others by their arithmetic
  // intensity (flops per L2 -> SM byte, m n / (m + n)) relative to
  // 128 x 256's, which is what separates the measured tiles most.
  if (m == 128 && n == 128)
    return 0.73;
  double intensity = double(m * n) / double(m + n);
  return std::clamp(intensity / (128.0 * 256.0 / 384.0), 0.3, 1.0);
}

bool mlir::tcgen::model::isLegal(const SM90Candidate &c, const Problem &p) {
  if (!sm90RowsFit(c.blockM, c.blockN) || c.blockN % 16 != 0 || c.blockN < 64 ||
      c.blockN > 256 || c.blockK != 64)
    return false;
  if (c.streamK && c.blockN % 64 != 0)
    return false;
  // Three consumers only for problems that fill their tile: the ranking's
  // tie-break towards larger tiles must not pick a 192-row tile half empty.
  if (c.blockM == 192 && !c.swap && (p.m < 192 || p.n < c.blockN))
    return false;
  if (c.stages < 2 ||
      sm90().getSharedMemoryBytes(c.blockM, c.blockN, c.blockK, c.stages,
                                  p.tmaStore, p.bKMajor, c.rowBlocks) >
          sm90().getMaxSharedMemoryBytes())
    return false;
  if (c.clusterM * c.clusterN > 2)
    return false;
  // A cluster shares the MN-major operand tile in two halves of 64-wide
  // boxes (Config.cpp, verifySM90ConfigFits).
  if (c.clusterM == 2 && !p.bKMajor && c.blockN % 128 != 0)
    return false;
  if (c.clusterN == 2 && p.aMNMajor && c.blockM % 128 != 0)
    return false;
  // Stream-K with clusters is not generated together in the search.
  if (c.streamK && c.clusterM * c.clusterN > 1)
    return false;
  if (p.dual && (c.streamK || c.clusterM * c.clusterN > 1 || c.swap ||
                 c.blockN < 128 || c.blockN % (p.bKMajor ? 16 : 128) != 0))
    return false;
  return true;
}

void mlir::tcgen::model::predict(SM90Candidate &c, const Problem &p,
                                 const DeviceConstants &d) {
  int64_t tm = ceilDiv(ceilDiv(p.m, c.blockM), c.clusterM) * c.clusterM;
  int64_t tn = ceilDiv(ceilDiv(p.n, c.blockN), c.clusterN) * c.clusterN;
  c.tiles = p.batch * tm * tn;
  c.kTiles = ceilDiv(p.k, c.blockK);
  c.useful = double(p.m) * double(p.n) /
             (double(tm * c.blockM) * double(tn * c.blockN));
  c.tileThroughput = tileThroughput(c.blockM, c.blockN, c.swap);
  int64_t sms = std::max<int64_t>(d.sms, 1);
  int64_t waves = ceilDiv(c.tiles, sms);
  c.waveEfficiency = double(c.tiles) / double(waves * sms);

  // One k step: the tile's flops at its per-SM rate, but never faster
  // than the ring allows: S stages in flight per load round trip.
  double flopsPerKTile = 2.0 * double(c.blockM * c.blockN * c.blockK);
  double computeUs = flopsPerKTile / (d.smTflops * 1e6 * c.tileThroughput);
  double latencyUs = d.roundTripUs / double(c.stages);
  c.kTileUs = std::max(computeUs, latencyUs);
  // The epilogue's exposed part grows with the bytes of C per tile.
  double epilogueTileUs = d.tileUs * double(c.blockM * c.blockN * p.outBytes) /
                          double(128 * 256 * 4);
  if (!c.streamK) {
    c.mainLoopUs = double(waves * c.kTiles) * c.kTileUs;
    c.epilogueUs = double(waves) * epilogueTileUs;
  } else {
    // The k steps of all tiles, evenly over the SMs. The tiles of the
    // last partial wave are split, with one full wave more where the
    // partial one is less than half (all tiles, if there are fewer than
    // two waves: the kernel's partition, Schedule.cpp); the block
    // that finishes a split tile reads the partial accumulators of the
    // others one after the other: the fix-up grows with the contributors
    // per tile.
    // (Nothing split, R = 0: the fix-up counted as for one wave of whole
    // ranges, its floor.)
    // (Few tiles launch fewer blocks than SMs: getStreamKBlocks.)
    int64_t blocks = sm90().getStreamKBlocks(c.tiles, sms, c.swap);
    int64_t perSM = ceilDiv(c.tiles * c.kTiles, blocks);
    int64_t splitTiles = sm90().getStreamKSplitTiles(c.tiles, blocks);
    if (splitTiles == 0)
      splitTiles = std::min(c.tiles, blocks);
    double unitsPerSM = double(splitTiles * c.kTiles) / double(blocks);
    int64_t contributors = int64_t(
        std::ceil(double(c.kTiles) / std::max(1.0, std::floor(unitsPerSM))));
    c.mainLoopUs = double(perSM) * c.kTileUs * d.streamKSlowdown;
    c.epilogueUs = double(waves) * epilogueTileUs +
                   d.streamKFixupUs *
                       double(std::max<int64_t>(1, contributors - 1));
  }
  // The DRAM floor: A and B read once, C written once (the raster order's
  // L2 reuse; operands far beyond L2 read more, which the calibration of
  // the main-loop rate absorbs).
  double bytes =
      double(p.batch) * (double(p.m + p.n) * double(p.k) * double(p.inBytes) +
                         double(p.m) * double(p.n) * double(p.outBytes));
  c.memoryUs = bytes / (d.dramTBs * 1e6);
  // Loads overlap the tensor cores, but not perfectly: the larger of the
  // two dominates, the smaller still shows (a cubic soft maximum: 1 % at
  // 4096^3, 5 % when the busy time is half the DRAM floor).
  double busyUs = c.mainLoopUs + c.epilogueUs;
  c.totalUs = d.fixedUs + std::cbrt(busyUs * busyUs * busyUs +
                                    c.memoryUs * c.memoryUs * c.memoryUs);
  if (c.memoryUs > busyUs)
    c.bound = "memory";
  else
    c.bound = latencyUs > computeUs ? "latency" : "compute";
}

/// The L2 of an H100 (50 MB).
static constexpr double kL2Bytes = 50e6;

/// The k-slices of A and B that blocks out of step in k may keep apart in
/// L2 (50 MB on an H100) during stream-K's split tiles.
static constexpr double kStreamKSpreadBytes = 30e6;

/// The bytes of A and B between the first and the last k-tile that the
/// blocks of stream-K's split tiles read at once: the split tiles (the
/// kernel's partition: all under two waves, else R or R + P) are
/// consecutive in the raster order (groups of 8 tile rows), so they span
/// a few tile rows and columns, whose A and B rows each read 64 elements
/// a k-tile; a range of r > 1 tiles leaves the blocks up to (r - 1) K
/// k-tiles apart. Measured (H100, f16): 2048 x 11008 x 4096 (~11 MB)
/// and 5120^3 (~4 MB) gained 4-10 % over whole tiles; 2048 x 5120 x
/// 13824 (128x256: ~83 MB; 128x192: ~38 MB), 1024 x 5120 x 8192 (~42
/// MB), 2048 x 5120 x 8192 (~49 MB), 512 x 28672 x 8192 (~78 MB) and
/// 1024 x 14336^2 (~77 MB) lost 14-42 % to other tiles.
static double streamKSpreadBytes(const SM90Candidate &c, const Problem &p,
                                 const DeviceConstants &d) {
  int64_t sms =
      sm90().getStreamKBlocks(c.tiles, std::max<int64_t>(d.sms, 1), c.swap);
  int64_t split = sm90().getStreamKSplitTiles(c.tiles, sms);
  double range = double(split) / double(sms);
  if (range <= 1.0)
    return 0.0;
  int64_t tilesM = ceilDiv(p.m, c.blockM), tilesN = ceilDiv(p.n, c.blockN);
  int64_t group = std::min<int64_t>(8, tilesM);
  int64_t groups = ceilDiv(split, group * tilesN);
  int64_t rows = std::min(tilesM, groups * group);
  int64_t cols = std::min(tilesN, ceilDiv(split, group));
  double bytesPerKTile =
      double(rows * c.blockM + cols * c.blockN) * 64.0 * double(p.inBytes);
  return (range - 1.0) * double(c.kTiles) * bytesPerKTile;
}

/// A dual GEMM of one row tile (M <= 64: decode) streams both weights once
/// and computes little: its time is how fast the SMs that hold a tile read
/// them, and one SM reads about 42 GB/s at most (H200: the busiest SM of
/// 64 x 256 tiles over llama2-7b's 11008 columns, 86 tiles, streamed 2.6 MB
/// in 62 us; 172 tiles of 64 x 128, two a SM, 3.1 MB in 73 us). So the
/// tile that fills the SMs in the fewest waves, with the fewest idle in
/// the last, wins: 64 x 176 (126 tiles) took 56-58 us at 1-32 tokens
/// against the 256-wide tile's 62 (docs/log/2026-11-29-dual-gemm.md).
/// Returns the 64-row tiles of 128 to 256 wgmma columns (64 to 128 output
/// columns in steps of 8) in that order, wider first among equals.
static std::vector<SM90Candidate> rankDualDecode(const Problem &p,
                                                 const DeviceConstants &d) {
  std::vector<SM90Candidate> all;
  for (int64_t blockN = 256; blockN >= 128; blockN -= 16) {
    SM90Candidate c;
    c.blockM = 64;
    c.blockN = blockN;
    c.stages = sm90().getStagesThatFit(64, blockN, 64, p.tmaStore, p.bKMajor);
    if (!isLegal(c, p))
      continue;
    predict(c, p, d);
    all.push_back(c);
  }
  const int64_t sms = std::max<int64_t>(d.sms, 1);
  auto waves = [&](const SM90Candidate &c) { return ceilDiv(c.tiles, sms); };
  std::stable_sort(all.begin(), all.end(),
                   [&](const SM90Candidate &a, const SM90Candidate &b) {
                     if (waves(a) != waves(b))
                       return waves(a) < waves(b);
                     return waves(a) * sms - a.tiles < waves(b) * sms - b.tiles;
                   });
  return all;
}

std::vector<SM90Candidate>
mlir::tcgen::model::rankSM90(const Problem &p, const DeviceConstants &d) {
  if (p.dual && !p.dynamic && p.m <= 64) {
    std::vector<SM90Candidate> decode = rankDualDecode(p, d);
    if (!decode.empty())
      return decode;
  }
  std::vector<SM90Candidate> all;
  const int64_t clusters[3][2] = {{1, 1}, {2, 1}, {1, 2}};
  // B read from rows that straddle 128-byte lines (bSlowRows): the tiles
  // of 64 rows ran at 0.27-0.5 of their rate (1000^3-2400^3, H100), and
  // 128 x 128, not searched otherwise, was the fastest at 1000^3 and
  // 1400^3 (docs/log/NOTES.md). The same for A and the tiles 64 columns wide.
  // A cluster that shares that operand (2x1 shares B, 1x2 A) reads it
  // half as often per block: there the narrow tiles stay (1000^3: 64x128
  // in 2x1 clusters 0.93 of cuBLAS against 0.87 for 128x128, once the
  // clusters lost their exit barrier; docs/log/NOTES.md).
  std::vector<SM90Tile> tiles = sm90Tiles();
  bool narrowRows = p.bSlowRows && p.m >= 128;
  bool narrowCols = p.aSlowRows && p.n >= 128;
  if (narrowRows || narrowCols)
    tiles.push_back({128, 128, tileThroughput(128, 128, /*swap=*/false)});
  const bool operandsExceedL2 =
      double(p.batch) * double(p.m * p.k + p.k * p.n) * double(p.inBytes) >
      kL2Bytes;
  // The search order, simplest first: no stream-K, no cluster, then the
  // tiles by per-SM throughput.
  for (bool streamK : {false, true})
    for (const auto &cl : clusters)
      for (const SM90Tile &t : tiles) {
        SM90Candidate c;
        c.blockM = t.m;
        c.blockN = t.n;
        c.stages = sm90().getStagesThatFit(t.m, t.n, 64, p.tmaStore, p.bKMajor);
        c.streamK = streamK;
        c.clusterM = cl[0];
        c.clusterN = cl[1];
        // Clusters share the larger operand tile: B (2x1) for wide tiles,
        // A (1x2) for tall ones; the other shape is not searched.
        if ((cl[0] == 2 && t.n < t.m) || (cl[1] == 2 && t.m <= t.n))
          continue;
        if ((narrowRows && t.m == 64 && cl[0] != 2) ||
            (narrowCols && t.n == 64 && cl[1] != 2))
          continue;
        if (!isLegal(c, p))
          continue;
        predict(c, p, d);
        // 192-row tiles in one wave: one consumer warpgroup over the three
        // row blocks, with the ring its two store buffers leave room for
        // (5 stages where three warpgroups keep 4). Its main loop ran
        // faster and its epilogue, three row blocks one after the other,
        // slower: ahead where every tile runs at once (3072 x 1024 x 1024
        // +1-2.5 %, x 4096 +0.7-2 %, a batch of two 1536 x 1024 x 512
        // +4.5 %), behind with several waves (4096^3 0.87 of cuBLAS
        // against 1.00) and where operand rows straddle 128-byte lines
        // (3000 x 1000 x 1000 -1-2 %: the loads, not the wgmmas, bound it;
        // H100, docs/log/NOTES.md).
        if (c.blockM == 192 && c.tiles <= d.sms && !c.streamK &&
            c.clusterM * c.clusterN == 1 && !p.aSlowRows && !p.bSlowRows &&
            c.blockM / 64 * c.blockN / 2 <=
                sm90().getMaxAccumulatorRegisters()) {
          c.rowBlocks = c.blockM / 64;
          c.stages = sm90().getStagesThatFit(t.m, t.n, 64, p.tmaStore,
                                             p.bKMajor, 8, c.rowBlocks);
          predict(c, p, d);
        }
        // The raster group whose wave spans the fewest A and B bytes, where
        // A and B do not fit in L2 together (else they are read from DRAM
        // once whatever the order: 3072^3 with 128x192 tiles ran 0.4-0.7 %
        // slower in groups of 16), and not with stream-K, whose split-tile
        // spread assumes groups of 8.
        if (!c.streamK && operandsExceedL2)
          c.raster = sm90().getRasterGroup(
              ceilDiv(ceilDiv(p.m, c.blockM), c.clusterM),
              ceilDiv(ceilDiv(p.n, c.blockN), c.clusterN),
              c.clusterM * c.blockM, c.clusterN * c.blockN,
              std::max<int64_t>(d.sms, 1) / (c.clusterM * c.clusterN));
        // Stream-K evens out the last wave of a problem with several waves.
        // With fewer tiles than two waves, smaller tiles do that without a
        // fix-up: stream-K never measured fastest with fewer than one wave
        // of tiles (its predicted gain there was a 10-40 % loss), and at
        // 2560^3 (1.5 waves) a 6 % predicted gain measured a 7 % loss
        // (docs/log/PERFORMANCE-history.md, "The tile-size model").
        // Except where the tiles fill at most half of the SMs over 64
        // k-tiles or more: each tile's k-tiles then spread over up to four
        // blocks (getStreamKBlocks), whose fix-up costs less than the idle
        // SMs (H200, bf16, against whole tiles: 8 problems of 4 to 36
        // tiles, 1.04-1.95x, geomean 1.52; 44 to 66 tiles over 96 k-tiles
        // or more, 1.02-1.45x: docs/log/2026-11-28-random-rerun.md).
        // There whole tiles (with or without a cluster) are not kept: the
        // model's fix-up cost, fitted on full waves, ranks them first where
        // stream-K measured faster.
        bool halfWaveLongK = c.tiles * 2 <= d.sms && c.kTiles >= 64;
        if (c.streamK && c.tiles < 2 * d.sms && !halfWaveLongK)
          continue;
        if (!c.streamK && halfWaveLongK && c.blockN % 64 == 0 && !p.dynamic)
          continue;
        // A range of more than one tile holds a head, a whole tile and a
        // tail: the blocks then run out of step in k by up to the range's
        // overhang, and the k-slices of A and B that the split tiles read
        // in between must stay in L2. Beyond that they stream from DRAM
        // (docs/log/NOTES.md, "Stream-K: which k-tiles run at once").
        if (c.streamK && streamKSpreadBytes(c, p, d) > kStreamKSpreadBytes)
          continue;
        // A tile whose width is not a multiple of 64 loads B [k][n] in
        // whole 64-wide boxes: as many bytes per k-tile as the next wider
        // tile. It won where all its tiles run at once (1536^3: 120 tiles
        // of 128x160, 0.87 of cuBLAS against 0.82 for 96 of 128x192) and
        // lost with more than one wave (2049^3 by 3-6 %, 2560^3 by 5 %),
        // where the L2 traffic of the extra tiles tells.
        if (c.blockN % 64 != 0 && c.tiles > d.sms)
          continue;
        all.push_back(c);
      }
  // Fastest first; within 1 % of the fastest, the tiles that pad C least
  // (128 x 384 x 384 x 64 with f32 C: 128x192 1.03 of cuBLAS against 0.96
  // for 128x256, whose second column of tiles is half outside C), then the
  // search order (simpler first) decide.
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return all[a].totalUs < all[b].totalUs;
  });
  std::vector<SM90Candidate> ranked;
  if (order.empty())
    return ranked;
  double best = all[order.front()].totalUs;
  size_t winner = order.front();
  bool found = false;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].totalUs <= best * 1.01 &&
        (!found || all[i].useful > all[winner].useful + 1e-9)) {
      winner = i;
      found = true;
    }
  ranked.push_back(all[winner]);
  for (size_t i : order)
    if (i != winner)
      ranked.push_back(all[i]);
  return ranked;
}

Problem mlir::tcgen::model::swappedProblem(const Problem &p) {
  Problem s = p;
  s.m = p.n;
  s.n = p.m;
  s.aMNMajor = !p.bKMajor;
  s.bKMajor = !p.aMNMajor;
  s.aSlowRows = p.bSlowRows;
  s.bSlowRows = p.aSlowRows;
  // A 16-bit C leaves through transposed TMA stores; an f32 C from
  // registers.
  s.tmaStore = p.outBytes == 2;
  return s;
}

std::vector<SM90Candidate>
mlir::tcgen::model::rankSM90Swapped(const Problem &swapped,
                                    const DeviceConstants &d) {
  std::vector<SM90Candidate> all;
  for (const SM90Tile &t : sm90SwapTiles()) {
    SM90Candidate c;
    c.swap = true;
    c.blockM = t.m;
    c.blockN = t.n;
    c.rowBlocks = t.rowBlocks;
    c.transposedStore = swapped.tmaStore;
    c.stages =
        sm90().getStagesThatFit(t.m, t.n, 64, swapped.tmaStore, swapped.bKMajor,
                                kSwapTileStages, t.rowBlocks);
    if (!isLegal(c, swapped))
      continue;
    predict(c, swapped, d);
    all.push_back(c);
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const SM90Candidate &a, const SM90Candidate &b) {
                     return a.totalUs < b.totalUs;
                   });
  return all;
}

std::string
mlir::tcgen::model::explainWinner(const std::vector<SM90Candidate> &ranked,
                                  const Problem &p) {
  if (ranked.empty())
    return "no candidate fits";
  const SM90Candidate &w = ranked.front();
  std::string head =
      llvm::formatv("{0}: {1} tiles, {2:P0} of the SM slots busy, {3}-bound, "
                    "{4:F0} TFLOP/s predicted",
                    w.label(), w.tiles, w.waveEfficiency, w.bound,
                    w.tflops(p))
          .str();
  if (ranked.size() < 2)
    return head;
  // A dual GEMM of one row tile (rankDualDecode): ranked by its waves.
  if (p.dual && !p.dynamic && p.m <= 64) {
    return head + "; a dual GEMM of one row tile waits on its weights, and "
                  "one SM streams about 42 GB/s: the 64-row tile that fills "
                  "the SMs in the fewest waves, with the fewest idle in the "
                  "last, reads them fastest";
  }
  const SM90Candidate &r = ranked[1];
  double gap = r.totalUs / w.totalUs - 1.0;
  std::string why;
  if (r.totalUs < w.totalUs * 1.01 && w.useful > r.useful + 1e-9)
    why = llvm::formatv("within 1 % of it and its tiles pad C less ({0:P0} "
                        "of their area inside C against {1:P0})",
                        w.useful, r.useful)
              .str();
  else if (r.totalUs < w.totalUs * 1.01)
    why = "within 1 % of it and simpler (larger tile, no stream-K, no "
          "cluster)";
  else if (w.bound == "memory" && r.bound == "memory")
    why = "both wait on DRAM";
  else if (w.streamK != r.streamK)
    why = w.streamK ? "splitting K over the SMs evens out the last wave "
                      "more than the fix-up costs"
                    : "stream-K's fix-up and lost L2 reuse cost more than "
                      "the last wave wastes";
  else if (std::abs(w.waveEfficiency - r.waveEfficiency) > 0.05)
    why = llvm::formatv("its tiles fill the SMs better ({0:P0} against "
                        "{1:P0})",
                        w.waveEfficiency, r.waveEfficiency)
              .str();
  else if (w.tileThroughput > r.tileThroughput)
    why = "its tile computes faster per SM (fewer L2 bytes per flop)";
  else
    why = llvm::formatv("fewer k steps per SM ({0:F1} us against {1:F1} "
                        "us of main loop)",
                        w.mainLoopUs, r.mainLoopUs)
              .str();
  return head +
         llvm::formatv("; beats {0} ({1:P1} slower): {2}", r.label(), gap, why)
             .str();
}

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

/// Solves the n x n system `a x = b` (row-major) by Gaussian elimination
/// with partial pivoting. Returns false if it is singular.
static bool solve(std::vector<double> a, std::vector<double> b,
                  std::vector<double> &x) {
  size_t n = b.size();
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[pivot * n + c]))
        pivot = r;
    if (std::abs(a[pivot * n + c]) < 1e-300)
      return false;
    for (size_t k = 0; k < n; ++k)
      std::swap(a[c * n + k], a[pivot * n + k]);
    std::swap(b[c], b[pivot]);
    for (size_t r = c + 1; r < n; ++r) {
      double f = a[r * n + c] / a[c * n + c];
      for (size_t k = c; k < n; ++k)
        a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  x.assign(n, 0.0);
  for (size_t r = n; r-- > 0;) {
    double s = b[r];
    for (size_t k = r + 1; k < n; ++k)
      s -= a[r * n + k] * x[k];
    x[r] = s / a[r * n + r];
  }
  return true;
}

/// The constants calibrate() fits (all but the SM count).
static std::vector<double *> fittedConstants(DeviceConstants &d) {
  return {&d.smTflops,    &d.fixedUs,        &d.tileUs,
          &d.dramTBs,     &d.roundTripUs,    &d.streamKFixupUs,
          &d.streamKSlowdown};
}

std::optional<DeviceConstants>
mlir::tcgen::model::calibrate(const std::vector<Measurement> &points,
                              const DeviceConstants &start,
                              std::string &error) {
  std::vector<const Measurement *> used;
  for (const Measurement &pt : points)
    if (pt.measuredUs > 0 && std::isfinite(pt.measuredUs))
      used.push_back(&pt);
  if (used.size() < 8) {
    error = llvm::formatv("calibration needs at least 8 measured "
                          "candidates, got {0}",
                          used.size())
                .str();
    return std::nullopt;
  }
  // Seven constants: the candidates of one or two problems leave most of
  // them free (one problem's 11 candidates once fitted a DRAM rate of
  // 3e14 TB/s).
  std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> problems;
  for (const Measurement *pt : used)
    problems.insert(
        {pt->problem.batch, pt->problem.m, pt->problem.n, pt->problem.k});
  if (problems.size() < 3) {
    error = llvm::formatv("calibration needs measured candidates of at "
                          "least 3 problems, got {0}",
                          problems.size())
                .str();
    return std::nullopt;
  }
  // Levenberg-Marquardt on the relative errors (predicted - measured) /
  // measured, over the logarithms of the constants (which keeps them
  // positive), from `start`.
  DeviceConstants d = start;
  size_t n = fittedConstants(d).size();
  auto withLogs = [&](const std::vector<double> &logs) {
    DeviceConstants k = start;
    std::vector<double *> f = fittedConstants(k);
    for (size_t i = 0; i < n; ++i)
      *f[i] = std::exp(logs[i]);
    // A slowdown below 1 would make stream-K faster than its work.
    k.streamKSlowdown = std::max(k.streamKSlowdown, 1.0);
    return k;
  };
  auto residuals = [&](const DeviceConstants &k, std::vector<double> &r) {
    r.clear();
    double sum = 0;
    for (const Measurement *pt : used) {
      SM90Candidate c = pt->candidate;
      predict(c, pt->problem, k);
      r.push_back((c.totalUs - pt->measuredUs) / pt->measuredUs);
      sum += r.back() * r.back();
    }
    return sum;
  };
  std::vector<double> logs(n);
  {
    std::vector<double *> f = fittedConstants(d);
    for (size_t i = 0; i < n; ++i)
      logs[i] = std::log(*f[i]);
  }
  std::vector<double> r, rPlus;
  double cost = residuals(withLogs(logs), r), lambda = 1e-3;
  for (int iter = 0; iter < 200; ++iter) {
    std::vector<std::vector<double>> jac(n);
    for (size_t i = 0; i < n; ++i) {
      std::vector<double> plus = logs;
      plus[i] += 1e-6;
      residuals(withLogs(plus), rPlus);
      for (size_t p = 0; p < r.size(); ++p)
        jac[i].push_back((rPlus[p] - r[p]) / 1e-6);
    }
    std::vector<double> jtj(n * n, 0.0), jtr(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j)
        for (size_t p = 0; p < r.size(); ++p)
          jtj[i * n + j] += jac[i][p] * jac[j][p];
      for (size_t p = 0; p < r.size(); ++p)
        jtr[i] -= jac[i][p] * r[p];
    }
    bool improved = false;
    while (lambda < 1e10) {
      std::vector<double> damped = jtj, step;
      for (size_t i = 0; i < n; ++i)
        damped[i * n + i] += lambda * (jtj[i * n + i] + 1e-9);
      if (!solve(damped, jtr, step)) {
        lambda *= 10;
        continue;
      }
      std::vector<double> trial = logs;
      for (size_t i = 0; i < n; ++i)
        trial[i] += step[i];
      std::vector<double> rTrial;
      double trialCost = residuals(withLogs(trial), rTrial);
      if (trialCost < cost) {
        improved = cost - trialCost > 1e-12 * cost;
        logs = trial;
        r = rTrial;
        cost = trialCost;
        lambda = std::max(lambda / 10, 1e-9);
        break;
      }
      lambda *= 10;
    }
    if (!improved)
      break;
  }
  return withLogs(logs);
}

SM80Tile model::chooseSM80Tile(int64_t m, int64_t n, int64_t k, bool splitK,
                               int64_t sms) {
  SM80Tile large = {{128, 128, 32}, {64, 64, 32}};
  auto tiles = [&](int64_t t) { return ((m + t - 1) / t) * ((n + t - 1) / t); };
  bool divides128 = m % 128 == 0 && n % 128 == 0;
  if ((divides128 && 4 * tiles(128) >= 3 * sms) || m % 64 != 0 || n % 64 != 0)
    return large;
  int64_t splits = !splitK ? 1 : tiles(64) < sms ? 4 : tiles(64) < 4 * sms ? 2 : 1;
  while (splits > 1 && k % (32 * splits) != 0)
    splits /= 2;
  return {{64, 64, 32 * splits}, {32, 32, 32}};
}
