//===- Schedule.cpp - Work distribution of the sm90 kernel ------*- C++ -*-===//
//
// This file implements the schedule of the typed sm90 kernel: which tiles
// (and which k-tiles of them) each block walks, in which order, and how
// the blocks of a stream-K tile combine their partial accumulators.
//
//===----------------------------------------------------------------------===//

#include "Emit.h"
#include "Kernel.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;
using arith::CmpIPredicate;

/// Stream-K partition, computed in the kernel from the real grid size P:
/// with W = T / P full waves and R = T % P tiles left over, the first S
/// tiles are "stream-K" tiles (sm90::streamKSplitTiles, which the model
/// uses): S = 0 when R = 0, else S = T when W <= 1; with two waves or more
/// S = R where R >= P / 2 (each block gets half a tile to a tile), else
/// R + P (one to one and a half tiles). Their U = S
/// K k-tiles are split into P' = min(P, U) contiguous ranges of at least
/// one k-tile, one per block (blocks from P' on get none), walked first;
/// the other T - S tiles follow as whole tiles, P apart (data-parallel).
/// Block b's range is [start(b), start(b + 1)) with start(b) = min(b, P')
/// * U / P'.
/// A block walks its range's items from the last to the first (the head
/// of its last tile, then the tail of its first): the blocks that cross a
/// tile boundary all start at k-tile 0 and stay within a fraction of a
/// tile of each other in k, so that concurrent tiles share the same slices
/// of A and B in L2, as data-parallel waves do. Walked first to last, block
/// b would start at k-tile (b U / P') mod K: the blocks then stream whole
/// panels of A and B at once (5120^3, 128x256, R + P tiles: 0.93 of
/// cuBLAS first to last, 0.99 last to first). Ranges near two tiles long
/// (a head, a whole tile, a tail) shift the blocks by up to K k-tiles
/// again: at 3584^3 and 7168^3 (R = 128 and 116) R + P split tiles ran at
/// 0.89 and 0.86 of cuBLAS, R split tiles at 0.95 and 0.92 (data-parallel
/// 1.00 at both); with one wave and more than half of another (2560^3,
/// R = 68) all T split tiles ran at 0.99, R split tiles at 0.93 (H100,
/// docs/log/NOTES.md).
void mlir::tcgen::sm90::emitStreamKPartition(OpBuilder &b, Location loc,
                                             KernelValues &v) {
  Emitter e(b, loc);
  Value skW = e.divu(v.cTiles, v.nbl);
  Value skR = e.remu(v.cTiles, v.nbl);
  Value skRz = e.cmp(CmpIPredicate::eq, skR, v.c0);
  Value skW1 = e.cmp(CmpIPredicate::ule, skW, v.c1);
  Value skR2 = e.add(skR, skR);
  Value skHalf = e.cmp(CmpIPredicate::uge, skR2, v.nbl);
  Value skRP = e.add(skR, v.nbl);
  Value skRS = e.select(skHalf, skR, skRP);
  Value skT1 = e.select(skW1, v.cTiles, skRS);
  Value skTiles = e.select(skRz, v.c0, skT1);
  v.skUnits = e.mul(skTiles, v.cNumK);
  Value skP0 = e.minu(v.nbl, v.skUnits);
  v.skP = e.maxu(skP0, v.c1);
  Value skB0 = e.minu(v.bid, v.skP);
  Value skS0 = e.mul(skB0, v.skUnits);
  v.skStart = e.divu(skS0, v.skP);
  Value bidNext = e.add(v.bid, v.c1);
  Value skB1 = e.minu(bidNext, v.skP);
  Value skE0 = e.mul(skB1, v.skUnits);
  v.skEnd = e.divu(skE0, v.skP);
  v.dpFirst = e.add(skTiles, v.bid);
}

/// The tile origin (%m0, %n0) of linear tile `t` under grouped
/// rasterization (L2 reuse): consecutive tiles walk `groupM` tile rows of M
/// before moving to the next tile column of N, so the blocks in flight
/// share few A and B panels. With a cluster, `t` numbers cluster tiles
/// (clusterM x clusterN block tiles) and the block takes its own (%rankM,
/// %rankN) inside.
static void emitTileOrigin(Emitter &e, const KernelValues &v, Value t,
                           RasterValues &r) {
  Value groupId = e.divu(t, v.cPerGroup);
  Value firstM = e.mul(groupId, v.cGroup);
  Value leftM = e.sub(v.cTilesM, firstM);
  Value groupM = e.minu(leftM, v.cGroup);
  Value inGroup = e.remu(t, v.cPerGroup);
  Value tileMIn = e.remu(inGroup, groupM);
  Value tileM = e.add(firstM, tileMIn);
  Value tileN = e.divu(inGroup, groupM);
  Value tileMc = e.mul(tileM, v.cClM);
  Value tileMb = e.add(tileMc, v.rankM);
  Value tileNc = e.mul(tileN, v.cClN);
  Value tileNb = e.add(tileNc, v.rankN);
  r.m0 = e.mul(tileMb, v.cBM);
  r.n0 = e.mul(tileNb, v.cBN);
}

Value mlir::tcgen::sm90::emitGroupOffset(OpBuilder &b, Location loc,
                                         const KernelParams &p,
                                         const KernelValues &v, Value g) {
  Emitter e(b, loc);
  Value raw = memref::LoadOp::create(b, loc, v.offsets, ValueRange{g});
  return e.indexCast(e.indexType(), raw);
}

/// ceil(rows / blockM): the row tiles of a group of `rows` rows.
static Value emitRowTiles(Emitter &e, const KernelParams &p, Value rows) {
  Value bm1 = e.idx(p.blockM - 1);
  Value up = e.add(rows, bm1);
  Value bm = e.idx(p.blockM);
  return e.divu(up, bm);
}

Value mlir::tcgen::sm90::emitGroupedTileCount(OpBuilder &b, Location loc,
                                              const KernelParams &p,
                                              const KernelValues &v) {
  Emitter e(b, loc);
  Value lo0 = emitGroupOffset(b, loc, p, v, v.c0);
  auto loop =
      scf::ForOp::create(b, loc, v.c0, v.cGroups, v.c1, ValueRange{v.c0, lo0});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value g = loop.getInductionVar();
  ValueRange args = loop.getRegionIterArgs();
  Value g1 = e.add(g, v.c1);
  Value hi = emitGroupOffset(b, loc, p, v, g1);
  Value rows = e.sub(hi, args[1]);
  Value tilesM = emitRowTiles(e, p, rows);
  Value count = e.mul(tilesM, v.cTilesN);
  Value sum = e.add(args[0], count);
  scf::YieldOp::create(b, loc, ValueRange{sum, hi});
  return loop.getResult(0);
}

/// A grouped product's tile `t`: the groups' tiles one group after the
/// other (tcgen::mapGroupedTile, which the unit tests check, is the same
/// walk): group g has tilesM(g) = ceil((offsets[g + 1] - offsets[g]) /
/// blockM) row tiles (none for an empty group) by tilesN column tiles,
/// numbered row tile first within each column tile, so that the blocks in
/// flight share the group's B panels in L2. The scan walks the groups from
/// the group of the block's previous tile (`item`'s state; the first: group
/// 0), as a block's tiles only grow: its scans load G + (its tile count)
/// offsets in all, not up to G per tile. The tile's rows start at offsets[g] +
/// rowTile x blockM; its loads may read the next group's rows (or zeros past
/// T), and its stores stop at offsets[g + 1] (%rowEnd).
static RasterValues emitGroupedRaster(OpBuilder &b, Location loc,
                                      const KernelParams &p,
                                      const KernelValues &v, Value t,
                                      WorkItem &item) {
  Emitter e(b, loc);
  Type index = b.getIndexType();
  // Before: (g, tiles of the groups before g, offsets[g]); while t is past
  // group g's tiles, on to g + 1. t < the tile count ends it at a group.
  auto scan = scf::WhileOp::create(
      b, loc, SmallVector<Type>(5, index), ValueRange(item.scan),
      [&](OpBuilder &, Location, ValueRange args) {
        Value g1 = e.add(args[0], v.c1);
        Value hi = emitGroupOffset(b, loc, p, v, g1);
        Value rows = e.sub(hi, args[2]);
        Value tilesM = emitRowTiles(e, p, rows);
        Value count = e.mul(tilesM, v.cTilesN);
        Value end = e.add(args[1], count);
        Value past = e.cmp(CmpIPredicate::ule, end, t);
        scf::ConditionOp::create(
            b, loc, past, ValueRange{args[0], args[1], args[2], hi, tilesM});
      },
      [&](OpBuilder &, Location, ValueRange args) {
        Value g1 = e.add(args[0], v.c1);
        Value count = e.mul(args[4], v.cTilesN);
        Value before = e.add(args[1], count);
        scf::YieldOp::create(b, loc, ValueRange{g1, before, args[3]});
      });
  Value g = scan.getResult(0), before = scan.getResult(1);
  Value lo = scan.getResult(2), tilesM = scan.getResult(4);
  Value inGroup = e.sub(t, before);
  Value rowTile = e.remu(inGroup, tilesM);
  Value colTile = e.divu(inGroup, tilesM);
  Value rowOff = e.mul(rowTile, v.cBM);
  RasterValues r;
  r.m0 = e.add(lo, rowOff);
  r.n0 = e.mul(colTile, v.cBN);
  r.rowEnd = scan.getResult(3);
  r.bIdx = g;
  r.bIdxDims = {g};
  item.scanNext = {g, before, lo};
  return r;
}

/// The tile origin of `t`: with a batch, the matrix %bIdx first (the tiles
/// of one matrix are consecutive, so the raster order's L2 reuse holds
/// within each), then the origin within it.
RasterValues mlir::tcgen::sm90::emitRaster(OpBuilder &b, Location loc,
                                           const KernelParams &p,
                                           const KernelValues &v, Value t,
                                           WorkItem *item) {
  if (p.grouped())
    return emitGroupedRaster(b, loc, p, v, t, *item);
  Emitter e(b, loc);
  RasterValues r;
  if (!p.batched) {
    emitTileOrigin(e, v, t, r);
    return r;
  }
  Value cMatTiles = p.dynamicShape ? e.mul(v.cTilesM, v.cTilesN)
                                   : e.idx(p.clusterTilesPerMatrix());
  r.bIdx = e.divu(t, cMatTiles);
  Value tInMat = e.remu(t, cMatTiles);
  // Several batch dimensions: %bIdx is row-major over them (%bIdx0 *
  // batchShape[1] + %bIdx1 for two), the innermost peeled off first.
  // (A dimension laid side by side in N (foldsN) is not among them: the
  // columns give its index.)
  if (p.multiBatch()) {
    r.bIdxDims.assign(p.batchShape.size(), Value());
    SmallVector<size_t> dims;
    for (size_t i = 0; i < p.batchShape.size(); ++i)
      if (int(i) != p.foldDim)
        dims.push_back(i);
    Value rest = r.bIdx;
    for (size_t j = dims.size(); j-- > 1;) {
      size_t i = dims[j];
      Value ext = e.idx(p.batchShape[i]);
      Value outer = e.divu(rest, ext);
      r.bIdxDims[i] = e.remu(rest, ext);
      if (j == 1)
        r.bIdxDims[dims[0]] = outer;
      rest = outer;
    }
    // One batch dimension (that an input lacks): %bIdx itself.
    if (dims.size() == 1)
      r.bIdxDims[dims[0]] = e.add(r.bIdx, v.c0);
  }
  emitTileOrigin(e, v, tInMat, r);
  return r;
}

WorkItem mlir::tcgen::sm90::emitWorkLoopBegin(OpBuilder &b, Location loc,
                                              const KernelParams &p,
                                              const KernelValues &v) {
  Emitter e(b, loc);
  WorkItem item;
  if (!p.streamK) {
    // Data-parallel: cluster c (block c without clusters) computes cluster
    // tiles c, c + the number of clusters, ... A grouped product carries its
    // group scan's state (emitGroupedRaster), from group 0.
    SmallVector<Value> inits = {v.c0};
    if (p.grouped())
      inits.append({v.c0, v.c0, emitGroupOffset(b, loc, p, v, v.c0)});
    auto loop = scf::ForOp::create(b, loc, v.cid, v.cUnits, v.ncl, inits);
    b.setInsertionPointToStart(loop.getBody());
    item.loop = loop;
    item.t = loop.getInductionVar();
    item.it0 = loop.getRegionIterArgs()[0];
    item.scan.assign(loop.getRegionIterArgs().begin() + 1,
                     loop.getRegionIterArgs().end());
    item.ks = e.idx(0);
    item.len = p.dynamicShape ? e.add(v.cNumK, v.c0) : e.idx(p.kTiles());
    return item;
  }
  // Stream-K items first, last to first (while %u > %skStart: the item
  // ends at unit %u), then whole tiles.
  Type index = b.getIndexType();
  SmallVector<Type> types(3, index);
  auto loop = scf::WhileOp::create(
      b, loc, types, ValueRange{v.skEnd, v.dpFirst, v.c0},
      [&](OpBuilder &, Location, ValueRange args) {
        Value inSKc = e.cmp(CmpIPredicate::ugt, args[0], v.skStart);
        Value inDPc = e.cmp(CmpIPredicate::ult, args[1], v.cTiles);
        Value more = e.ori(inSKc, inDPc);
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &, Location, ValueRange) {});
  Block *body = loop.getAfterBody();
  b.setInsertionPointToEnd(body);
  Value u = body->getArgument(0), dt = body->getArgument(1);
  item.loop = loop;
  item.it0 = body->getArgument(2);
  Value inSK = e.cmp(CmpIPredicate::ugt, u, v.skStart);
  // (Past the stream-K items %u - 1 may wrap; the selects drop it.)
  Value uLast = e.sub(u, v.c1);
  Value tS = e.divu(uLast, v.cNumK);
  Value tSk = e.mul(tS, v.cNumK);
  Value uFirst = e.maxu(tSk, v.skStart);
  Value ksS = e.sub(uFirst, tSk);
  Value lenS = e.sub(u, uFirst);
  item.t = e.select(inSK, tS, dt);
  item.ks = e.select(inSK, ksS, v.c0);
  item.len = e.select(inSK, lenS, v.cNumK);
  item.uN = e.select(inSK, uFirst, u);
  Value dtAdv = e.add(dt, v.nbl);
  item.dtN = e.select(inSK, dt, dtAdv);
  return item;
}

Value mlir::tcgen::sm90::emitWorkLoopEnd(OpBuilder &b, Location loc,
                                         const KernelParams &p,
                                         const WorkItem &item, Value itNext) {
  if (!p.streamK) {
    SmallVector<Value> yields = {itNext};
    llvm::append_range(yields, item.scanNext);
    scf::YieldOp::create(b, loc, yields);
    b.setInsertionPointAfter(item.loop);
    return item.loop->getResults().front();
  }
  scf::YieldOp::create(b, loc, ValueRange{item.uN, item.dtN, itNext});
  b.setInsertionPointAfter(item.loop);
  return item.loop->getResults().back();
}

/// The i64 index of this warpgroup's partial slot (and flag) in the
/// workspace of block `block`: block * consumers + warpgroup.
static Value emitSlotIndex(Emitter &e, const KernelValues &v, Value block) {
  Value slotB = e.mul(block, v.cCons);
  Value slotW = e.add(slotB, v.wg);
  return e.indexCast(e.i64Type(), slotW);
}

/// A global pointer `offset` bytes into the workspace.
static Value workspaceByte(Emitter &e, const KernelValues &v, Value offset) {
  Type ptr = v.wsG.getType();
  return LLVM::GEPOp::create(e.b, e.loc, ptr, e.b.getI8Type(), v.wsG,
                             ValueRange{offset});
}

/// A pointer to the ready flag of `slot` (the flags follow the partial
/// slots of all blocks).
static Value emitFlagPointer(Emitter &e, const KernelValues &v, Value slot) {
  Value off = e.mul(slot, v.c4i);
  Value at = e.add(v.flagBase, off);
  return workspaceByte(e, v, at);
}

/// A pointer to thread %wtid's first float4 in `slot`; float4 q follows at
/// q * 2 KiB.
static Value emitSlotPointer(Emitter &e, const KernelValues &v, Value slot) {
  Value slotBytes = e.mul(slot, v.cSlotBytes);
  Value off = e.add(slotBytes, v.lt16);
  return workspaceByte(e, v, off);
}

/// `ptr` advanced by `bytes` (a constant).
static Value byteOffset(Emitter &e, Value ptr, int32_t bytes) {
  return LLVM::GEPOp::create(e.b, e.loc, ptr.getType(), e.b.getI8Type(), ptr,
                             ArrayRef<LLVM::GEPArg>{bytes});
}

/// One side-effecting inline-asm statement.
static LLVM::InlineAsmOp inlineAsm(Emitter &e, TypeRange results,
                                   ValueRange operands, StringRef text,
                                   StringRef constraints) {
  return LLVM::InlineAsmOp::create(
      e.b, e.loc, results, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(e.b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

/// A contributing block (one that does not finish the tile) stores its
/// partial accumulators to its slot, then its leader raises the flag.
static void emitContribution(Emitter &e, const KernelParams &p,
                             const KernelValues &v, Value acc) {
  OpBuilder &b = e.b;
  const int64_t quads = p.accRegs() / 4;
  Value slotC = emitSlotIndex(e, v, v.bid);
  Value pC = emitSlotPointer(e, v, slotC);
  auto quad = VectorType::get({4}, b.getF32Type());
  for (int64_t q = 0; q < quads; ++q) {
    Value wp = byteOffset(e, pC, q * 2048);
    SmallVector<Value> elements;
    for (int64_t i = 0; i < 4; ++i)
      elements.push_back(
          LLVM::ExtractValueOp::create(b, e.loc, acc, 4 * q + i));
    Value wv = vector::FromElementsOp::create(b, e.loc, quad, elements);
    LLVM::StoreOp::create(b, e.loc, wv, wp, /*alignment=*/16);
  }
  // Every thread's partial is written before thread 0 releases it.
  NVVM::BarrierOp::create(b, e.loc, TypeRange(), v.namedBar, v.c128n,
                          NVVM::BarrierReductionAttr(), Value());
  OpBuilder::InsertionGuard guard(b);
  openIf(b, e.loc, v.isLt0);
  Value fpC = emitFlagPointer(e, v, slotC);
  Value oneI = e.i32(1);
  inlineAsm(e, TypeRange(), ValueRange{fpC, oneI},
            "st.release.gpu.global.b32 [$0], $1;", "l,r");
}

/// The finisher's wait for the flag of block `cbPrev`'s slot, which it
/// then clears for the next launch.
static void emitFlagWait(Emitter &e, const KernelValues &v, Value cbPrev) {
  OpBuilder &b = e.b;
  OpBuilder::InsertionGuard guard(b);
  openIf(b, e.loc, v.isLt0);
  Value slotF = emitSlotIndex(e, v, cbPrev);
  Value fpF = emitFlagPointer(e, v, slotF);
  Value oneW = e.i32(1);
  scf::WhileOp::create(
      b, e.loc, TypeRange(), ValueRange(),
      [&](OpBuilder &, Location, ValueRange) {
        Value flag = inlineAsm(e, e.i32Type(), ValueRange{fpF},
                               "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l")
                         .getResult(0);
        Value notReady = e.cmp(CmpIPredicate::ne, flag, oneW);
        scf::ConditionOp::create(b, e.loc, notReady, ValueRange());
      },
      [&](OpBuilder &, Location, ValueRange) {
        scf::YieldOp::create(b, e.loc);
      });
  // Consumed: zero again for the next launch.
  Value zeroI = e.i32(0);
  inlineAsm(e, TypeRange(), ValueRange{fpF, zeroI},
            "st.relaxed.gpu.global.b32 [$0], $1;", "l,r");
}

/// Stream-K fix-up of one consumer warpgroup after its k-range of tile %t:
/// a block that does not finish the tile (%ks + %len < K) stores its
/// partial accumulators to its workspace slot and raises its flag; the
/// block that finishes it but did not start it adds the partials of the
/// blocks before it (each block's range ends inside at most one tile, so
/// block c's slot holds c's last item, the one it walks first), clearing
/// their flags, and writes the tile.
/// Slot layout: float4 q of thread l at slot * slotBytes + q * 2 KiB +
/// l * 16 (coalesced); flags after the P slots of every block.
StreamKFixup mlir::tcgen::sm90::emitStreamKFixup(OpBuilder &b, Location loc,
                                                 const KernelParams &p,
                                                 const KernelValues &v,
                                                 const WorkItem &item,
                                                 Value acc) {
  Emitter e(b, loc);
  Type index = b.getIndexType();
  Value ksEnd = e.add(item.ks, item.len);
  Value isContrib = e.cmp(CmpIPredicate::ult, ksEnd, v.cNumK);
  Value ksMid = e.cmp(CmpIPredicate::ugt, item.ks, v.c0);
  Value notContrib = e.xori(isContrib, v.cTrue);
  Value isFinisher = e.andi(ksMid, notContrib);
  {
    OpBuilder::InsertionGuard guard(b);
    openIf(b, loc, isContrib);
    emitContribution(e, p, v, acc);
  }
  // The finisher waits for every earlier block whose range ends in this
  // tile (block %cb - 1 while block %cb starts inside it); the epilogue
  // adds their slots (%cLow ..< %bid).
  auto finisher = scf::IfOp::create(b, loc, TypeRange{index}, isFinisher,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&finisher.getThenRegion().front());
    Value tStartU = e.mul(item.t, v.cNumK);
    auto fw = scf::WhileOp::create(
        b, loc, TypeRange{index}, ValueRange{v.bid},
        [&](OpBuilder &, Location, ValueRange args) {
          Value cbP = e.minu(args[0], v.skP);
          Value cs0 = e.mul(cbP, v.skUnits);
          Value cs = e.divu(cs0, v.skP);
          Value inTile = e.cmp(CmpIPredicate::ugt, cs, tStartU);
          scf::ConditionOp::create(b, loc, inTile, args);
        },
        [&](OpBuilder &, Location, ValueRange args) {
          Value cbPrev = e.sub(args[0], v.c1);
          emitFlagWait(e, v, cbPrev);
          scf::YieldOp::create(b, loc, ValueRange{cbPrev});
        });
    NVVM::BarrierOp::create(b, loc, TypeRange(), v.namedBar, v.c128n,
                            NVVM::BarrierReductionAttr(), Value());
    scf::YieldOp::create(b, loc, fw.getResults());
    b.setInsertionPointToStart(&finisher.getElseRegion().front());
    scf::YieldOp::create(b, loc, ValueRange{v.bid});
  }
  StreamKFixup fixup;
  fixup.cLow = finisher.getResult(0);
  fixup.notContrib = openIf(b, loc, notContrib);
  auto quad = VectorType::get({4}, b.getF32Type());
  fixup.zero4 = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(quad, b.getF32FloatAttr(0.0f)));
  fixup.cSlotStride = e.mul(v.cSlotBytes, v.cConsI);
  Value sumSlot = emitSlotIndex(e, v, fixup.cLow);
  fixup.sumBase = emitSlotPointer(e, v, sumSlot);
  return fixup;
}

/// Stream-K: the sums of the partial slots (%cLow ..< %bid) for the
/// accumulator quads [first, first + count) (a zero-trip loop unless
/// this block finishes a split tile); result #i is quad first + i. One
/// pointer walks the slots, and the quads are constant offsets from it.
SmallVector<Value> mlir::tcgen::sm90::emitPartialSums(
    OpBuilder &b, Location loc, const KernelValues &v,
    const StreamKFixup &fixup, int64_t first, int64_t count) {
  Emitter e(b, loc);
  SmallVector<Value> inits(count, fixup.zero4);
  inits.push_back(fixup.sumBase);
  auto loop = scf::ForOp::create(b, loc, fixup.cLow, v.bid, v.c1, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ValueRange args = loop.getRegionIterArgs();
    Value pp = args.back();
    auto quad = VectorType::get({4}, b.getF32Type());
    SmallVector<Value> loaded;
    for (int64_t i = 0; i < count; ++i) {
      Value rp = byteOffset(e, pp, (first + i) * 2048);
      loaded.push_back(LLVM::LoadOp::create(b, loc, quad, rp,
                                            /*alignment=*/16));
    }
    SmallVector<Value> yields;
    for (int64_t i = 0; i < count; ++i)
      yields.push_back(arith::AddFOp::create(b, loc, args[i], loaded[i]));
    yields.push_back(LLVM::GEPOp::create(b, loc, pp.getType(), b.getI8Type(),
                                         pp, ValueRange{fixup.cSlotStride}));
    scf::YieldOp::create(b, loc, yields);
  }
  return SmallVector<Value>(loop.getResults().drop_back());
}
