//===- PrefetchTiles.cpp - Register prefetch of the next K tile -*- C++ -*-===//
//
// This file implements tcgen-prefetch-tiles: the global->shared copies of
// iteration k+1 are split into global->register loads issued before the
// compute of iteration k and register->shared stores after it. With two
// stages the stores go to a second set of shared buffers, and one barrier
// per K tile is enough.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Config/Backend.h"

#include "tcgen/Transforms/KLoop.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENPREFETCHTILESPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;

/// True for the operations that write a tile into shared memory.
static bool isTileStore(Operation *op) {
  return isa<affine::AffineVectorStoreOp, affine::AffineStoreOp>(op);
}

/// The shared buffer a tile store writes.
static Value storedBuffer(Operation *op) {
  if (auto store = dyn_cast<affine::AffineVectorStoreOp>(op))
    return store.getMemRef();
  return cast<affine::AffineStoreOp>(op).getMemRef();
}

struct PrefetchTilesPass final
    : impl::TCGenPrefetchTilesPassBase<PrefetchTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp loop : collectKLoops(getOperation())) {
      // Back ends that always pipeline their copies with cp.async (sm80)
      // are not prefetched through registers.
      if (ConfigAttr config = getEnclosingConfig(loop);
          config && getTargetBackend(config.getBackend()).alwaysAsyncCopies())
        continue;
      if (failed(pipeline(loop)))
        return signalPassFailure();
    }
  }

  LogicalResult pipeline(AffineForOp loop) {
    if (!loop->getParentOfType<gpu::LaunchOp>())
      return loop.emitOpError("prefetching needs a mapped kernel (run "
                              "tcgen-map-to-gpu first)");
    std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
    if (!trip || *trip < 2 || !loop.hasConstantBounds())
      return success(); // nothing to overlap

    // The body must be: barrier; copy loops...; barrier; compute...; yield.
    FailureOr<KLoopBody> parts = splitKLoopBody(loop);
    if (failed(parts))
      return failure();
    Block *body = loop.getBody();
    SmallVector<Operation *> &copyOps = parts->copyOps;
    SmallVector<Operation *> &computeOps = parts->computeOps;
    auto yield = cast<affine::AffineYieldOp>(body->getTerminator());

    // Two stages: tile i lives in buffer i % 2 (buffers[v] = {v, second}).
    ConfigAttr config = getEnclosingConfig(loop);
    bool twoStages = config && config.getStages() >= 2;
    if (config && config.getStages() > 2)
      return loop.emitOpError("the register prefetch double-buffers at most "
                              "(stages 1 or 2), not ")
             << config.getStages() << " stages";
    llvm::MapVector<Value, Value> buffers;
    if (twoStages)
      for (Operation *o : copyOps) {
        if (!isTileStore(o) || buffers.contains(storedBuffer(o)))
          continue;
        Value buffer = storedBuffer(o);
        auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
        if (!get || loop->isAncestor(get))
          return o->emitOpError("two stages need the shared buffer to be a "
                                "memref.get_global outside the K loop");
        buffers[buffer] = cloneSharedBuffer(get, 1)[1];
      }

    int64_t lb = loop.getConstantLowerBound();
    int64_t step = loop.getStepAsInt();
    int64_t last = lb + (int64_t(*trip) - 1) * step;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    Value iv = loop.getInductionVar();

    // Prologue: the first tile, straight to shared memory.
    {
      IRMapping map;
      map.map(iv, arith::ConstantIndexOp::create(b, loc, lb).getResult());
      for (Operation *o : copyOps)
        b.clone(*o, map);
      gpu::BarrierOp::create(b, loc);
    }

    // Steady state over [lb, last): prefetch k + step, compute k.
    auto steady = AffineForOp::create(b, loc, lb, last, step, loop.getInits());
    for (NamedAttribute attr : loop->getDiscardableAttrs())
      steady->setAttr(attr.getName(), attr.getValue());
    {
      OpBuilder sb = OpBuilder::atBlockBegin(steady.getBody());
      if (!steady.getBody()->empty() &&
          steady.getBody()->back().hasTrait<OpTrait::IsTerminator>())
        steady.getBody()->back().erase();
      sb.setInsertionPointToEnd(steady.getBody());
      Value k = steady.getInductionVar();
      IRMapping next, cur;
      next.map(iv, affine::AffineApplyOp::create(
                       sb, loc,
                       AffineMap::get(
                           1, 0, getAffineDimExpr(0, sb.getContext()) + step),
                       k)
                       .getResult());
      cur.map(iv, k);
      if (twoStages) {
        // Odd iterations compute from the second buffers and fill the first.
        MLIRContext *ctx = sb.getContext();
        AffineExpr d0 = getAffineDimExpr(0, ctx);
        Value parity = affine::AffineApplyOp::create(
            sb, loc, AffineMap::get(1, 0, ((d0 - lb).floorDiv(step)) % 2), k);
        Value odd = arith::CmpIOp::create(
            sb, loc, arith::CmpIPredicate::ne, parity,
            arith::ConstantIndexOp::create(sb, loc, 0));
        for (auto [first, second] : buffers) {
          cur.map(first,
                  arith::SelectOp::create(sb, loc, odd, second, first));
          next.map(first,
                   arith::SelectOp::create(sb, loc, odd, first, second));
        }
      }
      for (auto [old, arg] :
           llvm::zip(loop.getRegionIterArgs(), steady.getRegionIterArgs()))
        cur.map(old, arg);
      // Loads of the next tile: everything of the copies but the stores.
      for (Operation *o : copyOps)
        if (!isTileStore(o))
          sb.clone(*o, next);
      for (Operation *o : computeOps)
        sb.clone(*o, cur);
      if (!twoStages)
        gpu::BarrierOp::create(sb, loc); // everyone is done reading the tile
      for (Operation *o : copyOps)
        if (isTileStore(o))
          sb.clone(*o, next);
      gpu::BarrierOp::create(sb, loc); // the next tile is complete
      SmallVector<Value> yields;
      for (Value v : yield.getOperands())
        yields.push_back(cur.lookupOrDefault(v));
      affine::AffineYieldOp::create(sb, loc, yields);
    }

    // Epilogue: the last tile's compute.
    b.setInsertionPointAfter(steady);
    IRMapping tail;
    tail.map(iv, arith::ConstantIndexOp::create(b, loc, last).getResult());
    if ((*trip - 1) % 2 == 1)
      for (auto [first, second] : buffers)
        tail.map(first, second);
    for (auto [old, result] :
         llvm::zip(loop.getRegionIterArgs(), steady.getResults()))
      tail.map(old, result);
    for (Operation *o : computeOps)
      b.clone(*o, tail);
    SmallVector<Value> results;
    for (Value v : yield.getOperands())
      results.push_back(tail.lookupOrDefault(v));
    loop->replaceAllUsesWith(results);
    loop.erase();
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
