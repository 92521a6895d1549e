//===- Config.cpp - Choosing and checking #tcgen.config ---------*- C++ -*-===//
//
// This file implements the default configurations and the fit checks.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Config.h"

#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Config/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"


using namespace mlir;
using namespace mlir::tcgen;

/// The sm90 back end's resource and schedule formulas.
static const TargetBackend &sm90() { return getTargetBackend("sm90"); }

/// The sm80 back end's fit checks.
static const TargetBackend &sm80Backend() { return getTargetBackend("sm80"); }

TargetAttr mlir::tcgen::getTargetOrDefault(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto target = p->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return TargetAttr::get(op->getContext(), "sm_90a");
}

/// The element type of the output the kernel writes by default: a fused
/// consumer's (a truncf to bf16 after a matmul into f32, say), else C's.
static Type writtenType(const ContractionInfo &info) {
  std::string whyNot;
  std::optional<EpilogueInfo> epilogue =
      findEpilogue(info, whyNot, /*allowDualProduct=*/true);
  return epilogue ? epilogue->outType : info.cType;
}

/// The element type of an output the sm90 kernel may write whose rows TMA
/// stores cannot address (N elements not a multiple of 16 bytes), or null.
/// The kernel writes C, or where a pointwise consumer is fused into it the
/// consumer's output instead, whose type may differ (a matmul into f32
/// followed by a truncf to bf16 writes rows of N bf16): both must do (the
/// fusion may be switched off). (A and B rows that are not 16-byte
/// multiples are copied into padded buffers before the kernel:
/// tcgen-sm90-build-kernel's packs.)
static Type typeTmaCannotStore(const ContractionInfo &info) {
  // A dynamic N is checked at launch (the runtime's TMA rules).
  if (ShapedType::isDynamic(info.n))
    return {};
  for (Type t : {info.cType, writtenType(info)})
    if (info.n * t.getIntOrFloatBitWidth() / 8 % 16 != 0)
      return t;
  return {};
}

/// Whether TMA stores can write every output the kernel may write.
static bool tmaCanStoreC(const ContractionInfo &info) {
  return !typeTmaCannotStore(info);
}

/// The size the model plans for where a size is known only at run time: a
/// large square-ish problem, where the kernel's tiles matter most.
static constexpr int64_t kPlannedDynamicSize = 4096;

static int64_t plannedSize(int64_t size) {
  return ShapedType::isDynamic(size) ? kPlannedDynamicSize : size;
}

StringRef mlir::tcgen::getDefaultBackend(const ContractionInfo &info,
                                         TargetAttr target) {
  // All four A/B layouts (K-major or MN-major operands), any sizes, C = A*B
  // and C += A*B (on batches too) go to sm90.
  if (target.getArch() == "sm_90a")
    return "sm90";
  // Ampere and Ada: ldmatrix, mma.sync and cp.async.
  if (target.getComputeCapability() >= 80 && target.getArch() != "sm_90a")
    return "sm80";
  return "wmma";
}

model::Problem mlir::tcgen::getModelProblem(const ContractionInfo &info) {
  model::Problem p;
  p.m = plannedSize(info.m);
  p.n = plannedSize(info.n);
  p.k = plannedSize(info.k);
  p.batch = info.batch;
  p.dynamic = info.isDynamic();
  // A summed batch is one longer K loop per tile of the one C.
  if (info.batchReduce && !ShapedType::isDynamic(info.k)) {
    p.k = info.batch * info.k;
    p.batch = 1;
  }
  p.inBytes = info.aType.getIntOrFloatBitWidth() / 8;
  Type out = info.cType;
  std::string whyNot;
  std::optional<EpilogueInfo> epilogue =
      findEpilogue(info, whyNot, /*allowDualProduct=*/true);
  if (epilogue)
    out = epilogue->outType;
  p.outBytes = out.getIntOrFloatBitWidth() / 8;
  // A dual GEMM: one product of twice N (B's and B2's rows side by side).
  if (epilogue && epilogue->dualProduct) {
    p.dual = true;
    p.n *= 2;
  }
  // Matrices of a broadcast batch laid side by side in N (sm90): the
  // kernel's tiles span them.
  if (int64_t fold = batchFoldedIntoN(info, epilogue ? &*epilogue : nullptr);
      fold >= 0) {
    p.n *= info.batchShape[fold];
    p.batch /= info.batchShape[fold];
  }
  // As the sm90 kernel reads them (BuildKernel.cpp): with M = 1 (N = 1) A
  // (B) is read K-major (N-major) whatever its logical layout, and so are
  // both with K = 1.
  p.aMNMajor = readsAMNMajor(info);
  p.bKMajor = readsBKMajor(info);
  // A and B read unpacked from rows that straddle 128-byte lines (the
  // pack rule of tcgen-sm90-build-kernel, pack = auto).
  if (!info.isDynamic()) {
    int64_t batch = info.batchReduce || info.batched ? info.batch : 1;
    auto slow = [&](int64_t rowBytes, int64_t bytes) {
      return rowBytes % 16 == 0 && rowBytes % 128 != 0 &&
             !sm90().shouldPackOperand(rowBytes, bytes, "auto");
    };
    p.bSlowRows = slow((p.bKMajor ? info.k : info.n) * p.inBytes,
                       info.k * info.n * p.inBytes * batch);
    p.aSlowRows = slow((p.aMNMajor ? info.m : info.k) * p.inBytes,
                       info.m * info.k * p.inBytes * batch);
  }
  // C always goes through the shared chunk buffers: TMA stores, or staged
  // stores where its rows are not 16-byte multiples apart.
  p.tmaStore = true;
  return p;
}

std::optional<model::SM90Candidate>
mlir::tcgen::predictedSwap(const ContractionInfo &info,
                           const model::Problem &problem,
                           const model::SM90Candidate &unswapped,
                           const model::DeviceConstants &constants) {
  // A 16-bit C goes out through transposed TMA stores (stored pair by pair
  // across two of its rows from the swapped fragments it ran at 0.78 of
  // cuBLAS at 1536^3, against 0.88 unswapped): its rows must be 16-byte
  // multiples apart.
  if (info.m <= 64 || !canSwap(info))
    return std::nullopt;
  if (problem.outBytes != 4 &&
      (problem.outBytes != 2 || info.isDynamic() || info.n % 8 != 0))
    return std::nullopt;
  std::vector<model::SM90Candidate> ranked =
      model::rankSM90Swapped(model::swappedProblem(problem), constants);
  // One wave of swapped tiles at most: the throughput was fitted where
  // they fill the SMs once (1472-1536 x 1536 x 512-4096: 3.5-9 % faster
  // than the unswapped defaults, as predicted within a few %); at 2560^3
  // (378 tiles, three waves) the model predicted 8 % faster and the kernel
  // ran 1-3 % slower (H100, docs/log/NOTES.md).
  if (ranked.empty() || ranked.front().totalUs > 0.98 * unswapped.totalUs ||
      ranked.front().tiles > constants.sms)
    return std::nullopt;
  return ranked.front();
}

ConfigAttr mlir::tcgen::getSM90Config(const ContractionInfo &info,
                                      const model::SM90Candidate &c) {
  // The model counts K in 16-bit elements (a 128-byte row); tf32 tiles
  // hold half as many 4-byte ones, and one wgmma takes k = 8.
  int64_t bytes = info.aType.getIntOrFloatBitWidth() / 8;
  int64_t blockK = c.blockK * 2 / bytes;
  if (c.swap)
    return ConfigAttr::get(
        info.op->getContext(), "sm90", {c.blockM, c.blockN, blockK},
        {64 * c.rowBlocks, c.blockN, blockK}, {64, c.blockN, 32 / bytes},
        c.stages, /*padding=*/0, /*vector=*/8, c.raster,
        /*persistent=*/true, c.streamK, /*cluster=*/{1, 1},
        c.transposedStore ? "tma" : "global",
        /*swap=*/true);
  return ConfigAttr::get(
      info.op->getContext(), "sm90", {c.blockM, c.blockN, blockK},
      {64 * c.rowBlocks, c.blockN, blockK}, {64, c.blockN, 32 / bytes},
      c.stages,
      /*padding=*/0,
      /*vector=*/8, c.raster, /*persistent=*/true, c.streamK,
      {c.clusterM, c.clusterN}, tmaCanStoreC(info) ? "tma" : "staged",
      /*swap=*/false);
}

/// A size as the tuning key spells it: "?" where known at run time only.
static std::string sizeName(int64_t size) {
  return ShapedType::isDynamic(size) ? "?" : std::to_string(size);
}

std::string mlir::tcgen::getTuningKey(const ContractionInfo &info,
                                      TargetAttr target) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << target.getArch() << " " << typeName(info.aType) << "x"
     << typeName(info.bType) << "->" << typeName(info.cType)
     << " batch=" << info.batch << (info.batchReduce ? " summed" : "")
     << " m=" << sizeName(info.m)
     << " n=" << sizeName(info.n) << " k=" << sizeName(info.k)
     << " ab=" << (info.aTransposed ? "t" : "n")
     << (info.bTransposed ? "t" : "n");
  if (info.blockScales)
    os << " block_scales=1x128,128x128";
  // Batch dimensions that do not collapse (or that an input lacks): their
  // extents and where A, B and C store them (-1: absent), which decide the
  // tensor maps and whether the matrices lie side by side in N.
  if (info.multiBatch()) {
    auto list = [&](ArrayRef<int64_t> v, StringRef sep) {
      std::string out;
      for (auto [i, x] : llvm::enumerate(v))
        out += (i ? sep.str() : "") + std::to_string(x);
      return out;
    };
    os << " batches=" << list(info.batchShape, "x")
       << " at=" << list(info.aBatchPos, ",") << ";"
       << list(info.bBatchPos, ",") << ";" << list(info.cBatchPos, ",");
  }
  std::string whyNot;
  if (std::optional<EpilogueInfo> epilogue =
          findEpilogue(info, whyNot, /*allowDualProduct=*/true)) {
    std::string steps;
    llvm::raw_string_ostream ss(steps);
    ss << describeEpilogue(*epilogue);
    os << " epilogue=" << llvm::format_hex_no_prefix(llvm::xxh3_64bits(steps),
                                                     16);
  }
  return key;
}

std::vector<SimtCandidate> mlir::tcgen::rankSimtCandidates(int64_t m,
                                                            int64_t n,
                                                            int64_t k,
                                                            int64_t batch,
                                                            int64_t sms) {
  // Per-SM rates relative to 128x128x32, measured at 8192^3 on an H200
  // (docs/log/PERFORMANCE-history.md): K steps of 32 / 16 / 8 at 0.94 / 0.91 /
  // 0.82 of cuBLAS; 64x128 blocks of 4 warps (four per SM) at 0.87; 64x64
  // blocks of 4 warps with 4x8 outputs per thread at 0.76 (K steps of 16);
  // 64x64x8 is not measured (a last resort).
  std::vector<SimtCandidate> all = {
      {128, 128, 32, 32, 64, 8, 8, 1.0},  {128, 128, 16, 32, 64, 8, 8, 0.969},
      {64, 128, 16, 32, 64, 8, 8, 0.927}, {64, 64, 16, 32, 32, 4, 8, 0.807},
      {128, 128, 8, 32, 64, 8, 8, 0.874}, {64, 64, 8, 32, 32, 4, 8, 0.75}};
  m = plannedSize(m), n = plannedSize(n), k = plannedSize(k);
  // Rows that are not multiples of 4 elements are copied one element at a
  // time: K steps of 32 do not fit in 128 registers then.
  bool aligned = m % 4 == 0 && n % 4 == 0 && k % 4 == 0;
  // Element copies also cost more per multiply-add in the 4x8 thread tiles
  // (half the multiply-adds per copied element): 64x64 blocks ran at 0.54
  // of cuBLAS at 2049^3 against 0.58 for 128x128 ones with K steps of 8.
  std::vector<SimtCandidate> ranked;
  for (SimtCandidate c : all) {
    if (!aligned && c.bk == 32)
      continue;
    if (!aligned && c.tm * c.tn < 64)
      c.rate *= 0.8;
    ranked.push_back(c);
  }
  // The blocks run in waves of 512 threads' worth per SM (the kernel's
  // launch bounds: 2 blocks of 8 warps or 4 of 4 warps); a partial wave
  // takes as long as a full one (fewer warps hide less latency), so the
  // time is waves x blocks per SM x bm bn / rate. Narrower blocks shorten
  // the last wave where the tiles overfill the previous one.
  auto predicted = [&](const SimtCandidate &c) {
    int64_t tiles = ((m + c.bm - 1) / c.bm) * ((n + c.bn - 1) / c.bn) * batch;
    int64_t threads = (c.bm / c.wm) * (c.bn / c.wn) * 32;
    int64_t perSM = std::max<int64_t>(1, 512 / threads);
    int64_t waves = (tiles + sms * perSM - 1) / (sms * perSM);
    return double(waves * perSM) * double(c.bm * c.bn) / c.rate;
  };
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const SimtCandidate &a, const SimtCandidate &b) {
                     return predicted(a) < predicted(b);
                   });
  return ranked;
}

int64_t mlir::tcgen::chooseSwapBlockM(int64_t n, int64_t sms) {
  auto waves = [&](int64_t blockM) {
    return model::ceilDiv(model::ceilDiv(n, blockM), sms) * blockM;
  };
  return waves(64) < waves(128) ? 64 : 128;
}

/// Whether a swapped kernel of `blockM`-row tiles has few tiles over a long
/// K: at most a quarter of the SMs, 64 k-tiles or more. Stream-K then
/// spreads the k-tiles over every SM (measured on H200: 4 x 1024 x 8192
/// 0.39 -> 0.66 of cuBLAS, 32 x 1536 x 4096 0.60 -> 0.71, 40 x 2048 x 4096
/// 0.60 -> 0.71; with 64 tiles, 16 x 4096^2, or 16 k-tiles, 4 x 2048 x
/// 1024, it loses).
static bool swapFewTiles(const ContractionInfo &info, int64_t blockM,
                         int64_t sms) {
  return !info.isDynamic() && model::ceilDiv(info.n, blockM) * 4 <= sms &&
         model::ceilDiv(info.k, 64) >= 64;
}

/// Whether a swapped kernel of `blockM`-row tiles fills at most half of the
/// SMs over a K of 128 k-tiles or more: stream-K then spreads the k-tiles
/// over every SM too (measured on H200, bf16, weights [out, in], M = 1, 8,
/// 32: 4096 x 14336 39.6-41.7 -> 37.6-39.1 us, 4096 x 11008 32.1-33.6 ->
/// 31.6-32.7 us; with 64 k-tiles, 4096 x 4096, or 128 tiles, 8192 x 8192, it
/// loses: docs/log/2026-11-28-decode.md).
static bool swapHalfWaveLongK(const ContractionInfo &info, int64_t blockM,
                              int64_t sms) {
  return !info.isDynamic() && model::ceilDiv(info.n, blockM) * 2 <= sms &&
         model::ceilDiv(info.k, 64) >= 128;
}

bool mlir::tcgen::canSwap(const ContractionInfo &info) {
  if (info.isDynamic() || info.batched || info.batchReduce ||
      info.cTransposed || (!info.aType.isF16() && !info.aType.isBF16()) ||
      info.aTransposed || info.k % 8 != 0)
    return false;
  if (!isa<BlockArgument>(info.a) || !isa<BlockArgument>(info.b))
    return false;
  // A dual GEMM's two products share A: swapped, its B and B2 halves would
  // land in different consumer warpgroups, which the combine cannot reach.
  std::string whyNot;
  std::optional<EpilogueInfo> epilogue =
      findEpilogue(info, whyNot, /*allowDualProduct=*/true);
  if (epilogue && epilogue->dualProduct)
    return false;
  return !findFirstProduct(info.op);
}

bool mlir::tcgen::shouldSwap(const ContractionInfo &info, int64_t sms) {
  // Few 64-row tiles over a long K: the swapped kernel with stream-K wins
  // at 32 < M <= 64 too; so it does from N = 4096 (64 x 4096^2: 18.6 us
  // against 19.7 unswapped, timed by the tuner with rotated buffers).
  bool fewTiles = swapFewTiles(info, 64, sms);
  if (info.m > 64 || (info.m > 32 && info.n < 4096 && !fewTiles) ||
      info.n < 1024)
    return false;
  return canSwap(info);
}

/// The swapped kernel's block width: the small M rounded up to 8.
static int64_t swapBlockN(const ContractionInfo &info) {
  return std::clamp<int64_t>((plannedSize(info.m) + 7) / 8 * 8, 8, 256);
}

/// The swapped default: chooseSwapBlockM's tile, swapStages, stream-K
/// with few tiles over a long K.
static model::SM90Candidate defaultSwapCandidate(const ContractionInfo &info,
                                                 int64_t sms) {
  model::SM90Candidate c;
  c.swap = true;
  c.blockM = chooseSwapBlockM(info.n, sms);
  c.blockN = swapBlockN(info);
  c.blockK = 64;
  c.stages =
      sm90().getStagesThatFit(c.blockM, c.blockN, 64, /*tmaStore=*/false,
                              /*bKMajor=*/true, sm90().getSwapStages(c.blockM));
  c.streamK = swapFewTiles(info, c.blockM, sms) ||
              swapHalfWaveLongK(info, c.blockM, sms);
  return c;
}

std::vector<model::SM90Candidate>
mlir::tcgen::swapCandidates(const ContractionInfo &info, int64_t sms) {
  std::vector<model::SM90Candidate> out;
  if (!canSwap(info))
    return out;
  if (info.m > 64) {
    // 192 x 96 with one consumer warpgroup (the model's swapped tile:
    // predictedSwap), a 16-bit C through transposed TMA stores, whose rows
    // must be 16-byte multiples apart.
    int64_t outBytes = getModelProblem(info).outBytes;
    if (outBytes == 4 || (!info.isDynamic() && info.n % 8 == 0)) {
      model::SM90Candidate c;
      c.swap = true;
      c.blockM = 192;
      c.blockN = 96;
      c.rowBlocks = 3;
      c.transposedStore = outBytes == 2;
      c.stages = sm90().getStagesThatFit(
          192, 96, 64, /*tmaStore=*/outBytes == 2,
          /*bKMajor=*/true, /*maxStages=*/5, c.rowBlocks);
      out.push_back(c);
    }
    // An f32 C: the tiles of cuBLAS's (transposed) kernels at 1000^3 -
    // 1536^3, which beat the unswapped default there in one run (1536^3
    // 192x96 0.93 of cuBLAS against 0.89, 1000^3 128x128 0.85 against
    // 0.75). A 16-bit C from registers is stored pair by pair across two
    // of its rows from the swapped fragments: slower everywhere measured.
    if (outBytes != 4)
      return out;
    for (auto [blockM, blockN] : {std::pair<int64_t, int64_t>{192, 96},
                                  {128, 128},
                                  {64, 128},
                                  {128, 96},
                                  {128, 64}}) {
      model::SM90Candidate c;
      c.swap = true;
      c.blockM = blockM;
      c.blockN = blockN;
      c.blockK = 64;
      c.stages = sm90().getStagesThatFit(blockM, blockN, 64, /*tmaStore=*/false,
                                         /*bKMajor=*/true);
      out.push_back(c);
    }
    return out;
  }
  out.push_back(defaultSwapCandidate(info, sms));
  for (int64_t blockM : {64, 128})
    for (int64_t stages : {4, 6, 8, 10, 12})
      for (bool streamK : {false, true}) {
        model::SM90Candidate c;
        c.swap = true;
        c.blockM = blockM;
        c.blockN = swapBlockN(info);
        // A ring that does not fit is left out (the shallower ones stay).
        if (sm90().getStagesThatFit(blockM, c.blockN, 64, /*tmaStore=*/false,
                                    /*bKMajor=*/true, stages) < stages)
          continue;
        c.stages = stages;
        c.streamK = streamK;
        auto same = [&](const model::SM90Candidate &o) {
          return o.blockM == c.blockM && o.stages == c.stages &&
                 o.streamK == c.streamK;
        };
        if (llvm::none_of(out, same))
          out.push_back(c);
      }
  return out;
}

static int64_t stageBytes(const ContractionInfo &info, ArrayRef<int64_t> bt,
                          int64_t padding);

/// Block-scaled fp8 (info.blockScales): 128 x 128 tiles of two consumer
/// warpgroups of 64 x 128, whose threads hold two accumulator sets (the
/// sum and a k-tile's products: 64 + 64 f32 registers), one k-tile per
/// 128-wide scale block, one SB scale per tile and k-tile (the tile's 128
/// columns are one block of B), data-parallel persistent tiles, the
/// deepest ring that fits.
static ConfigAttr getBlockScaledConfig(const ContractionInfo &info) {
  // C leaves through the chunk buffers either way (TMA or staged stores).
  int64_t stages = sm90().getStagesThatFit(128, 128, 64, /*tmaStore=*/true);
  return ConfigAttr::get(info.op->getContext(), "sm90", {128, 128, 128},
                         {64, 128, 128}, {64, 128, 32}, stages,
                         /*padding=*/0, /*vector=*/8, /*raster=*/8,
                         /*persistent=*/true, /*streamK=*/false,
                         /*cluster=*/{1, 1},
                         tmaCanStoreC(info) ? "tma" : "staged",
                         /*swap=*/false);
}

/// The checks of a block-scaled config (verifySM90ConfigFits's): the
/// promotion reads one SB scale per tile and k-tile, and the kernel has no
/// stream-K, cluster, swap or row blocks.
static LogicalResult verifyBlockScaledConfig(const ContractionInfo &info,
                                             ConfigAttr config) {
  auto refuse = [&](StringRef what) {
    return info.op->emitOpError("block-scaled fp8 on sm90 needs ") << what;
  };
  ArrayRef<int64_t> bt = config.getBlockTile();
  if (bt[1] != 64 && bt[1] != 128)
    return refuse("a block tile N of 64 or 128 (within one 128-wide block "
                  "of B's scales), not ")
           << bt[1];
  if (config.getWarpTile()[0] != 64)
    return refuse("a warp tile M of 64 (one row block per consumer "
                  "warpgroup: two accumulator sets), not ")
           << config.getWarpTile()[0];
  if (config.getStreamK())
    return refuse("streamk = false (the tiles' K loops start at K block 0)");
  if (config.getCluster()[0] != 1 || config.getCluster()[1] != 1)
    return refuse("cluster [1, 1]");
  if (config.getSwap())
    return refuse("swap = false (the scales are read in the problem's own "
                  "terms)");
  return success();
}

ConfigAttr mlir::tcgen::getDefaultConfig(
    const ContractionInfo &info, TargetAttr target, StringRef backend,
    const model::DeviceConstants *constants, int64_t modelRank, int swap) {
  if (backend == "sm90" && info.blockScales)
    return getBlockScaledConfig(info);
  if (backend == "sm90") {
    // The tile-size model's first choice (docs/DESIGN.md, "The tile-size
    // model"): 64-wide K steps (one 128-byte swizzle atom), the deepest
    // ring that fits next to the TMA-store buffers, the block tile, stream-K
    // and cluster shape with the least predicted time (or the candidate of
    // rank `modelRank`). C goes out through shared memory and TMA stores
    // where its rows allow, else staged stores.
    // Small M: the swapped kernel (shouldSwap, or asked for), then the
    // model's ranking for the next ranks.
    int64_t sms = getTypicalSMCount(target);
    if (swap == 1 || (swap < 0 && shouldSwap(info, sms))) {
      if (modelRank == 0)
        return getSM90Config(info, defaultSwapCandidate(info, sms));
      --modelRank;
    }
    model::DeviceConstants d =
        constants ? *constants : model::DeviceConstants();
    model::Problem problem = getModelProblem(info);
    std::vector<model::SM90Candidate> ranked = model::rankSM90(problem, d);
    // Sizes known at run time only: data-parallel tiles (stream-K's
    // partition is planned for one tile count).
    if (info.isDynamic())
      llvm::erase_if(ranked,
                     [](const model::SM90Candidate &c) { return c.streamK; });
    // A larger M: a swapped tile the model predicts faster (1536^3: 192x96
    // swapped, one warpgroup, as cuBLAS's kernel there).
    if (swap < 0 && modelRank == 0 && !ranked.empty())
      if (std::optional<model::SM90Candidate> s =
              predictedSwap(info, problem, ranked.front(), d))
        return getSM90Config(info, *s);
    if (!ranked.empty())
      return getSM90Config(
          info, ranked[std::min<size_t>(std::max<int64_t>(modelRank, 0),
                                        ranked.size() - 1)]);
    model::SM90Candidate fallback;
    fallback.stages = sm90().getStagesThatFit(128, 256, 64, /*tmaStore=*/true);
    return getSM90Config(info, fallback);
  }
  if (backend == "sm80") {
    // 128x128x32 blocks of 4 warps with 64x64 warp tiles, or 64x64 tiles
    // with intra-block split-K where few tiles (model::chooseSM80Tile);
    // unpadded tiles XOR-swizzled, as many cp.async stages as the budget
    // holds (chooseSM80Stages).
    model::SM80Tile tile =
        model::chooseSM80Tile(info.m, info.n, info.k,
                              /*splitK=*/getZeroFillOfOutput(info) != nullptr,
                              getTypicalSMCount(target));
    SmallVector<int64_t> block(tile.block, tile.block + 3);
    SmallVector<int64_t> warp(tile.warp, tile.warp + 3);
    // Targets with less shared memory (sm_86, sm_89: 99 KiB a block):
    // fewer K splits until two stages fit next to the split-K scratch and
    // the epilogue's slabs.
    auto twoStagesFit = [&] {
      return 2 * stageBytes(info, block, /*padding=*/0) +
                 getSM80ExtraSharedBytes(info, block, warp, "staged") <=
             target.getMaxSharedMemoryPerBlock();
    };
    while (block[2] > warp[2] && !twoStagesFit())
      block[2] /= 2;
    // C leaves through shared memory in 16-byte stores (measured faster
    // everywhere, most with small K: docs/log/PERFORMANCE-history.md), unless
    // the slabs would leave the budget fewer than three stages (sm_86, sm_89),
    // where stores from registers keep the deeper pipeline.
    StringRef store = "staged";
    int64_t stages =
        chooseSM80Stages(info, block, warp, /*padding=*/0, store, target);
    int64_t unstaged =
        chooseSM80Stages(info, block, warp, /*padding=*/0, "global", target);
    if (stages < 3 && unstaged > stages) {
      store = "global";
      stages = unstaged;
    }
    return ConfigAttr::get(
        info.op->getContext(), "sm80", block, warp, {16, 16, 16}, stages,
        /*padding=*/0, /*vector=*/8, /*raster=*/8,
        /*persistent=*/true, /*streamK=*/false,
        /*cluster=*/{1, 1}, store, /*swap=*/false);
  }
  if (backend == "simt") {
    // CUDA cores (seed 002): the candidate with the least predicted time,
    // or the one of rank `modelRank` (tcgen compile's next choice after a
    // spill); simtCandidates says how they are ranked.
    std::vector<SimtCandidate> ranked = rankSimtCandidates(
        info.m, info.n, info.k, info.batched ? info.batch : 1,
        getTypicalSMCount(target));
    const SimtCandidate &c = ranked[std::min<size_t>(
        std::max<int64_t>(modelRank, 0), ranked.size() - 1)];
    return ConfigAttr::get(
        info.op->getContext(), "simt",
        SmallVector<int64_t>{c.bm, c.bn, c.bk},
        SmallVector<int64_t>{c.wm, c.wn, c.bk},
        SmallVector<int64_t>{c.tm, c.tn, 1},
        /*stages=*/2, /*padding=*/4, /*vector=*/4, /*raster=*/1,
        /*persistent=*/false, /*streamK=*/false, /*cluster=*/{1, 1},
        /*store=*/"global", /*swap=*/false);
  }
  // 128x128x32 blocks of 4 warps with 64x64 warp tiles: 16 accumulator
  // fragments per warp, two stages of 19 KiB of padded shared memory (38
  // KiB: double buffering within the 48 KiB of static shared memory). The
  // tile-size model replaces this table later.
  return ConfigAttr::get(info.op->getContext(), "wmma", {128, 128, 32},
                         {64, 64, 32}, {16, 16, 16}, /*stages=*/2,
                         /*padding=*/8, /*vector=*/8, /*raster=*/8,
                         /*persistent=*/true, /*streamK=*/false,
                         /*cluster=*/{1, 1}, /*store=*/"global",
                         /*swap=*/false);
}

/// Checks that M, N and K are multiples of the block tile `bt`.
static LogicalResult verifyDivisible(const ContractionInfo &info,
                                     ArrayRef<int64_t> bt) {
  int64_t sizes[3] = {info.m, info.n, info.k};
  const char *names[3] = {"M", "N", "K"};
  for (int d = 0; d < 3; ++d)
    if (sizes[d] % bt[d] != 0)
      return info.op->emitOpError()
             << names[d] << "=" << sizes[d]
             << " is not a multiple of the block tile " << bt[d]
             << " (sizes must be multiples of the block tile until boundary "
                "handling lands)";
  return success();
}

/// The sm90 back end's checks: the target, rows TMA can address, the
/// cluster's split of the shared tile, and the shared-memory ring.
static LogicalResult verifySM90ConfigFits(const ContractionInfo &problem,
                                          ConfigAttr config,
                                          TargetAttr target) {
  if (target.getArch() != "sm_90a")
    return problem.op->emitOpError("the sm90 back end needs --target=sm_90a "
                                   "(wgmma and setmaxnreg), not ")
           << target.getArch();
  if (problem.blockScales && failed(verifyBlockScaledConfig(problem, config)))
    return failure();
  ArrayRef<int64_t> bt = config.getBlockTile();
  // swap: the kernel's problem is C^T = B^T A^T, and the checks below are
  // in its terms.
  std::optional<ContractionInfo> swapped;
  if (config.getSwap()) {
    auto refuse = [&](StringRef what) {
      return problem.op->emitOpError("swap (C^T = B^T A^T) needs ") << what;
    };
    if (problem.isDynamic())
      return refuse("static sizes");
    if (problem.batched || problem.batchReduce)
      return refuse("an unbatched matmul");
    if (problem.cTransposed)
      return refuse("a row-major C (a column-major C is computed as C^T "
                    "already)");
    if (!problem.aType.isF16() && !problem.aType.isBF16())
      return refuse("f16 or bf16 inputs, not ") << typeName(problem.aType);
    // (The output the kernel writes: a fused conversion's 16-bit output
    // over f32 accumulators too.)
    if (config.getStore() == "tma" && writtenType(problem).isF32())
      return refuse("a 16-bit C for store = \"tma\" (its 8x8 blocks are "
                    "transposed by stmatrix; an f32 C is stored from "
                    "registers, store = \"global\")");
    if (config.getStore() == "tma" && bt[1] < 64)
      return refuse("a block tile N of 64 or more for store = \"tma\" (one "
                    "store chunk), not ")
             << bt[1];
    swapped = swapRoles(problem);
    if (sm90().swapCopiesB(true, bt[1]) && !swapped->bTransposed)
      return refuse("A stored [m][k] for a block tile N below 64 (its B, "
                    "A^T, is then read K-major in tiles of N rows), not a "
                    "block tile N of ")
             << bt[1] << " with A stored [k][m]";
  }
  const ContractionInfo &info = swapped ? *swapped : problem;
  // Sizes known at run time only: one persistent data-parallel kernel that
  // reads A and B and writes C through tensor maps the runtime encodes at
  // launch (no packs, no masked stores; rows TMA cannot address are refused
  // at launch).
  if (info.isDynamic()) {
    auto refuse = [&](StringRef what) {
      return info.op->emitOpError()
             << "with sizes known only at run time (M, N or K is `?`) the "
                "sm90 kernel needs "
             << what;
    };
    if (config.getStore() != "tma")
      return refuse("store = \"tma\" (C written by TMA stores), not \"")
             << config.getStore() << "\"";
    if (!config.getPersistent() || config.getStreamK())
      return refuse("persistent = true and streamk = false (one block per SM "
                    "walking whole tiles)");
  }
  // (Swapped, the stores write C in its own layout: its own rows.)
  if (Type t = typeTmaCannotStore(problem); t && config.getStore() == "tma")
    return info.op->emitOpError()
           << "TMA stores need the rows of C to be a multiple of 16 bytes "
              "apart, but N="
           << problem.n << " " << typeName(t) << " elements"
           << (t != problem.cType ? " (the fused consumer's output)" : "")
           << " are " << problem.n * t.getIntOrFloatBitWidth() / 8
           << " bytes (store = \"staged\" or \"global\" writes them)";
  // A cluster walks pairs of neighbouring tiles (rounded up: a tile past
  // the edge loads zeros and stores nothing); the operand tile the pair
  // shares is split in two halves, one loaded by each block. The layout is
  // the one the kernel reads (readsAMNMajor, readsBKMajor): B stored [n][k]
  // with N = 1 or K = 1 is read N-major, and a half of fewer than 64 rows
  // would load no box at all while the stage's barrier waits for its bytes
  // (the kernel never finishes).
  ArrayRef<int64_t> cl = config.getCluster();
  bool bMNMajor = !readsBKMajor(info), aMNMajor = readsAMNMajor(info);
  if ((cl[0] == 2 && bMNMajor && bt[1] % 128 != 0) ||
      (cl[1] == 2 && aMNMajor && bt[0] % 128 != 0))
    return info.op->emitOpError()
           << "cluster [" << cl[0] << ", " << cl[1]
           << "] splits the shared MN-major operand tile into two halves of "
              "64-wide boxes: its tile size must be a multiple of 128 (the "
           << (cl[0] == 2 ? "block tile N " + std::to_string(bt[1]) +
                                " of B, stored " +
                                (info.bTransposed
                                     ? "[n][k] and read N-major as N or K "
                                       "is 1)"
                                     : "[k][n])")
                          : "block tile M " + std::to_string(bt[0]) +
                                " of A, stored [k][m])");
  // Stream-K's partial accumulators move in quads (8 columns of the
  // fragment); an unswapped tile narrower than 64 fits no model candidate.
  if (config.getStreamK() && bt[1] % 64 != 0 && !config.getSwap())
    return info.op->emitOpError()
           << "stream-K needs a block tile N that is a multiple of 64, not "
           << bt[1];
  // bt[2] elements of A and B: in 16-bit units for the ring's bytes.
  int64_t kUnits = bt[2] * (info.aType.getIntOrFloatBitWidth() / 8) / 2;
  if (kUnits != 64)
    return info.op->emitOpError()
           << "sm90 k-tiles are one 128-byte swizzle atom of A and B: "
           << 128 / (info.aType.getIntOrFloatBitWidth() / 8) << " "
           << typeName(info.aType) << " elements, not " << bt[2];
  int64_t smem = sm90().getSharedMemoryBytes(
      bt[0], bt[1], kUnits, config.getStages(), config.getStore() != "global",
      readsBKMajor(info) || sm90().swapCopiesB(swapped.has_value(), bt[1]),
      config.getWarpTile()[0] / 64);
  if (config.getStages() < 2 || smem > sm90().getMaxSharedMemoryBytes())
    return info.op->emitOpError()
           << config.getStages() << " stages need " << smem
           << " bytes of shared memory; sm90 kernels need 2 or more stages "
              "within "
           << sm90().getMaxSharedMemoryBytes() << " bytes";
  return success();
}

int64_t mlir::tcgen::getWMMASharedMemoryLimit(TargetAttr target) {
  return std::min<int64_t>(48 * 1024, target.getMaxSharedMemoryPerBlock());
}

/// Bytes of one stage of padded A and B tiles of `block` (m, n, k).
static int64_t stageBytes(const ContractionInfo &info, ArrayRef<int64_t> bt,
                          int64_t pad) {
  int64_t aBytes =
      bt[0] * (bt[2] + pad) * info.aType.getIntOrFloatBitWidth() / 8;
  int64_t bBytes =
      bt[2] * (bt[1] + pad) * info.bType.getIntOrFloatBitWidth() / 8;
  return aBytes + bBytes;
}

int64_t mlir::tcgen::chooseWMMAStages(const ContractionInfo &info,
                                      ArrayRef<int64_t> blockTile,
                                      int64_t padding, TargetAttr target) {
  if (blockTile.size() != 3)
    return 1; // the config verifier reports the tile
  return 2 * stageBytes(info, blockTile, padding) <=
                 getWMMASharedMemoryLimit(target)
             ? 2
             : 1;
}

int64_t mlir::tcgen::getTypicalSMCount(TargetAttr target) {
  // The flagship part of each architecture: A100, A40 / RTX 3090-class,
  // RTX 4090 / L40, H100 SXM.
  switch (target.getComputeCapability()) {
  case 80:
    return 108;
  case 86:
    return 84;
  case 89:
    return 128;
  default:
    return 132;
  }
}

int64_t mlir::tcgen::getSM80SharedMemoryBudget(TargetAttr target) {
  // Two blocks per SM: while one waits at its barrier the other issues
  // mma.sync (the 64x64 warp tiles' registers allow two blocks of four
  // warps), so each may take half of the SM's shared memory.
  return std::min<int64_t>(target.getMaxSharedMemoryPerBlock(),
                           (target.getMaxSharedMemoryPerBlock() + 1024) / 2);
}

/// tcgen-stage-epilogue's slabs: 16 rows of the warp tile's `warpN`
/// columns of C per warp.
static int64_t stagedEpilogueBytes(const ContractionInfo &info, int64_t warps,
                                   int64_t warpN) {
  return warps * 16 * warpN * info.cType.getIntOrFloatBitWidth() / 8;
}

int64_t mlir::tcgen::getSM80ExtraSharedBytes(const ContractionInfo &info,
                                             ArrayRef<int64_t> blockTile,
                                             ArrayRef<int64_t> warpTile,
                                             StringRef store) {
  if (blockTile.size() != 3 || warpTile.size() != 3 || warpTile[0] <= 0 ||
      warpTile[1] <= 0 || warpTile[2] <= 0)
    return 0; // the config verifier reports the tile
  int64_t cBytes = info.cType.getIntOrFloatBitWidth() / 8;
  int64_t splits = blockTile[2] / warpTile[2];
  int64_t warps = (blockTile[0] / warpTile[0]) * (blockTile[1] / warpTile[1]) *
                  splits;
  int64_t bytes = 0;
  // tcgen-split-k-reduce: the other shares' partial sums.
  if (splits > 1)
    bytes += (splits - 1) * blockTile[0] * blockTile[1] * cBytes;
  // tcgen-stage-epilogue: one 16-row slab of the warp tile per warp.
  if (store == "staged")
    bytes += stagedEpilogueBytes(info, warps, warpTile[1]);
  return bytes;
}

int64_t mlir::tcgen::chooseSM80Stages(const ContractionInfo &info,
                                      ArrayRef<int64_t> blockTile,
                                      ArrayRef<int64_t> warpTile,
                                      int64_t padding, StringRef store,
                                      TargetAttr target) {
  if (blockTile.size() != 3)
    return 2; // the config verifier reports the tile
  // Seed 003's bound: stages x (A + B tile bytes) within the budget, next
  // to the split-K scratch and the epilogue slabs; more than four stages
  // hide no more latency at 32-deep k-tiles (docs).
  int64_t bytes = stageBytes(info, blockTile, padding);
  int64_t budget = getSM80SharedMemoryBudget(target) -
                   getSM80ExtraSharedBytes(info, blockTile, warpTile, store);
  int64_t fit = budget / std::max<int64_t>(bytes, 1);
  return std::clamp<int64_t>(fit, 2, kMaxSM80Stages);
}

int64_t mlir::tcgen::getSharedMemoryBytes(const ContractionInfo &info,
                                          ConfigAttr config) {
  return stageBytes(info, config.getBlockTile(), config.getPadding()) *
         config.getStages();
}

/// The simt back end: f32 x f32 -> f32 on CUDA cores, static sizes, one
/// outermost batch dimension or none (analyzeContraction already asks for
/// contiguous rows).
static LogicalResult verifySIMTConfigFits(const ContractionInfo &info,
                                          ConfigAttr config,
                                          TargetAttr target) {
  if (failed(verifyBackendTakesSizes(info, "simt", target)))
    return failure();
  if (!info.aType.isF32() || !info.bType.isF32() || !info.cType.isF32())
    return info.op->emitOpError()
           << "the simt back end takes f32 x f32 -> f32 (CUDA-core FFMA), "
              "not "
           << typeName(info.aType) << " x " << typeName(info.bType) << " -> "
           << typeName(info.cType);
  if (info.batchReduce || info.anyBatchMiddle() || info.multiBatch())
    return info.op->emitOpError()
           << "the simt back end takes one batch dimension, outermost in A, "
              "B and C; summed batches, batches between the matrix "
              "dimensions and several batch dimensions need the sm90 back "
              "end";
  ArrayRef<int64_t> bt = config.getBlockTile();
  int64_t threads = config.getNumWarps() * 32;
  for (int64_t rows : {bt[0], bt[1]})
    if (rows * bt[2] % threads != 0)
      return info.op->emitOpError()
             << "simt block tile " << bt[0] << "x" << bt[1] << "x" << bt[2]
             << ": a " << rows << "x" << bt[2]
             << " operand tile does not split evenly over " << threads
             << " threads";
  int64_t smem = 2 * bt[2] * (bt[0] + bt[1] + 2 * config.getPadding()) * 4;
  if (smem > target.getMaxSharedMemoryPerBlock())
    return info.op->emitOpError()
           << "the simt tiles need " << smem
           << " bytes of shared memory, more than the "
           << target.getMaxSharedMemoryPerBlock() << " bytes one block may "
           << "use on " << target.getArch();
  return success();
}

/// How to get the sm90 back end on `target`: --target=sm_90a, or where the
/// target is sm_90a already (another back end was asked for)
/// --backend=sm90.
static std::string sm90Hint(TargetAttr target) {
  return target.getArch() == "sm_90a" ? "the sm90 back end (--backend=sm90)"
                                      : "the sm90 back end (--target=sm_90a)";
}

LogicalResult mlir::tcgen::verifyBackendTakesSizes(const ContractionInfo &info,
                                                   StringRef backend,
                                                   TargetAttr target) {
  if (!info.isDynamic() || backend == "sm90")
    return success();
  return info.op->emitOpError()
         << "sizes known only at run time (M, N or K is `?`) need "
         << sm90Hint(target) << "; the " << backend
         << " back end compiles static sizes only";
}

LogicalResult mlir::tcgen::verifyConfigFits(const ContractionInfo &info,
                                            ConfigAttr config,
                                            TargetAttr target) {
  if (info.blockScales && config.getBackend() != "sm90")
    return info.op->emitOpError()
           << "block-scaled fp8 needs " << sm90Hint(target) << "; the "
           << config.getBackend() << " back end does not scale blocks";
  if (config.getBackend() == "sm90")
    return verifySM90ConfigFits(info, config, target);
  if (config.getBackend() == "simt")
    return verifySIMTConfigFits(info, config, target);
  StringRef be = config.getBackend();
  if (failed(verifyBackendTakesSizes(info, be, target)))
    return failure();
  if (isFP8Type(info.aType))
    return info.op->emitOpError()
           << "fp8 (" << typeName(info.aType) << ") inputs need "
           << sm90Hint(target) << ", whose wgmma takes 8-bit floats; the " << be
           << " back end takes f16 and bf16";
  bool sm80 = be == "sm80";
  if (sm80 && target.getComputeCapability() < 80)
    return info.op->emitOpError("the sm80 back end needs cp.async and "
                                "mma.sync m16n8k16: --target=sm_80 or later, "
                                "not ")
           << target.getArch();
  if (info.batched)
    return info.op->emitOpError()
           << "the " << be
           << " back end takes unbatched matmuls only; batched contractions "
              "need "
           << sm90Hint(target);
  if (info.batchReduce)
    return info.op->emitOpError()
           << "the " << be
           << " back end takes one K dimension only; a sum over two K "
              "dimensions that do not collapse into one needs "
           << sm90Hint(target);
  if (info.cTransposed && !sm80)
    return info.op->emitOpError()
           << "the " << be
           << " back end writes a row-major C[m,n] only; a column-major "
              "C[n,m] needs the sm80 or sm90 back end";
  if (!sm80 && (info.aTransposed || info.bTransposed))
    return info.op->emitOpError()
           << "the " << be
           << " back end takes A[m,k] and B[k,n] only; transposed operands "
              "need --target=sm_80 or later (the sm80 back end) or the sm90 "
              "back end";
  if (sm80 && info.aType.isBF16() && !info.cType.isF32())
    return info.op->emitOpError(
        "the sm80 back end takes bf16 inputs with an f32 output only "
        "(mma.sync accumulates bf16 products in f32)");
  if ((!info.aType.isF16() && !(sm80 && info.aType.isBF16())) ||
      info.cType.isBF16())
    return info.op->emitOpError()
           << "the " << be << " back end takes f16 inputs"
           << (sm80 ? " (or bf16 with an f32 output)" : "")
           << " and an f16 or f32 output (its fragments are "
              "gpu.subgroup_mma's, which have no bf16); other types need "
           << sm90Hint(target);
  ArrayRef<int64_t> bt = config.getBlockTile();
  if (failed(verifyDivisible(info, bt)))
    return failure();
  int64_t smem = getSharedMemoryBytes(info, config);
  if (sm80) {
    // Intra-block split-K: the partial sums of the other shares meet in a
    // shared scratch buffer next to the stages (tcgen-split-k-reduce).
    if (config.getKSplits() > 1 && !getZeroFillOfOutput(info))
      return info.op->emitOpError()
             << "intra-block split-K (warp tile K " << config.getWarpTile()[2]
             << " < block tile K " << bt[2]
             << ") needs C = A*B (a zero fill of C): with C += A*B every "
                "share of K would add C";
    int64_t extra = getSM80ExtraSharedBytes(info, bt, config.getWarpTile(),
                                            config.getStore());
    smem += extra;
    // Dynamic shared memory (tcgen-dynamic-shared-memory) past 48 KiB.
    if (smem > target.getMaxSharedMemoryPerBlock())
      return info.op->emitOpError()
             << config.getStages() << " stages"
             << (extra ? " plus " + std::to_string(extra) +
                             " bytes of split-K scratch and epilogue slabs"
                       : std::string())
             << " need " << smem
             << " bytes of shared memory, more than the "
             << target.getMaxSharedMemoryPerBlock()
             << " bytes one block may use on " << target.getArch();
    // Unpadded tiles are XOR-swizzled: rows of a power of two bytes.
    int64_t elem = info.aType.getIntOrFloatBitWidth() / 8;
    if (config.getPadding() == 0 &&
        (!sm80Backend().canSwizzleRows(bt[2] * elem) ||
         !sm80Backend().canSwizzleRows(bt[1] * elem)))
      return info.op->emitOpError()
             << "unpadded sm80 tiles are XOR-swizzled, which needs rows of a "
                "power of two from 16 to 1024 bytes: A's are "
             << bt[2] * elem << ", B's " << bt[1] * elem
             << " (choose another tile or a padding)";
    if (config.getVector() * elem != 16)
      return info.op->emitOpError()
             << "sm80 copies are 16-byte cp.async: vector must be "
             << 16 / elem << ", not " << config.getVector();
    return success();
  }
  // Static shared memory is limited to 48 KiB per block; more than two
  // stages need the cp.async pipeline (tcgen-async-copies).
  if (config.getStages() > 8)
    return info.op->emitOpError()
           << "the wmma back end keeps 1 to 8 stages of shared buffers, not "
           << config.getStages();
  // A staged epilogue (tcgen-stage-epilogue): one 16-row slab of the warp
  // tile per warp, next to the tiles; past 48 KiB in dynamic shared memory.
  int64_t limit = getWMMASharedMemoryLimit(target);
  if (config.getStore() == "staged") {
    smem += stagedEpilogueBytes(info, config.getNumWarps(),
                                config.getWarpTile()[1]);
    limit = target.getMaxSharedMemoryPerBlock();
  }
  if (smem > limit)
    return info.op->emitOpError()
           << "configuration needs " << smem
           << " bytes of shared memory, more than the " << limit
           << " bytes available to one block on " << target.getArch();
  int64_t vecBytes =
      config.getVector() * info.aType.getIntOrFloatBitWidth() / 8;
  if (bt[2] % config.getVector() != 0 || bt[1] % config.getVector() != 0 ||
      vecBytes > 16)
    return info.op->emitOpError()
           << "copy vector width " << config.getVector()
           << " does not divide the tile rows or exceeds 16 bytes";
  return success();
}
