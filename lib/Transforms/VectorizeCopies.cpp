//===- VectorizeCopies.cpp - 128-bit global->shared copies ------*- C++ -*-===//
//
// This file implements tcgen-vectorize-copies: the inner loop of each copy
// nest moves `vector` elements per iteration.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENVECTORIZECOPIESPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;

struct VectorizeCopiesPass final
    : impl::TCGenVectorizeCopiesPassBase<VectorizeCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<AffineForOp> loops;
    getOperation().walk([&](AffineForOp loop) {
      if (getLoopRole(loop) == "copy_col")
        loops.push_back(loop);
    });
    for (AffineForOp loop : loops)
      if (failed(vectorize(loop)))
        return signalPassFailure();
  }

  LogicalResult vectorize(AffineForOp loop) {
    ConfigAttr config = getEnclosingConfig(loop);
    int64_t width = config ? config.getVector() : 1;
    if (width == 1 || loop.getStepAsInt() != 1)
      return success();
    std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
    if (!trip || *trip % width != 0)
      return loop.emitOpError("copy of ")
             << (trip ? int64_t(*trip) : -1)
             << " elements per row is not a multiple of the vector width "
             << width;
    auto load = dyn_cast<affine::AffineLoadOp>(&loop.getBody()->front());
    auto store =
        load ? dyn_cast<affine::AffineStoreOp>(load->getNextNode()) : nullptr;
    if (!load || !store || store.getValue() != load.getResult())
      return loop.emitOpError("expected a copy loop (one load, one store)");
    loop.setStep(width);
    auto vecType = VectorType::get({width}, load.getResult().getType());
    OpBuilder b(load);
    auto vload = affine::AffineVectorLoadOp::create(
        b, load.getLoc(), vecType, load.getMemRef(), load.getAffineMap(),
        load.getMapOperands());
    affine::AffineVectorStoreOp::create(b, store.getLoc(), vload.getResult(),
                                        store.getMemRef(), store.getAffineMap(),
                                        store.getMapOperands());
    store.erase();
    load.erase();
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
