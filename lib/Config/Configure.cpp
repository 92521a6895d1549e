//===- Configure.cpp - Attach #tcgen.config to contractions -----*- C++ -*-===//
//
// This file implements tcgen-configure: recognition, the default config,
// option overrides, and the fit checks.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Passes.h"

#include "tcgen/Analysis/Grouped.h"

#include "tcgen/Config/Backend.h"
#include "tcgen/Config/Config.h"
#include "tcgen/Config/TuningCache.h"

#include "mlir/AsmParser/AsmParser.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENCONFIGUREPASS
#include "tcgen/Config/Passes.h.inc"

/// The sm90 back end's stage formulas.
static const TargetBackend &sm90() { return getTargetBackend("sm90"); }

namespace {
struct ConfigurePass final : impl::TCGenConfigurePassBase<ConfigurePass> {
  using Base::Base;

  /// Applies the pass options on top of `config`.
  FailureOr<ConfigAttr> applyOverrides(ConfigAttr config, Operation *op,
                                       const ContractionInfo &info,
                                       TargetAttr target) {
    // Sizes the stage and tile arithmetic divide by: checked before use.
    auto positive = [&](StringRef name, ArrayRef<int64_t> sizes,
                        size_t count) -> LogicalResult {
      if (sizes.empty())
        return success();
      if (sizes.size() == count &&
          llvm::all_of(sizes, [](int64_t v) { return v > 0; }))
        return success();
      InFlightDiagnostic diag = op->emitOpError("--");
      diag << name << " takes " << count << " positive sizes, not ";
      llvm::interleave(
          sizes, [&](int64_t v) { diag << v; }, [&] { diag << ","; });
      return diag;
    };
    // The decision options are checked on every back end (the sm90 back
    // end's config takes them).
    for (auto [name, field, value] :
         {std::tuple<StringRef, StringRef, StringRef>{"pack", "pack", pack},
          {"prologue", "prologue", prologue},
          {"epilogue-loads", "epilogue_loads", epilogueLoads}}) {
      std::string why =
          value.empty() ? "" : ConfigAttr::checkDecision(field, value);
      if (!why.empty())
        return op->emitOpError("--")
               << name << StringRef(why).drop_front(field.size());
    }
    if (failed(positive("block-tile", blockTile, 3)) ||
        failed(positive("warp-tile", warpTile, 3)) ||
        failed(positive("thread-tile", threadTile, 2)) ||
        failed(positive("cluster", cluster, 2)))
      return failure();
    SmallVector<int64_t> block(config.getBlockTile());
    SmallVector<int64_t> warp(config.getWarpTile());
    if (!blockTile.empty())
      block.assign(blockTile.begin(), blockTile.end());
    if (!warpTile.empty())
      warp.assign(warpTile.begin(), warpTile.end());
    int64_t pad = padding >= 0 ? int64_t(padding) : config.getPadding();
    int64_t vec = vector >= 0 ? int64_t(vector) : config.getVector();
    int64_t group = raster >= 0 ? int64_t(raster) : config.getRaster();
    bool persist = persistent >= 0 ? persistent != 0 : config.getPersistent();
    // Asked-for stream-K without persistence is an error (the verifier
    // says so); the default simply follows persistence.
    // The default's stream-K belongs to its tile: an asked-for block tile
    // or cluster (clusters walk whole tiles) drops it unless stream-K is
    // asked for too.
    bool askedCluster = !cluster.empty() && cluster[0] * cluster[1] > 1;
    bool split = streamK >= 0 ? streamK != 0
                              : config.getStreamK() && persist &&
                                    !askedCluster && blockTile.empty();
    // Swapped, the kernel's problem is C^T = B^T A^T: the tile and the
    // ring are in its terms.
    // A block tile given without --swap is in the terms of the problem
    // itself (the base config is then unswapped; runOnOperation).
    bool swapped =
        swap >= 0 ? swap != 0 : config.getSwap() && blockTile.empty();
    // The default's cluster belongs to its own tile: a block tile, a swap
    // or stream-K asked for without a cluster run without one.
    SmallVector<int64_t> clusterShape(config.getCluster());
    if (!cluster.empty())
      clusterShape.assign(cluster.begin(), cluster.end());
    else if (!blockTile.empty() || swapped || streamK > 0)
      clusterShape = {1, 1};
    ContractionInfo kinfo = swapped ? swapRoles(info) : info;
    // A swapped default keeps its own store (TMA for a 16-bit C of the
    // model's swapped tile); a swap asked for stores from registers.
    std::string storeKind =
        store.empty() ? (swapped && !config.getSwap() ? std::string("global")
                                                      : config.getStore().str())
                      : std::string(store);
    SmallVector<int64_t> mma(config.getMmaShape());
    int64_t numStages;
    StringRef backendName =
        backend.empty() ? config.getBackend() : StringRef(backend);
    if (backendName == "sm90") {
      // One consumer warpgroup per 64 rows spans the whole block width: the
      // warp tile and the wgmma shape follow from the block tile, and the
      // ring takes whatever shared memory the block tile leaves.
      // A warp tile M asked for sets the rows of a consumer warpgroup
      // (several 64-row blocks); otherwise the config's where it still
      // divides the block and no stream-K or cluster is asked for (row
      // blocks take neither: the default's belong to its tile), else 64.
      // A consumer warpgroup's wgmma spans 64 rows: the ring's size below
      // is computed per 64-row block (warpM / 64 of them), so a warp tile
      // below 64 rows is refused here, with the config verifier's words
      // for any m that is not a multiple of 64.
      if (!warpTile.empty() && warpTile[0] < 64) {
        op->emitOpError("invalid configuration: warp tile m=")
            << warpTile[0] << " is not a multiple of the mma shape 64";
        return failure();
      }
      bool keepsRowBlocks = blockTile.empty() && block[0] % warp[0] == 0 &&
                            !split && clusterShape[0] * clusterShape[1] == 1;
      int64_t warpM = !warpTile.empty() ? warpTile[0]
                      : keepsRowBlocks  ? warp[0]
                                        : 64;
      warp = {warpM, block[1], block[2]};
      // A wgmma takes 32 bytes of K: k16 for 16-bit, k8 for tf32 operands.
      mma = {64, block[1], 32 / (info.aType.getIntOrFloatBitWidth() / 8)};
      // The ring follows the block tile when the options change it (or
      // the store); otherwise the config's own (a tuned one may be
      // shallower than the deepest that fits).
      bool reshaped = !blockTile.empty() || !store.empty() ||
                      warpM != config.getWarpTile()[0] ||
                      swapped != config.getSwap();
      numStages =
          stages >= 0 ? int64_t(stages)
          : reshaped
              ? sm90().getStagesThatFit(
                    block[0], block[1],
                    block[2] * (info.aType.getIntOrFloatBitWidth() / 8) / 2,
                    storeKind != "global",
                    // swap's narrow B: K-major copies.
                    readsBKMajor(kinfo) ||
                        sm90().swapCopiesB(swapped, block[1]),
                    swapped ? sm90().getSwapStages(block[0]) : 8,
                    // Row blocks share the store buffers.
                    warpM / 64)
              : config.getStages();
    } else if (backendName == "sm80") {
      // sm80: the deepest cp.async pipeline the budget holds, recomputed
      // when the options change the tile or the padding.
      bool reshaped = !blockTile.empty() || !warpTile.empty() ||
                      padding >= 0 || !store.empty() ||
                      config.getBackend() != "sm80";
      numStages = stages >= 0 ? int64_t(stages)
                  : reshaped  ? chooseSM80Stages(info, block, warp, pad,
                                                 storeKind, target)
                              : config.getStages();
      mma = {16, 16, 16};
    } else if (backendName == "simt") {
      // CUDA cores: shared double buffer fed from registers; the thread
      // tile is the config's mma field.
      numStages = stages >= 0 ? int64_t(stages) : 2;
      if (config.getBackend() != "simt")
        mma = {4, 4, 1};
      // (`positive` above checked that a thread tile has two sizes.)
      if (!threadTile.empty())
        mma = {threadTile[0], threadTile[1], 1};
      warp[2] = block[2];
    } else {
      // wmma: double-buffer where two stages of the tiles fit.
      numStages = stages >= 0 ? int64_t(stages)
                              : chooseWMMAStages(info, block, pad, target);
    }
    // The sm90 back end's decisions: an option, else the base config's
    // (a tuned record's), else auto; the other back ends take none.
    bool sm90Decides = backendName == "sm90";
    auto decision = [&](StringRef option, StringRef own) {
      return !sm90Decides       ? StringRef("auto")
             : !option.empty() ? option
                               : own;
    };
    StringRef packMode = decision(pack, config.getPack());
    StringRef prologueMode = decision(prologue, config.getPrologue());
    StringRef loadsMode = decision(epilogueLoads, config.getEpilogueLoads());
    bool inHalf = sm90Decides && (epilogueInHalf || config.getEpilogueInHalf());
    auto emit = [&] { return op->emitOpError("invalid configuration: "); };
    ConfigAttr result = ConfigAttr::getChecked(
        emit, op->getContext(), backendName, ArrayRef<int64_t>(block),
        ArrayRef<int64_t>(warp), ArrayRef<int64_t>(mma), numStages, pad, vec,
        group, persist, split, ArrayRef<int64_t>(clusterShape),
        StringRef(storeKind), swapped, packMode, prologueMode, loadsMode,
        inHalf);
    if (!result)
      return failure();
    return result;
  }

  /// The configuration `cache` holds for `info` on the device, null if
  /// none; failure (with an error) if the record does not parse.
  FailureOr<ConfigAttr> lookUpTuned(const TuningCache &cache, Operation *op,
                                    const ContractionInfo &info,
                                    TargetAttr target) {
    const TuningEntry *entry = cache.find(device, getTuningKey(info, target));
    if (!entry)
      return ConfigAttr();
    auto config = dyn_cast_or_null<ConfigAttr>(
        parseAttribute(entry->config, op->getContext()));
    if (!config)
      return op->emitOpError()
             << "the tuning cache " << tuningCache << " holds '"
             << entry->config << "' for this problem on '" << entry->device
             << "', which is not a valid #tcgen.config";
    return config;
  }

  /// The configuration options given (not at their defaults), by name.
  std::string givenConfigOption() const {
    std::pair<bool, const char *> given[] = {
        {!blockTile.empty(), "block-tile"},
        {!warpTile.empty(), "warp-tile"},
        {!threadTile.empty(), "thread-tile"},
        {!backend.empty() && backend != "sm90", "backend"},
        {padding >= 0, "padding"},
        {vector >= 0, "vector"},
        {raster >= 0, "raster"},
        {persistent >= 0, "persistent"},
        {streamK >= 0, "stream-k"},
        {!cluster.empty(), "cluster"},
        {swap >= 0, "swap"},
        {!store.empty(), "store"},
        {!pack.empty(), "pack"},
        {!prologue.empty(), "prologue"},
        {!epilogueLoads.empty(), "epilogue-loads"},
        {epilogueInHalf, "epilogue-in-half"},
        {stages >= 0, "stages"}};
    for (auto [isGiven, name] : given)
      if (isGiven)
        return name;
    return "";
  }

  /// Grouped products (Analysis/Grouped.h) take the sm90 grouped kernel's
  /// default config or one written on the op: a configuration option would
  /// not reach them, so it is refused at the op instead of ignored.
  LogicalResult checkGroupedOptions() {
    std::string option = givenConfigOption();
    WalkResult walk = getOperation().walk([&](Operation *op) {
      if (option.empty() || !isGroupedCandidate(op))
        return WalkResult::advance();
      op->emitOpError("grouped product: --")
          << option
          << " is not applied to grouped products yet (their config is the "
             "sm90 grouped kernel's default, or a #tcgen.config written on "
             "the op)";
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }

  void runOnOperation() override {
    if (failed(checkGroupedOptions()))
      return signalPassFailure();
    std::optional<TuningCache> cache;
    if (!tuningCache.empty()) {
      std::string error;
      cache = TuningCache::load(tuningCache, error);
      if (!cache) {
        getOperation().emitError() << error;
        return signalPassFailure();
      }
    }
    WalkResult walk = getOperation().walk([&](linalg::LinalgOp op) {
      if (!isContractionCandidate(op))
        return WalkResult::advance();
      FailureOr<ContractionInfo> info = analyzeContraction(op);
      if (failed(info))
        return WalkResult::interrupt();
      TargetAttr target = getTargetOrDefault(op);
      // f32 operands run on tensor cores only as tf32: an opt-in, as in
      // cuBLAS (CUBLAS_COMPUTE_32F_FAST_TF32); otherwise on CUDA cores.
      StringRef f32Backend;
      if (info->aType.isF32() && info->bType.isF32() && !allowTf32) {
        if (!backend.empty() && backend != "simt") {
          op->emitOpError("f32 x f32 runs on the ")
              << backend
              << " back end's tensor cores only as tf32 (10-bit mantissas, "
                 "f32 accumulation); pass --allow-tf32 to accept that, or "
                 "use the simt back end (CUDA cores, full f32)";
          return WalkResult::interrupt();
        }
        f32Backend = "simt";
      }
      ConfigAttr config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
      if (!config) {
        StringRef chosenBackend = !backend.empty()  ? StringRef(backend)
                                  : !f32Backend.empty() ? f32Backend
                                               : getDefaultBackend(*info, target);
        if (failed(verifyBackendTakesSizes(*info, chosenBackend, target)))
          return WalkResult::interrupt();
        const model::DeviceConstants *constants =
            cache ? cache->constants(device) : nullptr;
        // add(gemm, gemm): the kernel built from this contraction walks
        // both products' k-tiles, so its tile is chosen for K1 + K2.
        ContractionInfo sized = *info;
        if (linalg::LinalgOp first = findFirstProduct(op))
          if (FailureOr<ContractionInfo> f = analyzeContraction(first);
              succeeded(f))
            sized.k += f->k;
        // swap: as asked; otherwise the small-M rule, unless a block tile
        // is given (in the problem's own terms).
        int swapPreference = swap >= 0 ? int(swap) : blockTile.empty() ? -1 : 0;
        ConfigAttr base = getDefaultConfig(sized, target, chosenBackend,
                                           constants, modelRank,
                                           swapPreference);
        // A retry with the model's next choice (model-rank > 0) means the
        // first config did not build: the cache's is not tried again. Where
        // the small-M rule swaps, only a swapped record stands over it (a
        // record of a tuner that timed no swapped kernel does not); an
        // asked-for --swap keeps records of the other kind out.
        if (cache && modelRank == 0) {
          FailureOr<ConfigAttr> tuned = lookUpTuned(*cache, op, *info, target);
          if (failed(tuned))
            return WalkResult::interrupt();
          ConfigAttr record = *tuned;
          bool swapFits = record && (swap >= 0
                                         ? record.getSwap() == (swap != 0)
                                         : !base.getSwap() || record.getSwap());
          if (swapFits && record.getBackend() == chosenBackend)
            base = record;
        }
        FailureOr<ConfigAttr> chosen =
            applyOverrides(base, op, *info, target);
        if (failed(chosen))
          return WalkResult::interrupt();
        config = *chosen;
      }
      if (failed(verifyConfigFits(*info, config, target)))
        return WalkResult::interrupt();
      op->setAttr(kConfigAttrName, config);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tcgen
