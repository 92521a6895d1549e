//===- SplitSharedFills.cpp - One fill per contraction ---------*- C++ -*-===//
//
// This file implements tcgen-split-shared-fills: a fill of an empty tensor
// that initializes several contractions is cloned for each contraction
// after the first, so that bufferization gives every product a buffer of
// its own, filled in place (a shared fill is otherwise filled once and
// copied).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSPLITSHAREDFILLSPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

/// The contractions on tensors that take `fill`'s result as their init, in
/// block order (all in one block; others are left alone).
static SmallVector<OpOperand *> contractionInits(linalg::FillOp fill) {
  SmallVector<OpOperand *> inits;
  for (OpOperand &use : fill->getResult(0).getUses()) {
    auto op = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (op && isContractionCandidate(op) && op.hasPureTensorSemantics() &&
        op.isDpsInit(&use) && op->getBlock() == fill->getBlock())
      inits.push_back(&use);
  }
  llvm::sort(inits, [](OpOperand *x, OpOperand *y) {
    return x->getOwner()->isBeforeInBlock(y->getOwner());
  });
  return inits;
}

struct SplitSharedFillsPass final
    : impl::TCGenSplitSharedFillsPassBase<SplitSharedFillsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() &&
          fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
        fills.push_back(fill);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::FillOp fill : fills) {
      SmallVector<OpOperand *> inits = contractionInits(fill);
      if (inits.size() < 2)
        continue;
      auto empty =
          fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>();
      // The first contraction keeps the fill; each later one gets a copy
      // of the fill and of its empty tensor, just before it.
      for (OpOperand *init : llvm::drop_begin(inits)) {
        rewriter.setInsertionPoint(init->getOwner());
        Operation *newEmpty = rewriter.clone(*empty);
        IRMapping map;
        map.map(empty.getResult(), newEmpty->getResult(0));
        Operation *newFill = rewriter.clone(*fill, map);
        rewriter.modifyOpInPlace(init->getOwner(), [&] {
          init->set(newFill->getResult(0));
        });
      }
    }
  }
};
} // namespace
} // namespace mlir::tcgen
