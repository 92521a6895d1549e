//===- SplitKReduce.cpp - Intra-block split-K reduction ---------*- C++ -*-===//
//
// This file implements tcgen-split-k-reduce: the warps that share one warp
// tile's K range sum their partial C fragments through shared memory before
// the warps of the first share store C.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSPLITKREDUCEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

constexpr int64_t kFrag = 16;

struct SplitKReducePass final
    : impl::TCGenSplitKReducePassBase<SplitKReducePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto config = func->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (!config || config.getKSplits() <= 1)
      return;
    SmallVector<gpu::LaunchOp> launches;
    func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(reduce(launch, config, func)))
        return signalPassFailure();
  }

  LogicalResult reduce(gpu::LaunchOp launch, ConfigAttr config,
                       func::FuncOp func) {
    if (!func->hasAttr(kOverwriteAttrName))
      return launch.emitOpError(
          "intra-block split-K needs C = A*B (a zero fill of C): with C += "
          "A*B every share of K would add C");
    // The C fragment stores after the K loop, in the launch body itself.
    Block &body = launch.getBody().front();
    SmallVector<gpu::SubgroupMmaStoreMatrixOp> stores;
    for (Operation &op : body)
      if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
        if (getOperandRole(store.getDstMemref()) == "C")
          stores.push_back(store);
    WalkResult other = launch.walk([&](Operation *op) {
      if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
        if (llvm::is_contained(stores, store))
          return WalkResult::advance();
      for (Value v : op->getOperands())
        if (getOperandRole(v) == "C") {
          op->emitOpError("intra-block split-K reduces C fragment stores "
                          "after the K loop only");
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (other.wasInterrupted())
      return failure();
    if (stores.empty())
      return launch.emitOpError("intra-block split-K found no C fragment "
                                "stores to reduce");
    for (gpu::SubgroupMmaStoreMatrixOp store : stores)
      if (cast<gpu::MMAMatrixType>(store.getSrc().getType()).getShape() !=
          ArrayRef<int64_t>{kFrag, kFrag})
        return store.emitOpError("intra-block split-K takes 16x16 fragments");

    ArrayRef<int64_t> bt = config.getBlockTile();
    ArrayRef<int64_t> wt = config.getWarpTile();
    int64_t warpsMN = (bt[0] / wt[0]) * (bt[1] / wt[1]);
    int64_t splits = config.getKSplits();
    int64_t frags = stores.size();
    Type elem =
        cast<gpu::MMAMatrixType>(stores.front().getSrc().getType())
            .getElementType();

    // The scratch buffer: one 16x16 slot per (share - 1, warp, fragment).
    memref::GlobalOp global = createSharedBuffer(
        func->getParentOfType<ModuleOp>(), launch.getLoc(),
        "__tcgen_smem_splitk", (splits - 1) * warpsMN * frags * kFrag, kFrag,
        elem);
    MemRefType scratchType = global.getType();

    // After the last store: every value the stores use is defined by then.
    Location loc = launch.getLoc();
    OpBuilder b(stores.back());
    b.setInsertionPointAfter(stores.back());
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value scratch =
        memref::GetGlobalOp::create(b, loc, scratchType, global.getSymName());
    Value tid = launch.getThreadIds().x;
    Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarpSize));
    Value warpK = arith::DivUIOp::create(b, loc, warp, cst(warpsMN));
    Value warpMN = arith::RemUIOp::create(b, loc, warp, cst(warpsMN));
    Value zero = cst(0);
    Value lead = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       warpK, zero);
    Value notLead = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          warpK, zero);
    // Row of the slot (share, this warp, fragment f) in the scratch buffer.
    auto slotRow = [&](OpBuilder &ib, Value share, int64_t f) -> Value {
      Value s = arith::MulIOp::create(ib, loc, share,
                                      arith::ConstantIndexOp::create(
                                          ib, loc, warpsMN * frags * kFrag));
      Value w = arith::MulIOp::create(
          ib, loc, warpMN,
          arith::ConstantIndexOp::create(ib, loc, frags * kFrag));
      Value row = arith::AddIOp::create(ib, loc, s, w);
      return arith::AddIOp::create(
          ib, loc, row, arith::ConstantIndexOp::create(ib, loc, f * kFrag));
    };
    IntegerAttr ld = b.getIndexAttr(kFrag);

    // The other shares park their partial sums.
    auto park = scf::IfOp::create(b, loc, notLead, /*withElseRegion=*/false);
    {
      OpBuilder ib = park.getThenBodyBuilder();
      Value share = arith::SubIOp::create(
          ib, loc, warpK, arith::ConstantIndexOp::create(ib, loc, 1));
      for (auto [f, store] : llvm::enumerate(stores))
        gpu::SubgroupMmaStoreMatrixOp::create(
            ib, loc, store.getSrc(), scratch,
            ValueRange{slotRow(ib, share, f),
                       arith::ConstantIndexOp::create(ib, loc, 0)},
            ld, /*transpose=*/nullptr);
    }
    gpu::BarrierOp::create(b, loc);
    // The first share adds them and stores C.
    auto sum = scf::IfOp::create(b, loc, lead, /*withElseRegion=*/false);
    OpBuilder ib = sum.getThenBodyBuilder();
    for (auto [f, store] : llvm::enumerate(stores)) {
      Value acc = store.getSrc();
      for (int64_t s = 0; s + 1 < splits; ++s) {
        Value partial = gpu::SubgroupMmaLoadMatrixOp::create(
            ib, loc, acc.getType(), scratch,
            ValueRange{slotRow(ib, arith::ConstantIndexOp::create(ib, loc, s),
                               f),
                       arith::ConstantIndexOp::create(ib, loc, 0)},
            ld, /*transpose=*/nullptr);
        acc = gpu::SubgroupMmaElementwiseOp::create(
            ib, loc, acc.getType(), ValueRange{acc, partial},
            gpu::MMAElementwiseOp::ADDF);
      }
      store->moveBefore(sum.thenBlock()->getTerminator());
      store.getSrcMutable().assign(acc);
    }
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
