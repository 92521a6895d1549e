//===- PipelineAnalysis.cpp - Copies, computes and their dependences ------===//
//
// This file implements the analysis of Pipeline.h: it finds the loop of a
// raised kernel whose copy statements (global loads stored to shared
// buffers) and compute statements (reads of those buffers) are separated
// by barriers, checks that the loop can be pipelined, and describes the
// dependences between the two over the loop.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Pipeline.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcgen;

int64_t PipelinePlan::stageBytes() const {
  int64_t bytes = 0;
  for (const CopiedBuffer &b : buffers)
    bytes += b.bytes;
  return bytes;
}

namespace {

/// A load or store of one memref element, affine or not.
struct Access {
  Value memref;
  bool write = false;
  Value stored; ///< the stored value of a write
};

std::optional<Access> accessOf(Operation *op) {
  if (auto load = dyn_cast<affine::AffineLoadOp>(op))
    return Access{load.getMemRef(), false, {}};
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{load.getMemRef(), false, {}};
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return Access{store.getMemRef(), true, store.getValueToStore()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{store.getMemRef(), true, store.getValueToStore()};
  return std::nullopt;
}

bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// The shared buffer `memref` reads, or null.
memref::GetGlobalOp sharedBuffer(Value memref) {
  auto get = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!get || !isWorkgroup(get.getType()))
    return {};
  return get;
}

/// Whether `memref` is a kernel parameter (global memory).
bool isParameter(Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// Whether `op` stores a global load into a shared buffer.
bool isCopyStore(Operation *op) {
  std::optional<Access> a = accessOf(op);
  if (!a || !a->write || !sharedBuffer(a->memref))
    return false;
  Operation *def = a->stored.getDefiningOp();
  std::optional<Access> src = def ? accessOf(def) : std::nullopt;
  return src && !src->write && isParameter(src->memref);
}

/// Whether `op` is a global load whose every use is a copy store.
bool isCopyLoad(Operation *op) {
  std::optional<Access> a = accessOf(op);
  if (!a || a->write || !isParameter(a->memref))
    return false;
  return llvm::all_of(op->getUsers(),
                      [](Operation *user) { return isCopyStore(user); });
}

bool isLoop(Operation *op) {
  return isa<scf::ForOp, affine::AffineForOp, scf::WhileOp>(op);
}

/// The body block of a loop (scf.while: its "after" region).
Block *loopBody(Operation *loop) {
  if (auto w = dyn_cast<scf::WhileOp>(loop))
    return w.getAfterBody();
  return &loop->getRegion(0).front();
}

bool hasBarrier(Block *block) {
  return llvm::any_of(*block,
                      [](Operation &op) { return isa<gpu::BarrierOp>(op); });
}

std::string bufferName(Value memref) {
  return "@" + sharedBuffer(memref).getName().str();
}

/// Whether a value computed from memory (a load) reaches `v`.
bool dependsOnMemory(Value v) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!seen.insert(cur).second)
      continue;
    Operation *def = cur.getDefiningOp();
    if (!def)
      continue;
    if (!isMemoryEffectFree(def))
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The checks of one candidate loop, filling `plan`.
class LoopChecker {
public:
  LoopChecker(Operation *loop, PipelinePlan &plan) : loop(loop), plan(plan) {}
  LogicalResult run();

private:
  LogicalResult checkBounds();
  LogicalResult splitBody();
  LogicalResult checkCopies();
  LogicalResult checkCompute();
  LogicalResult checkCarried(Operation *copy);
  CopiedBuffer &bufferFor(Value memref);
  /// Whether `memref` is a kernel parameter declared `__restrict__`
  /// (tcgen.noalias) from which no copy statement loads: stores through it
  /// cannot feed a later iteration's copies, which may then run first.
  bool isRestrictOutput(Value memref) const;

  Operation *loop;
  PipelinePlan &plan;
  SmallVector<Operation *> copyOps, computeOps, tailOps;
};

} // namespace

bool LoopChecker::isRestrictOutput(Value memref) const {
  auto arg = dyn_cast<BlockArgument>(memref);
  auto fn = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                : func::FuncOp();
  if (!fn || !arg.getOwner()->isEntryBlock() ||
      !fn.getArgAttr(arg.getArgNumber(), "tcgen.noalias"))
    return false;
  for (const CopiedBuffer &b : plan.buffers)
    for (Operation *store : b.stores) {
      std::optional<Access> s = accessOf(store);
      Operation *load = s ? s->stored.getDefiningOp() : nullptr;
      std::optional<Access> l = load ? accessOf(load) : std::nullopt;
      if (!l || l->memref == memref)
        return false;
    }
  return true;
}

CopiedBuffer &LoopChecker::bufferFor(Value memref) {
  memref::GetGlobalOp get = sharedBuffer(memref);
  for (CopiedBuffer &b : plan.buffers)
    if (b.global.getSymName() == get.getName())
      return b;
  auto module = loop->getParentOfType<ModuleOp>();
  CopiedBuffer b;
  b.global = module.lookupSymbol<memref::GlobalOp>(get.getNameAttr());
  b.name = get.getName().str();
  MemRefType t = get.getType();
  b.copyBytes = t.getElementTypeBitWidth() / 8;
  b.bytes = t.getNumElements() * b.copyBytes;
  plan.buffers.push_back(b);
  return plan.buffers.back();
}

LogicalResult LoopChecker::checkBounds() {
  if (isa<scf::WhileOp>(loop))
    return loop->emitError(
        "the loop around the copies has no induction variable: its trip "
        "count is data-dependent, so later iterations' copies cannot be "
        "issued early");
  for (Value v : loop->getOperands()) {
    // The bounds and the step (an scf.for's or affine.for's operands up to
    // its iter_args' initial values).
    if (llvm::is_contained(cast<LoopLikeOpInterface>(loop).getInits(), v))
      continue;
    if (dependsOnMemory(v))
      return loop->emitError(
          "the loop around the copies has a data-dependent trip count (a "
          "bound is computed from a load)");
  }
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(forOp.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
    if (step && *step <= 0)
      return loop->emitError("the loop around the copies has a step that "
                             "is not positive");
    if (lb && ub && step)
      plan.tripCount = std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
  } else {
    auto affineFor = cast<affine::AffineForOp>(loop);
    if (affineFor.hasConstantBounds())
      plan.tripCount = std::max<int64_t>(0, (affineFor.getConstantUpperBound() -
                                             affineFor.getConstantLowerBound() +
                                             affineFor.getStepAsInt() - 1) /
                                                affineFor.getStepAsInt());
  }
  return success();
}

LogicalResult LoopChecker::splitBody() {
  Block *body = loopBody(loop);
  SmallVector<gpu::BarrierOp> barriers;
  for (Operation &op : body->without_terminator()) {
    if (auto b = dyn_cast<gpu::BarrierOp>(op)) {
      barriers.push_back(b);
      continue;
    }
    WalkResult nested = op.walk([&](gpu::BarrierOp b) {
      b.emitError("a barrier inside a nested construct of the loop around "
                  "the copies; the schedule pipelines a loop whose barriers "
                  "are at its top level");
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return failure();
    (barriers.empty()       ? copyOps
     : barriers.size() == 1 ? computeOps
                            : tailOps)
        .push_back(&op);
  }
  if (barriers.size() != 2)
    return loop->emitError()
           << "the loop around the copies has " << barriers.size()
           << " barrier(s) at its top level; the schedule pipelines a loop "
              "with one barrier after its copies and one after their uses";
  plan.copyBarrier = barriers[0];
  plan.computeBarrier = barriers[1];
  for (Operation *op : tailOps)
    if (!isMemoryEffectFree(op))
      return op->emitError("after the loop's last barrier, '")
             << op->getName()
             << "' is not index arithmetic; the schedule moves the copies "
                "of later iterations before it";
  return success();
}

LogicalResult LoopChecker::checkCarried(Operation *copy) {
  auto loopLike = cast<LoopLikeOpInterface>(loop);
  Block::BlockArgListType iterArgs = loopLike.getRegionIterArgs();
  SmallVector<Value> work(copy->getOperands());
  for (Operation *p = copy->getParentOp(); p != loop; p = p->getParentOp())
    llvm::append_range(work, p->getOperands());
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp()) {
      if (loop->isAncestor(def))
        llvm::append_range(work, def->getOperands());
      continue;
    }
    auto it = llvm::find(iterArgs, v);
    if (it == iterArgs.end())
      continue;
    unsigned n = it - iterArgs.begin();
    Value yielded = (*loopLike.getYieldedValuesMutable())[n].get();
    auto add = yielded.getDefiningOp<arith::AddIOp>();
    Value step;
    if (add && add.getLhs() == v)
      step = add.getRhs();
    else if (add && add.getRhs() == v)
      step = add.getLhs();
    if (!step || loop->isAncestor(step.getParentBlock()->getParentOp()))
      return copy->emitError()
             << "the copy's address depends on a value the loop carries "
                "(iter_arg #"
             << n << ") that is not stepped by a loop-invariant value";
    if (!llvm::is_contained(llvm::make_first_range(plan.inductions), n))
      plan.inductions.push_back({n, step});
  }
  return success();
}

LogicalResult LoopChecker::checkCopies() {
  for (Operation *top : copyOps) {
    if (isa<scf::ForOp, affine::AffineForOp>(top) && top->getNumResults())
      return top->emitError("a loop before the barrier yields values; the "
                            "schedule moves copy loops without results");
    WalkResult r = top->walk([&](Operation *op) -> WalkResult {
      if (op != top && isa<scf::ForOp, affine::AffineForOp>(op))
        return WalkResult::advance();
      if (isCopyStore(op)) {
        std::optional<Access> a = accessOf(op);
        CopiedBuffer &b = bufferFor(a->memref);
        int64_t bytes = b.copyBytes;
        if (bytes != 4 && bytes != 8 && bytes != 16) {
          op->emitError() << "cp.async moves 4, 8 or 16 bytes; the copy into "
                          << bufferName(a->memref) << " moves " << bytes;
          return WalkResult::interrupt();
        }
        b.stores.push_back(op);
        return failed(checkCarried(op)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
      }
      if (isCopyLoad(op))
        return failed(checkCarried(op)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
      if (std::optional<Access> a = accessOf(op)) {
        if (a->write && sharedBuffer(a->memref))
          op->emitError() << "the store into " << bufferName(a->memref)
                          << " before the barrier stores a computed value, "
                             "not a value loaded from global memory";
        else
          op->emitError("before the barrier, a memory access that is not "
                        "part of a copy (a global load stored to a shared "
                        "buffer)");
        return WalkResult::interrupt();
      }
      if (isa<scf::ForOp, affine::AffineForOp, scf::YieldOp,
              affine::AffineYieldOp>(op) ||
          isMemoryEffectFree(op))
        return WalkResult::advance();
      op->emitError("before the barrier, '")
          << op->getName() << "' is neither a copy nor address arithmetic";
      return WalkResult::interrupt();
    });
    if (r.wasInterrupted())
      return failure();
  }
  return success();
}

LogicalResult LoopChecker::checkCompute() {
  for (Operation *top : computeOps) {
    WalkResult r = top->walk([&](Operation *op) -> WalkResult {
      std::optional<Access> a = accessOf(op);
      if (!a) {
        if (isMemoryEffectFree(op) ||
            isa<scf::ForOp, affine::AffineForOp, scf::IfOp, affine::AffineIfOp,
                scf::YieldOp, affine::AffineYieldOp>(op))
          return WalkResult::advance();
        op->emitError("between the barriers, '")
            << op->getName()
            << "' has memory effects the schedule does not "
               "model";
        return WalkResult::interrupt();
      }
      if (a->write && sharedBuffer(a->memref)) {
        op->emitError() << "the shared buffer " << bufferName(a->memref)
                        << " is written after the barrier (by the compute "
                           "statements), not only by copies";
        return WalkResult::interrupt();
      }
      if (a->write && !isRestrictOutput(a->memref)) {
        op->emitError("the compute statements write memory other than "
                      "registers, which a later iteration's copies may read "
                      "(a __restrict__ parameter that no copy reads may be "
                      "written)");
        return WalkResult::interrupt();
      }
      if (a->write) {
        unsigned n = cast<BlockArgument>(a->memref).getArgNumber();
        if (!llvm::is_contained(plan.restrictOutputs, n))
          plan.restrictOutputs.push_back(n);
        return WalkResult::advance();
      }
      if (memref::GetGlobalOp get = sharedBuffer(a->memref))
        for (CopiedBuffer &b : plan.buffers)
          if (b.global.getSymName() == get.getName())
            b.reads.push_back(op);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
  }
  for (CopiedBuffer &b : plan.buffers)
    if (b.reads.empty())
      return b.stores.front()->emitError()
             << "the shared buffer @" << b.global.getSymName()
             << " is copied into but not read between the barriers";
  return success();
}

LogicalResult LoopChecker::run() {
  if (failed(checkBounds()) || failed(splitBody()) || failed(checkCopies()) ||
      failed(checkCompute()))
    return failure();
  // A copied buffer becomes S buffers: nothing outside the loop may read
  // or write it.
  auto fn = loop->getParentOfType<FunctionOpInterface>();
  for (CopiedBuffer &b : plan.buffers) {
    WalkResult r = fn->walk([&](memref::GetGlobalOp get) {
      if (get.getName() != b.global.getSymName())
        return WalkResult::advance();
      for (Operation *user : get->getUsers())
        if (!loop->isAncestor(user)) {
          user->emitError() << "the shared buffer @" << b.global.getSymName()
                            << " is also accessed outside the pipelined loop";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
  }
  auto module = loop->getParentOfType<ModuleOp>();
  for (auto global : module.getOps<memref::GlobalOp>()) {
    if (!isWorkgroup(global.getType()) ||
        llvm::any_of(plan.buffers,
                     [&](const CopiedBuffer &b) { return b.global == global; }))
      continue;
    MemRefType t = global.getType();
    plan.otherSharedBytes +=
        t.getNumElements() * t.getElementTypeBitWidth() / 8;
  }
  return success();
}

FailureOr<PipelinePlan> mlir::tcgen::analyzePipeline(func::FuncOp kernel) {
  SmallVector<Operation *> copies, sharedStores;
  kernel.walk([&](Operation *op) {
    std::optional<Access> a = accessOf(op);
    if (a && a->write && sharedBuffer(a->memref))
      sharedStores.push_back(op);
    if (isCopyStore(op))
      copies.push_back(op);
  });
  if (copies.empty()) {
    if (!sharedStores.empty())
      return sharedStores.front()->emitError()
             << "nothing to pipeline: the store into "
             << bufferName(sharedStores.front()->getOperand(1))
             << " stores a computed value, not a value loaded from global "
                "memory, and no other store copies global data into shared "
                "memory";
    return kernel.emitError("nothing to pipeline: no global load is stored "
                            "to a shared buffer");
  }
  Operation *loop = nullptr;
  for (Operation *copy : copies) {
    Operation *found = nullptr;
    for (Operation *p = copy->getParentOp(); p != kernel; p = p->getParentOp())
      if (isLoop(p) && hasBarrier(loopBody(p))) {
        found = p;
        break;
      }
    if (!found)
      return copy->emitError()
             << "nothing to pipeline: the copy into "
             << bufferName(copy->getOperand(1))
             << " is not inside a loop with barriers, so there is no later "
                "iteration to overlap it with";
    if (loop && found != loop)
      return copy->emitError()
             << "the copy into " << bufferName(copy->getOperand(1))
             << " is in a different loop than the copy into "
             << bufferName(copies.front()->getOperand(1))
             << "; the schedule pipelines one loop";
    loop = found;
  }
  PipelinePlan plan;
  plan.loop = loop;
  LoopChecker checker(loop, plan);
  if (failed(checker.run()))
    return failure();
  return plan;
}

FailureOr<int64_t>
mlir::tcgen::chooseStages(int64_t stageBytes, int64_t otherBytes,
                          std::optional<int64_t> tripCount, int64_t requested,
                          int64_t budget, std::string &error, int64_t maxAuto) {
  int64_t fit = stageBytes > 0 ? (budget - otherBytes) / stageBytes : 0;
  auto bytes = [&](int64_t stages) {
    return std::to_string(stages) + " stages of " + std::to_string(stageBytes) +
           " bytes (and " + std::to_string(otherBytes) +
           " bytes of other shared buffers)";
  };
  if (requested > 0) {
    if (requested < 2) {
      error = "--stages must be at least 2 (one stage is the original "
              "kernel)";
      return failure();
    }
    if (requested > fit) {
      error = bytes(requested) + " exceed the " + std::to_string(budget) +
              "-byte shared-memory budget";
      return failure();
    }
    return requested;
  }
  int64_t stages = std::min(fit, maxAuto);
  if (tripCount)
    stages = std::min(stages, *tripCount);
  if (stages < 2) {
    error = fit < 2 ? bytes(2) + " exceed the " + std::to_string(budget) +
                          "-byte shared-memory budget"
                    : "the loop runs " + std::to_string(*tripCount) +
                          " iteration(s); there is nothing to overlap";
    return failure();
  }
  return stages;
}

std::string mlir::tcgen::explainPipeline(const PipelinePlan &plan) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "  pipelined loop: " << plan.loop->getName() << " (trip count "
     << (plan.tripCount ? std::to_string(*plan.tripCount) : "dynamic") << ")\n";
  for (const CopiedBuffer &b : plan.buffers)
    os << "    copy: " << b.stores.size() << " statement(s) into @" << b.name
       << " (" << b.copyBytes << " bytes each), footprint " << b.bytes
       << " bytes\n";
  for (const CopiedBuffer &b : plan.buffers)
    os << "    compute: " << b.reads.size() << " read(s) of @" << b.name
       << " after the first barrier\n";
  for (auto [n, step] : plan.inductions)
    os << "    copy address steps with iter_arg #" << n << "\n";
  os << "  dependences over the loop (k: iteration):\n";
  for (const CopiedBuffer &b : plan.buffers) {
    os << "    copy(k) -> compute(k) through @" << b.name
       << ": true (read after write), made asynchronous\n";
    os << "    compute(k) -> copy(k+1) through @" << b.name
       << ": false (write after read), removed by multi-buffering\n";
  }
  for (unsigned n : plan.restrictOutputs)
    os << "    compute(k) -> copy(k+j) through parameter " << n
       << ": none (it is __restrict__ and no copy reads it)\n";
  os << "  shared memory: " << plan.stageBytes() << " bytes a stage, "
     << plan.otherSharedBytes << " bytes of other buffers\n";
  return text;
}
