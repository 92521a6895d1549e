//===- AsyncCopies.cpp - Multi-stage cp.async pipelining ---------*- C++ -*-===//
//
// This file implements tcgen-async-copies: the global->shared copies of the
// K loop become asynchronous copies (cp.async, nvgpu.device_async_copy) into
// S stages of shared buffers, S - 1 tiles ahead of the compute (seed 003's
// multi-stage pipeline): tiles 0 .. S-2 are issued before the loop; iteration
// i waits until tile i has landed (at most S - 2 newer groups pending), meets
// the other threads at one barrier, issues tile i + S - 1 into buffer
// (i + S - 1) % S, the one iteration i - 1 read, and computes tile i from
// buffer i % S while S - 1 tiles are in flight. Every iteration commits one
// group (empty past the last tile), so the wait count stays S - 2 to the end.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Config/Backend.h"

#include "tcgen/Transforms/KLoop.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENASYNCCOPIESPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;

/// A copy of one vector from global to shared memory: the load and the
/// store of the (unrolled) copy loops.
struct TileCopy {
  affine::AffineVectorLoadOp load;
  affine::AffineVectorStoreOp store;
};

/// The indices an affine access computes, as index values.
static SmallVector<Value> accessIndices(OpBuilder &b, Location loc,
                                        AffineMap map, ValueRange operands) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(affine::AffineApplyOp::create(
                          b, loc, map.getSubMap({r}), operands)
                          .getResult());
  return indices;
}

struct AsyncCopiesPass final
    : impl::TCGenAsyncCopiesPassBase<AsyncCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp loop : collectKLoops(getOperation())) {
      ConfigAttr config = getEnclosingConfig(loop);
      // Back ends that take cp.async stages always (sm80); the others'
      // (wmma) only when asked.
      if (config &&
          !getTargetBackend(config.getBackend()).alwaysAsyncCopies() && !wmma)
        continue;
      if (failed(pipeline(loop)))
        return signalPassFailure();
    }
  }

  LogicalResult pipeline(AffineForOp loop) {
    if (!loop->getParentOfType<gpu::LaunchOp>())
      return loop.emitOpError("async copies need a mapped kernel (run "
                              "tcgen-map-to-gpu first)");
    std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
    if (!trip || !loop.hasConstantBounds())
      return loop.emitOpError("async copies need a K loop with a constant "
                              "trip count");
    ConfigAttr config = getEnclosingConfig(loop);
    int64_t stages = config ? config.getStages() : 2;
    if (stages < 2 || stages > 8)
      return loop.emitOpError("async copies need 2 to 8 stages, not ")
             << stages;

    // The body must be: barrier; copy loops...; barrier; compute...; yield.
    FailureOr<KLoopBody> parts = splitKLoopBody(loop);
    if (failed(parts))
      return failure();
    Block *body = loop.getBody();

    // Every copy is a vector load from global memory whose only use is a
    // vector store into a shared buffer; the rest is index arithmetic.
    SmallVector<Operation *> indexOps;
    SmallVector<Operation *> &computeOps = parts->computeOps;
    SmallVector<TileCopy> copies;
    for (Operation *o : parts->copyOps) {
      if (auto store = dyn_cast<affine::AffineVectorStoreOp>(o)) {
        auto load =
            store.getValueToStore().getDefiningOp<affine::AffineVectorLoadOp>();
        if (!load || !load->hasOneUse())
          return store.emitOpError("async copies need each shared store to "
                                   "take a vector load's value");
        int64_t bytes = store.getVectorType().getNumElements() *
                        store.getVectorType().getElementTypeBitWidth() / 8;
        if (bytes != 4 && bytes != 8 && bytes != 16)
          return store.emitOpError("cp.async copies 4, 8 or 16 bytes, not ")
                 << bytes;
        copies.push_back({load, store});
        continue;
      }
      if (isa<affine::AffineVectorLoadOp>(o))
        continue;
      if (isa<affine::AffineStoreOp, affine::AffineLoadOp, memref::StoreOp,
              memref::LoadOp>(o))
        return o->emitOpError("async copies need vectorized copies (run "
                              "tcgen-vectorize-copies first)");
      indexOps.push_back(o);
    }
    auto yield = cast<affine::AffineYieldOp>(body->getTerminator());

    // S stages of every shared buffer.
    llvm::MapVector<Value, SmallVector<Value>> buffers;
    for (TileCopy c : copies) {
      Value buffer = c.store.getMemRef();
      if (buffers.contains(buffer))
        continue;
      auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
      if (!get || loop->isAncestor(get))
        return c.store.emitOpError("async copies need the shared buffer to "
                                   "be a memref.get_global outside the K "
                                   "loop");
      buffers[buffer] = cloneSharedBuffer(get, stages - 1);
    }

    int64_t lb = loop.getConstantLowerBound();
    int64_t step = loop.getStepAsInt();
    int64_t tiles = int64_t(*trip);
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    Value iv = loop.getInductionVar();

    // Maps every shared buffer to its copy of stage `stage` (an index).
    auto mapStage = [&](OpBuilder &b, Value stage, IRMapping &map) {
      for (auto &[buffer, stageBuffers] : buffers) {
        Value chosen = stageBuffers[0];
        for (int64_t s = 1; s < stages; ++s) {
          Value isS = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, stage,
              arith::ConstantIndexOp::create(b, loc, s));
          chosen = arith::SelectOp::create(b, loc, isS, stageBuffers[s], chosen);
        }
        map.map(buffer, chosen);
      }
    };
    // Issues the copies of the tile at `k` into stage `stage` (an index).
    auto issue = [&](OpBuilder &b, Value k, Value stage) {
      IRMapping map;
      map.map(iv, k);
      for (Operation *o : indexOps)
        b.clone(*o, map);
      mapStage(b, stage, map);
      for (TileCopy c : copies) {
        SmallVector<Value> loadOperands, storeOperands;
        for (Value v : c.load.getMapOperands())
          loadOperands.push_back(map.lookupOrDefault(v));
        for (Value v : c.store.getMapOperands())
          storeOperands.push_back(map.lookupOrDefault(v));
        SmallVector<Value> src = accessIndices(b, loc, c.load.getAffineMap(),
                                               loadOperands);
        SmallVector<Value> dst = accessIndices(
            b, loc, c.store.getAffineMap(), storeOperands);
        int64_t elements = c.store.getVectorType().getNumElements();
        int64_t bytes =
            elements * c.store.getVectorType().getElementTypeBitWidth() / 8;
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, map.lookupOrDefault(c.store.getMemRef()), dst,
            map.lookupOrDefault(c.load.getMemRef()), src,
            b.getIndexAttr(elements), /*srcElements=*/Value(),
            bytes == 16 ? b.getUnitAttr() : UnitAttr());
      }
    };
    auto tileAt = [&](OpBuilder &b, int64_t t) {
      return arith::ConstantIndexOp::create(b, loc, lb + t * step).getResult();
    };

    // Prologue: tiles 0 .. S-2, one group each (empty past the last tile).
    OpBuilder b(loop);
    for (int64_t t = 0; t < stages - 1; ++t) {
      if (t < tiles)
        issue(b, tileAt(b, t), arith::ConstantIndexOp::create(b, loc, t));
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
    }

    // The loop: wait for tile i, compute it, issue tile i + S - 1.
    auto steady = AffineForOp::create(b, loc, lb, lb + tiles * step, step,
                                      loop.getInits());
    for (NamedAttribute attr : loop->getDiscardableAttrs())
      steady->setAttr(attr.getName(), attr.getValue());
    {
      Block *sBody = steady.getBody();
      if (!sBody->empty() && sBody->back().hasTrait<OpTrait::IsTerminator>())
        sBody->back().erase();
      OpBuilder sb = OpBuilder::atBlockEnd(sBody);
      Value k = steady.getInductionVar();
      AffineExpr d0 = getAffineDimExpr(0, ctx);
      NVVM::CpAsyncWaitGroupOp::create(sb, loc, stages - 2);
      gpu::BarrierOp::create(sb, loc);
      IRMapping cur;
      cur.map(iv, k);
      Value stage = affine::AffineApplyOp::create(
          sb, loc, AffineMap::get(1, 0, (d0 - lb).floorDiv(step) % stages), k);
      mapStage(sb, stage, cur);
      for (auto [old, arg] :
           llvm::zip(loop.getRegionIterArgs(), steady.getRegionIterArgs()))
        cur.map(old, arg);
      // Tile i + S - 1, if there is one, into stage (i + S - 1) % S, before
      // the compute of tile i so that it overlaps it (the barrier above
      // ends iteration i - 1's reads of that stage).
      Value ahead = affine::AffineApplyOp::create(
          sb, loc, AffineMap::get(1, 0, d0 + (stages - 1) * step), k);
      Value inRange = arith::CmpIOp::create(
          sb, loc, arith::CmpIPredicate::slt, ahead,
          arith::ConstantIndexOp::create(sb, loc, lb + tiles * step));
      auto guard = scf::IfOp::create(sb, loc, inRange, /*withElse=*/false);
      {
        OpBuilder ib = guard.getThenBodyBuilder();
        Value aheadStage = affine::AffineApplyOp::create(
            ib, loc,
            AffineMap::get(1, 0,
                           ((d0 - lb).floorDiv(step) + stages - 1) % stages),
            k);
        issue(ib, ahead, aheadStage);
      }
      NVVM::CpAsyncCommitGroupOp::create(sb, loc);
      for (Operation *o : computeOps)
        sb.clone(*o, cur);
      SmallVector<Value> yields;
      for (Value v : yield.getOperands())
        yields.push_back(cur.lookupOrDefault(v));
      affine::AffineYieldOp::create(sb, loc, yields);
    }
    loop->replaceAllUsesWith(steady.getResults());
    loop.erase();
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
