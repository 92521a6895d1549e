//===- PipelineCopies.cpp - Multi-buffered asynchronous copies ------------===//
//
// This file implements tcgen-reschedule-pipeline: the kernel's pipelined
// loop (Pipeline.h) is rewritten into the seed's final schedule, a
// prologue issuing the copies of the first S-1 iterations, a steady-state
// loop issuing the copy of iteration k+S-1 while computing on iteration
// k's stage, and a drain loop, with the copies asynchronous (nvgpu's
// device_async_copy, i.e. cp.async) into S-fold shared buffers.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"
#include "tcgen/Reschedule/Pipeline.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRESCHEDULEPIPELINEPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// Rewrites one analyzed scf.for into the pipelined schedule.
class Pipeliner {
public:
  Pipeliner(PipelinePlan &plan, int64_t stages)
      : plan(plan), loop(cast<scf::ForOp>(plan.loop)), stages(stages),
        loc(plan.loop->getLoc()) {}
  void run();

private:
  Value cst(OpBuilder &b, Type t, int64_t v) {
    return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
  }
  /// `v` + `n` * `step` in v's type.
  Value stepped(OpBuilder &b, Value v, Value step, int64_t n) {
    if (n == 0)
      return v;
    Value times = arith::MulIOp::create(b, loc, step, cst(b, v.getType(), n));
    return arith::AddIOp::create(b, loc, v, times);
  }
  /// The stage (an index) of iteration `iteration` (in the IV's type).
  Value stageOf(OpBuilder &b, Value iteration);
  void makeStagedBuffers();
  void classifyBody();
  /// Clones the copy statements of the iteration at `iv` whose carried
  /// inductions are `args`, writing stage `stage` asynchronously.
  void emitCopies(OpBuilder &b, Value iv, ValueRange args, Value stage);
  /// Clones the rest of the body for `iv` and `args`, reading stage
  /// `stage`; returns the yielded values.
  SmallVector<Value> emitCompute(OpBuilder &b, Value iv, ValueRange args,
                                 Value stage);
  scf::ForOp emitLoop(OpBuilder &b, Value lb, Value ub, ValueRange inits,
                      bool withCopies);

  PipelinePlan &plan;
  scf::ForOp loop;
  int64_t stages;
  Location loc;
  /// The S-fold buffer replacing each copied buffer (by its old name).
  llvm::StringMap<Value> staged;
  /// Ops of the loop's body before the first barrier that the copies need
  /// (the copies themselves and their address arithmetic).
  DenseSet<Operation *> copySlice;
  /// The copies themselves (stores, their global loads, loops holding
  /// them): left out of the compute's clone.
  DenseSet<Operation *> copyOnly;
  /// A group token the waits name (nvgpu's wait takes one; the lowering
  /// only uses its count).
  Value groupToken;
};

} // namespace

Value Pipeliner::stageOf(OpBuilder &b, Value iteration) {
  Value s = cst(b, iteration.getType(), stages);
  Value stage = arith::RemUIOp::create(b, loc, iteration, s);
  if (stage.getType().isIndex())
    return stage;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), stage);
}

void Pipeliner::makeStagedBuffers() {
  auto fn = loop->getParentOfType<func::FuncOp>();
  OpBuilder fb(fn.getBody());
  for (CopiedBuffer &buffer : plan.buffers) {
    memref::GlobalOp old = buffer.global;
    MemRefType t = old.getType();
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, t.getShape());
    auto type =
        MemRefType::get(shape, t.getElementType(), MemRefLayoutAttrInterface(),
                        t.getMemorySpace());
    OpBuilder mb(old);
    mb.setInsertionPointAfter(old);
    std::string name = (old.getSymName() + "_stages").str();
    auto global = memref::GlobalOp::create(
        mb, old.getLoc(), name, mb.getStringAttr("private"), type, Attribute(),
        /*constant=*/false, mb.getI64IntegerAttr(16));
    staged[old.getSymName()] =
        memref::GetGlobalOp::create(fb, loc, type, global.getSymName());
  }
}

void Pipeliner::classifyBody() {
  Block *body = loop.getBody();
  for (CopiedBuffer &buffer : plan.buffers)
    for (Operation *store : buffer.stores) {
      Operation *top = body->findAncestorOpInBlock(*store);
      copyOnly.insert(top);
      copyOnly.insert(store);
      if (Operation *load = store->getOperand(0).getDefiningOp())
        copyOnly.insert(body->findAncestorOpInBlock(*load));
    }
  // The copies' backward slice within the body.
  SmallVector<Operation *> work(copyOnly.begin(), copyOnly.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (op->getBlock() == body && !copySlice.insert(op).second)
      continue;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *def = v.getDefiningOp())
          if (def->getBlock() == body && !copySlice.contains(def))
            work.push_back(def);
    });
  }
}

void Pipeliner::emitCopies(OpBuilder &b, Value iv, ValueRange args,
                           Value stage) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  map.map(loop.getRegionIterArgs(), args);
  SmallVector<Operation *> clones;
  for (Operation &op : loop.getBody()->without_terminator())
    if (copySlice.contains(&op))
      clones.push_back(b.clone(op, map));
  for (Operation *clone : clones)
    clone->walk([&](memref::StoreOp store) {
      auto get = store.getMemRef().getDefiningOp<memref::GetGlobalOp>();
      if (!get || !staged.count(get.getName()))
        return;
      auto load = store.getValueToStore().getDefiningOp<memref::LoadOp>();
      OpBuilder sb(store);
      SmallVector<Value> dst{stage};
      llvm::append_range(dst, store.getIndices());
      nvgpu::DeviceAsyncCopyOp::create(
          sb, store.getLoc(), staged[get.getName()], dst, load.getMemRef(),
          load.getIndices(), sb.getIndexAttr(1), Value(), UnitAttr());
      store.erase();
      if (load->use_empty())
        load.erase();
    });
}

SmallVector<Value> Pipeliner::emitCompute(OpBuilder &b, Value iv,
                                          ValueRange args, Value stage) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  map.map(loop.getRegionIterArgs(), args);
  SmallVector<Operation *> clones;
  for (Operation &op : loop.getBody()->without_terminator())
    if (!copyOnly.contains(&op) && !isa<gpu::BarrierOp>(op))
      clones.push_back(b.clone(op, map));
  for (Operation *clone : clones)
    clone->walk([&](memref::LoadOp load) {
      auto get = load.getMemRef().getDefiningOp<memref::GetGlobalOp>();
      if (!get || !staged.count(get.getName()))
        return;
      OpBuilder lb(load);
      SmallVector<Value> idx{stage};
      llvm::append_range(idx, load.getIndices());
      load.replaceAllUsesWith(
          memref::LoadOp::create(lb, load.getLoc(), staged[get.getName()], idx)
              .getResult());
      load.erase();
    });
  SmallVector<Value> yielded;
  for (Value v : loop.getBody()->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

scf::ForOp Pipeliner::emitLoop(OpBuilder &b, Value lb, Value ub,
                               ValueRange inits, bool withCopies) {
  Value step = loop.getStep();
  Value origLb = loop.getLowerBound();
  return scf::ForOp::create(
      b, loc, lb, ub, step, inits,
      [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
        Value iteration = arith::DivUIOp::create(
            nb, loc, arith::SubIOp::create(nb, loc, iv, origLb), step);
        nvgpu::DeviceAsyncWaitOp::create(nb, loc, groupToken,
                                         nb.getI32IntegerAttr(stages - 2));
        gpu::BarrierOp::create(nb, loc);
        if (withCopies) {
          SmallVector<Value> ahead(args);
          for (auto [n, inc] : plan.inductions)
            ahead[n] = stepped(nb, args[n], inc, stages - 1);
          Value next =
              stepped(nb, iteration, cst(nb, iv.getType(), 1), stages - 1);
          emitCopies(nb, stepped(nb, iv, step, stages - 1), ahead,
                     stageOf(nb, next));
        }
        nvgpu::DeviceAsyncCreateGroupOp::create(nb, loc, ValueRange())
            ->setAttr("tcgen.group",
                      nb.getStringAttr(withCopies ? "steady" : "drain"));
        SmallVector<Value> yielded =
            emitCompute(nb, iv, args, stageOf(nb, iteration));
        scf::YieldOp::create(nb, loc, yielded);
      });
}

void Pipeliner::run() {
  makeStagedBuffers();
  classifyBody();
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  Type t = lb.getType();
  // Prologue: the copies of iterations 0 .. S-2, each a group (empty when
  // the loop runs fewer iterations).
  for (int64_t j = 0; j + 1 < stages; ++j) {
    Value iv = stepped(b, lb, step, j);
    Value runs =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
    auto guard = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
    OpBuilder gb = guard.getThenBodyBuilder();
    SmallVector<Value> args(loop.getInitArgs());
    for (auto [n, inc] : plan.inductions)
      args[n] = stepped(gb, args[n], inc, j);
    emitCopies(gb, iv, args, cst(gb, b.getIndexType(), j));
    auto group = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, ValueRange());
    // (Also keeps the printed group, which has no operands, from reading
    // the next line's result as one.)
    group->setAttr("tcgen.group", b.getStringAttr("prologue"));
    groupToken = group;
  }
  // The steady state runs while iteration k+S-1 exists; the drain runs the
  // rest.
  Value trips = arith::MaxSIOp::create(
      b, loc,
      arith::CeilDivSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb),
                                 step),
      cst(b, t, 0));
  Value steadyTrips = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, trips, cst(b, t, stages - 1)),
      cst(b, t, 0));
  Value steadyEnd = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, steadyTrips, step));
  scf::ForOp steady = emitLoop(b, lb, steadyEnd, loop.getInitArgs(), true);
  scf::ForOp drain = emitLoop(b, steadyEnd, ub, steady.getResults(), false);
  // What the original loop's last barrier guaranteed after the loop.
  nvgpu::DeviceAsyncWaitOp::create(b, loc, groupToken, b.getI32IntegerAttr(0));
  gpu::BarrierOp::create(b, loc);
  loop.replaceAllUsesWith(drain.getResults());
  loop.erase();
  auto fn = drain->getParentOfType<func::FuncOp>();
  fn.walk([&](memref::GetGlobalOp get) {
    if (get->use_empty() && staged.count(get.getName()))
      get.erase();
  });
  for (CopiedBuffer &buffer : plan.buffers)
    if (SymbolTable::symbolKnownUseEmpty(
            buffer.global, buffer.global->getParentOfType<ModuleOp>()))
      buffer.global.erase();
}

namespace {
struct PipelineCopiesPass final
    : mlir::tcgen::impl::TCGenReschedulePipelinePassBase<PipelineCopiesPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn->hasAttr("tcgen.kernel"))
      return;
    // Refuse on the form the user sees (affine), then rewrite scf.
    if (failed(analyzePipeline(fn)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateAffineToStdConversionPatterns(patterns);
    if (failed(applyPatternsGreedily(fn, std::move(patterns))))
      return signalPassFailure();
    FailureOr<PipelinePlan> plan = analyzePipeline(fn);
    if (failed(plan))
      return signalPassFailure();
    std::string error;
    FailureOr<int64_t> chosen =
        chooseStages(plan->stageBytes(), plan->otherSharedBytes,
                     plan->tripCount, stages, budget, error);
    if (failed(chosen)) {
      plan->loop->emitError(error);
      return signalPassFailure();
    }
    fn->setAttr("tcgen.stages",
                Builder(&getContext()).getI64IntegerAttr(*chosen));
    Pipeliner(*plan, *chosen).run();
  }
};
} // namespace
