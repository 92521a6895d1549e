//===- Tile.cpp - Two-level tiling of the contraction nest ------*- C++ -*-===//
//
// This file implements tcgen-tile: the (m, n, k) nest is tiled with the
// block tile and the intra-tile loops again with the warp tile.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/LoopUtils.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENTILEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
struct TilePass final : impl::TCGenTilePassBase<TilePass> {
  using Base::Base;

  void runOnOperation() override {
    for (affine::AffineForOp root : getConfiguredNests(getOperation()))
      if (failed(tile(root)))
        return signalPassFailure();
  }

  LogicalResult tile(affine::AffineForOp root) {
    if (getLoopRole(root) != "m")
      return success(); // already tiled
    auto config = root->getAttrOfType<ConfigAttr>(kConfigAttrName);
    bool overwrite = root->hasAttr(kOverwriteAttrName);
    SmallVector<affine::AffineForOp> band;
    affine::getPerfectlyNestedLoops(band, root);
    if (band.size() != 3 || getLoopRole(band[1]) != "n" ||
        getLoopRole(band[2]) != "k")
      return root.emitOpError("expected a perfect (m, n, k) nest to tile");

    SmallVector<unsigned> blockSizes, warpSizes;
    for (int64_t s : config.getBlockTile())
      blockSizes.push_back(s);
    for (int64_t s : config.getWarpTile())
      warpSizes.push_back(s);

    SmallVector<affine::AffineForOp> blockNest, warpNest;
    if (failed(affine::tilePerfectlyNested(band, blockSizes, &blockNest)))
      return root.emitOpError("block tiling failed");
    MutableArrayRef<affine::AffineForOp> intraBlock =
        MutableArrayRef(blockNest).drop_front(3);
    if (failed(affine::tilePerfectlyNested(intraBlock, warpSizes, &warpNest)))
      return root.emitOpError("warp tiling failed");

    static const char *roles[9] = {"block_m", "block_n", "block_k",
                                   "warp_m",  "warp_n",  "warp_k",
                                   "point_m", "point_n", "point_k"};
    SmallVector<affine::AffineForOp> all(blockNest.begin(),
                                         blockNest.begin() + 3);
    all.append(warpNest.begin(), warpNest.end());
    for (auto [loop, role] : llvm::zip(all, roles)) {
      loop->removeAttr(kConfigAttrName);
      loop->removeAttr(kOverwriteAttrName);
      setLoopRole(loop, role);
    }
    all.front()->setAttr(kConfigAttrName, config);
    if (overwrite)
      all.front()->setAttr(kOverwriteAttrName,
                           UnitAttr::get(root.getContext()));
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
