//===- Model.h - The tile-size model ----------------------------*- C++ -*-===//
//
// The analytical model that ranks the sm90 back end's configurations for a
// problem and predicts their time: seed 000's capacity constraints (shared
// memory per stage x stages within the budget, threads per block, the wgmma
// shape) extended with what decides speed on Hopper: the per-SM throughput
// of each block tile (its L2 traffic per flop and register budget), wave
// quantization over the persistent blocks, edge tiles, a per-tile epilogue
// cost, the latency a ring of S stages can hide, the DRAM floor, stream-K's
// fix-up and clusters. Its few device constants are calibrated from a
// tuning run (tcgen tune --import) and kept per device in the tuning cache.
// docs/log/DESIGN-history.md ("The tile-size model") gives each term and its
// evidence.
//
// Nothing here needs MLIR: the model is plain arithmetic over the problem.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_CONFIG_MODEL_H
#define TCGEN_CONFIG_MODEL_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tcgen::model {

/// `a` / `b` rounded up (tiles of `b` covering `a`).
constexpr int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The problem as the model sees it.
struct Problem {
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 1;
  int64_t inBytes = 2;  ///< bytes per A and B element
  int64_t outBytes = 4; ///< bytes per C element
  bool aMNMajor = false; ///< A stored [k][m]
  bool bKMajor = false;  ///< B stored [n][k]
  /// C can be written by TMA stores (rows a multiple of 16 bytes apart).
  bool tmaStore = true;
  /// B's rows, as the kernel reads them without a pack, are 16-byte but not
  /// 128-byte multiples apart: each row of a TMA box is two L2 requests,
  /// and the tiles of 64 rows, which read B twice per flop as often as
  /// those of 128, become request-bound (H100, docs/log/NOTES.md).
  bool bSlowRows = false;
  /// The same for A: the tiles 64 columns wide read A twice per flop as
  /// often as those of 128.
  bool aSlowRows = false;
  /// A size known only at run time (planned as 4096): data-parallel tiles
  /// only (stream-K's partition is planned for one tile count).
  bool dynamic = false;
  /// A dual GEMM (two products sharing A, combined in the epilogue), planned
  /// as one product of twice N (`n` is already doubled): each tile's B is
  /// B's and B2's halves, so tile N is at least 128 (a whole store chunk
  /// per half) and even in 8-column groups (in 64-wide boxes for an N-major
  /// B); no cluster or stream-K.
  bool dual = false;
  double flops() const {
    return 2.0 * double(batch) * double(m) * double(n) * double(k);
  }
};

/// The device constants of the model. Defaults: NVIDIA H100 80GB HBM3 (132
/// SMs, power-capped), from the measurements in
/// docs/log/PERFORMANCE-history.md.
struct DeviceConstants {
  int64_t sms = 132;
  /// Dense f16 TFLOP/s one SM sustains on the best tile (128 x 256) in the
  /// main loop.
  double smTflops = 5.85;
  /// Once per launch: the launch itself, the first ring fill, the last
  /// tile's epilogue drain.
  double fixedUs = 5.0;
  /// Per tile, scaled by the tile's bytes of C over those of a 128 x 256
  /// f32 tile: the part of the epilogue that does not overlap the next
  /// tile's main loop.
  double tileUs = 0.6;
  /// DRAM bandwidth the kernels sustain, TB/s.
  double dramTBs = 2.4;
  /// The time one stage's loads take under load: a ring of S stages keeps a
  /// block from running faster than S k-tiles per round trip.
  double roundTripUs = 1.75;
  /// Stream-K: the fix-up per contributor a split tile waits for (partials
  /// through L2, flags) and the slowdown of the main loop (blocks starting
  /// mid-tile break the raster's L2 reuse).
  double streamKFixupUs = 5.0;
  double streamKSlowdown = 1.10;

  /// "sms=132 sm_tflops=5.85 ..." (parse() reads it back).
  std::string str() const;
  /// Reads str()'s form; keys not given keep their defaults. Returns
  /// std::nullopt and sets `error` on an unknown key or a bad value.
  static std::optional<DeviceConstants> parse(const std::string &text,
                                              std::string &error);
};

/// One sm90 configuration and its predicted time.
struct SM90Candidate {
  int64_t blockM = 128, blockN = 256, blockK = 64;
  int64_t stages = 4;
  bool streamK = false;
  int64_t clusterM = 1, clusterN = 1;
  int64_t raster = 8;
  /// C^T = B^T A^T (config `swap`): the tile is in the swapped problem's
  /// terms, and the model does not predict it (the tuner times it).
  bool swap = false;
  /// 64-row blocks per consumer warpgroup (one warpgroup on the whole
  /// tile where this is blockM / 64).
  int64_t rowBlocks = 1;
  /// Swapped: a 16-bit C through transposed TMA stores (else C is stored
  /// from registers).
  bool transposedStore = false;

  // The model's terms.
  int64_t tiles = 0;          ///< block tiles, edge tiles and batch included
  int64_t kTiles = 0;         ///< 64-wide k steps per tile
  double waveEfficiency = 1;  ///< tiles / (waves * SMs)
  double useful = 1;          ///< fraction of the tiles' area inside C
  double tileThroughput = 1;  ///< per-SM rate relative to 128 x 256
  double kTileUs = 0;         ///< one k step of one tile, at that rate
  double mainLoopUs = 0;      ///< the busiest SM's main loops
  double epilogueUs = 0;      ///< the busiest SM's per-tile epilogues
  double memoryUs = 0;        ///< the DRAM floor
  double totalUs = 0;         ///< the prediction
  std::string bound;          ///< "compute", "latency" or "memory"

  /// Predicted TFLOP/s for `p`.
  double tflops(const Problem &p) const { return p.flops() / totalUs * 1e-6; }
  /// "128x256 s4", with " streamk", " cluster 2x1", " swap" and " 1wg"
  /// (one consumer warpgroup of several row blocks) where set.
  std::string label() const;
};

/// A block tile the sm90 model considers, with its per-SM throughput
/// relative to 128 x 256 when every SM is busy (measured on H100 at sizes
/// that fill whole waves; docs/log/PERFORMANCE-history.md "Block tiles per
/// shape").
struct SM90Tile {
  int64_t m, n;
  double throughput;
  /// 64-row blocks per consumer warpgroup (config warp tile M / 64).
  int64_t rowBlocks = 1;
};

/// The block tiles, best per-SM throughput first.
const std::vector<SM90Tile> &sm90Tiles();

/// The swapped kernels' tiles the model predicts (C^T = B^T A^T, the tile
/// in the swapped problem's terms), with their throughput as for
/// sm90Tiles and their row blocks per consumer warpgroup.
const std::vector<SM90Tile> &sm90SwapTiles();

/// The problem C^T = B^T A^T computes for `p`: M and N exchanged, A' =
/// B^T (MN-major where B is [k][n]), B' = A^T (K-major where A is [m][k]),
/// a 16-bit C through transposed TMA stores (`tmaStore`), an f32 C from
/// registers.
Problem swappedProblem(const Problem &p);

/// The swapped candidates of sm90SwapTiles() for `swapped` (a
/// swappedProblem), predicted and ranked, fastest first.
std::vector<SM90Candidate> rankSM90Swapped(const Problem &swapped,
                                           const DeviceConstants &d);

/// Whether the sm90 back end generates `c` for `p` (the checks of the
/// configuration verifier the model must respect: cluster halves of the
/// shared MN-major tile, shared memory, stream-K without clusters).
bool isLegal(const SM90Candidate &c, const Problem &p);

/// Fills in the terms and the predicted time of `c` for `p`.
void predict(SM90Candidate &c, const Problem &p, const DeviceConstants &d);

/// Every legal candidate of the search space (the block tiles of
/// sm90Tiles(), with and without stream-K (with stream-K only where the
/// tiles fill at least two waves), with and without a 2-block cluster
/// sharing the larger operand tile; the deepest ring that fits),
/// predicted and ranked, fastest first. Candidates within 1 % of the
/// fastest are ordered by the search space's order (larger tiles, no
/// stream-K, no cluster first), so that a near-tie goes to the simpler
/// configuration.
std::vector<SM90Candidate> rankSM90(const Problem &p,
                                    const DeviceConstants &d);

/// One line on why the first candidate of `ranked` beats the second: the
/// term that differs most between them.
std::string explainWinner(const std::vector<SM90Candidate> &ranked,
                          const Problem &p);

/// A measured point of a tuning run: the candidate's terms (as predicted
/// with any constants) and its measured time.
struct Measurement {
  SM90Candidate candidate;
  Problem problem;
  double measuredUs = 0;
};

/// Fits the constants (all but the SM count) to `points` from `start`:
/// Levenberg-Marquardt on the relative errors of the predicted times, over
/// the constants' logarithms (they stay positive). Constants the points do
/// not exercise (say, stream-K's without a stream-K point) stay near
/// `start`. Returns std::nullopt (and why in `error`) with fewer than 8
/// points.
std::optional<DeviceConstants> calibrate(const std::vector<Measurement> &points,
                                         const DeviceConstants &start,
                                         std::string &error);

/// The sm80 back end's block and warp tiles ({m, n, k} each) for an
/// m x n x k problem on `sms` SMs: 128x128x32 blocks of four 64x64 warps
/// where those tiles fill at least three quarters of the SMs; otherwise 64x64
/// blocks of four 32x32 warps, with intra-block split-K (the k-tile 32 x splits
/// deep, each warp tile's K shared by `splits` warps) where even those tiles
/// are few: 4 below one tile per SM, 2 below four (measured on H100,
/// docs/log/PERFORMANCE-history.md). `splitK` false (C += A*B) keeps one share.
/// Sizes that are not multiples of 64 get the 128x128x32 default (whose
/// divisibility check then reports them).
struct SM80Tile {
  int64_t block[3];
  int64_t warp[3];
};
SM80Tile chooseSM80Tile(int64_t m, int64_t n, int64_t k, bool splitK,
                        int64_t sms);

} // namespace mlir::tcgen::model

#endif // TCGEN_CONFIG_MODEL_H
