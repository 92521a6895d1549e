//===- Epilogue.cpp - Pointwise consumers fused into a kernel ---*- C++ -*-===//
//
// This file implements the recognition of a contraction's elementwise
// consumer, the legality rules for computing it in the kernel's epilogue,
// the cloning of its body and its description for the manifest.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Epilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tcgen;

StringRef mlir::tcgen::stringifyEpilogueOperandKind(EpilogueOperandKind kind) {
  switch (kind) {
  case EpilogueOperandKind::Scalar:
    return "scalar";
  case EpilogueOperandKind::Row:
    return "row";
  case EpilogueOperandKind::Col:
    return "col";
  case EpilogueOperandKind::Matrix:
    return "matrix";
  case EpilogueOperandKind::Product:
    return "product";
  }
  llvm_unreachable("unknown epilogue operand kind");
}

/// The arith and math ops an epilogue may contain (what the kernel and the
/// manifest's reference interpreter both implement).
static bool isSupportedBodyOp(Operation *op) {
  static const llvm::StringSet<> names = {
      "arith.addf",    "arith.subf",    "arith.mulf",     "arith.divf",
      "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
      "arith.negf",    "arith.cmpf",    "arith.select",   "arith.constant",
      "arith.extf",    "arith.truncf",  "math.exp",       "math.exp2",
      "math.log",      "math.tanh",     "math.erf",       "math.sqrt",
      "math.rsqrt",    "math.absf",     "math.powf"};
  return names.contains(op->getName().getStringRef());
}

static bool isEpilogueFloat(Type t) { return t.isF16() || t.isBF16() || t.isF32(); }

/// True if `type` is a memref with the identity layout (contiguous; its
/// sizes may be known at run time only, which the back ends check).
static bool isContiguous(MemRefType type) {
  return type && type.getLayout().isIdentity();
}

/// A size as the remarks spell it: "?" where known at run time only.
static std::string sizeText(int64_t size) {
  return ShapedType::isDynamic(size) ? "?" : std::to_string(size);
}

/// Checks the body ops; returns the reason it cannot be fused, or "".
/// Whether `op` is an elementwise op on memrefs of rank `rank` (all loops
/// parallel, no index use) with one output.
static bool isElementwiseOnMemrefs(linalg::LinalgOp op, unsigned rank) {
  return op.hasPureBufferSemantics() && op.getNumDpsInits() == 1 &&
         op.getNumLoops() == rank && op.getNumParallelLoops() == rank &&
         !op.hasIndexSemantics() && op.getBlock();
}

static std::string checkBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (!isSupportedBodyOp(&inner))
      return "the body op '" + inner.getName().getStringRef().str() +
             "' is not supported in an epilogue";
    for (Type t : inner.getResultTypes())
      if (!isEpilogueFloat(t) && !t.isInteger(1))
        return "the body computes in " + typeName(t) +
               " (epilogues compute in f16, bf16 or f32)";
    if (isa<arith::ConstantOp>(inner) &&
        !isa<FloatAttr>(cast<arith::ConstantOp>(inner).getValue()))
      return "the body has a non-float constant";
    for (Value v : inner.getOperands()) {
      if (v.getParentBlock() == body)
        continue;
      auto cst = v.getDefiningOp<arith::ConstantOp>();
      if (!cst || !isa<FloatAttr>(cst.getValue()))
        return "the body reads a value defined outside it that is not a "
               "float constant";
    }
  }
  return "";
}

/// The kind of an extra operand of type `type` that a pointwise op over
/// `outShape` ([lead batch dimensions..., m, n]) reads through `map`:
/// scalar, row [n], column [m], or a matrix of the output's shape read
/// element for element; std::nullopt for anything else.
static std::optional<EpilogueOperandKind>
operandKind(AffineMap map, MemRefType type, ArrayRef<int64_t> outShape) {
  unsigned lead = outShape.size() - 2;
  AffineExpr row = getAffineDimExpr(lead, map.getContext());
  AffineExpr col = getAffineDimExpr(lead + 1, map.getContext());
  if (map.getNumResults() == 0)
    return EpilogueOperandKind::Scalar;
  if (map.isIdentity() && type.getShape() == outShape)
    return EpilogueOperandKind::Matrix;
  if (map.getNumResults() == 1 && map.getResult(0) == col &&
      type.getShape() == outShape.take_back(1))
    return EpilogueOperandKind::Row;
  if (map.getNumResults() == 1 && map.getResult(0) == row &&
      type.getShape() == ArrayRef<int64_t>{outShape[lead]})
    return EpilogueOperandKind::Col;
  return std::nullopt;
}

/// Records that block argument of `info.op` reads extra operand `v` as
/// `kind`: one entry of info.operands per distinct value and kind.
static void addOperand(EpilogueInfo &info, Value v, EpilogueOperandKind kind,
                       Type elementType) {
  int64_t index = -1;
  for (auto [i, e] : llvm::enumerate(info.operands))
    if (e.memref == v && e.kind == kind)
      index = i;
  if (index < 0) {
    index = info.operands.size();
    info.operands.push_back({v, kind, elementType});
  }
  info.argSource.push_back(index);
}

static void moveProductLast(EpilogueInfo &info);

std::optional<EpilogueInfo>
mlir::tcgen::findEpilogue(const ContractionInfo &info, std::string &whyNot,
                          bool allowDualProduct) {
  whyNot.clear();
  Value c = info.c;
  Operation *matmul = info.op;
  // The ops other than the contraction, its zero fill and a dealloc that
  // touch C.
  SmallVector<Operation *> readers;
  for (Operation *user : c.getUsers()) {
    if (user == matmul || isa<memref::DeallocOp>(user))
      continue;
    // add(gemm, gemm): the first product, which the contraction
    // accumulates onto, is part of the kernel.
    if (isContractionCandidate(user) && user->getBlock() == matmul->getBlock() &&
        user->isBeforeInBlock(matmul))
      continue;
    if (auto fill = dyn_cast<linalg::FillOp>(user);
        fill && fill->getBlock() == matmul->getBlock() &&
        fill->isBeforeInBlock(matmul))
      continue;
    // An op that reads C and writes it in place uses it twice.
    if (!llvm::is_contained(readers, user))
      readers.push_back(user);
  }
  if (readers.empty())
    return std::nullopt;
  auto op = dyn_cast<linalg::LinalgOp>(readers.front());
  if (readers.size() > 1) {
    whyNot = "the contraction result is read by more than one op";
    return std::nullopt;
  }
  if (!op || op->getBlock() != matmul->getBlock() ||
      !matmul->isBeforeInBlock(op)) {
    whyNot = "the contraction result is used by '" +
             readers.front()->getName().getStringRef().str() +
             "', which is not an elementwise linalg op after it";
    return std::nullopt;
  }
  // A batch adds leading loops: one batch dimension outermost in C, or
  // several, all outermost in C in their order ([b0, b1, m, n]); other
  // batch layouts of C are not fused. A batch of one is a plain matmul to
  // the kernel, but C and its consumer still have the batch dimensions
  // (of extent 1): [1, m, n].
  bool batched = info.batched && info.batch > 1;
  bool cOutermost = !info.cBatchMiddle;
  for (auto [i, pos] : llvm::enumerate(info.cBatchPos))
    cOutermost &= pos == int64_t(i);
  if (info.batched && !cOutermost) {
    whyNot = "fused epilogues of a batch need C stored with its batch "
             "dimensions outermost";
    return std::nullopt;
  }
  unsigned lead = !info.batched       ? 0
                  : info.multiBatch() ? info.batchShape.size()
                                      : 1;
  unsigned rank = 2 + lead;
  if (!isElementwiseOnMemrefs(op, rank)) {
    whyNot = lead ? "the consumer is not a " + std::to_string(rank) +
                        "-dimensional (batch, m, n) elementwise op on "
                        "memrefs with one output"
                  : "the consumer is not a two-dimensional elementwise op "
                    "on memrefs with one output";
    return std::nullopt;
  }
  if (std::string body = checkBody(op); !body.empty()) {
    whyNot = body;
    return std::nullopt;
  }

  EpilogueInfo result;
  result.op = op;
  result.matmulType = info.cType;
  OpOperand *init = op.getDpsInitOperand(0);
  result.out = init->get();
  auto outType = dyn_cast<MemRefType>(result.out.getType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(rank, op->getContext());
  // C's shape: [m, n], [batch, m, n] or [b0, b1, ..., m, n].
  SmallVector<int64_t> cShape = {info.m, info.n};
  if (info.batched && info.multiBatch())
    cShape.insert(cShape.begin(), info.batchShape.begin(),
                  info.batchShape.end());
  else if (info.batched)
    cShape.insert(cShape.begin(), info.batch);
  std::string cShapeText;
  for (int64_t d : ArrayRef(cShape).drop_back(2))
    cShapeText += std::to_string(d) + "x";
  cShapeText += sizeText(info.m) + "x" + sizeText(info.n);
  if (!isContiguous(outType) || outType.getShape() != ArrayRef(cShape) ||
      op.getMatchingIndexingMap(init) != identity) {
    whyNot = "the consumer's output is not a contiguous " + cShapeText +
             " memref written element for element";
    return std::nullopt;
  }
  result.outType = outType.getElementType();
  if (!isEpilogueFloat(result.outType)) {
    whyNot = "the consumer writes " + typeName(result.outType);
    return std::nullopt;
  }
  auto outArg = dyn_cast<BlockArgument>(result.out);
  if (!outArg || !isa<func::FuncOp>(outArg.getOwner()->getParentOp())) {
    whyNot = "the consumer's output is not a function argument";
    return std::nullopt;
  }
  bool inPlace = result.out == c;
  if (!inPlace) {
    // The intermediate must be unobservable: a local allocation the
    // contraction, its fill and the consumer alone touch.
    if (auto arg = dyn_cast<BlockArgument>(c)) {
      whyNot = "the contraction result is function argument #" +
               std::to_string(arg.getArgNumber()) +
               ", which the caller can observe (the kernel would have to "
               "write it as well)";
      return std::nullopt;
    }
    if (!c.getDefiningOp<memref::AllocOp>()) {
      whyNot = "the contraction result is not a local allocation";
      return std::nullopt;
    }
  }

  Block *body = op.getBlock();
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    if (&operand == init) {
      if (inPlace)
        result.argSource.push_back(-1);
      else if (!arg.use_empty()) {
        whyNot = "the consumer reads the old value of its output";
        return std::nullopt;
      } else
        result.argSource.push_back(-2);
      continue;
    }
    Value v = operand.get();
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (v == c) {
      if (map != identity) {
        whyNot = "the consumer reads the contraction result transposed or "
                 "broadcast";
        return std::nullopt;
      }
      result.argSource.push_back(-1);
      continue;
    }
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!isContiguous(type) || !isEpilogueFloat(type.getElementType())) {
      whyNot = "operand #" + std::to_string(operand.getOperandNumber()) +
               " is not a contiguous memref of f16, bf16 or f32";
      return std::nullopt;
    }
    std::optional<EpilogueOperandKind> kind = operandKind(map, type, cShape);
    if (!kind) {
      whyNot = "operand #" + std::to_string(operand.getOperandNumber()) +
               " is neither a scalar, a row or column vector nor an " +
               cShapeText + " matrix read element for element" +
               (batched ? " (vectors are shared by the whole batch)" : "");
      return std::nullopt;
    }
    auto vArg = dyn_cast<BlockArgument>(v);
    if (!vArg || !isa<func::FuncOp>(vArg.getOwner()->getParentOp())) {
      std::string whyNotDual;
      linalg::LinalgOp dual =
          allowDualProduct && *kind == EpilogueOperandKind::Matrix &&
                  !result.dualProduct
              ? findDualProduct(info, v, op, whyNotDual)
              : linalg::LinalgOp();
      if (dual) {
        result.dualProduct = dual;
        addOperand(result, v, EpilogueOperandKind::Product,
                   type.getElementType());
        continue;
      }
      whyNot = "operand #" + std::to_string(operand.getOperandNumber()) +
               " is not a function argument" +
               (whyNotDual.empty() ? "" : " (" + whyNotDual + ")");
      return std::nullopt;
    }
    if (v == result.out) {
      whyNot = "the consumer reads its own output";
      return std::nullopt;
    }
    addOperand(result, v, *kind, type.getElementType());
  }
  moveProductLast(result);
  return result;
}

/// Puts the Product operand (if any) last in `info.operands`, renumbering
/// argSource: the kernel's ABI names the others E0, E1, ... in order.
static void moveProductLast(EpilogueInfo &info) {
  int64_t k = info.productOperand();
  int64_t last = int64_t(info.operands.size()) - 1;
  if (k < 0 || k == last)
    return;
  EpilogueOperand product = info.operands[k];
  info.operands.erase(info.operands.begin() + k);
  info.operands.push_back(product);
  for (int64_t &source : info.argSource)
    source = source == k ? last : source > k ? source - 1 : source;
}

linalg::LinalgOp mlir::tcgen::findDualProduct(const ContractionInfo &info,
                                              Value v, Operation *consumer,
                                              std::string &whyNot) {
  whyNot.clear();
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return {};
  // The buffer's writer: a contraction after info.op, in its block.
  linalg::LinalgOp other;
  for (Operation *user : v.getUsers()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (linalgOp && user != consumer && isContractionCandidate(user) &&
        linalgOp.getNumDpsInits() == 1 &&
        linalgOp.getDpsInitOperand(0)->get() == v)
      other = linalgOp;
  }
  if (!other)
    return {};
  auto fail = [&](const Twine &why) {
    whyNot = ("a second product (dual GEMM) needs " + why).str();
    return linalg::LinalgOp();
  };
  Operation *first = info.op;
  if (other->getBlock() != first->getBlock() ||
      !first->isBeforeInBlock(other) || !other->isBeforeInBlock(consumer))
    return fail("its contraction after the first one and before the "
                "consumer, in one block");
  FailureOr<ContractionInfo> second = analyzeContraction(other);
  if (failed(second))
    return fail("a contraction the analysis accepts");
  linalg::FillOp fill = getZeroFillOfOutput(*second);
  for (Operation *user : v.getUsers())
    if (user != consumer && user != other && user != fill &&
        !isa<memref::DeallocOp, memref::AllocOp>(user))
      return fail("its result read by the consumer alone, but '" +
                  user->getName().getStringRef() + "' uses it too");
  if (!fill)
    return fail("its result computed from a zero fill (C = A B2)");
  if (second->a != info.a)
    return fail("the same A as the first product (one A tile feeds both)");
  if (second->m != info.m || second->n != info.n || second->k != info.k ||
      info.isDynamic() || second->isDynamic())
    return fail("both products of one static shape M x N x K");
  if (second->aType != info.aType || second->bType != info.bType ||
      second->cType != info.cType)
    return fail("both products of one element type");
  if (second->aTransposed != info.aTransposed ||
      second->bTransposed != info.bTransposed || second->cTransposed ||
      info.cTransposed)
    return fail("B and B2 stored in one layout and a row-major C");
  if (info.batched || second->batched || info.batchReduce ||
      second->batchReduce)
    return fail("unbatched products (a batch is not supported yet)");
  auto bArg = dyn_cast<BlockArgument>(second->b);
  if (!bArg || !isa<func::FuncOp>(bArg.getOwner()->getParentOp()))
    return fail("B2 a function argument (no prologue on it)");
  return other;
}

std::optional<PrologueInfo>
mlir::tcgen::findPrologue(const ContractionInfo &info, Value operand,
                          std::string &whyNot) {
  whyNot.clear();
  if (isa<BlockArgument>(operand))
    return std::nullopt;
  Operation *matmul = info.op;
  if (!operand.getDefiningOp<memref::AllocOp>()) {
    whyNot = "the operand is neither a function argument nor a local "
             "allocation";
    return std::nullopt;
  }
  SmallVector<Operation *> others;
  for (Operation *user : operand.getUsers())
    if (user != matmul && !isa<memref::DeallocOp>(user))
      others.push_back(user);
  if (others.size() != 1) {
    whyNot = "the operand is a local buffer that " +
             std::to_string(others.size()) +
             " ops other than the contraction touch (a prologue needs exactly "
             "one producer)";
    return std::nullopt;
  }
  auto op = dyn_cast<linalg::LinalgOp>(others.front());
  if (!op || op->getBlock() != matmul->getBlock() ||
      !op->isBeforeInBlock(matmul)) {
    whyNot = "the operand is written by '" +
             others.front()->getName().getStringRef().str() +
             "', which is not an elementwise linalg op before the contraction";
    return std::nullopt;
  }
  // The operand's rank: 2, or 3 for a batch (a pointwise map does not
  // care which matrix an element belongs to).
  unsigned rank = cast<MemRefType>(operand.getType()).getRank();
  if (!isElementwiseOnMemrefs(op, rank) || op.getNumDpsInputs() != 1) {
    whyNot = "the producer is not an elementwise op on memrefs of the "
             "operand's rank with one input and one output";
    return std::nullopt;
  }
  if (std::string body = checkBody(op); !body.empty()) {
    whyNot = body;
    return std::nullopt;
  }
  // The tiles past the K edge (and the M or N edge) are TMA's zero fill:
  // the prologue maps them too, and its value at 0 must stay finite so the
  // products with the other operand's zeros vanish.
  for (Operation &inner : op.getBlock()->without_terminator())
    if (isa<arith::DivFOp, math::LogOp, math::RsqrtOp, math::PowFOp>(inner)) {
      whyNot = "the body op '" + inner.getName().getStringRef().str() +
               "' may not be finite at 0, the value of the tiles' zero fill";
      return std::nullopt;
    }
  OpOperand *init = op.getDpsInitOperand(0);
  OpOperand *input = op.getDpsInputOperand(0);
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(rank, op->getContext());
  auto type = dyn_cast<MemRefType>(operand.getType());
  auto sourceType = dyn_cast<MemRefType>(input->get().getType());
  if (init->get() != operand || op.getMatchingIndexingMap(init) != identity ||
      op.getMatchingIndexingMap(input) != identity || !isContiguous(type) ||
      !isContiguous(sourceType) || sourceType != type) {
    whyNot = "the producer does not map one contiguous function argument "
             "of the operand's shape and dtype element for element";
    return std::nullopt;
  }
  auto arg = dyn_cast<BlockArgument>(input->get());
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp())) {
    whyNot = "the producer's input is not a function argument";
    return std::nullopt;
  }
  Block *body = op.getBlock();
  if (!body->getArgument(init->getOperandNumber()).use_empty()) {
    whyNot = "the producer reads the old value of its output";
    return std::nullopt;
  }
  PrologueInfo result;
  result.source = arg;
  result.body.op = op;
  result.body.out = operand;
  result.body.outType = type.getElementType();
  result.body.matmulType = type.getElementType();
  result.body.argSource.push_back(-1); // the input: the source's element
  result.body.argSource.push_back(-2); // the unused output
  if (input->getOperandNumber() != 0)
    std::swap(result.body.argSource[0], result.body.argSource[1]);
  return result;
}

/// Maps the body's block arguments to what stands for them: `acc` for the
/// contraction result, `operands[k]` for extra operand k.
static void mapBodyArguments(Block *body, const EpilogueInfo &info, Value acc,
                             ValueRange operands, IRMapping &mapping) {
  for (auto [arg, source] : llvm::zip(body->getArguments(), info.argSource)) {
    if (source == -1)
      mapping.map(arg, acc);
    else if (source >= 0)
      mapping.map(arg, operands[source]);
  }
}

Value mlir::tcgen::emitEpilogueBody(OpBuilder &builder,
                                    const EpilogueInfo &info, Value acc,
                                    ValueRange operands) {
  Block *body = linalg::LinalgOp(info.op).getBlock();
  IRMapping mapping;
  mapBodyArguments(body, info, acc, operands, mapping);
  for (Operation &inner : body->without_terminator()) {
    for (Value v : inner.getOperands())
      if (!mapping.contains(v) && v.getParentBlock() != body)
        mapping.map(v, builder.clone(*v.getDefiningOp())->getResult(0));
    builder.clone(inner, mapping);
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

/// The value of `v` in the 16-bit type `half`, if `v` is an f32
/// arith.constant (in the body or hoisted out of it) that `half` holds
/// exactly.
static std::optional<APFloat> exactConstant(Value v, FloatType half) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
  if (!f || !f.getType().isF32())
    return std::nullopt;
  APFloat value = f.getValue();
  bool losesInfo = false;
  if (value.convert(half.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo) != APFloat::opOK ||
      losesInfo)
    return std::nullopt;
  return value;
}

bool mlir::tcgen::isExactInHalf(const EpilogueInfo &info) {
  auto half = dyn_cast<FloatType>(info.matmulType);
  if (!half || !(half.isF16() || half.isBF16()) || info.outType != half)
    return false;
  Block *body = linalg::LinalgOp(info.op).getBlock();
  for (auto [arg, source] : llvm::zip(body->getArguments(), info.argSource))
    if (source >= -1 && arg.getType() != half)
      return false;
  // Each value's kind: a 16-bit value extended to f32 (exact), a constant
  // the 16-bit type holds, the one rounded result, or exact functions of
  // the rounded result (max, min, neg).
  enum Kind { Narrow, Const, Rounded };
  llvm::DenseMap<Value, Kind> kind;
  for (auto [arg, source] : llvm::zip(body->getArguments(), info.argSource))
    if (source >= -1)
      kind[arg] = Narrow;
  bool rounded = false;
  Value result;
  for (Operation &op : body->without_terminator()) {
    auto kindOf = [&](Value v) -> std::optional<Kind> {
      auto it = kind.find(v);
      if (it != kind.end())
        return it->second;
      if (exactConstant(v, half))
        return Const;
      return std::nullopt;
    };
    if (isa<arith::ConstantOp>(op))
      continue; // read as Const where the 16-bit type holds it (kindOf)
    if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
      if (kindOf(ext.getIn()) != Narrow || !ext.getType().isF32())
        return false;
      kind[ext] = Narrow;
      continue;
    }
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op)) {
      if (rounded || !op.getResult(0).getType().isF32())
        return false;
      for (Value v : op.getOperands())
        if (kindOf(v) != Narrow && kindOf(v) != Const)
          return false;
      rounded = true;
      kind[op.getResult(0)] = Rounded;
      continue;
    }
    if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp, arith::NegFOp>(op)) {
      if (!op.getResult(0).getType().isF32())
        return false;
      bool any = false;
      for (Value v : op.getOperands()) {
        std::optional<Kind> k = kindOf(v);
        if (!k)
          return false;
        any |= *k != Const;
      }
      if (!any)
        return false;
      kind[op.getResult(0)] = Rounded; // exact: no second rounding
      continue;
    }
    if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
      if (result || trunc.getType() != half || !kindOf(trunc.getIn()) ||
          kindOf(trunc.getIn()) == Const)
        return false;
      result = trunc;
      continue;
    }
    return false;
  }
  return result && body->getTerminator()->getOperand(0) == result;
}

Value mlir::tcgen::emitEpilogueBodyInHalf(OpBuilder &builder,
                                          const EpilogueInfo &info, Value acc,
                                          ValueRange operands) {
  Block *body = linalg::LinalgOp(info.op).getBlock();
  auto vecType = cast<VectorType>(acc.getType());
  auto half = cast<FloatType>(vecType.getElementType());
  IRMapping mapping;
  mapBodyArguments(body, info, acc, operands, mapping);
  Location loc = info.op->getLoc();
  // Constants read (in the body or hoisted out of it) become splats of the
  // 16-bit type; isExactInHalf checked that it holds them.
  for (Operation &op : body->without_terminator())
    for (Value v : op.getOperands())
      if (!mapping.contains(v))
        if (std::optional<APFloat> c = exactConstant(v, half))
          mapping.map(v, arith::ConstantOp::create(
                             builder, loc,
                             DenseElementsAttr::get(
                                 vecType, FloatAttr::get(half, *c))));
  for (Operation &op : body->without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
      mapping.map(ext.getResult(), mapping.lookup(ext.getIn()));
      continue;
    }
    if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
      mapping.map(trunc.getResult(), mapping.lookup(trunc.getIn()));
      continue;
    }
    // add, sub, mul, max, min, neg: the same op on the vectors.
    Operation *clone = builder.clone(op, mapping);
    clone->getResult(0).setType(vecType);
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

DictionaryAttr mlir::tcgen::describeEpilogue(const EpilogueInfo &info) {
  Builder b(info.op->getContext());
  Block *body = linalg::LinalgOp(info.op).getBlock();
  llvm::DenseMap<Value, int64_t> number;
  for (auto [arg, source] : llvm::zip(body->getArguments(), info.argSource))
    if (source >= -1)
      number[arg] = source + 1;
  int64_t next = 1 + info.operands.size();
  SmallVector<Attribute> steps;
  auto addStep = [&](Operation *op) {
    SmallVector<NamedAttribute> fields;
    fields.push_back(b.getNamedAttr(
        "op", b.getStringAttr(op->getName().stripDialect())));
    SmallVector<int64_t> args;
    for (Value v : op->getOperands())
      args.push_back(number.lookup(v));
    fields.push_back(b.getNamedAttr("args", b.getI64ArrayAttr(args)));
    fields.push_back(
        b.getNamedAttr("dtype", b.getStringAttr(typeName(op->getResult(0).getType()))));
    if (auto cst = dyn_cast<arith::ConstantOp>(op))
      fields.push_back(b.getNamedAttr(
          "value",
          b.getF64FloatAttr(
              cast<FloatAttr>(cst.getValue()).getValue().convertToDouble())));
    if (auto cmp = dyn_cast<arith::CmpFOp>(op))
      fields.push_back(b.getNamedAttr(
          "predicate",
          b.getStringAttr(arith::stringifyCmpFPredicate(cmp.getPredicate()))));
    steps.push_back(b.getDictionaryAttr(fields));
    number[op->getResult(0)] = next++;
  };
  for (Operation &inner : body->without_terminator()) {
    for (Value v : inner.getOperands())
      if (!number.count(v))
        addStep(v.getDefiningOp()); // a float constant defined outside
    addStep(&inner);
  }
  SmallVector<Attribute> inputs;
  for (auto [i, e] : llvm::enumerate(info.operands))
    inputs.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("operand", b.getStringAttr(info.operandName(i))),
         b.getNamedAttr("kind",
                        b.getStringAttr(stringifyEpilogueOperandKind(e.kind)))}));
  return b.getDictionaryAttr(
      {b.getNamedAttr("matmul_dtype", b.getStringAttr(typeName(info.matmulType))),
       b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
       b.getNamedAttr("ops", b.getArrayAttr(steps)),
       b.getNamedAttr("result", b.getI64IntegerAttr(number.lookup(
                                    body->getTerminator()->getOperand(0))))});
}

std::optional<PointwiseInfo>
mlir::tcgen::findStandalonePointwise(linalg::LinalgOp op, std::string &whyNot) {
  whyNot.clear();
  if (!isElementwiseOnMemrefs(op, 2)) {
    whyNot = "it is not a two-dimensional elementwise op on memrefs with one "
             "output";
    return std::nullopt;
  }
  if (std::string body = checkBody(op); !body.empty()) {
    whyNot = body;
    return std::nullopt;
  }
  auto isFuncArg = [](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
  };
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = dyn_cast<MemRefType>(init->get().getType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, op->getContext());
  if (!outType || !isContiguous(outType) || outType.getRank() != 2 ||
      !outType.hasStaticShape() ||
      op.getMatchingIndexingMap(init) != identity ||
      !isEpilogueFloat(outType.getElementType())) {
    whyNot = "its output is not a contiguous, statically shaped 2-d memref "
             "of f16, bf16 or f32 written element for element";
    return std::nullopt;
  }
  if (!isFuncArg(init->get())) {
    whyNot = "its output is not a function argument";
    return std::nullopt;
  }
  PointwiseInfo result;
  result.m = outType.getDimSize(0);
  result.n = outType.getDimSize(1);
  EpilogueInfo &info = result.body;
  info.op = op;
  info.out = init->get();
  info.outType = outType.getElementType();
  // x: the first input of the output's shape read element for element.
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (type && type.getShape() == outType.getShape() &&
        op.getMatchingIndexingMap(in) == identity && isContiguous(type) &&
        isEpilogueFloat(type.getElementType()) && in->get() != info.out) {
      result.x = in->get();
      info.matmulType = type.getElementType();
      break;
    }
  }
  if (!result.x) {
    whyNot = "it reads no input of its output's shape element for element";
    return std::nullopt;
  }
  Block *body = op.getBlock();
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    std::string which = "operand #" + std::to_string(operand.getOperandNumber());
    if (&operand == init) {
      if (!arg.use_empty()) {
        whyNot = "it reads the old value of its output";
        return std::nullopt;
      }
      info.argSource.push_back(-2);
      continue;
    }
    Value v = operand.get();
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (v == result.x && map == identity) {
      info.argSource.push_back(-1);
      continue;
    }
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !isContiguous(type) || !type.hasStaticShape() ||
        !isEpilogueFloat(type.getElementType())) {
      whyNot = which + " is not a contiguous, statically shaped memref of "
                       "f16, bf16 or f32";
      return std::nullopt;
    }
    if (!isFuncArg(v)) {
      whyNot = which + " is not a function argument";
      return std::nullopt;
    }
    if (v == info.out) {
      whyNot = "it reads its own output";
      return std::nullopt;
    }
    std::optional<EpilogueOperandKind> kind =
        operandKind(map, type, outType.getShape());
    if (!kind) {
      whyNot = which + " is neither a scalar, a row or column vector nor a " +
               std::to_string(result.m) + "x" + std::to_string(result.n) +
               " matrix read element for element";
      return std::nullopt;
    }
    addOperand(info, v, *kind, type.getElementType());
  }
  return result;
}

int64_t mlir::tcgen::batchFoldedIntoN(const ContractionInfo &info,
                                      const EpilogueInfo *epilogue) {
  if (!info.multiBatch() || info.cTransposed || info.swapped ||
      ShapedType::isDynamic(info.n) || info.n % 64 != 0)
    return -1;
  if (epilogue && llvm::any_of(epilogue->operands, [](const auto &o) {
        return o.kind == EpilogueOperandKind::Matrix;
      }))
    return -1;
  // C += A*B reads C's old value like a matrix operand (add(gemm, gemm)
  // accumulates onto its first product, computed from zero).
  if (!getZeroFillOfOutput(info) && !findFirstProduct(info.op))
    return -1;
  int64_t best = -1;
  for (size_t i = 0; i < info.batchShape.size(); ++i)
    if (info.aBatchPos[i] < 0 && info.bBatchPos[i] >= 0 &&
        info.cBatchPos[i] >= 0 && info.batchShape[i] > 1 &&
        (best < 0 || info.batchShape[i] > info.batchShape[best]))
      best = int64_t(i);
  return best;
}
