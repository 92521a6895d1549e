//===- Resources.h - Resources of the sm90 kernels --------------*- C++ -*-===//
//
// This file declares the sm90 back end's resource formulas: shared memory,
// ring depth, raster group, the stream-K split and when operands are
// packed. Plain functions (no MLIR): the config model and the kernel
// generator both use them.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_SM90_RESOURCES_H
#define TCGEN_TARGETS_SM90_RESOURCES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tcgen::sm90 {

constexpr int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Bytes of C one TMA-store chunk holds: 64 rows of 128 bytes (a 128B
/// swizzle atom wide).
constexpr int64_t kStoreChunkBytes = 64 * 128;

/// The tiles stream-K splits among `blocks` persistent blocks out of
/// `tiles` (the kernel's partition, emitStreamKPartition in Schedule.cpp,
/// computes the same from the launched grid): with R = tiles mod blocks, none
/// when R = 0; all tiles under two waves; R when R >= blocks / 2; else
/// R + blocks. The rest go whole.
constexpr int64_t streamKSplitTiles(int64_t tiles, int64_t blocks) {
  int64_t rest = tiles % blocks;
  return rest == 0            ? 0
         : tiles < 2 * blocks ? tiles
         : 2 * rest >= blocks ? rest
                              : rest + blocks;
}

/// At most this many blocks share a stream-K tile's k-tiles (the tile's last
/// block then adds at most three partial sums, one after the other).
constexpr int64_t kStreamKContributors = 4;

/// The blocks a stream-K kernel of `tiles` tiles launches on `sms` SMs: one
/// per SM, or kStreamKContributors a tile where that is fewer (not the
/// `swapped` kernels of small M, measured on one block per SM). Spread over
/// every SM, few tiles ran slower than whole tiles (127 x 129 x 4095, 6
/// tiles over 64 k-tiles: 28.9 us against 20.7); four blocks a tile, 17.9
/// us (two: 19.9, eight: 19.4; H200, bf16).
constexpr int64_t streamKBlocks(int64_t tiles, int64_t sms,
                                bool swapped = false) {
  return !swapped && tiles * kStreamKContributors < sms
             ? tiles * kStreamKContributors
             : sms;
}

/// The raster group (tile rows of `unitM` x `unitN` cluster tiles walked
/// before the next tile column) for a grid of `tilesM` x `tilesN` cluster
/// tiles on `slots` concurrent clusters: among the groups of 4, 8, 16 and
/// 32 rows (those measured), the one whose wave of `slots` tiles spans the
/// fewest A and B bytes per k-tile (g * unitM + ceil(slots / g) * unitN),
/// 8 on ties and where every tile runs at once (nothing to reuse across
/// waves). At 7168^3 and 8192^3 with 128x256 tiles (H100) 16 rows instead
/// of 8 cut DRAM traffic by 14-15 % to cuBLAS's and ran 0.5-1.9 % faster
/// under the power cap (docs/log/NOTES.md, "DRAM traffic and the clock").
constexpr int64_t rasterGroup(int64_t tilesM, int64_t tilesN, int64_t unitM,
                              int64_t unitN, int64_t slots) {
  if (slots <= 0 || tilesM * tilesN <= slots)
    return 8;
  auto span = [&](int64_t g) {
    int64_t rows = g < tilesM ? g : tilesM;
    return rows * unitM + ceilDiv(slots, rows) * unitN;
  };
  int64_t best = 8;
  for (int64_t g : {4, 16, 32})
    if (span(g) < span(best))
      best = g;
  return best;
}

/// Shared memory of the TMA-store buffers of a block tile with `blockM`
/// rows: two chunks per consumer warpgroup (64 x `rowBlocks` rows each; a
/// warpgroup stores its row blocks one after the other through the same
/// two); 0 without TMA stores.
constexpr int64_t storeBufferBytes(int64_t blockM, bool tmaStore,
                                   int64_t rowBlocks = 1) {
  return tmaStore ? blockM / (64 * rowBlocks) * 2 * kStoreChunkBytes : 0;
}

/// Rows of B's tile in shared memory (each 128 bytes of K): a K-major tile
/// has a row per column of the block tile; an MN-major tile is a row of
/// [64 k][64 n] boxes, so a block width that is not a multiple of 64 loads
/// (and keeps) its last box whole, and the wgmma reads only the columns it
/// needs from it. (Boxes of the 64B or 32B swizzle that end at the tile's
/// edge ran 5-45 % slower on H100 than this over-fetch: docs/log/NOTES.md.)
constexpr int64_t bTileRows(int64_t blockN, bool bKMajor) {
  return bKMajor ? blockN : ceilDiv(blockN, 64) * 64;
}

/// Dynamic shared memory of a kernel: the ring of `stages` A and B tiles
/// (16-bit elements; B's as bTileRows keeps it), the TMA-store buffers, and
/// 1 KiB to align them to 1024 bytes.
constexpr int64_t sharedMemoryBytes(int64_t blockM, int64_t blockN,
                                    int64_t blockK, int64_t stages,
                                    bool tmaStore, bool bKMajor = false,
                                    int64_t rowBlocks = 1) {
  return stages * (blockM + bTileRows(blockN, bKMajor)) * blockK * 2 +
         storeBufferBytes(blockM, tmaStore, rowBlocks) + 1024;
}

/// Row stride, in elements of `elementBytes`, that rounds `cols` up to a
/// multiple of 128 bytes.
constexpr int64_t paddedRowStride(int64_t cols, int64_t elementBytes) {
  return ceilDiv(cols * elementBytes, 128) * 128 / elementBytes;
}

/// Where TMA reads an operand's rows slowly (16-byte but not 128-byte
/// multiples apart), operands of at least kPackMinBytes are packed, and
/// those of at least kPackMinSectorBytes if their rows are not 32-byte
/// (sector) multiples either. Measured on H100
/// (docs/log/PERFORMANCE-history.md): 2000^3 f16 (4000-byte rows, 8 MB
/// operands) 0.97 of cuBLAS unpacked, 0.67 packed; 5000^3 (10000-byte rows, 50
/// MB) 0.37 unpacked, 0.84 packed; 3000x5000x700 with B (10000-byte rows, 7 MB)
/// unpacked 2.06x cuBLAS, packed 2.28x; 1000^3 (2000-byte rows, 2 MB) 0.73
/// unpacked, 0.63 packed.
constexpr int64_t kPackMinBytes = int64_t(32) << 20;
constexpr int64_t kPackMinSectorBytes = int64_t(4) << 20;

/// Whether an operand of `bytes` bytes with rows `rowBytes` apart is packed
/// under `mode` ("auto", "always", "never"): never where TMA can read it at
/// full speed (128-byte multiples); always where it cannot read it at all
/// (not a 16-byte multiple), unless `mode` is "never".
bool shouldPack(int64_t rowBytes, int64_t bytes, llvm::StringRef mode);

/// Accumulator registers a consumer thread of several row blocks may hold
/// (row blocks x N / 2): 192 x 96 holds 144, 192 x 128 192 (no spills at
/// 3072 x 1024 x 1024 with an f32 or f16 C), within the 240 registers a
/// lone consumer warpgroup gets.
constexpr int64_t kMaxRowBlockAccRegs = 192;

/// Shared memory one block may use on sm_90, in bytes (227 KiB).
constexpr int64_t kMaxDynamicSmemBytes = 227 * 1024;

/// Shared memory chooseStages leaves for the kernel's static variables
/// (the ring's full and empty mbarriers and a few more: 64 to 144 bytes).
constexpr int64_t kStaticSmemReserveBytes = 256;

/// Largest ring that fits the shared-memory budget (at most `maxStages`)
/// next to the TMA-store buffers when `tmaStore` (two per consumer
/// warpgroup of `rowBlocks` 64-row blocks).
int64_t chooseStages(int64_t blockM, int64_t blockN, int64_t blockK,
                     bool tmaStore = false, bool bKMajor = false,
                     int64_t maxStages = 8, int64_t rowBlocks = 1);

/// Whether a swapped kernel (config `swap`) of block width `blockN` reads
/// its B, the op's A, K-major in tiles narrower than a 64-wide box, which
/// the producer copies with cp.async (KernelParams::bAsync).
constexpr bool swapCopiesB(bool swapped, int64_t blockN) {
  return swapped && blockN < 64;
}

/// The ring depth of swapped kernels (config `swap`, small M): their stages
/// are small (an 8 to 64-row B tile), but deeper rings than these lose
/// (H200, docs/log/PERFORMANCE-history.md): 128-row tiles peak at 5-6 stages
/// (96 KiB of A in flight; 13 stages 8 % slower), 64-row ones at 8 (16: 3 %).
constexpr int64_t swapStages(int64_t blockM) { return blockM >= 128 ? 6 : 8; }

} // namespace mlir::tcgen::sm90

#endif // TCGEN_TARGETS_SM90_RESOURCES_H
