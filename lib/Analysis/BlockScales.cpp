//===- BlockScales.cpp - Recognize block-scaled fp8 contractions -*- C++ -*-===//
//
// This file implements the recognition of block-scaled fp8 contractions
// (DeepSeek-V3's recipe): a linalg.generic of A, B and their f32 scales SA
// (1 x 128 blocks of A) and SB (128 x 128 blocks of B) into an f32 C,
// whose maps index the scales with `floordiv 128` and whose body is
// acc + extf(a) * extf(b) * sa * sb.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Grouped.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tcgen;

/// The block size along K of both scale tensors.
static constexpr int64_t kScaleBlock = 128;

/// The form every refusal names.
static constexpr const char *kForm =
    " (a block-scaled fp8 contraction is a linalg.generic of A[m,k], "
    "B[n,k], SA[m, k floordiv 128] and SB[n floordiv 128, k floordiv 128] "
    "into C[m,n], with the body acc + extf(a) * extf(b) * sa * sb in f32)";

bool mlir::tcgen::isBlockScaledCandidate(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  // A grouped product also reads four inputs, its last two the groups'
  // row offsets (integers): not a block-scaled candidate.
  return generic && generic.getNumDpsInputs() == 4 &&
         generic.getNumDpsInits() == 1 &&
         generic.getNumReductionLoops() >= 1 && !isGroupedCandidate(op);
}

namespace {
/// One result of a scale operand's map: loop `dim`, divided by `divisor`
/// (1 where the result is the plain dimension). dim < 0: neither form.
struct ScaleIndex {
  int64_t dim = -1;
  int64_t divisor = 1;
};
} // namespace

/// The printed form of a map (diagnostics do not print AffineMap).
static std::string mapText(AffineMap map) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << map;
  return s;
}

static ScaleIndex readScaleIndex(AffineExpr e) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return {d.getPosition(), 1};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin || bin.getKind() != AffineExprKind::FloorDiv)
    return {};
  auto d = dyn_cast<AffineDimExpr>(bin.getLHS());
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!d || !c)
    return {};
  return {d.getPosition(), c.getValue()};
}

/// The loops' roles: m and n (C's dimensions in its order) and k.
namespace {
struct Loops {
  unsigned m = 0, n = 0, k = 0;
};
} // namespace

/// Finds the loops of `op` (three: two parallel, one reduction) and checks
/// A's, B's and C's maps.
static FailureOr<Loops> findLoops(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.size() != 3 || op.getNumReductionLoops() != 1)
    return op.emitOpError("has ")
           << iterators.size() << " loops, " << op.getNumReductionLoops()
           << " of them reductions; a block-scaled contraction has three "
              "(m and n parallel, k a reduction)"
           << kForm;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Loops l;
  for (unsigned d = 0; d < 3; ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      l.k = d;
  AffineMap c = maps[4];
  auto dimOf = [](AffineExpr e) -> int64_t {
    auto d = dyn_cast<AffineDimExpr>(e);
    return d ? int64_t(d.getPosition()) : -1;
  };
  if (c.getNumResults() != 2 || dimOf(c.getResult(0)) < 0 ||
      dimOf(c.getResult(1)) < 0 || dimOf(c.getResult(0)) == l.k ||
      dimOf(c.getResult(1)) == l.k ||
      c.getResult(0) == c.getResult(1))
    return op.emitOpError("C must be indexed by the two parallel loops, "
                          "C[m,n]")
           << kForm;
  l.m = dimOf(c.getResult(0));
  l.n = dimOf(c.getResult(1));
  MLIRContext *ctx = op.getContext();
  auto expect = [&](AffineMap map, unsigned r0, unsigned r1) {
    return map == AffineMap::get(3, 0,
                                 {getAffineDimExpr(r0, ctx),
                                  getAffineDimExpr(r1, ctx)},
                                 ctx);
  };
  if (!expect(maps[0], l.m, l.k))
    return op.emitOpError("A must be read A[m,k] (K-major: block-scaled fp8 "
                          "reads A [m][k] only), got ")
           << mapText(maps[0]) << kForm;
  if (!expect(maps[1], l.n, l.k))
    return op.emitOpError("B must be read B[n,k] (K-major: block-scaled fp8 "
                          "reads B [n][k] only), got ")
           << mapText(maps[1]) << kForm;
  return l;
}

/// Checks the scale operand `name`'s map: (row floordiv `rowBlock`, k
/// floordiv 128), with `rowBlock` 1 for a plain row index.
static LogicalResult checkScaleMap(linalg::GenericOp op, StringRef name,
                                   AffineMap map, unsigned row, StringRef rowName,
                                   int64_t rowBlock, unsigned k) {
  std::string want = (name + "[" + rowName +
                      (rowBlock > 1 ? " floordiv " + std::to_string(rowBlock)
                                    : std::string()) +
                      ", k floordiv 128]")
                         .str();
  // Per-row (per-column) scales: one scale per row of A (column of B),
  // constant along K.
  if (map.getNumResults() == 1 && readScaleIndex(map.getResult(0)).dim ==
                                      int64_t(row))
    return op.emitOpError("scales constant along K (")
           << name << "[" << rowName
           << "], one per row or column) are not supported yet: the sm90 "
              "kernel scales 1 x 128 blocks of A and 128 x 128 blocks of B, "
           << want;
  if (map.getNumResults() != 2)
    return op.emitOpError() << name << " must be indexed " << want << ", got "
                            << mapText(map) << kForm;
  ScaleIndex r = readScaleIndex(map.getResult(0));
  ScaleIndex c = readScaleIndex(map.getResult(1));
  if (c.dim == int64_t(k) && c.divisor != kScaleBlock && c.divisor > 0)
    return op.emitOpError()
           << name << "'s blocks along K are " << c.divisor
           << " wide; the sm90 kernel takes blocks of 128 along K (" << want
           << ")";
  if (r.dim == int64_t(row) && r.divisor != rowBlock && c.dim == int64_t(k) &&
      c.divisor == kScaleBlock)
    return op.emitOpError()
           << name << "'s blocks are " << r.divisor << " x 128; the sm90 "
           << "kernel takes " << rowBlock << " x 128 blocks (" << want << ")";
  if (r.dim != int64_t(row) || r.divisor != rowBlock || c.dim != int64_t(k) ||
      c.divisor != kScaleBlock)
    return op.emitOpError() << name << " must be indexed " << want << ", got "
                            << mapText(map) << kForm;
  return success();
}

/// Whether `v` is arith.extf of block argument `arg` to f32.
static bool isExtfOf(Value v, BlockArgument arg) {
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg && ext.getType().isF32();
}

/// Collects the leaves of the arith.mulf tree at `v`.
static void mulLeaves(Value v, SmallVectorImpl<Value> &leaves) {
  if (auto mul = v.getDefiningOp<arith::MulFOp>()) {
    mulLeaves(mul.getLhs(), leaves);
    mulLeaves(mul.getRhs(), leaves);
    return;
  }
  leaves.push_back(v);
}

/// Checks that the body is acc + extf(a) * extf(b) * sa * sb in f32 (the
/// products in any order, acc on either side) and nothing else.
static LogicalResult checkBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto fail = [&] {
    return op.emitOpError("the body must compute acc + extf(a) * extf(b) * "
                          "sa * sb in f32 (the four products in any order), "
                          "and nothing else")
           << kForm;
  };
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1 || body.getNumArguments() != 5)
    return fail();
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  BlockArgument acc = body.getArgument(4);
  if (!add || add->getBlock() != &body)
    return fail();
  Value product = add.getLhs() == acc   ? add.getRhs()
                  : add.getRhs() == acc ? add.getLhs()
                                        : Value();
  if (!product)
    return fail();
  SmallVector<Value> leaves;
  mulLeaves(product, leaves);
  if (leaves.size() != 4)
    return fail();
  // Each of the four inputs exactly once: a and b widened, the scales as
  // they are.
  std::array<bool, 4> seen = {false, false, false, false};
  for (Value leaf : leaves) {
    int found = -1;
    for (int i = 0; i < 2; ++i)
      if (isExtfOf(leaf, body.getArgument(i)))
        found = i;
    for (int i = 2; i < 4; ++i)
      if (leaf == body.getArgument(i))
        found = i;
    if (found < 0 || seen[found])
      return fail();
    seen[found] = true;
  }
  // Two extf, three mulf, the addf and the yield.
  if (std::distance(body.begin(), body.end()) != 7)
    return fail();
  return success();
}

/// Checks the operands' element types, static shapes and layouts.
static LogicalResult checkOperands(linalg::GenericOp op, int64_t m, int64_t n,
                                   int64_t k) {
  Type aType = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type bType = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  if (!isFP8Type(aType) || aType != bType)
    return op.emitOpError("block-scaled inputs must be fp8 of one type "
                          "(f8E4M3FN or f8E5M2), got ")
           << typeName(aType) << " x " << typeName(bType);
  const char *names[5] = {"A", "B", "SA", "SB", "C"};
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!type || !type.hasStaticShape())
      return op.emitOpError("block-scaled contractions need static sizes "
                            "(sizes known at run time are not supported yet); ")
             << names[i] << " is " << operand.getType();
    if (i >= 2 && !type.getElementType().isF32())
      return op.emitOpError()
             << names[i] << " must be f32"
             << (i == 4 ? " (the contraction accumulates in f32: round C to "
                          "f16 or bf16 in a pointwise consumer, which the "
                          "kernel fuses)"
                        : " (one scale per block)")
             << ", got " << typeName(type.getElementType());
    auto memref = dyn_cast<MemRefType>(type);
    if (memref && !memref.getLayout().isIdentity())
      return op.emitOpError("operand ")
             << names[i] << " has a non-identity layout "
             << memref.getLayout()
             << " (only contiguous row-major buffers are supported yet)";
  }
  if (k % kScaleBlock != 0)
    return op.emitOpError("K = ")
           << k << " is not a multiple of 128, the scales' block along K "
           << "(block-scaled contractions need K a multiple of 128)";
  int64_t kBlocks = k / kScaleBlock;
  SmallVector<int64_t> want[2] = {{m, kBlocks},
                                  {(n + kScaleBlock - 1) / kScaleBlock,
                                   kBlocks}};
  for (int i = 0; i < 2; ++i) {
    auto type = cast<ShapedType>(op.getDpsInputs()[2 + i].getType());
    if (type.getShape() != ArrayRef<int64_t>(want[i]))
      return op.emitOpError()
             << names[2 + i] << " has shape " << typeName(type)
             << ", but its blocks of "
             << (i == 0 ? "1 x 128 of A [M=" + std::to_string(m)
                        : "128 x 128 of B [N=" + std::to_string(n))
             << "][K=" << k << "] make it [" << want[i][0] << "]["
             << want[i][1] << "]"
             << (i == 1 ? " (N / 128 rounded up)" : "");
  }
  return success();
}

FailureOr<ContractionInfo>
mlir::tcgen::analyzeBlockScaled(linalg::LinalgOp linalgOp) {
  auto op = cast<linalg::GenericOp>(linalgOp.getOperation());
  FailureOr<Loops> loops = findLoops(op);
  if (failed(loops))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (failed(checkScaleMap(op, "SA", maps[2], loops->m, "m", 1, loops->k)) ||
      failed(checkScaleMap(op, "SB", maps[3], loops->n, "n", kScaleBlock,
                           loops->k)))
    return failure();
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  int64_t m = ranges[loops->m], n = ranges[loops->n], k = ranges[loops->k];
  if (failed(checkOperands(op, m, n, k)) || failed(checkBody(op)))
    return failure();
  ContractionInfo info;
  info.op = linalgOp;
  info.m = m;
  info.n = n;
  info.k = k;
  info.a = op.getDpsInputs()[0];
  info.b = op.getDpsInputs()[1];
  info.c = op.getDpsInits()[0];
  info.aType = getElementTypeOrSelf(info.a.getType());
  info.bType = getElementTypeOrSelf(info.b.getType());
  info.cType = getElementTypeOrSelf(info.c.getType());
  info.bTransposed = true;
  BlockScales scales;
  scales.a = op.getDpsInputs()[2];
  scales.b = op.getDpsInputs()[3];
  scales.kBlocks = k / kScaleBlock;
  info.blockScales = scales;
  return info;
}
