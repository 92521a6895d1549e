//===- RaiseCFToSCF.cpp - Recover scf.if/scf.while/scf.for ----------------===//
//
// This file implements tcgen-raise-cf-to-scf: MLIR's CFG-to-SCF lifting
// over a raised kernel, then `scf.while` loops with an induction variable
// uplifted to `scf.for`.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRAISECFTOSCFPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

namespace {
/// `iv <= n` in a while loop's condition, where the loop's increment of
/// `iv` is `addi nsw` by a positive constant, becomes `iv < n + 1`: with
/// no signed overflow (undefined in CUDA C++, hence nsw), a loop that runs
/// has n < INT_MAX, so n + 1 does not wrap. scf.for needs the strict form.
struct StrictLoopBound final : OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::WhileOp loop,
                                PatternRewriter &rewriter) const override {
    Block &before = loop.getBefore().front();
    auto cond = dyn_cast<scf::ConditionOp>(before.getTerminator());
    auto cmp = cond ? cond.getCondition().getDefiningOp<arith::CmpIOp>()
                    : arith::CmpIOp();
    if (!cmp || cmp->getBlock() != &before ||
        cmp.getPredicate() != arith::CmpIPredicate::sle)
      return rewriter.notifyMatchFailure(loop, "no `sle` condition");
    auto iv = dyn_cast<BlockArgument>(cmp.getLhs());
    if (!iv || iv.getOwner() != &before ||
        loop->isAncestor(cmp.getRhs().getParentRegion()->getParentOp()))
      return rewriter.notifyMatchFailure(loop, "bound defined in the loop");
    // The value yielded back for `iv` must be `iv' + c` (nsw, c > 0), where
    // iv' is what the condition forwards for it.
    auto yield = cast<scf::YieldOp>(loop.getAfter().front().getTerminator());
    // The condition forwards iv to the after block in the same position
    // (uplift requires it too).
    if (cond.getArgs().size() <= iv.getArgNumber() ||
        cond.getArgs()[iv.getArgNumber()] != iv)
      return rewriter.notifyMatchFailure(loop, "iv not forwarded in place");
    Value next = yield.getOperand(iv.getArgNumber());
    auto add = next.getDefiningOp<arith::AddIOp>();
    APInt step;
    if (!add ||
        !bitEnumContainsAll(add.getOverflowFlags(),
                            arith::IntegerOverflowFlags::nsw) ||
        !matchPattern(add.getRhs(), m_ConstantInt(&step)) ||
        !step.isStrictlyPositive())
      return rewriter.notifyMatchFailure(loop, "no nsw positive increment");
    rewriter.setInsertionPoint(loop);
    Value one = arith::ConstantOp::create(
        rewriter, cmp.getLoc(),
        rewriter.getIntegerAttr(cmp.getRhs().getType(), 1));
    Value bound = arith::AddIOp::create(rewriter, cmp.getLoc(), cmp.getRhs(),
                                        one, arith::IntegerOverflowFlags::nsw);
    rewriter.modifyOpInPlace(cmp, [&] {
      cmp.setPredicate(arith::CmpIPredicate::slt);
      cmp.getRhsMutable().assign(bound);
    });
    return success();
  }
};

struct RaiseCFToSCFPass final
    : tcgen::impl::TCGenRaiseCFToSCFPassBase<RaiseCFToSCFPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal() || fn.getBody().hasOneBlock())
      return upliftLoops();
    ControlFlowToSCFTransformation transformation;
    auto &dom = getAnalysis<DominanceInfo>();
    FailureOr<bool> changed =
        transformCFGToSCF(fn.getBody(), transformation, dom);
    if (failed(changed) || !fn.getBody().hasOneBlock()) {
      fn.emitError() << "control flow of @" << fn.getSymName()
                     << " could not be recovered into scf";
      return signalPassFailure();
    }
    upliftLoops();
  }

  void upliftLoops() {
    // The lifted loops carry the lifting's bookkeeping (forwarded values,
    // constant selectors) until canonicalization folds it away, so the
    // uplift runs together with every canonicalization pattern.
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    patterns.add<StrictLoopBound>(ctx);
    scf::populateUpliftWhileToForPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
