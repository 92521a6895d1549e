//===- LoopTags.cpp - Roles of the loops of a tcgen nest --------*- C++ -*-===//
//
// This file implements the helpers that read and write tcgen's tags.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tcgen;

StringRef mlir::tcgen::getLoopRole(Operation *op) {
  if (auto role = op->getAttrOfType<StringAttr>(kLoopAttrName))
    return role.getValue();
  return "";
}

void mlir::tcgen::setLoopRole(Operation *op, StringRef role) {
  op->setAttr(kLoopAttrName, StringAttr::get(op->getContext(), role));
}

affine::AffineForOp mlir::tcgen::findLoop(Operation *root, StringRef role) {
  affine::AffineForOp found;
  root->walk<WalkOrder::PreOrder>([&](affine::AffineForOp loop) {
    if (getLoopRole(loop) != role)
      return WalkResult::advance();
    found = loop;
    return WalkResult::interrupt();
  });
  return found;
}

SmallVector<affine::AffineForOp>
mlir::tcgen::getConfiguredNests(Operation *root) {
  SmallVector<affine::AffineForOp> nests;
  root->walk<WalkOrder::PreOrder>([&](affine::AffineForOp loop) {
    if (!loop->hasAttr(kConfigAttrName))
      return WalkResult::advance();
    nests.push_back(loop);
    return WalkResult::skip();
  });
  return nests;
}

ConfigAttr mlir::tcgen::getEnclosingConfig(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto config = p->getAttrOfType<ConfigAttr>(kConfigAttrName))
      return config;
  return {};
}

StringRef mlir::tcgen::getOperandRole(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func)
      return "";
    if (auto role = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kOperandAttrName))
      return role.getValue();
    return "";
  }
  // A local buffer standing for an operand (the intermediate C of a fused
  // epilogue) carries the tag itself.
  if (Operation *def = memref.getDefiningOp())
    if (auto role = def->getAttrOfType<StringAttr>(kOperandAttrName))
      return role.getValue();
  auto getGlobal = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return "";
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global)
    return "";
  if (auto role = global->getAttrOfType<StringAttr>(kOperandAttrName))
    return role.getValue();
  return "";
}

/// Tags the function argument behind `value` with the operand name `role`.
/// Fails when the value is not an argument of `func` or already plays
/// another role.
LogicalResult mlir::tcgen::tagOperandArgument(func::FuncOp func, Operation *op,
                                              Value value, StringRef role) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &func.getBody().front()) {
    InFlightDiagnostic diag =
        op->emitOpError("operand ")
        << role
        << " must be a function argument (tcgen kernels take their operands "
           "as arguments)";
    // A local buffer read by another op: the result of a contraction whose
    // consumer was not fused (a remark says why) or an input computed in
    // the function.
    if (value.getDefiningOp<memref::AllocOp>() ||
        value.getDefiningOp<memref::AllocaOp>())
      diag << "; it is a buffer allocated in the function: where a consumer "
              "of the result could not be fused (see the remark), write the "
              "result to an argument and run the consumer separately";
    return diag;
  }
  if (!isa<MemRefType>(arg.getType()))
    return op->emitOpError("operand ")
           << role << " is a tensor: bufferize before lowering";
  unsigned idx = arg.getArgNumber();
  if (auto old = func.getArgAttrOfType<StringAttr>(idx, kOperandAttrName))
    if (old.getValue() != role)
      return op->emitOpError("function argument #")
             << idx << " is used as both " << old.getValue() << " and " << role;
  func.setArgAttr(idx, kOperandAttrName,
                  StringAttr::get(func.getContext(), role));
  return success();
}

bool mlir::tcgen::indexesK(AffineMap map, ValueRange operands,
                           unsigned result) {
  bool k = false;
  map.getResult(result).walk([&](AffineExpr e) {
    unsigned pos;
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      pos = dim.getPosition();
    else if (auto sym = dyn_cast<AffineSymbolExpr>(e))
      pos = map.getNumDims() + sym.getPosition();
    else
      return;
    auto arg = dyn_cast<BlockArgument>(operands[pos]);
    if (!arg)
      return;
    StringRef role = getLoopRole(arg.getOwner()->getParentOp());
    if (role == "k" || role.ends_with("_k"))
      k = true;
  });
  return k;
}

memref::GlobalOp mlir::tcgen::createSharedBuffer(ModuleOp module, Location loc,
                                                 StringRef name, int64_t rows,
                                                 int64_t cols,
                                                 Type elementType) {
  MLIRContext *ctx = module.getContext();
  // NVVM's shared address space, numeric (docs/log/NOTES.md).
  auto space = IntegerAttr::get(IntegerType::get(ctx, 64), kSharedMemorySpace);
  auto type = MemRefType::get({rows, cols}, elementType, AffineMap(), space);
  OpBuilder b(ctx);
  auto global = memref::GlobalOp::create(
      b, loc, name, b.getStringAttr("private"), type, Attribute(),
      /*constant=*/false, b.getI64IntegerAttr(128));
  SymbolTable(module).insert(global, module.getBody()->begin());
  return global;
}

std::optional<EpilogueInfo> mlir::tcgen::findMarkedBody(func::FuncOp func,
                                                        StringRef sourcesAttr,
                                                        Type matmulType) {
  linalg::LinalgOp marked;
  func.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(sourcesAttr))
      marked = op;
  });
  if (!marked)
    return std::nullopt;
  EpilogueInfo info;
  info.op = marked;
  info.out = marked.getDpsInits()[0];
  info.outType = cast<MemRefType>(info.out.getType()).getElementType();
  info.matmulType = matmulType ? matmulType : info.outType;
  ArrayRef<int64_t> sources =
      marked->getAttrOfType<DenseI64ArrayAttr>(sourcesAttr).asArrayRef();
  info.argSource.assign(sources.begin(), sources.end());
  ArrayRef<int64_t> kinds;
  if (auto k = marked->getAttrOfType<DenseI64ArrayAttr>(kEpilogueKindsAttrName))
    kinds = k.asArrayRef();
  info.operands.resize(kinds.size());
  for (auto [i, source] : llvm::enumerate(sources)) {
    if (source < 0 || source >= int64_t(kinds.size()))
      continue;
    EpilogueOperand &e = info.operands[source];
    e.memref = marked->getOperand(i);
    e.kind = EpilogueOperandKind(kinds[source]);
    e.elementType = cast<MemRefType>(e.memref.getType()).getElementType();
  }
  return info;
}

LogicalResult mlir::tcgen::eraseLocalBuffer(Value buffer, StringRef what) {
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    if (!isa<memref::DeallocOp>(user))
      return user->emitOpError("still uses ") << what;
    user->erase();
  }
  if (Operation *alloc = buffer.getDefiningOp())
    alloc->erase();
  return success();
}

SmallVector<linalg::LinalgOp>
mlir::tcgen::getOpsForBackend(Operation *root, StringRef backend) {
  SmallVector<linalg::LinalgOp> ops;
  root->walk([&](linalg::LinalgOp op) {
    auto config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (config && config.getBackend() == backend)
      ops.push_back(op);
  });
  return ops;
}

LogicalResult mlir::tcgen::tagEpilogueOperands(func::FuncOp func,
                                               const EpilogueInfo &epilogue) {
  // (A dual GEMM's P2 is computed, not passed: its B2 is tagged instead.)
  for (auto [k, e] : llvm::enumerate(epilogue.operands))
    if (e.kind != EpilogueOperandKind::Product &&
        failed(tagOperandArgument(func, epilogue.op, e.memref,
                                  epilogue.operandName(k))))
      return failure();
  return success();
}

LogicalResult mlir::tcgen::eraseComputedContraction(
    func::FuncOp func, linalg::LinalgOp op, Operation *fill,
    const EpilogueInfo *epilogue, ArrayRef<Operation *> others) {
  // The intermediate result is unobservable (findEpilogue): the consumer,
  // the contraction, its fill and the buffer all go.
  Value c = op.getDpsInits()[0];
  if (epilogue) {
    func->setAttr(kFusedEpilogueAttrName, describeEpilogue(*epilogue));
    epilogue->op->erase();
  }
  if (fill)
    fill->erase();
  op->erase();
  for (Operation *other : others)
    other->erase();
  if (epilogue)
    return eraseLocalBuffer(c, "the fused intermediate result");
  return success();
}
