//===- StageEpilogue.cpp - C stores through shared memory -------*- C++ -*-===//
//
// This file implements tcgen-stage-epilogue: each warp writes its C
// fragments one 16-row slab at a time into shared memory and copies the
// slab to C with 16-byte stores, so that every warp store writes whole rows
// of the warp tile (seed 004's store through shared memory).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Config/Backend.h"

#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSTAGEEPILOGUEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

constexpr int64_t kFrag = 16;
constexpr int64_t kVectorBytes = 16;

struct StageEpiloguePass final
    : impl::TCGenStageEpiloguePassBase<StageEpiloguePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto config = func->getAttrOfType<ConfigAttr>(kConfigAttrName);
    // A back end that stages its epilogue itself (sm90) is left alone.
    if (!config || config.getStore() != "staged" ||
        getTargetBackend(config.getBackend()).stagesOwnEpilogue())
      return;
    // Identical index computations become one value, so that the fragment
    // grid can be read off the stores' indices: affine.apply ops first lose
    // the operands their maps ignore, then CSE merges them.
    RewritePatternSet patterns(&getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    DominanceInfo dom(func);
    eliminateCommonSubExpressions(rewriter, dom, func);
    SmallVector<gpu::LaunchOp> launches;
    func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(stage(launch, config, func)))
        return signalPassFailure();
  }

  LogicalResult stage(gpu::LaunchOp launch, ConfigAttr config,
                      func::FuncOp func) {
    ArrayRef<int64_t> bt = config.getBlockTile();
    ArrayRef<int64_t> wt = config.getWarpTile();
    int64_t fragRows = wt[0] / kFrag, fragCols = wt[1] / kFrag;
    int64_t warpsMN = (bt[0] / wt[0]) * (bt[1] / wt[1]);

    // The warp's C fragment stores, in the unrolled (row, column) order of
    // tcgen-hoist-accumulators, all in one block.
    SmallVector<gpu::SubgroupMmaStoreMatrixOp> stores;
    launch.walk([&](gpu::SubgroupMmaStoreMatrixOp store) {
      if (getOperandRole(store.getDstMemref()) == "C")
        stores.push_back(store);
    });
    if (int64_t(stores.size()) != fragRows * fragCols)
      return launch.emitOpError("staged epilogue expects ")
             << fragRows * fragCols << " C fragment stores per warp, found "
             << stores.size();
    Block *block = stores.front()->getBlock();
    for (auto [f, store] : llvm::enumerate(stores)) {
      // Fragment (i, j) shares its row index with (i, 0) and its column
      // index with (0, j): the warp tile is a grid of fragments.
      int64_t i = f / fragCols, j = f % fragCols;
      if (store->getBlock() != block ||
          store.getIndices()[0] != stores[i * fragCols].getIndices()[0] ||
          store.getIndices()[1] != stores[j].getIndices()[1] ||
          cast<gpu::MMAMatrixType>(store.getSrc().getType()).getShape() !=
              ArrayRef<int64_t>{kFrag, kFrag})
        return store.emitOpError(
            "staged epilogue expects the warp's 16x16 C fragments stored as "
            "a row-major grid in one block");
    }
    auto cType = cast<MemRefType>(stores.front().getDstMemref().getType());
    Type elem = cType.getElementType();
    int64_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
    int64_t vecElems = kVectorBytes / elemBytes;
    int64_t rowBytes = wt[1] * elemBytes;
    if (rowBytes % kVectorBytes != 0 ||
        (kFrag * rowBytes / kVectorBytes) % kWarpSize != 0)
      return launch.emitOpError("staged epilogue needs warp tile rows of a "
                                "multiple of 16 bytes filling whole warps");

    // One 16-row slab per warp.
    memref::GlobalOp global = createSharedBuffer(
        func->getParentOfType<ModuleOp>(), launch.getLoc(),
        "__tcgen_smem_epilogue", warpsMN * config.getKSplits() * kFrag, wt[1],
        elem);
    MemRefType slabType = global.getType();

    Location loc = launch.getLoc();
    OpBuilder b(stores.back());
    b.setInsertionPointAfter(stores.back());
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value slab =
        memref::GetGlobalOp::create(b, loc, slabType, global.getSymName());
    Value tid = launch.getThreadIds().x;
    Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarpSize));
    Value lane = arith::RemUIOp::create(b, loc, tid, cst(kWarpSize));
    Value slabRow = arith::MulIOp::create(b, loc, warp, cst(kFrag));
    Value fullMask = arith::ConstantIntOp::create(b, loc, -1, 32);
    Value row0 = stores.front().getIndices()[0];
    Value col0 = stores.front().getIndices()[1];
    // A fused pointwise consumer is computed on the copied vectors, which
    // are then stored to its output instead of C.
    std::optional<EpilogueInfo> fused =
        findMarkedBody(func, kEpilogueSourcesAttrName, elem);
    Value cMemref = stores.front().getDstMemref();
    Value outMemref = fused ? fused->out : cMemref;
    SmallVector<Value> scalars(fused ? fused->operands.size() : 0);
    if (fused)
      for (auto [k, e] : llvm::enumerate(fused->operands))
        if (e.kind == EpilogueOperandKind::Scalar)
          scalars[k] = memref::LoadOp::create(b, loc, e.memref, ValueRange{});
    int64_t chunksPerRow = rowBytes / kVectorBytes;
    int64_t steps = kFrag * chunksPerRow / kWarpSize;
    auto vecType = VectorType::get({vecElems}, elem);
    for (int64_t i = 0; i < fragRows; ++i) {
      for (int64_t j = 0; j < fragCols; ++j) {
        gpu::SubgroupMmaStoreMatrixOp store = stores[i * fragCols + j];
        gpu::SubgroupMmaStoreMatrixOp::create(
            b, loc, store.getSrc(), slab,
            ValueRange{slabRow, cst(j * kFrag)}, b.getIndexAttr(wt[1]),
            /*transpose=*/nullptr);
      }
      NVVM::SyncWarpOp::create(b, loc, fullMask);
      // Lane l copies chunks l, l + 32, ...: a warp store covers
      // 32 x 16 bytes of consecutive rows.
      Value rowBase = arith::AddIOp::create(b, loc, row0, cst(i * kFrag));
      for (int64_t s = 0; s < steps; ++s) {
        Value chunk = arith::AddIOp::create(b, loc, lane, cst(s * kWarpSize));
        Value r = arith::DivUIOp::create(b, loc, chunk, cst(chunksPerRow));
        Value c = arith::MulIOp::create(
            b, loc, arith::RemUIOp::create(b, loc, chunk, cst(chunksPerRow)),
            cst(vecElems));
        Value v = vector::LoadOp::create(
            b, loc, vecType, slab,
            ValueRange{arith::AddIOp::create(b, loc, slabRow, r), c});
        Value row = arith::AddIOp::create(b, loc, rowBase, r);
        Value col = arith::AddIOp::create(b, loc, col0, c);
        if (fused)
          v = applyEpilogue(b, loc, *fused, v, scalars, row, col, vecElems);
        vector::StoreOp::create(b, loc, v, outMemref, ValueRange{row, col});
      }
      // The slab is rewritten by the next fragment row.
      NVVM::SyncWarpOp::create(b, loc, fullMask);
    }
    for (gpu::SubgroupMmaStoreMatrixOp store : stores)
      store.erase();
    if (fused)
      return retireIntermediate(func, *fused, cMemref);
    return success();
  }

  /// The consumer's body on the `vecElems` accumulators of `acc` at
  /// (row, col .. col + vecElems - 1): row and matrix operands are loaded as
  /// vectors there, column operands once per row, scalars once.
  static Value applyEpilogue(OpBuilder &b, Location loc,
                             const EpilogueInfo &info, Value acc,
                             ArrayRef<Value> scalars, Value row, Value col,
                             int64_t vecElems) {
    SmallVector<Value> loaded;
    for (auto [k, e] : llvm::enumerate(info.operands)) {
      auto vec = VectorType::get({vecElems}, e.elementType);
      switch (e.kind) {
      case EpilogueOperandKind::Scalar:
        loaded.push_back(scalars[k]);
        break;
      case EpilogueOperandKind::Row:
        loaded.push_back(
            vector::LoadOp::create(b, loc, vec, e.memref, ValueRange{col}));
        break;
      case EpilogueOperandKind::Col:
        loaded.push_back(
            memref::LoadOp::create(b, loc, e.memref, ValueRange{row}));
        break;
      case EpilogueOperandKind::Matrix:
        loaded.push_back(vector::LoadOp::create(b, loc, vec, e.memref,
                                                ValueRange{row, col}));
        break;
      }
    }
    Value out = arith::ConstantOp::create(
        b, loc,
        b.getZeroAttr(VectorType::get({vecElems}, info.outType)));
    for (int64_t i = 0; i < vecElems; ++i) {
      Value a = vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i});
      SmallVector<Value> elems;
      for (Value v : loaded)
        elems.push_back(isa<VectorType>(v.getType())
                            ? vector::ExtractOp::create(b, loc, v,
                                                        ArrayRef<int64_t>{i})
                                  .getResult()
                            : v);
      Value r = emitEpilogueBody(b, info, a, elems);
      out = vector::InsertOp::create(b, loc, r, out, ArrayRef<int64_t>{i});
    }
    return out;
  }

  /// After the fused consumer has been computed in the kernel: the consumer
  /// goes, its output becomes the kernel's C, and the intermediate buffer
  /// (and its deallocation) goes too.
  static LogicalResult retireIntermediate(func::FuncOp func,
                                          const EpilogueInfo &info,
                                          Value intermediate) {
    if (failed(tagOperandArgument(func, info.op, info.out, "C")))
      return failure();
    info.op->erase();
    return eraseLocalBuffer(intermediate, "the fused epilogue's intermediate C");
  }
};
} // namespace
} // namespace mlir::tcgen
