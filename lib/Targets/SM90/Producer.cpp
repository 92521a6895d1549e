//===- Producer.cpp - The producer warpgroup of the sm90 kernel -*- C++ -*-===//
//
// This file implements the producer of the typed sm90 kernel: the last
// warpgroup, whose leader issues the TMA loads of every stage (and whose
// threads copy the operands TMA does not read with cp.async), and the fused
// prologue the consumers run on a stage once it has landed.
//
//===----------------------------------------------------------------------===//

#include "Emit.h"
#include "Kernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;
using arith::CmpIPredicate;

MemRefType mlir::tcgen::sm90::boxType(MLIRContext *ctx, const KernelParams &p,
                                      int64_t rows, bool middle) {
  // 128 bytes of the inner dimension: 64 16-bit or 32 32-bit elements.
  bool batched = p.operandsBatched();
  SmallVector<int64_t> shape;
  if (batched && !middle)
    shape.push_back(1);
  shape.push_back(rows);
  if (batched && middle)
    shape.push_back(1);
  shape.push_back(128 / p.elementBytes());
  return smemType(shape, scalarType(ctx, p.memType()));
}

MemRefType mlir::tcgen::sm90::boxTypeOf(MLIRContext *ctx, const KernelParams &p,
                                        const std::vector<int> &dims,
                                        int64_t rows) {
  SmallVector<int64_t> shape;
  for (int d : llvm::reverse(dims))
    shape.push_back(d == KernelParams::kMapInner   ? 128 / p.elementBytes()
                    : d == KernelParams::kMapOuter ? rows
                                                   : 1);
  return smemType(shape, scalarType(ctx, p.memType()));
}

namespace {
/// What the loads of one stage read: the stage %s, its offset %aOff in the
/// ring, the k coordinate %k0, and the tile's raster values (with a summed
/// batch, the k-tile's matrix %kbIdx).
struct StageLoad {
  Value s, aOff, k0, kbIdx;
  const RasterValues *raster = nullptr;
};
} // namespace

/// Emits the TMA loads of one operand's tile of a stage into shared memory
/// at `%aOff + offset`: a K-major tile [rows][64 k] is one box (coordinates
/// innermost first: k, then row; one per matrix where N spans matrices
/// side by side); an MN-major tile is rows/64 boxes [64 k][64 rows-dim]
/// stacked 8 KiB apart (bTileRows: whole boxes). Either way row r of the
/// tile starts r * 128 bytes in (for MN-major: within its box column), so
/// with `shared` (the tile both blocks of a cluster use) this block loads
/// the half of the rows its cluster rank %rankX names and multicasts it to
/// both.
static void emitTileLoads(Emitter &e, const KernelParams &p,
                          const KernelValues &v, const StageLoad &l, bool isB,
                          Value tmap, bool kMajor, int64_t rows, int64_t offset,
                          Value origin, bool shared, bool middle,
                          const std::vector<int> &mapDims) {
  MLIRContext *ctx = e.b.getContext();
  Value base = l.aOff, org = origin, multicast;
  if (shared) {
    rows /= 2;
    Value halfRows = e.idx(rows);
    Value partRow = e.mul(v.rankX, halfRows);
    org = e.add(origin, partRow);
    Value halfBytes = e.idx(rows * kSwizzleRowBytes);
    Value partByte = e.mul(v.rankX, halfBytes);
    base = e.add(l.aOff, partByte);
    multicast = v.mcMask;
  }
  // B of a kernel whose N spans matrices laid side by side (foldsN): each
  // box's column n' is column n' mod foldN of matrix n' / foldN, and a
  // K-major tile loads one box per matrix it spans (or a part of one).
  const bool fold = isB && p.foldsN();
  auto coords = [&](Value inner, Value outer, Value foldIdx) {
    SmallVector<Value> c;
    if (mapDims.empty()) {
      Value idx = p.batchReduce ? l.kbIdx : l.raster->bIdx;
      c = {inner, outer};
      if (p.operandsBatched())
        c.insert(middle ? c.begin() + 1 : c.end(), idx);
      return c;
    }
    for (int d : mapDims)
      c.push_back(d == KernelParams::kMapInner       ? inner
                  : d == KernelParams::kMapOuter     ? outer
                  : d == KernelParams::kMapBroadcast ? v.c0
                  : fold && d == p.foldDim           ? foldIdx
                                                     : l.raster->bIdxDims[d]);
    return c;
  };
  const int64_t boxRows = kMajor ? (fold ? std::min(rows, p.foldN) : rows) : 64;
  MemRefType type = mapDims.empty() ? boxType(ctx, p, boxRows, middle)
                                    : boxTypeOf(ctx, p, mapDims, boxRows);
  for (int64_t b = 0; b < rows / boxRows; ++b) {
    Value off = e.idx(
        offset + (kMajor ? b * boxRows * kSwizzleRowBytes : b * kBBoxBytes));
    Value at = e.add(base, off);
    Value buf =
        memref::ViewOp::create(e.b, e.loc, type, v.dsm, at, ValueRange());
    // The box's place along the tile's rows (an MN-major tile's: along its
    // columns), and with `fold` its matrix and column within it.
    Value place = org, foldIdx;
    if (b > 0 || !kMajor) {
      Value oc = e.idx(b * boxRows);
      place = e.add(org, oc);
    }
    if (fold) {
      Value w = e.idx(p.foldN);
      Value within = e.remu(place, w);
      foldIdx = e.divu(place, w);
      place = within;
    }
    SmallVector<Value> c =
        kMajor ? coords(l.k0, place, foldIdx) : coords(place, l.k0, foldIdx);
    nvgpu::TmaAsyncLoadOp::create(e.b, e.loc, buf, v.full, tmap, c, l.s,
                                  multicast, Value());
  }
}

namespace {
/// The per-thread values of the producer's cp.async copies.
struct AsyncValues {
  Value cpR, cpDst, cpCol, cpGAi, cpGBi;
};
} // namespace

/// The per-thread constants of the producer's cp.async copies (pack mode
/// "async"): producer thread t copies the 16-byte chunk t mod 8 of the
/// 128-byte rows t / 8, t / 8 + 16, ... of every tile. TMA's 128B swizzle
/// puts chunk c of row r at chunk c ^ (r mod 8) of the row (the stage
/// bases are 1024-byte aligned), and r mod 8 = (t / 8) mod 8 in every row
/// the thread copies: one shared offset per thread (%cpDst), plus
/// constant steps of 16 rows (2 KiB) and of 64-wide boxes (8 KiB).
static AsyncValues emitAsyncSetup(Emitter &e, const KernelParams &p,
                                  const KernelValues &v, Value cLeader) {
  AsyncValues a;
  Value cpT = e.sub(v.tid, cLeader);
  Value cpC8 = e.idx(8);
  a.cpR = e.divu(cpT, cpC8);
  Value cpCh = e.remu(cpT, cpC8);
  Value cpR8 = e.remu(a.cpR, cpC8);
  Value cpSw = e.xori(cpCh, cpR8);
  Value cpC128 = e.idx(128);
  Value cpC16 = e.idx(16);
  Value cpDr = e.mul(a.cpR, cpC128);
  Value cpDc = e.mul(cpSw, cpC16);
  a.cpDst = e.add(cpDr, cpDc);
  a.cpCol = e.mul(cpCh, cpC8);
  auto global = LLVM::LLVMPointerType::get(e.b.getContext(), 1);
  for (auto [ptr, async, out] :
       {std::tuple<Value, bool, Value *>{v.pA, p.aAsync, &a.cpGAi},
        {v.pB, p.bAsync, &a.cpGBi}}) {
    if (!async)
      continue;
    Value g = LLVM::AddrSpaceCastOp::create(e.b, e.loc, global, ptr);
    *out = LLVM::PtrToIntOp::create(e.b, e.loc, e.i64Type(), g);
  }
  return a;
}

/// One 16-byte cp.async piece (a, b) of emitAsyncCopies: 16-row step `a`,
/// 64-wide box `b`.
struct AsyncPiece {
  int64_t dstOffset, srcOffset, colOffset, rowOffset;
};

/// Emits the producer thread's cp.async copies of operand A's (or B's:
/// `isB`) tile of the stage at `%aOff + offset` (see emitAsyncSetup and
/// KernelParams::aAsync): a K-major tile [tile][64 k] is rows
/// `origin` + (t / 8 + 16 a) at column %k0 + 8 (t mod 8); an MN-major one,
/// boxes b of [64 k][64], is k rows %k0 + t / 8 + 16 a (a < 4) at column
/// `origin` + 64 b + 8 (t mod 8). Pieces past the matrix's rows copy
/// nothing and pieces past its columns the bytes left, the rest of the 16
/// zero-filled (cp.async's source size), as TMA's out-of-bounds fill does;
/// a piece that copies nothing reads from the operand's base. `rows` x
/// `cols` is the matrix as the kernel reads it.
static void emitAsyncCopies(Emitter &e, const KernelParams &p,
                            const KernelValues &v, const AsyncValues &a,
                            const StageLoad &l, bool isB, bool kMajor,
                            int64_t tile, int64_t offset, Value origin,
                            int64_t rows, int64_t cols) {
  OpBuilder &b = e.b;
  const int64_t eb = p.elementBytes();
  const int64_t rowElems = 128 / eb;
  const int64_t vec = isB ? p.bAsyncVec : p.aAsyncVec;
  Value rowOrigin = kMajor ? origin : l.k0;
  Value colOrigin = kMajor ? l.k0 : origin;
  Value gi = isB ? a.cpGBi : a.cpGAi;
  // Pieces (a, b): 16-row steps a, 64-wide boxes b. `tile` is the block
  // tile's extent along `origin` (blockM or blockN); an MN-major tile
  // copies whole 64-wide boxes (bTileRows). The columns are always
  // checked: rows that are not 128-byte multiples apart hold a number of
  // elements that no 64-wide tile column divides. A K-major tile of fewer
  // rows than 16 steps (8 to 56: a swapped kernel's narrow B) copies the
  // last step's rows in the threads whose row t / 8 is inside the tile.
  const int64_t rowSteps = kMajor ? ceilDiv(tile, 16) : p.blockK / 16;
  const int64_t partialRows = kMajor ? tile % 16 : 0;
  Value inPart;
  if (partialRows) {
    Value part = e.idx(partialRows);
    inPart = e.cmp(CmpIPredicate::ult, a.cpR, part);
  }
  const int64_t boxes = kMajor ? 1 : ceilDiv(tile, rowElems);
  const bool rowCheck = rows % (kMajor ? tile : p.blockK) != 0;
  Value rT = e.add(rowOrigin, a.cpR);
  Value cT = e.add(colOrigin, a.cpCol);
  Value st = e.idx(cols);
  Value rS = e.mul(rT, st);
  Value elem = e.add(rS, cT);
  if (p.batched) {
    Value mat = e.idx(rows * cols);
    Value bO = e.mul(l.raster->bIdx, mat);
    elem = e.add(elem, bO);
  }
  Value eI = e.indexCast(e.i64Type(), elem);
  Value ebC = e.i64(eb);
  Value eY = e.mul(eI, ebC);
  Value src = e.add(gi, eY);
  Value sm = e.add(v.base, l.aOff);
  Value dt = e.add(sm, a.cpDst);
  Value d = e.indexCast(e.i32Type(), dt);
  Value rL;
  if (rowCheck) {
    Value rowsC = e.idx(rows);
    rL = e.sub(rowsC, rT);
  }
  Value colsC = e.idx(cols);
  Value cL = e.sub(colsC, cT);
  Value zero = e.idx(0);
  Value e8 = e.idx(8);
  Value ebX = e.idx(eb);
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto global = LLVM::LLVMPointerType::get(b.getContext(), 1);
  for (int64_t s = 0; s < rowSteps; ++s) {
    for (int64_t x = 0; x < boxes; ++x) {
      Value dO = e.i32(offset + s * 16 * kSwizzleRowBytes + x * kBBoxBytes);
      Value dA = e.add(d, dO);
      Value dP = LLVM::IntToPtrOp::create(b, e.loc, shared, dA);
      Value sO = e.i64((s * 16 * cols + x * rowElems) * eb);
      Value sA = e.add(src, sO);
      // Bytes to copy: 16, or what is left of the row (0 past its end);
      // 0 past the last row.
      Value bo = e.idx(x * rowElems);
      Value left = e.sub(cL, bo);
      Value lz = e.maxs(left, zero);
      Value le = e.mins(lz, e8);
      Value bytes = e.mul(le, ebX);
      if (rowCheck) {
        Value ro = e.idx(16 * s);
        Value rv = e.cmp(CmpIPredicate::sgt, rL, ro);
        Value rz = e.idx(0);
        bytes = e.select(rv, bytes, rz);
      }
      const bool partial = partialRows && s == rowSteps - 1;
      OpBuilder::InsertionGuard guard(b);
      if (partial)
        openIf(b, e.loc, inPart);
      if (vec == 16) {
        Value n = e.indexCast(e.i32Type(), bytes);
        Value z = e.i32(0);
        Value any = e.cmp(CmpIPredicate::sgt, n, z);
        Value ss = e.select(any, sA, gi);
        Value sp = LLVM::IntToPtrOp::create(b, e.loc, global, ss);
        NVVM::CpAsyncOp::create(b, e.loc, dP, sp, 16,
                                NVVM::LoadCacheModifierKind::CG, n);
        continue;
      }
      // Rows only 4 or 8 bytes aligned: the 16-byte piece as 16 / vec
      // copies of vec bytes (cp.async.ca: .cg takes 16 bytes only), each
      // copying what is left of its bytes.
      for (int64_t j = 0; j < 16 / vec; ++j) {
        Value jo = e.idx(j * vec);
        Value lj = e.sub(bytes, jo);
        Value lzj = e.maxs(lj, zero);
        Value nj = e.mins(lzj, e.idx(vec));
        Value n = e.indexCast(e.i32Type(), nj);
        Value z = e.i32(0);
        Value any = e.cmp(CmpIPredicate::sgt, n, z);
        Value sj = e.add(sA, e.i64(j * vec));
        Value ss = e.select(any, sj, gi);
        Value sp = LLVM::IntToPtrOp::create(b, e.loc, global, ss);
        Value dj = e.add(dA, e.i32(j * vec));
        Value djP = LLVM::IntToPtrOp::create(b, e.loc, shared, dj);
        NVVM::CpAsyncOp::create(b, e.loc, djP, sp, vec,
                                NVVM::LoadCacheModifierKind::CA, n);
      }
    }
  }
}

/// Emits the loads of one stage: with cp.async copies the leader's TMA
/// loads (and its arrival) in a branch of their own, then this thread's
/// copies and its arrival when they land.
static void emitStageLoads(Emitter &e, const KernelParams &p,
                           const KernelValues &v, const AsyncValues &a,
                           Value isLeader, const StageLoad &l, Value tmapA,
                           Value tmapB) {
  OpBuilder &b = e.b;
  const int64_t aTileBytes = p.blockM * kSwizzleRowBytes;
  {
    OpBuilder::InsertionGuard guard(b);
    if (p.anyAsync()) {
      openIf(b, e.loc, isLeader);
      if (p.tmaStageBytes() > 0)
        nvgpu::MBarrierArriveExpectTxOp::create(b, e.loc, v.full, v.cTx, l.s,
                                                Value());
      else
        nvgpu::MBarrierArriveOp::create(
            b, e.loc, nvgpu::MBarrierTokenType::get(b.getContext()), v.full,
            l.s);
    }
    if (!p.aAsync)
      emitTileLoads(e, p, v, l, /*isB=*/false, tmapA, /*kMajor=*/!p.aMNMajor,
                    p.blockM, /*offset=*/0, l.raster->m0,
                    /*shared=*/p.clusterN == 2, p.aBatchMiddle, p.aMapDims);
    if (!p.bAsync && p.dual) {
      // A dual GEMM: B's rows for the tile's output columns, then B2's.
      const int64_t half = bTileRows(p.outBlockN(), p.bKMajor);
      const int64_t halfBytes =
          p.bKMajor ? half * kSwizzleRowBytes : half / 64 * kBBoxBytes;
      for (auto [tmap, offset] : {std::pair{tmapB, aTileBytes},
                                  {v.tmapB2, aTileBytes + halfBytes}})
        emitTileLoads(e, p, v, l, /*isB=*/true, tmap, /*kMajor=*/p.bKMajor,
                      half, offset, l.raster->n0, /*shared=*/false,
                      p.bBatchMiddle, p.bMapDims);
    } else if (!p.bAsync) {
      emitTileLoads(e, p, v, l, /*isB=*/true, tmapB, /*kMajor=*/p.bKMajor,
                    bTileRows(p.blockN, p.bKMajor), aTileBytes, l.raster->n0,
                    /*shared=*/p.clusterM == 2, p.bBatchMiddle, p.bMapDims);
    }
  }
  if (!p.anyAsync())
    return;
  if (p.aAsync)
    emitAsyncCopies(e, p, v, a, l, /*isB=*/false, /*kMajor=*/!p.aMNMajor,
                    p.blockM, /*offset=*/0, l.raster->m0, p.aRows, p.aCols);
  if (p.bAsync)
    emitAsyncCopies(e, p, v, a, l, /*isB=*/true, /*kMajor=*/p.bKMajor, p.blockN,
                    aTileBytes, l.raster->n0, p.bRows, p.bCols);
  // This thread's arrival when its copies have landed.
  Value bar = nvgpu::MBarrierGetOp::create(b, e.loc, e.i32Type(), v.full, l.s);
  Value barP = LLVM::IntToPtrOp::create(
      b, e.loc, LLVM::LLVMPointerType::get(b.getContext(), 3), bar);
  NVVM::CpAsyncMBarrierArriveOp::create(b, e.loc, barP, /*noinc=*/true);
}

/// Emits the producer's k-tile `j` of the work item: wait for the stage to
/// be free, then load it.
static void emitProducerKTile(Emitter &e, const KernelParams &p,
                              const KernelValues &v, const AsyncValues &a,
                              Value isLeader, const WorkItem &item,
                              const RasterValues &raster, Value j) {
  OpBuilder &b = e.b;
  // %it counts k-tiles over all of this block's work: the ring position
  // and the barrier phase continue from item to item.
  Value kt = e.add(item.ks, j);
  Value it = e.add(item.it0, j);
  StageLoad l;
  l.raster = &raster;
  l.s = e.remu(it, v.cStages);
  Value round = e.divu(it, v.cStages);
  Value rb = e.indexCast(e.i1Type(), round);
  // Round 0 passes on fresh barriers: wait for parity (round & 1) ^ 1.
  Value par = e.xori(rb, v.cTrue);
  nvgpu::MBarrierTryWaitParityOp::create(b, e.loc, v.empty, par, v.ticks, l.s);
  Value so = e.mul(l.s, v.cStageBytes);
  l.aOff = e.add(v.pad, so);
  Value c64 = e.idx(p.blockK);
  if (!p.anyAsync())
    nvgpu::MBarrierArriveExpectTxOp::create(b, e.loc, v.full, v.cTx, l.s,
                                            Value());
  if (p.batchReduce) {
    // A summed batch: k-tile %kt is k-tile %kt mod kTiles1 of matrix
    // %kbIdx = %kt / kTiles1.
    Value kPerMat = e.idx(p.kTiles1());
    l.kbIdx = e.divu(kt, kPerMat);
    Value ktInMat = e.remu(kt, kPerMat);
    l.k0 = e.mul(ktInMat, c64);
    emitStageLoads(e, p, v, a, isLeader, l, v.tmapA, v.tmapB);
    return;
  }
  if (p.k2 == 0) {
    l.k0 = e.mul(kt, c64);
    emitStageLoads(e, p, v, a, isLeader, l, v.tmapA, v.tmapB);
    return;
  }
  // add(gemm, gemm): k-tiles [0, kTiles1) read A and B, the rest A2 and B2
  // from their k-tile 0; one branch per k-tile, uniform in the one issuing
  // thread.
  Value cK1 = e.idx(p.kTiles1());
  Value inFirst = e.cmp(CmpIPredicate::ult, kt, cK1);
  auto branch = scf::IfOp::create(b, e.loc, TypeRange(), inFirst,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
    Block *block = &region->front();
    if (block->empty() || !block->back().hasTrait<OpTrait::IsTerminator>()) {
      b.setInsertionPointToEnd(block);
      scf::YieldOp::create(b, e.loc);
    }
    b.setInsertionPoint(block->getTerminator());
    bool second = region == &branch.getElseRegion();
    l.k0 = e.mul(second ? e.sub(kt, cK1) : kt, c64);
    emitStageLoads(e, p, v, a, isLeader, l, second ? v.tmapA2 : v.tmapA,
                   second ? v.tmapB2 : v.tmapB);
  }
}

Value mlir::tcgen::sm90::emitProducer(OpBuilder &b, Location loc,
                                      const KernelParams &p,
                                      const KernelValues &v) {
  Emitter e(b, loc);
  const int64_t consumers = p.consumers();
  // Producer: the last warpgroup; its first thread issues every TMA load.
  Value cProducer = e.idx(consumers);
  Value isProducer = e.cmp(CmpIPredicate::eq, v.wg, cProducer);
  OpBuilder::InsertionGuard guard(b);
  openIf(b, loc, isProducer);
  NVVM::SetMaxRegisterOp::create(b, loc, p.producerRegisters(),
                                 NVVM::SetMaxRegisterAction::decrease);
  Value cLeader = e.idx(consumers * 128);
  Value isLeader = e.cmp(CmpIPredicate::eq, v.tid, cLeader);
  scf::IfOp leader = openIf(b, loc, isLeader);
  if (!p.aAsync)
    nvgpu::TmaPrefetchOp::create(b, loc, v.tmapA, Value());
  if (!p.bAsync)
    nvgpu::TmaPrefetchOp::create(b, loc, v.tmapB, Value());
  if (p.k2 > 0) {
    nvgpu::TmaPrefetchOp::create(b, loc, v.tmapA2, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, v.tmapB2, Value());
  }
  if (p.dual)
    nvgpu::TmaPrefetchOp::create(b, loc, v.tmapB2, Value());
  // With cp.async copies every producer thread walks the work (the leader
  // alone issues the TMA loads); otherwise the leader alone.
  AsyncValues a;
  if (p.anyAsync()) {
    b.setInsertionPointAfter(leader);
    a = emitAsyncSetup(e, p, v, cLeader);
  }
  WorkItem item = emitWorkLoopBegin(b, loc, p, v);
  RasterValues raster = emitRaster(b, loc, p, v, item.t, &item);
  {
    OpBuilder::InsertionGuard loopGuard(b);
    scf::ForOp kLoop = openFor(b, loc, v.c0, item.len, v.c1);
    emitProducerKTile(e, p, v, a, isLeader, item, raster,
                      kLoop.getInductionVar());
  }
  Value itNext = e.add(item.it0, item.len);
  Value itEnd = emitWorkLoopEnd(b, loc, p, item, itNext);
  // In a cluster, the producer's tail: it waits, as for S more loads,
  // until every stage's last load has been released by the consumers of
  // both blocks. The peer's releases then have all arrived on this block's
  // barriers, and the peer has consumed all this block multicast into its
  // shared memory (this block's consumers likewise waited for all the peer
  // multicast here), so the block may exit without a cluster barrier.
  // (Clusters walk whole tiles: no stream-K.)
  if (p.clusterSize() > 1) {
    scf::ForOp tail = openFor(b, loc, v.c0, v.cStages, v.c1);
    Value tIt = e.add(itEnd, tail.getInductionVar());
    Value tS = e.remu(tIt, v.cStages);
    Value tRound = e.divu(tIt, v.cStages);
    Value tRb = e.indexCast(e.i1Type(), tRound);
    Value tPar = e.xori(tRb, v.cTrue);
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, v.empty, tPar, v.ticks, tS);
  }
  return cProducer;
}

void mlir::tcgen::sm90::emitPrologue(OpBuilder &b, Location loc,
                                     const KernelParams &p,
                                     const PrologueValues &v, Value stage) {
  Emitter e(b, loc);
  const int64_t threads = p.prologueA ? 128 : 128 * p.consumers();
  const int64_t stride = 16 * threads;
  const int64_t bytes =
      p.prologueA ? 64 * kSwizzleRowBytes : p.blockN * kSwizzleRowBytes;
  Value pS = e.indexCast(e.i32Type(), stage);
  Value pSo = e.mul(pS, v.pStageBytes);
  Value pSt = e.add(v.pRing32, pSo);
  Value pBase = e.add(pSt, v.pThread);
  Type elt = scalarType(b.getContext(), p.inType);
  auto vec = VectorType::get({8}, elt);
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  // Whole rounds of `stride` bytes, then (B over three warpgroups: 128 or
  // 256 rows of 128 bytes against 6 KiB a round) a round whose threads
  // past the tile's end skip.
  for (int64_t i = 0; i * stride < bytes; ++i) {
    OpBuilder::InsertionGuard guard(b);
    if ((i + 1) * stride > bytes)
      openIf(b, loc,
             e.cmp(arith::CmpIPredicate::ult, v.pPiece,
                   e.i32(bytes - i * stride)));
    Value off = e.i32(i * stride);
    Value ad = e.add(pBase, off);
    Value ptr = LLVM::IntToPtrOp::create(b, loc, shared, ad);
    Value x = LLVM::LoadOp::create(b, loc, vec, ptr, /*alignment=*/16);
    for (int64_t k = 0; k < 8; ++k) {
      Value el = vector::ExtractOp::create(b, loc, x, k);
      Value y = func::CallOp::create(b, loc, kPrologueFuncName, TypeRange{elt},
                                     ValueRange{el})
                    .getResult(0);
      x = vector::InsertOp::create(b, loc, y, x, k);
    }
    LLVM::StoreOp::create(b, loc, x, ptr, /*alignment=*/16);
  }
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::BarrierOp::create(b, loc, TypeRange(), v.pBar, v.cPThreads,
                          NVVM::BarrierReductionAttr(), Value());
}
