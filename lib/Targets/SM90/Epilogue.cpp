//===- Epilogue.cpp - The sm90 epilogue: kernel-wide pieces ----*- C++ -*-===//
//
// This file implements the kernel-wide pieces of the sm90 epilogue with
// typed builders: the extra operands' parameters, views and scalar loads,
// the declarations of the functions the kernel calls, the problem's
// counts, and the TMA-loaded operand's loads (EpilogueTile.cpp builds the
// per-tile epilogue).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Epilogue.h"

#include "EpilogueOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;
using namespace mlir::tcgen::sm90::epilogue;

//===----------------------------------------------------------------------===//
// The kernel's signature, counts and operand views
//===----------------------------------------------------------------------===//

Type mlir::tcgen::sm90::epilogueOperandType(
    MLIRContext *ctx, const KernelParams &p,
    const KernelParams::EpilogueOperand &e) {
  Type elt = scalarType(ctx, e.type);
  if (e.kind == "scalar")
    return MemRefType::get({}, elt);
  // Sizes known at run time only: a view of the run-time size
  // (emitEpilogueViews) over the parameter; a matrix's rows are its run-time
  // row stride apart.
  constexpr int64_t dyn = ShapedType::kDynamic;
  if (p.dynamicShape)
    return e.kind == "matrix"
               ? MemRefType::get({dyn, dyn}, elt,
                                 StridedLayoutAttr::get(ctx, 0, {dyn, 1}))
               : MemRefType::get({dyn}, elt);
  // (With matrices side by side in N, a row vector is one matrix's.)
  if (e.kind == "row")
    return MemRefType::get({p.foldsN() ? p.foldN : p.n}, elt);
  if (e.kind == "col")
    return MemRefType::get({p.m}, elt);
  // A matrix operand of a batch has C's shape: one matrix per batch entry
  // (vectors and scalars are shared by the whole batch).
  if (p.multiBatch()) {
    SmallVector<int64_t> shape(p.batchShape.begin(), p.batchShape.end());
    shape.append({p.m, p.n});
    return MemRefType::get(shape, elt);
  }
  if (p.batched)
    return MemRefType::get({p.batch, p.m, p.n}, elt);
  // Stored like C: [n][m] where C is column-major.
  if (p.cColumnMajor)
    return MemRefType::get({p.n, p.m}, elt);
  return MemRefType::get({p.m, p.n}, elt);
}

SmallVector<Type> mlir::tcgen::sm90::epilogueParamTypes(MLIRContext *ctx,
                                                        const KernelParams &p) {
  SmallVector<Type> types;
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    types.push_back(int64_t(k) == p.tmaEpilogueOperand
                        ? Type(LLVM::LLVMPointerType::get(ctx))
                    : p.dynamicShape && e.kind != "scalar"
                        ? Type(MemRefType::get({1}, scalarType(ctx, e.type)))
                        : epilogueOperandType(ctx, p, e));
  return types;
}

SmallVector<Type> mlir::tcgen::sm90::dynamicParamTypes(MLIRContext *ctx,
                                                       const KernelParams &p) {
  SmallVector<Type> types;
  if (!p.dynamicShape)
    return types;
  Type index = IndexType::get(ctx);
  types.append(3, index);
  for (const KernelParams::EpilogueOperand &e : p.epilogueOperands)
    if (e.kind == "matrix")
      types.push_back(index);
  return types;
}

void mlir::tcgen::sm90::emitEpilogueDecls(OpBuilder &b, Location loc,
                                          const KernelParams &p) {
  MLIRContext *ctx = b.getContext();
  auto declare = [&](StringRef name, ArrayRef<Type> args, Type result) {
    auto func = func::FuncOp::create(b, loc, name,
                                     FunctionType::get(ctx, args, {result}));
    func.setPrivate();
  };
  if (p.callsPrologue()) {
    Type t = scalarType(ctx, p.inType);
    declare(kPrologueFuncName, {t}, t);
  }
  if (!p.fusedEpilogue)
    return;
  // Computed on pairs (epilogueInHalf): every argument and the result are
  // vector<2 x T>.
  auto type = [&](StringRef name) -> Type {
    Type t = scalarType(ctx, name);
    return p.epilogueInHalf ? VectorType::get({2}, t) : t;
  };
  SmallVector<Type> args = {type(p.matmulType)};
  for (const KernelParams::EpilogueOperand &e : p.epilogueOperands)
    args.push_back(type(e.type));
  // A dual GEMM's P2, last (EpilogueInfo::operands).
  if (p.dual)
    args.push_back(type(p.matmulType));
  declare(kEpilogueFuncName, args, type(p.outType));
}

ProblemSizes mlir::tcgen::sm90::emitProblemSizes(OpBuilder &b, Location loc,
                                                 const KernelParams &p,
                                                 Value cGroup, Value cClSize,
                                                 Value sizeM, Value sizeN,
                                                 Value sizeK) {
  Ops o{b, loc};
  ProblemSizes s;
  if (!p.dynamicShape) {
    s.cNumK = o.idx(p.kTiles());
    s.cTilesM = o.idx(p.clusterTilesM());
    s.cTilesN = o.idx(p.clusterTilesN());
    s.cPerGroup =
        o.idx(std::max<int64_t>(1, p.groupM / p.clusterM) * p.clusterTilesN());
    s.cUnits = o.idx(p.tiles() / p.clusterSize());
    s.cTiles = o.idx(p.tiles());
    return s;
  }
  // ceil(ceil(M / blockM) / clusterM) = ceil(M / (blockM clusterM)).
  auto ceilDivBy = [&](Value size, int64_t span) {
    Value spanV = o.idx(span);
    Value spanM1 = o.idx(span - 1);
    Value rounded = o.add(size, spanM1);
    return o.divu(rounded, spanV);
  };
  s.cTilesM = ceilDivBy(sizeM, p.blockM * p.clusterM);
  s.cTilesN = ceilDivBy(sizeN, p.outBlockN() * p.clusterN);
  s.cNumK = ceilDivBy(sizeK, p.blockK);
  s.cPerGroup = o.mul(cGroup, s.cTilesN);
  Value matUnits = o.mul(s.cTilesM, s.cTilesN);
  Value batch = o.idx(p.batch);
  s.cUnits = o.mul(matUnits, batch);
  s.cTiles = o.mul(s.cUnits, cClSize);
  return s;
}

SmallVector<Value> mlir::tcgen::sm90::emitEpilogueViews(
    OpBuilder &b, Location loc, const KernelParams &p, ValueRange raw,
    Value sizeM, Value sizeN, ArrayRef<Value> strides) {
  SmallVector<Value> views(raw.begin(), raw.end());
  if (!p.dynamicShape)
    return views;
  // Sizes known at run time only: the row, column and matrix operands
  // arrive as bare pointers (a memref<1 x T> parameter) and are viewed at
  // the run-time N or M, a matrix at M x N with its run-time row stride.
  MLIRContext *ctx = b.getContext();
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands)) {
    auto type = cast<MemRefType>(epilogueOperandType(ctx, p, e));
    if (e.kind == "matrix")
      views[k] = memref::ReinterpretCastOp::create(
          b, loc, type, raw[k], zero, {sizeM, sizeN}, {strides[k], one});
    else if (e.kind != "scalar")
      views[k] = memref::ReinterpretCastOp::create(
          b, loc, type, raw[k], zero, {e.kind == "row" ? sizeN : sizeM}, {one});
  }
  return views;
}

SmallVector<Value> mlir::tcgen::sm90::emitScalarOperandLoads(
    OpBuilder &b, Location loc, const KernelParams &p, ArrayRef<Value> E) {
  SmallVector<Value> scalars(p.epilogueOperands.size());
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    if (e.kind == "scalar")
      scalars[k] = Ops{b, loc}.load(E[k], ValueRange());
  return scalars;
}

//===----------------------------------------------------------------------===//
// The TMA-loaded epilogue operand
//===----------------------------------------------------------------------===//

namespace mlir::tcgen::sm90::epilogue {

/// The TMA-loaded operand's per-tile values (EpilogueOps.h): constants
/// first, then the warpgroup's barrier, row and buffers.
OperandBase emitOperandBase(Ops &o, const KernelParams &p,
                            const EpilogueValues &v) {
  OperandBase base;
  base.c2 = o.idx(2);
  Value c64 = o.idx(64);
  Value ringOff = o.idx(p.stages * p.stageBytes());
  Value ring = o.add(v.pad, ringOff);
  Value wgBytes = o.idx(2 * kStoreChunkBytes);
  base.tx = o.idx(kStoreChunkBytes);
  base.bar0 = o.mul(v.wg, base.c2);
  Value wgRow = o.mul(v.wg, c64);
  base.y = o.add(v.m0, wgRow);
  Value wgOff = o.mul(v.wg, wgBytes);
  base.bufs = o.add(ring, wgOff);
  return base;
}

/// The warpgroup's leader (where `leader` holds) loads the operand's chunk
/// cc (C's store box: columns n0 + cc x chunk width, the warpgroup's 64
/// rows) into buffer cc % 2 with TMA, on that buffer's mbarrier (warpgroup
/// w, buffer b: barrier 2 w + b).
void emitOperandIssue(Ops &o, const KernelParams &p, const EpilogueValues &v,
                      const OperandBase &base, int64_t cc, Value leader) {
  Value ib = o.idx(cc % 2);
  Value iBar = o.add(base.bar0, ib);
  auto ifOp = scf::IfOp::create(o.b, o.loc, leader, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(o.b);
  o.b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  Value col = o.idx(cc * p.storeChunkCols());
  Value x = o.add(v.n0, col);
  Value off = o.idx(cc % 2 * kStoreChunkBytes);
  Value at = o.add(base.bufs, off);
  auto viewType = MemRefType::get(
      {64, p.storeChunkCols()}, scalarType(o.b.getContext(), p.outType),
      MemRefLayoutAttrInterface(), IntegerAttr::get(o.b.getI64Type(), 3));
  Value view =
      memref::ViewOp::create(o.b, o.loc, viewType, v.dsm, at, ValueRange());
  nvgpu::MBarrierArriveExpectTxOp::create(o.b, o.loc, v.eBar, base.tx, iBar,
                                          Value());
  nvgpu::TmaAsyncLoadOp::create(o.b, o.loc, view, v.eBar, v.tmapE,
                                ValueRange{x, base.y}, iBar, Value(), Value());
}

} // namespace mlir::tcgen::sm90::epilogue

void mlir::tcgen::sm90::emitEpilogueOperandPrefetch(OpBuilder &b, Location loc,
                                                    const KernelParams &p,
                                                    const EpilogueValues &v) {
  // Before the main loop of the block's first item: the warpgroup's leader
  // issues the loads of chunks 0 and 1 (no store has used the buffers yet),
  // so that their latency hides behind the main loop; on later items the
  // tile epilogue issues them at chunk 0, once the previous item's stores
  // have read the buffers. The buffers' use counts, and so the waits'
  // phases, are the same either way.
  Ops o{b, loc};
  Value done = o.sub(v.t, v.cid);
  Value first = o.cmp(arith::CmpIPredicate::ult, done, v.ncl);
  Value lead0 = o.cmp(arith::CmpIPredicate::eq, v.wtid, v.c0);
  Value lead = o.andi(lead0, first);
  OperandBase base = emitOperandBase(o, p, v);
  const int64_t chunks = p.outBlockN() / p.storeChunkCols();
  for (int64_t cc = 0; cc < std::min<int64_t>(2, chunks); ++cc)
    emitOperandIssue(o, p, v, base, cc, lead);
}
