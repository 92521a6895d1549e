//===- FuseElementwise.cpp - One generic per pointwise DAG ------*- C++ -*-===//
//
// This file implements tcgen-fuse-elementwise: elementwise named linalg ops
// are generalized and producer/consumer chains of elementwise generics on
// tensors are merged, so that a contraction's pointwise consumer is one op.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENFUSEELEMENTWISEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

/// True for a named op whose loops are all parallel and which is neither a
/// contraction, a fill nor a copy: what the generalization turns into an
/// elementwise generic.
static bool isElementwiseNamedOp(linalg::LinalgOp op) {
  if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(op))
    return false;
  if (isContractionCandidate(op))
    return false;
  return op.getNumLoops() == op.getNumParallelLoops() &&
         op.hasPureTensorSemantics();
}

/// True if `op` is a generic on tensors whose loops are all parallel.
static bool isElementwiseGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.hasPureTensorSemantics() &&
         generic.getNumLoops() == generic.getNumParallelLoops();
}

struct FuseElementwisePass final
    : impl::TCGenFuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isElementwiseNamedOp(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      // Named ops without a region builder stay as they are.
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          return isElementwiseGeneric(producer) &&
                 isElementwiseGeneric(fused->getOwner()) &&
                 producer->hasOneUse();
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tcgen
