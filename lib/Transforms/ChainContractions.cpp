//===- ChainContractions.cpp - add(gemm, gemm) as one accumulation -*- C++ -*-===//
//
// This file implements tcgen-chain-contractions: the elementwise sum of two
// contractions that both start from zero, add(A B, A2 B2), becomes the
// second contraction accumulating onto the first, A2 B2 (+)= A B, which the
// back end computes in one kernel over both products' k-tiles.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENCHAINCONTRACTIONSPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

/// The contraction on tensors that defines `v`, if it starts from a zero
/// fill and `v` has no other use.
static linalg::LinalgOp zeroStartedContraction(Value v) {
  auto op = v.getDefiningOp<linalg::LinalgOp>();
  if (!op || !isContractionCandidate(op) || !op.hasPureTensorSemantics() ||
      op.getNumDpsInits() != 1 || !v.hasOneUse())
    return {};
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill || !(matchPattern(fill.value(), m_AnyZeroFloat()) ||
                 matchPattern(fill.value(), m_Zero())))
    return {};
  return op;
}

/// True if `op` is an elementwise sum of its two inputs into a fresh
/// output: linalg.add, or a generic with identity maps whose body is one
/// addf of the two input arguments.
static bool isPlainSum(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isIdentity())
      return false;
  Block *body = op.getBlock();
  if (!body || !llvm::hasSingleElement(body->without_terminator()))
    return false;
  auto add = dyn_cast<arith::AddFOp>(body->front());
  if (!add || body->getTerminator()->getOperand(0) != add.getResult())
    return false;
  Value x = body->getArgument(0), y = body->getArgument(1);
  return (add.getLhs() == x && add.getRhs() == y) ||
         (add.getLhs() == y && add.getRhs() == x);
}

struct ChainContractionsPass final
    : impl::TCGenChainContractionsPassBase<ChainContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> sums;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isContractionCandidate(op) && isPlainSum(op))
        sums.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp sum : sums) {
      Value x = sum.getDpsInputOperand(0)->get();
      Value y = sum.getDpsInputOperand(1)->get();
      linalg::LinalgOp first = zeroStartedContraction(x);
      linalg::LinalgOp second = zeroStartedContraction(y);
      if (!first || !second || first == second ||
          x.getType() != y.getType() || x.getType() != sum->getResultTypes()[0])
        continue;
      // The later of the two accumulates onto the earlier one's result.
      if (second->getBlock() != first->getBlock())
        continue;
      if (second->isBeforeInBlock(first))
        std::swap(first, second);
      rewriter.setInsertionPoint(sum);
      Operation *chained = rewriter.clone(*second);
      chained->setOperand(
          linalg::LinalgOp(chained).getDpsInitOperand(0)->getOperandNumber(),
          first->getResult(0));
      Value oldInit = second.getDpsInitOperand(0)->get();
      Value sumInit = sum.getDpsInitOperand(0)->get();
      rewriter.replaceOp(sum, chained->getResults());
      if (Operation *def = sumInit.getDefiningOp();
          def && isa<tensor::EmptyOp>(def) && def->use_empty())
        rewriter.eraseOp(def);
      rewriter.eraseOp(second);
      // The second product's zero fill (and its empty tensor) is dead.
      if (auto fill = oldInit.getDefiningOp<linalg::FillOp>();
          fill && fill->use_empty()) {
        Value dest = fill.getDpsInitOperand(0)->get();
        rewriter.eraseOp(fill);
        if (Operation *def = dest.getDefiningOp();
            def && isa<tensor::EmptyOp>(def) && def->use_empty())
          rewriter.eraseOp(def);
      }
    }
  }
};
} // namespace
} // namespace mlir::tcgen
