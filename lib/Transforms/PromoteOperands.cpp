//===- PromoteOperands.cpp - A/B tiles into shared memory -------*- C++ -*-===//
//
// This file implements tcgen-promote-operands: padded workgroup buffers for
// the A and B tiles, copy nests at the top of each block_k iteration, the
// barriers around them, and the redirection of the compute loads.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENPROMOTEOPERANDSPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;
using affine::AffineLoadOp;

/// Alignment of the shared buffers: WMMA fragment loads want 256-bit
/// aligned rows, and 128 bytes also serves 16-byte vector copies.
constexpr int64_t kSharedAlignmentBytes = 128;

/// Builds `for r in [0, rows), c in [0, cols): dst[r, c] = src[r0 + r, c0 + c]`
/// at `b`'s insertion point and tags it as the copy of `role`.
static void buildCopyNest(OpBuilder &b, Location loc, StringRef role, Value src,
                          Value dst, int64_t rows, int64_t cols, Value r0,
                          Value c0) {
  MLIRContext *ctx = b.getContext();
  auto outer = AffineForOp::create(b, loc, 0, rows, 1);
  setLoopRole(outer, "copy_row");
  outer->setAttr(kCopyAttrName, StringAttr::get(ctx, role));
  OpBuilder ib = OpBuilder::atBlockBegin(outer.getBody());
  auto inner = AffineForOp::create(ib, loc, 0, cols, 1);
  setLoopRole(inner, "copy_col");
  ib.setInsertionPointToStart(inner.getBody());
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  auto srcMap = AffineMap::get(4, 0, {d0 + d1, d2 + d3}, ctx);
  Value v = AffineLoadOp::create(
      ib, loc, src, srcMap,
      ValueRange{r0, outer.getInductionVar(), c0, inner.getInductionVar()});
  affine::AffineStoreOp::create(
      ib, loc, v, dst, ib.getMultiDimIdentityMap(2),
      ValueRange{outer.getInductionVar(), inner.getInductionVar()});
}

/// Redirects `load` (of a global operand) to the shared tile `smem` whose
/// element [0, 0] is the global element [r0, c0].
static void redirectLoad(AffineLoadOp load, Value smem, Value r0, Value c0) {
  MLIRContext *ctx = load.getContext();
  AffineMap map = load.getAffineMap();
  unsigned nd = map.getNumDims();
  AffineMap newMap =
      AffineMap::get(nd + 2, map.getNumSymbols(),
                     {map.getResult(0) - getAffineDimExpr(nd, ctx),
                      map.getResult(1) - getAffineDimExpr(nd + 1, ctx)},
                     ctx);
  SmallVector<Value> operands(load.getMapOperands().take_front(nd));
  operands.push_back(r0);
  operands.push_back(c0);
  llvm::append_range(operands, load.getMapOperands().drop_front(nd));
  affine::canonicalizeMapAndOperands(&newMap, &operands);
  OpBuilder b(load);
  auto newLoad = AffineLoadOp::create(b, load.getLoc(), smem, newMap, operands);
  load.replaceAllUsesWith(newLoad.getResult());
  load.erase();
}

struct PromoteOperandsPass final
    : impl::TCGenPromoteOperandsPassBase<PromoteOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp root : getConfiguredNests(getOperation()))
      if (failed(promote(root)))
        return signalPassFailure();
  }

  /// Creates a private workgroup global of `rows x (cols + pad)` elements.
  memref::GlobalOp createBuffer(ModuleOp module, Location loc, StringRef role,
                                int64_t rows, int64_t cols, int64_t pad,
                                Type elementType) {
    MLIRContext *ctx = module.getContext();
    // NVVM's shared address space. The numeric form (not
    // #gpu.address_space<workgroup>) lets every LLVM conversion of the device
    // code (vector, memref, gpu) read it without memory-space mappings.
    auto space =
        IntegerAttr::get(IntegerType::get(ctx, 64), kSharedMemorySpace);
    auto type =
        MemRefType::get({rows, cols + pad}, elementType, AffineMap(), space);
    OpBuilder b(ctx);
    auto global = memref::GlobalOp::create(
        b, loc, (Twine("__tcgen_smem_") + role).str(),
        b.getStringAttr("private"), type, Attribute(), /*constant=*/false,
        b.getI64IntegerAttr(kSharedAlignmentBytes));
    global->setAttr(kOperandAttrName, b.getStringAttr(role));
    SymbolTable(module).insert(global, module.getBody()->begin());
    return global;
  }

  LogicalResult promote(AffineForOp root) {
    if (findLoop(root, "copy_row"))
      return success(); // already promoted
    AffineForOp blockM = findLoop(root, "block_m");
    AffineForOp blockN = findLoop(root, "block_n");
    AffineForOp blockK = findLoop(root, "block_k");
    if (!blockM || !blockN || !blockK)
      return root.emitOpError("expected a tiled nest (run tcgen-tile first)");
    auto config = root->getAttrOfType<ConfigAttr>(kConfigAttrName);
    ArrayRef<int64_t> bt = config.getBlockTile();
    int64_t pad = config.getPadding();

    SmallVector<AffineLoadOp> aLoads, bLoads;
    blockK.walk([&](AffineLoadOp load) {
      StringRef role = getOperandRole(load.getMemRef());
      if (role == "A" && isa<BlockArgument>(load.getMemRef()))
        aLoads.push_back(load);
      if (role == "B" && isa<BlockArgument>(load.getMemRef()))
        bLoads.push_back(load);
    });
    if (aLoads.empty() || bLoads.empty())
      return root.emitOpError("found no loads of A and B to promote");
    Value a = aLoads.front().getMemRef();
    Value b = bLoads.front().getMemRef();
    Type aElt = cast<MemRefType>(a.getType()).getElementType();
    Type bElt = cast<MemRefType>(b.getType()).getElementType();
    // The tiles keep the operands' stored order, so that each copied row is
    // contiguous in global memory too: A stored [k][m] gets a [bk][bm] tile,
    // B stored [n][k] a [bn][bk] one (read with transposed fragments).
    auto kFirst = [](AffineLoadOp load) {
      return indexesK(load.getAffineMap(), load.getMapOperands(), 0);
    };
    bool aKMajorRows = kFirst(aLoads.front());
    bool bNMajorRows = !kFirst(bLoads.front());
    for (AffineLoadOp load : aLoads)
      if (kFirst(load) != aKMajorRows)
        return load.emitOpError("A is read in two layouts");
    for (AffineLoadOp load : bLoads)
      if (kFirst(load) == bNMajorRows)
        return load.emitOpError("B is read in two layouts");

    auto module = root->getParentOfType<ModuleOp>();
    Location loc = root.getLoc();
    int64_t aRows = aKMajorRows ? bt[2] : bt[0];
    int64_t aCols = aKMajorRows ? bt[0] : bt[2];
    int64_t bRows = bNMajorRows ? bt[1] : bt[2];
    int64_t bCols = bNMajorRows ? bt[2] : bt[1];
    memref::GlobalOp aGlobal =
        createBuffer(module, loc, "A", aRows, aCols, pad, aElt);
    memref::GlobalOp bGlobal =
        createBuffer(module, loc, "B", bRows, bCols, pad, bElt);

    OpBuilder builder(blockK);
    Value aSmem = memref::GetGlobalOp::create(builder, loc, aGlobal.getType(),
                                              aGlobal.getSymName());
    Value bSmem = memref::GetGlobalOp::create(builder, loc, bGlobal.getType(),
                                              bGlobal.getSymName());
    Value iv_m = blockM.getInductionVar();
    Value iv_n = blockN.getInductionVar();
    Value iv_k = blockK.getInductionVar();

    // The global element at the tile's [0, 0], in the stored order.
    Value aR0 = aKMajorRows ? iv_k : iv_m, aC0 = aKMajorRows ? iv_m : iv_k;
    Value bR0 = bNMajorRows ? iv_n : iv_k, bC0 = bNMajorRows ? iv_k : iv_n;
    for (AffineLoadOp load : aLoads)
      redirectLoad(load, aSmem, aR0, aC0);
    for (AffineLoadOp load : bLoads)
      redirectLoad(load, bSmem, bR0, bC0);

    builder.setInsertionPointToStart(blockK.getBody());
    // The previous iteration's readers are done before the tile is replaced.
    gpu::BarrierOp::create(builder, loc);
    buildCopyNest(builder, loc, "A", a, aSmem, aRows, aCols, aR0, aC0);
    buildCopyNest(builder, loc, "B", b, bSmem, bRows, bCols, bR0, bC0);
    // The tile is complete before anyone reads it.
    gpu::BarrierOp::create(builder, loc);
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
