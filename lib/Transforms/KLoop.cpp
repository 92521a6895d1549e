//===- KLoop.cpp - The block K loop's parts -------------------------------===//

#include "tcgen/Transforms/KLoop.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/LoopUtils.h"

using namespace mlir;
using namespace mlir::tcgen;

SmallVector<affine::AffineForOp> mlir::tcgen::collectKLoops(Operation *root) {
  SmallVector<affine::AffineForOp> loops;
  root->walk([&](affine::AffineForOp loop) {
    if (getLoopRole(loop) == "block_k")
      loops.push_back(loop);
  });
  return loops;
}

FailureOr<KLoopBody> mlir::tcgen::splitKLoopBody(affine::AffineForOp loop) {
  KLoopBody parts;
  Block *body = loop.getBody();
  parts.first = dyn_cast<gpu::BarrierOp>(&body->front());
  if (!parts.first)
    return loop.emitOpError("expected a barrier before the copies");
  SmallVector<affine::AffineForOp> copies;
  Operation *op = parts.first->getNextNode();
  for (; op && getLoopRole(op) == "copy"; op = op->getNextNode())
    copies.push_back(cast<affine::AffineForOp>(op));
  parts.second = dyn_cast_or_null<gpu::BarrierOp>(op);
  if (copies.empty() || !parts.second)
    return loop.emitOpError("expected barrier; copies; barrier at the top");
  for (affine::AffineForOp copy : copies)
    if (failed(affine::loopUnrollFull(copy)))
      return copy.emitOpError("copy loop could not be unrolled (its trip "
                              "count must be constant per thread)");
  for (Operation *o = parts.first->getNextNode(); o != parts.second;
       o = o->getNextNode())
    parts.copyOps.push_back(o);
  for (Operation *o = parts.second->getNextNode(); o != body->getTerminator();
       o = o->getNextNode())
    parts.computeOps.push_back(o);
  return parts;
}

SmallVector<Value> mlir::tcgen::cloneSharedBuffer(memref::GetGlobalOp get,
                                                  int64_t count) {
  auto module = get->getParentOfType<ModuleOp>();
  SymbolTable symbols(module);
  auto global = symbols.lookup<memref::GlobalOp>(get.getName());
  SmallVector<Value> buffers = {get.getResult()};
  OpBuilder b(get);
  b.setInsertionPointAfter(get);
  for (int64_t s = 1; s <= count; ++s) {
    OpBuilder gb(global);
    auto copy = cast<memref::GlobalOp>(gb.clone(*global));
    copy.setSymName((global.getSymName() + "_" + std::to_string(s)).str());
    symbols.insert(copy, std::next(Block::iterator(global)));
    auto read = memref::GetGlobalOp::create(b, get.getLoc(), get.getType(),
                                            copy.getSymName());
    b.setInsertionPointAfter(read);
    buffers.push_back(read.getResult());
  }
  return buffers;
}
