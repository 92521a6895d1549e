//===- HoistAccumulators.cpp - Accumulators in registers --------*- C++ -*-===//
//
// This file implements tcgen-hoist-accumulators: loop permutation, full
// unrolling of the point loops, hoisting of the C fragment loads and stores
// out of the k loops (iter_args), and CSE of the A/B fragment loads.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENHOISTACCUMULATORSPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;

/// Moves `kLoop` below the warp loops directly in its body:
///   k { pre; wm { wn { body } }; post }  ->  wm { wn { k { pre; body; post } }
///   }
/// Legal when `pre`/`post` depend on k only (the copies and barriers that
/// tcgen-promote-operands creates): every (wm, wn) iteration then sees the
/// same tile contents for each k.
static LogicalResult sinkBelowWarpLoops(AffineForOp kLoop, AffineForOp warpM,
                                        AffineForOp warpN) {
  if (warpM->getBlock() != kLoop.getBody() ||
      warpN->getBlock() != warpM.getBody() ||
      warpM.getBody()->getOperations().size() != 2)
    return kLoop.emitOpError("expected block_k { warp_m { warp_n { ... } } }");
  Operation *after = warpM->getNextNode();
  warpM->moveBefore(kLoop);
  Block *nBody = warpN.getBody();
  kLoop->moveBefore(&nBody->front());
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(kLoop->getIterator()),
                            nBody->getTerminator()->getIterator())))
    op.moveBefore(after);
  return success();
}

/// A C fragment load and the store of its updated value, both directly in a
/// loop's body at loop-invariant indices.
struct AccumulatorPair {
  gpu::SubgroupMmaLoadMatrixOp load;
  gpu::SubgroupMmaStoreMatrixOp store;
};

/// Finds the accumulator pairs of `loop`. Returns failure when C is accessed
/// in the loop in any other way (then nothing can be hoisted).
static FailureOr<SmallVector<AccumulatorPair>> findPairs(AffineForOp loop) {
  SmallVector<AccumulatorPair> pairs;
  SmallVector<gpu::SubgroupMmaLoadMatrixOp> loads;
  SmallVector<gpu::SubgroupMmaStoreMatrixOp> stores;
  for (Operation &op : *loop.getBody()) {
    if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
      if (getOperandRole(load.getSrcMemref()) == "C")
        loads.push_back(load);
    if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
      stores.push_back(store);
  }
  for (gpu::SubgroupMmaLoadMatrixOp load : loads) {
    if (!loop.isDefinedOutsideOfLoop(load.getSrcMemref()) ||
        !llvm::all_of(load.getIndices(),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      return failure();
    auto it = llvm::find_if(stores, [&](gpu::SubgroupMmaStoreMatrixOp s) {
      return s.getDstMemref() == load.getSrcMemref() &&
             s.getIndices() == load.getIndices();
    });
    if (it == stores.end())
      return failure();
    pairs.push_back({load, *it});
  }
  // Any other access of C inside the loop (nested or not) blocks hoisting.
  size_t accesses = 0;
  Value c = pairs.empty() ? Value() : pairs.front().load.getSrcMemref();
  loop.walk([&](Operation *op) {
    if (c && llvm::is_contained(op->getOperands(), c))
      ++accesses;
  });
  if (accesses != 2 * pairs.size())
    return failure();
  return pairs;
}

/// Within `block`, forwards each C fragment store to the next load of the
/// same fragment and drops the stores that a later store overwrites. After
/// the point loops are unrolled, the k steps of one fragment follow each
/// other as load/compute/store triples; this leaves one load and one store
/// per fragment. Fragment accesses at different index values are assumed
/// disjoint (the fragments of one warp tile are).
static void forwardFragmentStores(Block &block) {
  using Key = std::pair<Value, SmallVector<Value>>;
  SmallVector<std::pair<Key, gpu::SubgroupMmaStoreMatrixOp>> pending;
  auto lookup = [&](Value memref, ValueRange indices) {
    return llvm::find_if(pending, [&](auto &entry) {
      return entry.first.first == memref &&
             llvm::equal(entry.first.second, indices);
    });
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op)) {
      auto it = lookup(load.getSrcMemref(), load.getIndices());
      if (it != pending.end() &&
          it->second.getSrc().getType() == load.getType()) {
        load.replaceAllUsesWith(it->second.getSrc());
        load.erase();
      }
    } else if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op)) {
      auto it = lookup(store.getDstMemref(), store.getIndices());
      if (it != pending.end()) {
        it->second.erase();
        pending.erase(it);
      }
      pending.push_back(
          {{store.getDstMemref(), SmallVector<Value>(store.getIndices())},
           store});
    } else if (op.getNumRegions() != 0 ||
               op.hasTrait<OpTrait::IsTerminator>()) {
      pending.clear(); // nested code may read C: stop forwarding
    }
  }
}

/// Carries the accumulators of `loop` in iter_args: loads (or zeros when
/// `zeroInit`) before the loop, stores after it.
static LogicalResult hoistOutOf(AffineForOp loop, bool zeroInit,
                                IRRewriter &rewriter) {
  FailureOr<SmallVector<AccumulatorPair>> pairs = findPairs(loop);
  if (failed(pairs) || pairs->empty())
    return failure();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits;
  for (AccumulatorPair &p : *pairs) {
    if (zeroInit) {
      auto type = cast<gpu::MMAMatrixType>(p.load.getType());
      Value zero = arith::ConstantOp::create(
          rewriter, p.load.getLoc(),
          rewriter.getZeroAttr(type.getElementType()));
      inits.push_back(gpu::SubgroupMmaConstantMatrixOp::create(
          rewriter, p.load.getLoc(), type, zero));
    } else {
      inits.push_back(rewriter.clone(*p.load)->getResult(0));
    }
  }
  unsigned oldResults = loop->getNumResults();
  SmallVector<NamedAttribute> tags(loop->getDiscardableAttrs());
  FailureOr<LoopLikeOpInterface> newLoop = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        SmallVector<Value> yields;
        for (AccumulatorPair &p : *pairs)
          yields.push_back(p.store.getSrc());
        return yields;
      });
  if (failed(newLoop))
    return failure();
  auto forOp = cast<AffineForOp>(newLoop->getOperation());
  for (NamedAttribute tag : tags)
    forOp->setAttr(tag.getName(), tag.getValue());
  rewriter.setInsertionPointAfter(forOp);
  for (auto [i, p] : llvm::enumerate(*pairs)) {
    rewriter.replaceAllUsesWith(p.load.getResult(),
                                forOp.getRegionIterArgs()[oldResults + i]);
    auto store = cast<gpu::SubgroupMmaStoreMatrixOp>(rewriter.clone(*p.store));
    store.getSrcMutable().assign(forOp->getResult(oldResults + i));
    rewriter.eraseOp(p.store);
    rewriter.eraseOp(p.load);
  }
  return success();
}

struct HoistAccumulatorsPass final
    : impl::TCGenHoistAccumulatorsPassBase<HoistAccumulatorsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp root : getConfiguredNests(getOperation()))
      if (failed(run(root)))
        return signalPassFailure();
    cse();
  }

  /// Merges identical index computations and redundant fragment loads.
  void cse() {
    IRRewriter rewriter(&getContext());
    DominanceInfo dom(getOperation());
    eliminateCommonSubExpressions(rewriter, dom, getOperation());
  }

  LogicalResult run(AffineForOp root) {
    AffineForOp blockK = findLoop(root, "block_k");
    AffineForOp warpM = findLoop(root, "warp_m");
    AffineForOp warpN = findLoop(root, "warp_n");
    if (!blockK || !warpM || !warpN)
      return root.emitOpError("expected a tiled nest (run tcgen-tile first)");
    // 1. (k, wm, wn) -> (wm, wn, k).
    if (warpM->getParentOp() == blockK.getOperation() &&
        failed(sinkBelowWarpLoops(blockK, warpM, warpN)))
      return failure();

    // 2. Point loops (m, n, k) -> (k, m, n), then unrolled.
    AffineForOp pm = findLoop(root, "point_m");
    AffineForOp pn = findLoop(root, "point_n");
    AffineForOp pk = findLoop(root, "point_k");
    if (pm && pn && pk && pn->getParentOp() == pm.getOperation() &&
        pk->getParentOp() == pn.getOperation()) {
      SmallVector<AffineForOp> nest = {pm, pn, pk};
      if (!affine::isValidLoopInterchangePermutation(nest, {1, 2, 0}))
        return pm.emitOpError("point-loop permutation (k, m, n) is illegal");
      affine::permuteLoops(nest, {1, 2, 0});
    }
    if (unroll) {
      for (StringRef role : {"point_n", "point_m", "point_k"})
        if (AffineForOp loop = findLoop(root, role))
          if (failed(affine::loopUnrollFull(loop)))
            return loop.emitOpError("could not be unrolled");
    }

    // 3. Accumulators out of warp_k, then out of block_k. CSE first so that
    // the load and the store of one fragment use the same index values.
    cse();
    bool zeroInit = root->hasAttr(kOverwriteAttrName);
    IRRewriter rewriter(root.getContext());
    if (AffineForOp warpK = findLoop(root, "warp_k")) {
      forwardFragmentStores(*warpK.getBody());
      moveLoopInvariantCode(cast<LoopLikeOpInterface>(warpK.getOperation()));
      (void)hoistOutOf(warpK, /*zeroInit=*/false, rewriter);
    }
    blockK = findLoop(root, "block_k");
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(blockK.getOperation()));
    (void)hoistOutOf(blockK, zeroInit, rewriter);
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
