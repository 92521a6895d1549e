//===- MapToGPU.cpp - Tiled nest to gpu.launch ------------------*- C++ -*-===//
//
// This file implements tcgen-map-to-gpu: block loops become the grid, warp
// loops the warp index, copy nests are spread over all threads.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"
#include "tcgen/Transforms/SharedBanks.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENMAPTOGPUPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;


/// Replaces `loop`'s induction variable with `lb(loop) + index * step` and
/// inlines its body in place of the loop.
static void inlineLoopAt(AffineForOp loop, Value index, OpBuilder &b) {
  b.setInsertionPoint(loop);
  AffineMap lb = loop.getLowerBoundMap();
  unsigned ns = lb.getNumSymbols();
  AffineMap map =
      AffineMap::get(lb.getNumDims(), ns + 1,
                     lb.getResult(0) + getAffineSymbolExpr(ns, b.getContext()) *
                                           loop.getStepAsInt());
  SmallVector<Value> operands(loop.getLowerBoundOperands());
  operands.push_back(index);
  Value iv = affine::AffineApplyOp::create(b, loop.getLoc(), map, operands);
  loop.getInductionVar().replaceAllUsesWith(iv);
  Block *body = loop.getBody();
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
    op.moveBefore(loop);
  loop.erase();
}

/// inlineLoopAt for a loop with iter_args: the body runs once, its
/// iter_args are the loop's inits and the loop's results what it yields.
static void inlineLoopWithIterArgsAt(AffineForOp loop, Value index,
                                     OpBuilder &b) {
  auto yield = cast<affine::AffineYieldOp>(loop.getBody()->getTerminator());
  for (auto [arg, init] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInits()))
    arg.replaceAllUsesWith(init);
  for (auto [result, value] : llvm::zip(loop.getResults(), yield.getOperands()))
    result.replaceAllUsesWith(value);
  inlineLoopAt(loop, index, b);
}

struct MapToGPUPass final : impl::TCGenMapToGPUPassBase<MapToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp root : getConfiguredNests(getOperation()))
      if (failed(map(root)))
        return signalPassFailure();
  }

  /// The order in which the threads walk a copy of `rows` x `cols` chunks:
  /// RowMajor unless reordering is enabled and the model
  /// (chooseCopyOrder) finds an order with fewer shared-memory store
  /// wavefronts and global lines for the store into the shared buffer.
  CopyOrder pickCopyOrder(AffineForOp col, int64_t rows, int64_t cols) {
    if (!reorderCopies)
      return CopyOrder::RowMajor;
    // The store into shared memory: its row stride and chunk width.
    MemRefType type;
    int64_t chunkBytes = 0;
    for (Operation &op : col.getBody()->without_terminator()) {
      if (auto store = dyn_cast<affine::AffineVectorStoreOp>(op)) {
        type = store.getMemRefType();
        VectorType v = store.getVectorType();
        chunkBytes = v.getNumElements() * v.getElementTypeBitWidth() / 8;
      } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
        type = store.getMemRefType();
        chunkBytes = type.getElementTypeBitWidth() / 8;
      } else {
        continue;
      }
      if (type.getMemorySpaceAsInt() == kSharedMemorySpace)
        break;
      type = nullptr;
    }
    if (!type || type.getRank() != 2 || !type.getLayout().isIdentity() ||
        type.isDynamicDim(1) || chunkBytes == 0)
      return CopyOrder::RowMajor;
    int64_t stride = type.getDimSize(1) * type.getElementTypeBitWidth() / 8;
    return chooseCopyOrder(rows, cols, chunkBytes, stride);
  }

  /// Spreads one copy nest over `numThreads` threads starting at `tid`:
  /// for (l = tid; l < rows * cols; l += numThreads) copy(row(l), col(l))
  LogicalResult distributeCopy(AffineForOp row, Value tid, int64_t numThreads,
                               OpBuilder &b) {
    auto col = dyn_cast<AffineForOp>(&row.getBody()->front());
    std::optional<uint64_t> rows = affine::getConstantTripCount(row);
    std::optional<uint64_t> cols =
        col ? affine::getConstantTripCount(col) : std::nullopt;
    if (!col || getLoopRole(col) != "copy_col" || !rows || !cols ||
        !row.hasConstantLowerBound() || row.getConstantLowerBound() != 0 ||
        !col.hasConstantLowerBound() || col.getConstantLowerBound() != 0 ||
        row.getStepAsInt() != 1)
      return row.emitOpError("expected a (copy_row, copy_col) nest from 0");
    MLIRContext *ctx = b.getContext();
    b.setInsertionPoint(row);
    int64_t total = *rows * *cols;
    AffineExpr d0 = getAffineDimExpr(0, ctx);
    AffineExpr s0 = getAffineSymbolExpr(0, ctx);
    // When the threads divide the work evenly, each thread runs a constant
    // number of steps (`for j in [0, total/threads): l = j*threads + tid`),
    // which later passes can unroll; otherwise a strided loop from tid.
    bool even = total % numThreads == 0;
    AffineForOp loop =
        even ? AffineForOp::create(b, row.getLoc(), 0, total / numThreads, 1)
             : AffineForOp::create(b, row.getLoc(), ValueRange{tid},
                                   AffineMap::get(0, 1, s0), ValueRange{},
                                   AffineMap::getConstantMap(total, ctx),
                                   numThreads);
    setLoopRole(loop, "copy");
    loop->setAttr(kCopyAttrName, row->getAttr(kCopyAttrName));
    OpBuilder ib = OpBuilder::atBlockBegin(loop.getBody());
    Value l = loop.getInductionVar();
    if (even)
      l = affine::AffineApplyOp::create(
          ib, row.getLoc(), AffineMap::get(1, 1, d0 * numThreads + s0),
          ValueRange{l, tid});
    int64_t n = *cols;
    AffineExpr rowExpr = d0.floorDiv(n), colExpr = d0 % n;
    switch (pickCopyOrder(col, *rows, n)) {
    case CopyOrder::RowMajor:
      break;
    case CopyOrder::Paired:
      // rho = l / n, row = (rho / 8) * 8 + (rho % 2) * 4 + (rho % 8) / 2
      rowExpr = d0.floorDiv(8 * n) * 8 + (d0.floorDiv(n) % 2) * 4 +
                (d0 % (8 * n)).floorDiv(2 * n);
      break;
    case CopyOrder::Interleaved:
      rowExpr = d0.floorDiv(8 * n) * 8 + d0 % 8;
      colExpr = (d0 % (8 * n)).floorDiv(8);
      break;
    }
    Value r = affine::AffineApplyOp::create(
        ib, row.getLoc(), AffineMap::get(1, 0, rowExpr), l);
    Value c = affine::AffineApplyOp::create(
        ib, row.getLoc(), AffineMap::get(1, 0, colExpr * col.getStepAsInt()),
        l);
    row.getInductionVar().replaceAllUsesWith(r);
    col.getInductionVar().replaceAllUsesWith(c);
    for (Operation &op :
         llvm::make_early_inc_range(col.getBody()->without_terminator()))
      op.moveBefore(loop.getBody()->getTerminator());
    row.erase();
    return success();
  }

  LogicalResult map(AffineForOp root) {
    auto config = root->getAttrOfType<ConfigAttr>(kConfigAttrName);
    AffineForOp blockM = root;
    auto blockN = dyn_cast<AffineForOp>(&blockM.getBody()->front());
    if (getLoopRole(blockM) != "block_m" || !blockN ||
        getLoopRole(blockN) != "block_n" ||
        blockM.getBody()->getOperations().size() != 2)
      return root.emitOpError(
          "expected a tiled nest block_m { block_n { ... } } "
          "(run tcgen-tile first)");
    bool overwrite = root->hasAttr(kOverwriteAttrName);
    if (overwrite) {
      WalkResult readsC = root.walk([](Operation *op) {
        auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op);
        if (load && getOperandRole(load.getSrcMemref()) == "C")
          return WalkResult::interrupt();
        if (auto aload = dyn_cast<affine::AffineLoadOp>(op))
          if (getOperandRole(aload.getMemRef()) == "C")
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (readsC.wasInterrupted())
        return root.emitOpError(
            "computes C = A*B but still reads C: this needs the accumulators "
            "hoisted (tcgen-hoist-accumulators)");
    }
    // Only loops that tcgen-detect-parallel proved parallel are mapped.
    SmallVector<Operation *> mapped = {blockM, blockN};
    if (AffineForOp wm = findLoop(root, "warp_m"))
      mapped.push_back(wm);
    if (AffineForOp wn = findLoop(root, "warp_n"))
      mapped.push_back(wn);
    root.walk([&](AffineForOp loop) {
      if (getLoopRole(loop).starts_with("copy_"))
        mapped.push_back(loop);
    });
    for (Operation *loop : mapped)
      if (!loop->hasAttr(kParallelAttrName))
        return loop->emitOpError("loop '")
               << getLoopRole(loop)
               << "' is not proven parallel (run tcgen-detect-parallel; a "
                  "dependence through global memory blocks the mapping)";

    std::optional<uint64_t> gridY = affine::getConstantTripCount(blockM);
    std::optional<uint64_t> gridX = affine::getConstantTripCount(blockN);
    if (!gridX || !gridY || !blockM.hasConstantLowerBound() ||
        !blockN.hasConstantLowerBound())
      return root.emitOpError("block loops need constant bounds");

    ArrayRef<int64_t> bt = config.getBlockTile();
    ArrayRef<int64_t> wt = config.getWarpTile();
    int64_t warpsM = bt[0] / wt[0], warpsN = bt[1] / wt[1];
    int64_t numThreads = config.getNumThreads();

    Location loc = root.getLoc();
    OpBuilder b(root);
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value gx = cst(*gridX), gy = cst(*gridY), one = cst(1),
          threads = cst(numThreads);
    auto launch = gpu::LaunchOp::create(b, loc, gx, gy, one, threads, one, one);
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body);

    // Grid: block_n -> x, block_m -> y (before the raster order).
    auto scaled = [&](Value id, int64_t lb, int64_t step) -> Value {
      Value v = arith::MulIOp::create(b, loc, id, cst(step));
      return arith::AddIOp::create(b, loc, v, cst(lb));
    };
    // Grouped raster order (config `raster` = R tile rows per group, for L2
    // reuse): the launch's linear block index walks R tile rows column by
    // column, then the next R rows (fewer in the last group).
    Value tileRow = launch.getBlockIds().y, tileCol = launch.getBlockIds().x;
    int64_t group = config.getRaster();
    if (group > 1 && int64_t(*gridY) > 1) {
      Value lin = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, tileRow, gx), tileCol);
      Value per = cst(group * int64_t(*gridX));
      Value first = arith::MulIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, lin, per), cst(group));
      Value rows = arith::MinUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, gy, first), cst(group));
      Value local = arith::RemUIOp::create(b, loc, lin, per);
      tileRow = arith::AddIOp::create(
          b, loc, first, arith::RemUIOp::create(b, loc, local, rows));
      tileCol = arith::DivUIOp::create(b, loc, local, rows);
    }
    Value i = scaled(tileRow, blockM.getConstantLowerBound(),
                     blockM.getStepAsInt());
    Value j = scaled(tileCol, blockN.getConstantLowerBound(),
                     blockN.getStepAsInt());
    Value tid = launch.getThreadIds().x;
    Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarpSize));
    // Intra-block split-K (sm80): warp = warpK * (warpsM * warpsN) + the
    // warp's (m, n) position; warpK picks its share of each k-tile.
    int64_t splits = config.getKSplits();
    Value warpK, warpMN = warp;
    if (splits > 1) {
      warpK = arith::DivUIOp::create(b, loc, warp, cst(warpsM * warpsN));
      warpMN = arith::RemUIOp::create(b, loc, warp, cst(warpsM * warpsN));
    }
    Value warpRow = arith::DivUIOp::create(b, loc, warpMN, cst(warpsN));
    Value warpCol = arith::RemUIOp::create(b, loc, warpMN, cst(warpsN));

    blockM.getInductionVar().replaceAllUsesWith(i);
    blockN.getInductionVar().replaceAllUsesWith(j);
    Operation *terminator = body.getTerminator();
    for (Operation &op :
         llvm::make_early_inc_range(blockN.getBody()->without_terminator()))
      op.moveBefore(terminator);
    root.erase();

    // Warps: warp_m -> warp / warpsN, warp_n -> warp % warpsN.
    for (auto [role, index, count] :
         {std::tuple<StringRef, Value, int64_t>{"warp_m", warpRow, warpsM},
          {"warp_n", warpCol, warpsN}}) {
      AffineForOp loop = findLoop(launch, role);
      if (!loop)
        return launch.emitOpError("missing ") << role << " loop";
      std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
      if (!trip || int64_t(*trip) != count)
        return loop.emitOpError("has ")
               << (trip ? int64_t(*trip) : -1) << " iterations for " << count
               << " warps";
      inlineLoopAt(loop, index, b);
    }

    // warp_k -> warpK: each warp computes one share of the k-tile into its
    // own accumulators (tcgen-split-k-reduce sums them).
    if (splits > 1) {
      AffineForOp loop = findLoop(launch, "warp_k");
      std::optional<uint64_t> trip =
          loop ? affine::getConstantTripCount(loop) : std::nullopt;
      if (!loop || !trip || int64_t(*trip) != splits)
        return launch.emitOpError("intra-block split-K needs a warp_k loop of ")
               << splits << " iterations";
      inlineLoopWithIterArgsAt(loop, warpK, b);
    }

    // Copies: every thread of the block takes part.
    SmallVector<AffineForOp> copies;
    launch.walk([&](AffineForOp loop) {
      if (getLoopRole(loop) == "copy_row")
        copies.push_back(loop);
    });
    for (AffineForOp row : copies)
      if (failed(distributeCopy(row, tid, numThreads, b)))
        return failure();

    // The kernel ABI reads these off the function after outlining.
    auto func = launch->getParentOfType<func::FuncOp>();
    func->setAttr(kConfigAttrName, config);
    if (overwrite)
      func->setAttr(kOverwriteAttrName, UnitAttr::get(func.getContext()));
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
