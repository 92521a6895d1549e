//===- Grouped.cpp - Grouped products (mixtures of experts) -----*- C++ -*-===//
//
// This file implements the recognition of grouped products (Grouped.h):
// the linalg.generic that masks each group's product to its rows, its
// offsets' slices and its body, and the tile walk the kernels share.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Grouped.h"

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tcgen;

bool mlir::tcgen::isGroupedCandidate(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 4 ||
      generic.getNumDpsInits() != 1)
    return false;
  auto isIntVector = [](Value v) {
    auto type = dyn_cast<ShapedType>(v.getType());
    return type && type.getRank() == 1 && type.getElementType().isInteger();
  };
  return isIntVector(generic.getDpsInputs()[2]) &&
         isIntVector(generic.getDpsInputs()[3]);
}

/// The loop dimension `e` is, or -1.
static int64_t dimOf(AffineExpr e) {
  auto d = dyn_cast<AffineDimExpr>(e);
  return d ? int64_t(d.getPosition()) : -1;
}

/// A function argument of `func`'s entry block, or null.
static BlockArgument functionArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return {};
  return arg;
}

/// Checks that `slice` is offsets[first ..< first + groups] of one
/// function argument of G + 1 integers; returns that argument.
static FailureOr<Value> offsetsSlice(linalg::GenericOp op, Value slice,
                                     int64_t first, int64_t groups,
                                     StringRef what) {
  auto view = slice.getDefiningOp<memref::SubViewOp>();
  auto fail = [&]() {
    return op.emitOpError("grouped product: the ")
           << what << " (input #" << (first == 0 ? 2 : 3)
           << ") must be memref.subview %offsets[" << first << "] [" << groups
           << "] [1] of a function argument %offsets of " << groups + 1
           << " i32 or i64 (G + 1 row offsets)";
  };
  if (!view)
    return fail();
  Value source = view.getSource();
  auto type = dyn_cast<MemRefType>(source.getType());
  if (!functionArgument(source) || !type || type.getRank() != 1 ||
      type.getDimSize(0) != groups + 1 || !type.getLayout().isIdentity() ||
      !(type.getElementType().isInteger(32) ||
        type.getElementType().isInteger(64)))
    return fail();
  ArrayRef<int64_t> offsets = view.getStaticOffsets();
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (offsets.size() != 1 || offsets[0] != first || sizes[0] != groups ||
      strides[0] != 1)
    return fail();
  return source;
}

/// Matches `v` against arith.extf of `arg` (or `arg` itself where it is
/// already of the accumulator's type).
static bool isWidened(Value v, Value arg) {
  if (v == arg)
    return true;
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg;
}

/// Checks the body: select(lo <= t < hi, s + ext(x) * ext(w), s), with t
/// the row loop `rowDim` (index_cast to the offsets' type).
static LogicalResult checkBody(linalg::GenericOp op, int64_t rowDim) {
  Block &body = op.getRegion().front();
  auto fail = [&](StringRef what) {
    return op.emitOpError("grouped product: the body must be select(lo <= t "
                          "&& t < hi, s + x * w, s) over the offsets of the "
                          "row's group (docs/USER-GUIDE.md, \"Grouped "
                          "products\"): ")
           << what;
  };
  Value x = body.getArgument(0), w = body.getArgument(1);
  Value lo = body.getArgument(2), hi = body.getArgument(3);
  Value s = body.getArgument(4);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto select = yield.getValues().size() == 1
                    ? yield.getValues()[0].getDefiningOp<arith::SelectOp>()
                    : arith::SelectOp();
  if (!select || select.getFalseValue() != s)
    return fail("it does not yield a select whose false value is the output");
  auto add = select.getTrueValue().getDefiningOp<arith::AddFOp>();
  Value product;
  if (add && add.getLhs() == s)
    product = add.getRhs();
  else if (add && add.getRhs() == s)
    product = add.getLhs();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul || !((isWidened(mul.getLhs(), x) && isWidened(mul.getRhs(), w)) ||
                (isWidened(mul.getLhs(), w) && isWidened(mul.getRhs(), x))))
    return fail("the selected value is not s + x * w");
  auto both = select.getCondition().getDefiningOp<arith::AndIOp>();
  if (!both)
    return fail("the condition is not the 'and' of two comparisons");
  // Each comparison: row >= lo (or lo <= row) and row < hi (or hi > row).
  bool sawLo = false, sawHi = false;
  auto isRow = [&](Value v) {
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      v = cast.getIn();
    auto index = v.getDefiningOp<linalg::IndexOp>();
    return index && int64_t(index.getDim()) == rowDim;
  };
  using P = arith::CmpIPredicate;
  for (Value c : {both.getLhs(), both.getRhs()}) {
    auto cmp = c.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      return fail("an operand of the 'and' is not an arith.cmpi");
    Value l = cmp.getLhs(), r = cmp.getRhs();
    P pred = cmp.getPredicate();
    if (isRow(l) && r == lo && pred == P::sge)
      sawLo = true;
    else if (isRow(r) && l == lo && pred == P::sle)
      sawLo = true;
    else if (isRow(l) && r == hi && pred == P::slt)
      sawHi = true;
    else if (isRow(r) && l == hi && pred == P::sgt)
      sawHi = true;
    else
      return fail("a comparison is not t >= lo or t < hi (signed, t the "
                  "output's row index)");
  }
  if (!sawLo || !sawHi)
    return fail("the condition must test both t >= lo and t < hi");
  return success();
}

FailureOr<GroupedInfo>
mlir::tcgen::analyzeGroupedContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return op.emitOpError("grouped product: write it on memrefs (the form "
                          "on tensors is not supported yet)");
  if (op.getNumLoops() != 4)
    return op.emitOpError("grouped product: expected four loops (t, n, k, "
                          "g), found ")
           << op.getNumLoops();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap map : maps)
    for (AffineExpr e : map.getResults())
      if (dimOf(e) < 0)
        return op.emitOpError("grouped product: every indexing map must read "
                              "its operand at loop indices (the offsets' "
                              "slices each at g)");
  AffineMap aMap = maps[0], bMap = maps[1], cMap = maps[4];
  if (aMap.getNumResults() != 2 || bMap.getNumResults() != 3 ||
      maps[2].getNumResults() != 1 || maps[3].getNumResults() != 1 ||
      cMap.getNumResults() != 2)
    return op.emitOpError("grouped product: expected A [t, k], B [g, n, k] "
                          "or [g, k, n], the offsets' two slices [g] and C "
                          "[t, n]");
  int64_t t = dimOf(cMap.getResult(0)), n = dimOf(cMap.getResult(1));
  int64_t k = dimOf(aMap.getResult(1)), g = dimOf(bMap.getResult(0));
  auto iterators = op.getIteratorTypesArray();
  auto isParallel = [&](int64_t d) {
    return iterators[d] == utils::IteratorType::parallel;
  };
  if (dimOf(aMap.getResult(0)) != t || !isParallel(t) || !isParallel(n) ||
      isParallel(k) || isParallel(g) || dimOf(maps[2].getResult(0)) != g ||
      dimOf(maps[3].getResult(0)) != g || t == n || k == g)
    return op.emitOpError("grouped product: A must be read at (t, k), C "
                          "written at (t, n), B read at (g, n, k) or (g, k, "
                          "n) and both offsets' slices at (g), with t and n "
                          "parallel, k and g reductions (A stored [k, t] and "
                          "other layouts are not supported yet)");
  int64_t b1 = dimOf(bMap.getResult(1)), b2 = dimOf(bMap.getResult(2));
  bool bKMajor = b1 == n && b2 == k;
  if (!bKMajor && !(b1 == k && b2 == n))
    return op.emitOpError("grouped product: B must be read at (g, n, k) or "
                          "(g, k, n), with the group outermost");

  GroupedInfo info;
  info.op = op;
  info.bKMajor = bKMajor;
  info.a = op.getDpsInputs()[0];
  info.b = op.getDpsInputs()[1];
  info.c = op.getDpsInits()[0];
  auto aType = dyn_cast<MemRefType>(info.a.getType());
  auto bType = dyn_cast<MemRefType>(info.b.getType());
  auto cType = dyn_cast<MemRefType>(info.c.getType());
  if (!functionArgument(info.a) || !functionArgument(info.b) ||
      !aType.getLayout().isIdentity() || !bType.getLayout().isIdentity())
    return op.emitOpError("grouped product: A and B must be contiguous "
                          "function arguments");
  if (!bType.hasStaticShape() || ShapedType::isDynamic(aType.getDimSize(1)))
    return op.emitOpError("grouped product: G, N and K must be known here "
                          "(only T, the row count, may be known at launch "
                          "only)");
  info.groups = bType.getDimSize(0);
  info.n = bType.getDimSize(bKMajor ? 1 : 2);
  info.k = bType.getDimSize(bKMajor ? 2 : 1);
  info.rows = aType.getDimSize(0);
  if (aType.getDimSize(1) != info.k || cType.getRank() != 2 ||
      cType.getDimSize(1) != info.n || cType.getDimSize(0) != info.rows)
    return op.emitOpError("grouped product: the shapes do not agree: A ")
           << aType << ", B " << bType << ", C " << cType;
  info.aType = aType.getElementType();
  info.accType = cType.getElementType();
  if (info.aType != bType.getElementType() ||
      !(info.aType.isF16() || info.aType.isBF16()))
    return op.emitOpError("grouped product: A and B must both be f16 or "
                          "both bf16, not ")
           << typeName(info.aType) << " and "
           << typeName(bType.getElementType());
  if (!info.accType.isF32())
    return op.emitOpError("grouped product: the output must accumulate in "
                          "f32, not ")
           << typeName(info.accType);
  FailureOr<Value> starts =
      offsetsSlice(op, op.getDpsInputs()[2], 0, info.groups, "group starts");
  if (failed(starts))
    return failure();
  FailureOr<Value> ends =
      offsetsSlice(op, op.getDpsInputs()[3], 1, info.groups, "group ends");
  if (failed(ends))
    return failure();
  if (*starts != *ends)
    return op.emitOpError("grouped product: the group starts and ends must "
                          "be slices of one offsets argument");
  info.offsets = *starts;
  info.offsetsType = cast<MemRefType>(info.offsets.getType()).getElementType();
  if (failed(checkBody(op, t)))
    return failure();
  return info;
}

int64_t mlir::tcgen::groupedTileCount(ArrayRef<int64_t> offsets, int64_t blockM,
                                      int64_t tilesN) {
  int64_t tiles = 0;
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    tiles += (offsets[g + 1] - offsets[g] + blockM - 1) / blockM * tilesN;
  return tiles;
}

std::optional<GroupedTile>
mlir::tcgen::mapGroupedTile(ArrayRef<int64_t> offsets, int64_t blockM,
                            int64_t tilesN, int64_t t) {
  int64_t before = 0;
  for (size_t g = 0; g + 1 < offsets.size(); ++g) {
    int64_t tilesM = (offsets[g + 1] - offsets[g] + blockM - 1) / blockM;
    int64_t count = tilesM * tilesN;
    if (t < before + count) {
      int64_t inGroup = t - before;
      return GroupedTile{int64_t(g), inGroup % tilesM, inGroup / tilesM};
    }
    before += count;
  }
  return std::nullopt;
}
