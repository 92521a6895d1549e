//===- ApplyPrologue.cpp - A pointwise producer on the copied tiles -*- C++ -*-===//
//
// This file implements tcgen-apply-prologue: in a K loop pipelined with
// cp.async, each thread applies the fused producer of A or B to the 16-byte
// chunks it copied itself, once its copies of the k-tile have landed and
// before the barrier that lets the other warps read them.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Transforms/KLoop.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENAPPLYPROLOGUEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;

/// Clones, before `point`, the computation of `v` that lies inside `scope`
/// and does not dominate `point` (pure ops only: index arithmetic and buffer
/// selects). Returns the value to use at `point`, or null if an op with
/// side effects is in the way.
static Value cloneBefore(Value v, Operation *point, Operation *scope,
                         IRMapping &map, OpBuilder &b) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  bool inside = def && scope->isProperAncestor(def);
  bool dominates = !def || (def->getBlock() == point->getBlock() &&
                            def->isBeforeInBlock(point)) ||
                   !inside;
  if (dominates)
    return v;
  if (!isPure(def))
    return Value();
  for (Value operand : def->getOperands())
    if (!cloneBefore(operand, point, scope, map, b))
      return Value();
  Operation *copy = b.clone(*def, map);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

struct ApplyProloguePass final
    : impl::TCGenApplyProloguePassBase<ApplyProloguePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    std::optional<EpilogueInfo> body =
        findMarkedBody(func, kPrologueSourcesAttrName, Type());
    if (!body)
      return;
    auto operand =
        func->getAttrOfType<StringAttr>(kFusedPrologueOperandAttrName);
    StringRef role = operand ? operand.getValue() : "A";
    for (AffineForOp loop : collectKLoops(func))
      if (failed(apply(loop, *body, role)))
        return signalPassFailure();
    // The producer and the buffer it wrote are no longer read.
    Value buffer = body->out;
    body->op->erase();
    if (failed(eraseLocalBuffer(buffer, "the fused prologue's buffer")))
      signalPassFailure();
  }

  LogicalResult apply(AffineForOp loop, const EpilogueInfo &body,
                      StringRef role) {
    Block *kBody = loop.getBody();
    auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(&kBody->front());
    auto barrier =
        wait ? dyn_cast_or_null<gpu::BarrierOp>(wait->getNextNode()) : nullptr;
    if (!barrier)
      return loop.emitOpError("a fused prologue needs the cp.async K loop of "
                              "tcgen-async-copies (wait; barrier; ...)");
    // This thread's copies of the operand, as issued for a later k-tile
    // (their shared indices do not depend on the stage).
    SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
    loop.walk([&](nvgpu::DeviceAsyncCopyOp copy) {
      if (getOperandRole(copy.getSrc()) == role)
        copies.push_back(copy);
    });
    // The stage the compute reads in this iteration: the buffer of the
    // operand's fragment loads.
    StringRef fragment = role == "A" ? "AOp" : "BOp";
    Value stage;
    loop.walk([&](gpu::SubgroupMmaLoadMatrixOp load) {
      if (cast<gpu::MMAMatrixType>(load.getType()).getOperand() == fragment)
        stage = load.getSrcMemref();
    });
    if (copies.empty() || !stage)
      return loop.emitOpError("found no copies or fragment loads of ") << role;

    OpBuilder b(barrier);
    IRMapping map;
    Location loc = loop.getLoc();
    Value buffer = cloneBefore(stage, barrier, loop, map, b);
    if (!buffer)
      return loop.emitOpError("cannot compute the stage buffer before the "
                              "barrier");
    for (nvgpu::DeviceAsyncCopyOp copy : copies) {
      SmallVector<Value> indices;
      for (Value index : copy.getDstIndices()) {
        Value i = cloneBefore(index, barrier, loop, map, b);
        if (!i)
          return copy.emitOpError("cannot compute the chunk's indices before "
                                  "the barrier");
        indices.push_back(i);
      }
      auto type = VectorType::get({copy.getDstElements().getSExtValue()},
                                  copy.getDst().getType().getElementType());
      Value chunk = vector::LoadOp::create(b, loc, type, buffer, indices);
      Value result = chunk;
      for (int64_t e = 0; e < type.getNumElements(); ++e) {
        Value x = vector::ExtractOp::create(b, loc, chunk, ArrayRef<int64_t>{e});
        Value y = emitEpilogueBody(b, body, x, {});
        result = vector::InsertOp::create(b, loc, y, result,
                                          ArrayRef<int64_t>{e});
      }
      vector::StoreOp::create(b, loc, result, buffer, indices);
    }
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
