//===- CollapseDims.cpp - Several dims of one role into one -----*- C++ -*-===//
//
// This file implements tcgen-collapse-dims: contractions with several
// batch, M, N or K dimensions become the canonical (batched) matmul where
// each role's dimensions collapse as a reshape of contiguous arguments.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENCOLLAPSEDIMSPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

/// The roles in the collapsed loop order: batch, M, N, K.
enum Role { kBatch = 0, kM = 1, kN = 2, kK = 3, kNumRoles = 4 };

/// How one operand is collapsed: for each of its result positions, the
/// role of the loop dimension there, runs of one role becoming one
/// dimension.
struct OperandPlan {
  SmallVector<int> roles;                  // per result position
  SmallVector<ReassociationIndices> groups; // positions per new dimension
};

/// Plans the collapse of `op`'s operand `index` (indexing map `map`): each
/// result must be one loop dimension, and the dimensions of one role must
/// sit next to each other in the order `order[role]` lists them. Returns
/// failure otherwise.
FailureOr<OperandPlan>
planOperand(AffineMap map, ArrayRef<int> roleOf,
            const std::array<SmallVector<unsigned>, kNumRoles> &order) {
  OperandPlan plan;
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return failure();
    plan.roles.push_back(roleOf[d.getPosition()]);
  }
  for (unsigned pos = 0; pos < map.getNumResults();) {
    int role = plan.roles[pos];
    ArrayRef<unsigned> dims = order[role];
    ReassociationIndices group;
    for (unsigned i = 0; i < dims.size(); ++i, ++pos) {
      if (pos >= map.getNumResults() ||
          cast<AffineDimExpr>(map.getResult(pos)).getPosition() != dims[i])
        return failure();
      group.push_back(pos);
    }
    plan.groups.push_back(group);
  }
  return plan;
}

/// The collapsed memref type of `type` under `groups`, or null if the
/// memref is not contiguous (identity layout) or a group is not.
MemRefType collapsedType(MemRefType type, ArrayRef<ReassociationIndices> groups) {
  if (!type || !type.getLayout().isIdentity())
    return {};
  SmallVector<int64_t> shape;
  for (const ReassociationIndices &g : groups) {
    int64_t size = 1;
    for (int64_t i : g) {
      int64_t d = type.getDimSize(i);
      if (ShapedType::isDynamic(d) || ShapedType::isDynamic(size))
        size = ShapedType::kDynamic;
      else
        size *= d;
    }
    shape.push_back(size);
  }
  return MemRefType::get(shape, type.getElementType());
}

struct CollapseDimsPass final
    : impl::TCGenCollapseDimsPassBase<CollapseDimsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isContractionCandidate(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      collapse(op);
  }

  /// Collapses `op` where its layout allows; leaves it alone otherwise.
  void collapse(linalg::LinalgOp op) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || !op.hasPureBufferSemantics() ||
        op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return;
    std::array<SmallVector<unsigned>, kNumRoles> order = {
        SmallVector<unsigned>(dims->batch.begin(), dims->batch.end()),
        SmallVector<unsigned>(dims->m.begin(), dims->m.end()),
        SmallVector<unsigned>(dims->n.begin(), dims->n.end()),
        SmallVector<unsigned>(dims->k.begin(), dims->k.end())};
    if (llvm::all_of(order, [](const auto &o) { return o.size() <= 1; }) ||
        llvm::any_of(llvm::drop_begin(order),
                     [](const auto &o) { return o.empty(); }))
      return;
    unsigned numLoops = op.getNumLoops();
    SmallVector<int> roleOf(numLoops, -1);
    for (int role = 0; role < kNumRoles; ++role)
      for (unsigned d : order[role])
        roleOf[d] = role;
    if (llvm::is_contained(roleOf, -1))
      return;
    // The order of a role's dimensions is the one in the first operand
    // that holds them all (A for batch, M, K; B for N).
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (int role = 0; role < kNumRoles; ++role) {
      AffineMap from = maps[role == kN ? 1 : 0];
      SmallVector<unsigned> ordered;
      for (AffineExpr e : from.getResults())
        if (auto d = dyn_cast<AffineDimExpr>(e);
            d && roleOf[d.getPosition()] == role)
          ordered.push_back(d.getPosition());
      if (ordered.size() != order[role].size())
        return;
      order[role] = ordered;
    }
    // Every operand a contiguous function argument whose other users are
    // linalg.fill ops, each role's run next to each other in that order.
    auto func = op->getParentOfType<func::FuncOp>();
    SmallVector<OperandPlan> plans;
    SmallVector<MemRefType> newTypes;
    for (OpOperand &operand : op->getOpOperands()) {
      auto arg = dyn_cast<BlockArgument>(operand.get());
      if (!arg || arg.getOwner() != &func.getBody().front())
        return;
      for (Operation *user : arg.getUsers())
        if (user != op.getOperation() && !isa<linalg::FillOp>(user))
          return;
      FailureOr<OperandPlan> plan = planOperand(
          maps[operand.getOperandNumber()], roleOf, order);
      if (failed(plan))
        return;
      MemRefType type = collapsedType(
          dyn_cast<MemRefType>(arg.getType()), plan->groups);
      if (!type)
        return;
      plans.push_back(*plan);
      newTypes.push_back(type);
    }
    // The same argument twice (A = B) would need one type for two plans.
    for (unsigned i = 0; i < 3; ++i)
      for (unsigned j = i + 1; j < 3; ++j)
        if (op->getOperand(i) == op->getOperand(j))
          return;

    // One loop per role present: batch (if any), m, n, k.
    MLIRContext *ctx = op.getContext();
    SmallVector<int> newDimOf(kNumRoles, -1);
    unsigned numNew = 0;
    for (int role = 0; role < kNumRoles; ++role)
      if (!order[role].empty())
        newDimOf[role] = numNew++;
    SmallVector<AffineMap> newMaps;
    for (const OperandPlan &plan : plans) {
      SmallVector<AffineExpr> results;
      for (const ReassociationIndices &g : plan.groups)
        results.push_back(getAffineDimExpr(newDimOf[plan.roles[g.front()]], ctx));
      newMaps.push_back(AffineMap::get(numNew, 0, results, ctx));
    }
    SmallVector<utils::IteratorType> iterators(numNew,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;

    // The arguments take the collapsed types (the same memory).
    SmallVector<Type> argTypes(func.getArgumentTypes());
    for (auto [operand, type] : llvm::zip(op->getOperands(), newTypes)) {
      auto arg = cast<BlockArgument>(operand);
      arg.setType(type);
      argTypes[arg.getArgNumber()] = type;
    }
    func.setType(FunctionType::get(ctx, argTypes, func.getResultTypes()));

    OpBuilder b(op);
    auto generic = linalg::GenericOp::create(
        b, op.getLoc(), ValueRange{op->getOperand(0), op->getOperand(1)},
        ValueRange{op->getOperand(2)}, newMaps, iterators);
    // The body: the op's own region (a named op's is implicit but present).
    IRMapping mapping;
    op->getRegion(0).cloneInto(&generic.getRegion(), mapping);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      generic->setAttr(attr.getName(), attr.getValue());
    op->erase();
  }
};
} // namespace
} // namespace mlir::tcgen
