//===- RaiseToAffine.cpp - scf.for and memref accesses to affine ----------===//
//
// This file implements tcgen-raise-to-affine: integer loops become index
// loops, index computations of sign-extended i32 values become index
// arithmetic, and loops and accesses whose bounds and indices are affine
// in the enclosing loops and the function's symbols become affine ops.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRAISETOAFFINEPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// Rebuilds i32/i64 index computations as index arithmetic.
class IndexPromoter {
public:
  explicit IndexPromoter(func::FuncOp fn) : fn(fn) {}

  /// `v` (an integer) as an index value, or null when some part of its
  /// computation may wrap (no nsw) or is not add/sub/mul/constant/
  /// sign-extension/parameter/cast of an index.
  Value promote(Value v) {
    if (v.getType().isIndex())
      return v;
    auto it = cache.find(v);
    if (it != cache.end())
      return it->second;
    Value result = build(v);
    cache[v] = result;
    return result;
  }

private:
  Value build(Value v) {
    OpBuilder b(fn.getContext());
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c))) {
      b.setInsertionPointToStart(&fn.getBody().front());
      return arith::ConstantIndexOp::create(b, v.getLoc(), c.getSExtValue());
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &fn.getBody().front())
        return nullptr;
      b.setInsertionPointToStart(&fn.getBody().front());
      return arith::IndexCastOp::create(b, v.getLoc(), b.getIndexType(), v);
    }
    Operation *def = v.getDefiningOp();
    if (auto ext = dyn_cast<arith::ExtSIOp>(def))
      return promote(ext.getIn());
    if (auto cast = dyn_cast<arith::IndexCastOp>(def))
      return cast.getIn().getType().isIndex() ? cast.getIn() : nullptr;
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
      return nullptr;
    auto flags = cast<arith::ArithIntegerOverflowFlagsInterface>(def);
    if (!flags.hasNoSignedWrap())
      return nullptr;
    Value lhs = promote(def->getOperand(0));
    Value rhs = promote(def->getOperand(1));
    if (!lhs || !rhs)
      return nullptr;
    b.setInsertionPoint(def);
    Location loc = def->getLoc();
    if (isa<arith::AddIOp>(def))
      return arith::AddIOp::create(b, loc, lhs, rhs);
    if (isa<arith::SubIOp>(def))
      return arith::SubIOp::create(b, loc, lhs, rhs);
    return arith::MulIOp::create(b, loc, lhs, rhs);
  }

  func::FuncOp fn;
  DenseMap<Value, Value> cache;
};

/// Builds affine expressions of index values over dims (enclosing
/// affine.for induction variables) and symbols.
struct AffineBuilder {
  SmallVector<Value> dims, syms;

  FailureOr<AffineExpr> expr(Value v, MLIRContext *ctx) {
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return getAffineConstantExpr(c.getSExtValue(), ctx);
    if (affine::isAffineForInductionVar(v)) {
      auto *it = llvm::find(dims, v);
      if (it == dims.end()) {
        dims.push_back(v);
        it = dims.end() - 1;
      }
      return getAffineDimExpr(it - dims.begin(), ctx);
    }
    Operation *def = v.getDefiningOp();
    if (def && isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
      FailureOr<AffineExpr> l = expr(def->getOperand(0), ctx);
      FailureOr<AffineExpr> r = expr(def->getOperand(1), ctx);
      if (failed(l) || failed(r))
        return failure();
      if (isa<arith::AddIOp>(def))
        return *l + *r;
      if (isa<arith::SubIOp>(def))
        return *l - *r;
      if (!l->isSymbolicOrConstant() && !r->isSymbolicOrConstant())
        return failure();
      // A product of two symbols is not affine either.
      if (!isa<AffineConstantExpr>(*l) && !isa<AffineConstantExpr>(*r))
        return failure();
      return *l * *r;
    }
    if (affine::isValidSymbol(v)) {
      auto *it = llvm::find(syms, v);
      if (it == syms.end()) {
        syms.push_back(v);
        it = syms.end() - 1;
      }
      return getAffineSymbolExpr(it - syms.begin(), ctx);
    }
    return failure();
  }

  /// The map of `exprs` and its operands (dims then symbols).
  std::pair<AffineMap, SmallVector<Value>> finish(ArrayRef<AffineExpr> exprs,
                                                  MLIRContext *ctx) {
    AffineMap map = AffineMap::get(dims.size(), syms.size(), exprs, ctx);
    SmallVector<Value> operands(dims);
    llvm::append_range(operands, syms);
    affine::canonicalizeMapAndOperands(&map, &operands);
    return {map, operands};
  }
};

/// Turns integer scf.for loops into index loops (the body sees the old
/// value through an index_cast).
static void indexLoops(func::FuncOp fn, IndexPromoter &promoter) {
  fn.walk([&](scf::ForOp loop) {
    Type type = loop.getInductionVar().getType();
    if (type.isIndex())
      return;
    Value lb = promoter.promote(loop.getLowerBound());
    Value ub = promoter.promote(loop.getUpperBound());
    Value step = promoter.promote(loop.getStep());
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    if (!lb)
      lb = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      loop.getLowerBound());
    if (!ub)
      ub = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      loop.getUpperBound());
    if (!step)
      step =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), loop.getStep());
    auto iv = cast<BlockArgument>(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
    auto narrow = arith::IndexCastOp::create(b, loc, type, iv);
    iv.replaceAllUsesExcept(narrow, narrow);
    iv.setType(b.getIndexType());
    loop.getLowerBoundMutable().assign(lb);
    loop.getUpperBoundMutable().assign(ub);
    loop.getStepMutable().assign(step);
  });
}

/// Replaces `loop` by an affine.for when its bounds are affine and its
/// step a positive constant.
static void raiseLoop(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return;
  AffineBuilder lbBuilder, ubBuilder;
  FailureOr<AffineExpr> lb = lbBuilder.expr(loop.getLowerBound(), ctx);
  FailureOr<AffineExpr> ub = ubBuilder.expr(loop.getUpperBound(), ctx);
  if (failed(lb) || failed(ub))
    return;
  auto [lbMap, lbOperands] = lbBuilder.finish(*lb, ctx);
  auto [ubMap, ubOperands] = ubBuilder.finish(*ub, ctx);
  IRRewriter rewriter(loop);
  auto affineLoop = affine::AffineForOp::create(
      rewriter, loop.getLoc(), lbOperands, lbMap, ubOperands, ubMap,
      step.getSExtValue(), loop.getInitArgs(),
      [](OpBuilder &, Location, Value, ValueRange) {});
  Block *body = affineLoop.getBody();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  rewriter.setInsertionPoint(yield);
  affine::AffineYieldOp::create(rewriter, yield.getLoc(), yield.getOperands());
  rewriter.eraseOp(yield);
  rewriter.mergeBlocks(loop.getBody(), body, body->getArguments());
  rewriter.replaceOp(loop, affineLoop.getResults());
}

/// Replaces a memref.load/store by its affine form when every index is
/// affine.
template <typename OpTy>
static void raiseAccess(OpTy op, IndexPromoter &promoter) {
  MLIRContext *ctx = op.getContext();
  AffineBuilder builder;
  SmallVector<AffineExpr> exprs;
  for (Value index : op.getIndices()) {
    Value promoted = index;
    if (auto cast = index.getDefiningOp<arith::IndexCastOp>())
      if (Value p = promoter.promote(cast.getIn()))
        promoted = p;
    FailureOr<AffineExpr> e = builder.expr(promoted, ctx);
    if (failed(e))
      return;
    exprs.push_back(*e);
  }
  auto [map, operands] = builder.finish(exprs, ctx);
  IRRewriter rewriter(op);
  if constexpr (std::is_same_v<OpTy, memref::LoadOp>)
    rewriter.replaceOpWithNewOp<affine::AffineLoadOp>(op, op.getMemRef(), map,
                                                      operands);
  else
    rewriter.replaceOpWithNewOp<affine::AffineStoreOp>(
        op, op.getValueToStore(), op.getMemRef(), map, operands);
}

struct RaiseToAffinePass final
    : tcgen::impl::TCGenRaiseToAffinePassBase<RaiseToAffinePass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    IndexPromoter promoter(fn);
    indexLoops(fn, promoter);
    // Outer loops first: an inner loop's bounds may use an outer IV,
    // which is a dim only once the outer loop is affine.
    SmallVector<scf::ForOp> loops;
    fn.walk<WalkOrder::PreOrder>(
        [&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      raiseLoop(loop);
    SmallVector<Operation *> accesses;
    fn.walk([&](Operation *op) {
      if (isa<memref::LoadOp, memref::StoreOp>(op))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      if (auto load = dyn_cast<memref::LoadOp>(op))
        raiseAccess(load, promoter);
      else
        raiseAccess(cast<memref::StoreOp>(op), promoter);
    }
  }
};
} // namespace
