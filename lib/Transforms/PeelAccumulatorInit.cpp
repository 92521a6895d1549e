//===- PeelAccumulatorInit.cpp - Contraction init into the epilogue -*- C++ -*-===//
//
// This file implements tcgen-peel-accumulator-init: a contraction on tensors
// whose initial value is computed by an elementwise op (relu(C) + A*B, a
// bias broadcast as the init) becomes the contraction from zero plus an
// elementwise add of that value, which the elementwise fusion then merges
// with the init's computation into one consumer: the kernel's epilogue.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENPEELACCUMULATORINITPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

/// True for a linalg op on tensors whose loops are all parallel and which is
/// neither a contraction, a fill nor a copy: an elementwise computation
/// (with broadcasts) of a contraction's initial value.
static bool isElementwiseProducer(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::FillOp, linalg::CopyOp>(op) ||
      isContractionCandidate(op))
    return false;
  return linalgOp.hasPureTensorSemantics() &&
         linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         linalgOp->getNumResults() == 1;
}

/// Rewrites `op` (init = g(...)) as add(op'(init = 0), g(...)); returns the
/// add.
static linalg::GenericOp peel(RewriterBase &rewriter, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  OpOperand *initOperand = op.getDpsInitOperand(0);
  Value init = initOperand->get();
  auto type = cast<RankedTensorType>(init.getType());
  Type element = type.getElementType();

  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, init);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, element);
  Value zero = arith::ConstantOp::create(rewriter, loc, element,
                                         rewriter.getZeroAttr(element));
  Value zeros =
      linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  Operation *fromZero = rewriter.clone(*op);
  fromZero->setOperand(initOperand->getOperandNumber(), zeros);

  int64_t rank = type.getRank();
  AffineMap id = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value out = tensor::EmptyOp::create(rewriter, loc, sizes, element);
  auto add = linalg::GenericOp::create(
      rewriter, loc, type, ValueRange{fromZero->getResult(0), init},
      ValueRange{out}, SmallVector<AffineMap>{id, id, id}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value sum = arith::AddFOp::create(b, l, args[0], args[1]);
        linalg::YieldOp::create(b, l, sum);
      });
  rewriter.replaceOp(op, add.getResults());
  return add;
}

struct PeelAccumulatorInitPass final
    : impl::TCGenPeelAccumulatorInitPassBase<PeelAccumulatorInitPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isContractionCandidate(op) || !op.hasPureTensorSemantics() ||
          op.getNumDpsInits() != 1)
        return;
      Value init = op.getDpsInitOperand(0)->get();
      if (!isa<FloatType>(getElementTypeOrSelf(init.getType())) ||
          !isElementwiseProducer(init.getDefiningOp()))
        return;
      ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops)
      peel(rewriter, op);
  }
};
} // namespace
} // namespace mlir::tcgen
