//===- Configure.cpp - Attach #tcgen.config to contractions -----*- C++ -*-===//
//
// This file implements tcgen-configure: recognition, the default config,
// option overrides, and the fit checks.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Passes.h"

#include "tcgen/Config/Config.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENCONFIGUREPASS
#include "tcgen/Config/Passes.h.inc"

namespace {
struct ConfigurePass final
    : impl::TCGenConfigurePassBase<ConfigurePass> {
  using Base::Base;

  /// Applies the pass options on top of `config`.
  FailureOr<ConfigAttr> applyOverrides(ConfigAttr config, Operation *op) {
    SmallVector<int64_t> block(config.getBlockTile());
    SmallVector<int64_t> warp(config.getWarpTile());
    if (!blockTile.empty())
      block.assign(blockTile.begin(), blockTile.end());
    if (!warpTile.empty())
      warp.assign(warpTile.begin(), warpTile.end());
    int64_t pad = padding >= 0 ? int64_t(padding) : config.getPadding();
    int64_t vec = vector >= 0 ? int64_t(vector) : config.getVector();
    auto emit = [&] { return op->emitOpError("invalid configuration: "); };
    ConfigAttr result = ConfigAttr::getChecked(
        emit, op->getContext(),
        backend.empty() ? config.getBackend() : StringRef(backend),
        ArrayRef<int64_t>(block),
        ArrayRef<int64_t>(warp),
        config.getMmaShape(), config.getStages(), pad, vec);
    if (!result)
      return failure();
    return result;
  }

  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](linalg::LinalgOp op) {
      if (!isContractionCandidate(op))
        return WalkResult::advance();
      FailureOr<ContractionInfo> info = analyzeContraction(op);
      if (failed(info))
        return WalkResult::interrupt();
      TargetAttr target = getTargetOrDefault(op);
      ConfigAttr config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
      if (!config) {
        FailureOr<ConfigAttr> chosen = applyOverrides(
            getDefaultConfig(*info, target, StringRef(backend)), op);
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
