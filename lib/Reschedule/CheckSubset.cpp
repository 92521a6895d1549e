//===- CheckSubset.cpp - Refuse kernels outside the raised subset ---------===//
//
// This file implements tcgen-reschedule-check-subset: every construct of
// an imported kernel that the raising does not handle is reported at its
// location, named, before anything is rewritten.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Dominance.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRESCHEDULECHECKSUBSETPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

/// Finds a retreating edge of `region`'s CFG whose target does not
/// dominate its source (the CFG is then irreducible) and reports it.
static LogicalResult checkReducible(Region &region) {
  DominanceInfo dom(region.getParentOp());
  DenseSet<Block *> onStack, done;
  SmallVector<std::pair<Block *, unsigned>> stack;
  stack.push_back({&region.front(), 0});
  onStack.insert(&region.front());
  while (!stack.empty()) {
    auto &[block, next] = stack.back();
    if (next == block->getNumSuccessors()) {
      onStack.erase(block);
      done.insert(block);
      stack.pop_back();
      continue;
    }
    Block *succ = block->getSuccessor(next++);
    if (onStack.contains(succ)) {
      if (!dom.dominates(succ, block))
        return block->getTerminator()->emitError()
               << "irreducible control flow: this branch enters a loop "
                  "whose header does not dominate it (a loop with two "
                  "entries, e.g. from a goto)";
      continue;
    }
    if (done.contains(succ))
      continue;
    onStack.insert(succ);
    stack.push_back({succ, 0});
  }
  return success();
}

/// Reports `op` if it is outside the subset; returns failure then.
static LogicalResult checkOp(Operation *op, ModuleOp module) {
  StringRef name = op->getName().getStringRef();
  if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::FenceOp>(op))
    return op->emitError() << "atomic operation " << op->getName()
                           << " (atomics are outside the subset)";
  if (name.starts_with("nvvm.shfl") || name.starts_with("nvvm.vote") ||
      name.starts_with("nvvm.redux") || name.starts_with("nvvm.match"))
    return op->emitError() << "warp-level operation " << op->getName()
                           << " (warp shuffles, votes and reductions are "
                              "outside the subset)";
  if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
    StringRef intrin = call.getIntrin();
    if (intrin.starts_with("llvm.nvvm.shfl") ||
        intrin.starts_with("llvm.nvvm.vote"))
      return op->emitError() << "warp-level intrinsic " << intrin
                             << " (warp shuffles and votes are outside the "
                                "subset)";
    if (intrin.contains("atomic") || intrin.contains(".red."))
      return op->emitError() << "atomic intrinsic " << intrin
                             << " (atomics are outside the subset)";
    return success();
  }
  if (auto call = dyn_cast<LLVM::CallOp>(op)) {
    std::string callee = call.getCallee() ? call.getCallee()->str()
                                          : std::string("a function pointer");
    return op->emitError() << "call to " << callee
                           << " (calls are outside the subset; only inlined "
                              "code is raised)";
  }
  if (isa<LLVM::AllocaOp>(op))
    return op->emitError() << "local memory (llvm.alloca: a local array or "
                              "a variable whose address is taken) is "
                              "outside the subset";
  if (isa<LLVM::IntToPtrOp, LLVM::PtrToIntOp>(op))
    return op->emitError() << op->getName()
                           << ": pointer arithmetic on integers is outside "
                              "the subset (index arrays instead)";
  if (auto select = dyn_cast<LLVM::SelectOp>(op);
      select && isa<LLVM::LLVMPointerType>(select.getType()))
    return op->emitError() << "a pointer chosen by a select is outside the "
                              "subset";
  if (auto addr = dyn_cast<LLVM::AddressOfOp>(op)) {
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(
        SymbolTable::lookupSymbolIn(module, addr.getGlobalNameAttr()));
    if (global && global.getAddrSpace() == 3) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      bool declaration =
          global.getInitializerRegion().empty() && !global.getValueOrNull();
      if (declaration || (array && array.getNumElements() == 0))
        return op->emitError()
               << "dynamic shared memory (extern __shared__ @"
               << global.getSymName()
               << ") is outside the subset: declare the array with its size";
    }
  }
  return success();
}

namespace {
struct RescheduleCheckSubsetPass final
    : tcgen::impl::TCGenRescheduleCheckSubsetPassBase<
          RescheduleCheckSubsetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedAny = false;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
      if (fn.isExternal() || fn.getCConv() != LLVM::CConv::PTX_Kernel)
        continue;
      if (failed(checkReducible(fn.getBody())))
        failedAny = true;
      fn.walk([&](Operation *op) {
        if (failed(checkOp(op, module)))
          failedAny = true;
      });
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
