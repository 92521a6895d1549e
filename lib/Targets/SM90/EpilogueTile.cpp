//===- EpilogueTile.cpp - The sm90 epilogue of a tile ----------*- C++ -*-===//
//
// This file implements the per-tile epilogue of the sm90 kernel with typed
// builders: the fragment's coordinates, a fused epilogue's operand loads
// and pairs, stream-K's partial sums, and the stores (from registers, or
// through the chunk buffers: staged, TMA, transposed with stmatrix, with a
// TMA-loaded operand). Each function builds the ops, in order, that the
// kernel's epilogue is made of; the comments say why each is there.
//
// The m64nN f32 fragment of thread (warp w, lane l) holds, for j in
// [0, N/8): d[4j], d[4j+1] at row 16w + l/4, columns 8j + 2(l%4) + {0,1},
// and d[4j+2], d[4j+3] eight rows below (halves "ab" and "cd" below).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Epilogue.h"

#include "EpilogueOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <map>

using namespace mlir;
using namespace mlir::tcgen::sm90;
using namespace mlir::tcgen::sm90::epilogue;

namespace {

/// Fragment column group j's columns: %col<j>, and where tiles reach past
/// N the clamped load column (`clamped`), whether the pair is inside C
/// (`in`), the second element's column and mask (`next`, `in1`), and the
/// elements' load columns (`elt`).
struct Column {
  Value col, clamped, in, next, in1;
  std::array<Value, 2> elt;
};

/// A pair of an extra operand as loaded: the vector (null where loaded
/// element by element) and its two elements.
struct Pair {
  Value vec;
  std::array<Value, 2> x;
};

/// The epilogue of one 64-row block of the tile, its values kept by the
/// names the comments use.
class TileEpilogue {
public:
  TileEpilogue(OpBuilder &b, Location loc, const KernelParams &p,
               const EpilogueValues &v)
      : o{b, loc}, p(p), v(v), ctx(b.getContext()),
        outType(scalarType(ctx, p.outType)) {}

  void emit(Value acc, Value wgIndex);

private:
  void emitCoordinates(Value wgIndex);
  void emitEdges();
  void emitStoreSetup();
  void emitColumnEdge(int64_t j);
  void emitColumnOperandLoads();
  void emitFusedLoads(int64_t j);
  Value emitFusedPair(int64_t j, int h, ArrayRef<Value> e,
                      ArrayRef<Value> e2);
  std::array<Value, 2> roundPair(Value a, Value c, Value &pair);
  void emitStoreChunkBegin(int64_t c);
  void emitStagedChunkStore(int64_t c, int64_t col);
  void emitStoreChunkEnd(int64_t c, int64_t col);
  Value emitChunkPairAddress(int h, int64_t c, int64_t jj);
  void emitOperandLoad(int64_t c);
  void emitOperandPair(int64_t k, int64_t j, int h, int64_t c, int64_t jj);
  void emitPairStore(Value value, int h, int64_t j, int64_t c, int64_t jj);
  void emitTransposedStore(Value ab, Value cd, int64_t c, int64_t jj);
  SmallVector<Value> emitPartialSums(int64_t first, int64_t count);
  SmallVector<Value> cIndices(Value row, Value col);
  Value loadRow(int r) { return p.clampedLoads(true) ? rowC[r] : row[r]; }
  Value loadCol(int64_t j) {
    return p.clampedLoads(false) ? cols[j].clamped : cols[j].col;
  }

  Ops o;
  const KernelParams &p;
  const EpilogueValues &v;
  MLIRContext *ctx;
  Type outType;
  // The fragment's place: constants, the warp and lane, rows, columns.
  Value c2, c4, c8, c16, wtidE, warp, lane, wgRow, wRow, lRow, lq, colBase;
  std::array<Value, 2> row, rowC, rowIn;
  Value bIdxI;
  SmallVector<Value> bIdxIs;
  Value cLastPair, cLastCol, cN;
  // Chunk buffers (emitStoreSetup).
  Value epiLeader, epiBar, c128e, stB, c4e, c16e, c128eI, stX, stT, stTr;
  // The TMA-loaded operand.
  Value eeDone, eeItem, eeLead01;
  OperandBase ee;
  // Per column group and operand.
  std::map<int64_t, Column> cols;
  std::map<int64_t, std::array<Value, 2>> colE;
  std::map<std::tuple<int64_t, int64_t, int>, Pair> loaded;
};

/// The indices of element (r, c) of C as a plain memref (of the batch's
/// matrix bIdx).
SmallVector<Value> TileEpilogue::cIndices(Value r, Value c) {
  if (p.cColumnMajor)
    return {c, r};
  if (!p.batched)
    return {r, c};
  if (p.cBatchMiddle)
    return {r, v.bIdx, c};
  return {v.bIdx, r, c};
}

/// Defines the fragment's coordinates: the thread's warp and lane in its
/// warpgroup, its rows (row block `wgIndex` of the tile) and first column,
/// and with TMA stores of a batch the matrix indices as i32.
void TileEpilogue::emitCoordinates(Value wgIndex) {
  Value c32 = o.idx(32);
  c4 = o.idx(4);
  c8 = o.idx(8);
  c16 = o.idx(16);
  Value c64r = o.idx(64);
  // The thread's place in its warpgroup, read per tile through a volatile
  // asm that LLVM cannot hoist: coordinates (and the TMA-store addresses
  // made from them) computed once before the tile loop would live through
  // every main loop, and with A MN-major and TMA stores the consumers
  // spilled.
  Value tidE = o.asmOp(o.b.getI32Type(), {}, "mov.u32 $0, %tid.x;", "=r",
                       /*sideEffects=*/true);
  Value tidEI = o.indexCast(o.b.getIndexType(), tidE);
  wtidE = o.remu(tidEI, v.c128);
  warp = o.divu(wtidE, c32);
  lane = o.remu(wtidE, c32);
  wgRow = o.mul(wgIndex, c64r);
  wRow = o.mul(warp, c16);
  lRow = o.divu(lane, c4);
  Value r0a = o.add(v.m0, wgRow);
  Value r0b = o.add(r0a, wRow);
  row[0] = o.add(r0b, lRow);
  row[1] = o.add(row[0], c8);
  lq = o.remu(lane, c4);
  c2 = o.idx(2);
  Value lCol = o.mul(lq, c2);
  colBase = o.add(v.n0, lCol);
  if (p.batched && p.tmaStore && !p.multiBatch())
    bIdxI = o.toI32(v.bIdx);
  bIdxIs.assign(p.batchShape.size(), Value());
  for (size_t i = 0; p.multiBatch() && p.tmaStore && i < p.batchShape.size();
       ++i)
    if (int(i) != p.foldDim)
      bIdxIs[i] = o.toI32(v.bIdxs[i]);
}

/// Defines the edge values of tiles that reach past M or N (and, with
/// sizes known at run time only, the clamped load rows).
void TileEpilogue::emitEdges() {
  // Edge tiles: rows past M are clamped for loads (rowC) and not stored
  // (rowIn); columns likewise (emitColumnEdge).
  if (p.grouped()) {
    // A grouped product: the rows up to the end of the tile's group.
    rowIn[0] = o.cmp(arith::CmpIPredicate::ult, row[0], v.rowEnd);
    rowIn[1] = o.cmp(arith::CmpIPredicate::ult, row[1], v.rowEnd);
  } else if (p.ragged(/*alongM=*/true)) {
    Value cLastRow = o.idx(p.m - 1);
    Value cM = o.idx(p.m);
    rowC[0] = o.minu(row[0], cLastRow);
    rowC[1] = o.minu(row[1], cLastRow);
    rowIn[0] = o.cmp(arith::CmpIPredicate::ult, row[0], cM);
    rowIn[1] = o.cmp(arith::CmpIPredicate::ult, row[1], cM);
  }
  if (p.ragged(/*alongM=*/false)) {
    cLastPair = o.idx(p.n - 2);
    cLastCol = o.idx(p.n - 1);
    cN = o.idx(p.n);
  }
  // Sizes known at run time only: the operand loads are clamped to the last
  // row and column pair of the run-time sizes (N is even: TMA stores need
  // C's rows 16-byte multiples apart).
  if (p.dynamicShape && !p.epilogueOperands.empty()) {
    Value cLastRow = o.sub(v.sizeM, v.c1);
    rowC[0] = o.minu(row[0], cLastRow);
    rowC[1] = o.minu(row[1], cLastRow);
    cLastPair = o.sub(v.sizeN, c2);
  }
}

/// TMA-store epilogue of a tile: the warpgroup's two chunk buffers follow
/// the ring (the first at stB, a 32-bit shared address), and stT is the
/// thread's fixed part of its store addresses in it. A chunk is 64 rows x
/// 128 bytes, 128B-swizzled as the tensor map of C says: the 16-byte unit
/// u of row r lives at unit u ^ (r % 8). The thread's fragment rows are
/// r = 16 * warp + lane / 4 and r + 8, so r % 8 = lane / 4 for both; with
/// 16-bit C column group jj of the chunk is unit jj and the thread's pair
/// sits (lane % 4) * 4 bytes in; with f32 C group jj spans units 2jj and
/// 2jj + 1, the thread's pair in unit 2jj + (lane % 4) / 2 at
/// (lane % 4) % 2 * 8 bytes. Unit u ^ key is (16u) ^ (16 key) in bytes, so
/// each store adds (its constant unit offset) ^ stX, the buffer's offset
/// and 1 KiB for row r + 8 to stT.
void TileEpilogue::emitStoreSetup() {
  // Emitted per tile, after the fragment coordinates, which come from the
  // per-tile thread index. The buffer (8 KiB) and row-half (1 KiB) offsets
  // of a store are constants added last.
  epiLeader = o.cmp(arith::CmpIPredicate::eq, wtidE, v.c0);
  Value c1e = o.i32(1);
  epiBar = o.add(v.wg32, c1e);
  c128e = o.i32(128);
  Value ringAddr32 =
      arith::TruncIOp::create(o.b, o.loc, o.b.getI32Type(), v.ringAddr);
  Value storeBase = o.i32(p.stages * p.stageBytes());
  Value wgStore = o.i32(2 * kStoreChunkBytes);
  Value stR = o.add(ringAddr32, storeBase);
  Value stW = o.mul(v.wg32, wgStore);
  stB = o.add(stR, stW);
  c4e = o.i32(4);
  c16e = o.i32(16);
  c128eI = o.i32(128);
  Value eRowIdx = o.add(wRow, lRow);
  Value eRow = o.toI32(eRowIdx);
  Value eRowOff = o.mul(eRow, c128eI);
  Value eKey = o.toI32(lRow);
  Value eQ = o.toI32(lq);
  Value eIn;
  if (p.outType == "f32") {
    Value c1eI = o.i32(1);
    Value c8e = o.i32(8);
    Value eH = o.shru(eQ, c1eI);
    Value eKH = o.xori(eKey, eH);
    stX = o.mul(eKH, c16e);
    Value eQ1 = o.andi(eQ, c1eI);
    eIn = o.mul(eQ1, c8e);
  } else {
    stX = o.mul(eKey, c16e);
    eIn = o.mul(eQ, c4e);
  }
  Value eT = o.add(eRowOff, eIn);
  stT = o.add(stB, eT);
  if (p.transposedStore()) {
    // stmatrix.trans of two 8x8 blocks (kernel rows 16w..16w+7 and
    // 16w+8..16w+15 of column group j): lane L gives row L % 8 of block
    // (L / 8) % 2 in C's terms, the kernel's column 8 j + L % 8, whose 8
    // elements (kernel rows, C's columns) are 16-byte unit 2 w + block of
    // the chunk's 128-byte row, 128B-swizzled by the row: chunk row r,
    // unit u at r * 128 + (u ^ (r % 8)) * 16.
    Value c8t = o.idx(8);
    Value tLi = o.remu(lane, c8t);
    Value tLb0 = o.divu(lane, c8t);
    Value tLb = o.remu(tLb0, c2);
    Value tW2 = o.mul(warp, c2);
    Value tU0 = o.add(tW2, tLb);
    Value tU = o.xori(tU0, tLi);
    Value tUo = o.mul(tU, c16);
    Value c128t = o.idx(128);
    Value tRo = o.mul(tLi, c128t);
    Value tO = o.add(tRo, tUo);
    Value tOI = o.toI32(tO);
    stTr = o.add(stB, tOI);
  }
  if (p.tmaEpilogueOperand >= 0) {
    // The TMA-loaded epilogue operand: this item's number among the
    // block's.
    eeDone = o.sub(v.t, v.cid);
    eeItem = o.divu(eeDone, v.ncl);
    ee = emitOperandBase(o, p, v);
  }
}

/// Defines, where tiles reach past N, the clamped load column and whether
/// the pair is inside C (N is even, so a pair is wholly inside or outside).
void TileEpilogue::emitColumnEdge(int64_t j) {
  Column &c = cols[j];
  // Clamped load columns only where extra operands are loaded. Odd N: the
  // pair's elements are loaded and stored one at a time, each clamped to
  // (or masked at) the last column.
  const bool loads = !p.epilogueOperands.empty();
  if (loads && p.clampedLoads(/*alongM=*/false))
    c.clamped = o.minu(c.col, cLastPair);
  // Stores are masked only where tiles reach past N (with sizes known at
  // run time only, TMA stores clip them).
  const bool ragged = p.ragged(/*alongM=*/false);
  if (ragged)
    c.in = o.cmp(arith::CmpIPredicate::ult, c.col, cN);
  // (C stored [n][m] with transposed stores: its matrix operands are
  // still loaded one element at a time.)
  if (!(p.elementwiseC() || p.cColumnMajor) || (!ragged && !loads))
    return;
  c.next = o.add(c.col, v.c1);
  if (ragged)
    c.in1 = o.cmp(arith::CmpIPredicate::ult, c.next, cN);
  // The elements' load columns: clamped to the last column at the edge.
  if (loads && ragged) {
    c.elt[0] = o.minu(c.col, cLastCol);
    c.elt[1] = o.minu(c.next, cLastCol);
  } else if (loads) {
    c.elt[0] = o.add(c.col, v.c0);
    c.elt[1] = o.add(c.next, v.c0);
  }
}

/// Loads, once per tile, the column-vector operands at the thread's two
/// fragment rows.
void TileEpilogue::emitColumnOperandLoads() {
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    if (e.kind == "col")
      for (int r = 0; r < 2; ++r)
        colE[k][r] = o.load(v.E[k], ValueRange{loadRow(r)});
}

/// Defines %col<j> and loads the row-vector and matrix operands of fragment
/// column group j.
void TileEpilogue::emitFusedLoads(int64_t j) {
  Value cj = o.idx(8 * j);
  cols[j].col = o.add(colBase, cj);
  emitColumnEdge(j);
  for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
    if (op.kind != "row" && op.kind != "matrix")
      continue;
    // Read from the chunk buffer instead (emitOperandPair).
    if (int64_t(k) == p.tmaEpilogueOperand)
      continue;
    Type elt = scalarType(ctx, op.type);
    const bool matrix = op.kind == "matrix";
    // A row vector is the same for both halves (h = 0); a matrix operand
    // is loaded at each half's row, a batch's at the tile's matrix first.
    SmallVector<Value> prefix;
    if (matrix && p.batched && !p.multiBatch())
      prefix.push_back(v.bIdx);
    for (size_t i = 0; matrix && p.multiBatch() && i < p.batchShape.size(); ++i)
      prefix.push_back(v.bIdxs[i]);
    for (int h = 0; h < (matrix ? 2 : 1); ++h) {
      SmallVector<Value> at = prefix;
      if (matrix)
        at.push_back(loadRow(h));
      Pair &pair = loaded[{int64_t(k), j, h}];
      if (p.elementwiseC() || (p.cColumnMajor && matrix)) {
        // Pairs are not aligned (odd N), or not contiguous (a matrix
        // stored [n][m]): one element at a time.
        for (int x = 0; x < 2; ++x) {
          Value col = cols[j].elt[x];
          SmallVector<Value> idx;
          if (p.cColumnMajor && matrix) {
            idx.push_back(col);
            idx.append(at.begin(), at.end());
          } else {
            idx = at;
            idx.push_back(col);
          }
          pair.x[x] = o.load(v.E[k], idx);
        }
        continue;
      }
      // Matrices side by side in N: a row vector is indexed by the column
      // within the pair's matrix.
      Value col = loadCol(j);
      if (!matrix && p.foldsN()) {
        Value cFold = o.idx(p.foldN);
        col = o.remu(col, cFold);
      }
      at.push_back(col);
      pair.vec = o.vectorLoad(o.vec2Type(elt), v.E[k], at);
      for (int x = 0; x < 2; ++x)
        pair.x[x] = o.extract(pair.vec, x);
    }
  }
}

/// Emits the fused epilogue of the element pair of fragment column group j
/// in the rows of half h (0: "ab", 1: "cd"), whose f32 values are e[2h]
/// and e[2h + 1]; returns the pair's result, a vector<2 x outType>. The row
/// and matrix operands were loaded ahead by emitFusedLoads.
/// A dual GEMM's second product P2 as the epilogue reads it: the pair
/// (a, c) of f32 sums rounded to the matmul type, as the elements and as a
/// vector (`pair`), in one packed cvt (see emitFusedPair).
std::array<Value, 2> TileEpilogue::roundPair(Value a, Value c, Value &pair) {
  if (p.matmulType == "f32") {
    pair = vector::FromElementsOp::create(
        o.b, o.loc, o.vec2Type(o.b.getF32Type()), ValueRange{a, c});
    return {a, c};
  }
  Type mt = scalarType(ctx, p.matmulType);
  Value packed = o.asmOp(o.b.getI32Type(), {c, a},
                         ("cvt.rn." + p.matmulType + "x2.f32 $0, $1, $2;"),
                         "=r,f,f", /*sideEffects=*/false);
  pair = o.bitcast(o.vec2Type(mt), packed);
  return {o.extract(pair, 0), o.extract(pair, 1)};
}

Value TileEpilogue::emitFusedPair(int64_t j, int h, ArrayRef<Value> e,
                                  ArrayRef<Value> e2) {
  Type mt = scalarType(ctx, p.matmulType);
  // One element of each extra operand for each of the two columns.
  SmallVector<std::array<Value, 2>> ext;
  for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
    if (op.kind == "scalar")
      ext.push_back({v.sclE[k], v.sclE[k]});
    else if (op.kind == "col")
      ext.push_back({colE[k][h], colE[k][h]});
    else
      ext.push_back(loaded[{int64_t(k), j, op.kind == "row" ? 0 : h}].x);
  }
  // A dual GEMM: P2's pair is the last operand (EpilogueInfo::operands).
  Value productPair;
  if (p.dual)
    ext.push_back(roundPair(e2[2 * h], e2[2 * h + 1], productPair));
  Value a = e[2 * h], c = e[2 * h + 1];
  // Rounding to a 16-bit matmul type converts the pair at once, in one
  // packed cvt.rn.f16x2.f32: ptxas serializes the wgmma chain (C7514) when
  // scalar cvt.rn.f16.f32 read the accumulator registers, and LLVM splits
  // a vector truncf into those.
  // The exception is a swapped kernel with M = 1 (singleCColumn): there
  // the packed cvt serialized the chain, and plain truncf does not.
  std::array<Value, 2> rounded;
  Value pairR;
  if (p.matmulType != "f32" && singleCColumn(p)) {
    rounded[0] = arith::TruncFOp::create(o.b, o.loc, mt, a);
    rounded[1] = arith::TruncFOp::create(o.b, o.loc, mt, c);
  } else if (p.matmulType != "f32") {
    Value packed = o.asmOp(o.b.getI32Type(), {c, a},
                           ("cvt.rn." + p.matmulType + "x2.f32 $0, $1, $2;"),
                           "=r,f,f", /*sideEffects=*/false);
    pairR = o.bitcast(o.vec2Type(mt), packed);
    // The elements, for the epilogue computed element by element.
    if (!p.epilogueInHalf) {
      rounded[0] = o.extract(pairR, 0);
      rounded[1] = o.extract(pairR, 1);
    }
  }
  if (p.epilogueInHalf) {
    // The pair at once: the rounded accumulators as a vector, each operand's
    // pair (row and matrix operands are loaded as pairs; a column or scalar
    // element is the same for both).
    SmallVector<Value> args = {pairR};
    for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
      if (op.kind == "row" || op.kind == "matrix")
        args.push_back(loaded[{int64_t(k), j, op.kind == "row" ? 0 : h}].vec);
      else
        args.push_back(vector::BroadcastOp::create(
            o.b, o.loc, o.vec2Type(scalarType(ctx, op.type)), ext[k][0]));
    }
    if (p.dual)
      args.push_back(productPair);
    return func::CallOp::create(o.b, o.loc, kEpilogueFuncName,
                                TypeRange{o.vec2Type(outType)}, args)
        .getResult(0);
  }
  // With a single column of C (singleCColumn) the pair's second element
  // lies past C and is never stored: the epilogue computes the first only
  // (with GELU's tanh on both, ptxas serialized the wgmma chain, C7514).
  const int computed = singleCColumn(p) ? 1 : 2;
  std::array<Value, 2> results;
  for (int x = 0; x < computed; ++x) {
    SmallVector<Value> args = {p.matmulType != "f32" ? rounded[x]
                                                     : (x ? c : a)};
    for (const std::array<Value, 2> &operand : ext)
      args.push_back(operand[x]);
    results[x] = func::CallOp::create(o.b, o.loc, kEpilogueFuncName,
                                      TypeRange{outType}, args)
                     .getResult(0);
  }
  if (computed == 1)
    results[1] = results[0];
  return vector::FromElementsOp::create(o.b, o.loc, o.vec2Type(outType),
                                        ValueRange{results[0], results[1]});
}

/// Before chunk c's shared stores: its buffer (c % 2) is free once the TMA
/// store that last read it has read it. Within a tile that is the store
/// before the previous one (at most one in flight); the first chunk of a
/// tile waits for all, as the last tile's final chunk may have used the
/// same buffer. Every thread waits on and commits its own bulk groups; only
/// the first thread has any (its TMA stores are predicated, not branched:
/// with branches around them ptxas spilled 72 bytes when A is MN-major).
void TileEpilogue::emitStoreChunkBegin(int64_t c) {
  // Staged stores: the barrier alone frees the buffer (every thread has
  // read it out in program order before it arrives).
  // With an epilogue operand loaded through the buffers, chunk c loads
  // chunk c + 1 into the buffer chunk c - 1 was stored from: wait for
  // every store (emitOperandLoad).
  if (p.tmaStore)
    NVVM::CpAsyncBulkWaitGroupOp::create(
        o.b, o.loc, c == 0 || p.tmaEpilogueOperand >= 0 ? 0 : 1,
        o.b.getUnitAttr());
  o.barrier(epiBar, c128e);
}

/// Staged stores of chunk c (64 rows x 128 bytes of C, 128B-swizzled like
/// a TMA store's): once the warpgroup has written it, warp w reads rows w,
/// w + 4, ... and lane l the columns l (f32) or l and l + 32 (16-bit) of
/// each, so that one store instruction writes 128 contiguous bytes of a row
/// of C; elements past M or N are not stored.
void TileEpilogue::emitStagedChunkStore(int64_t c, int64_t col) {
  const int64_t eb = p.outType == "f32" ? 4 : 2;
  const int64_t perLane = p.storeChunkCols() / 32;
  o.barrier(epiBar, c128e);
  Value sgc = o.idx(col);
  Value sgn = o.add(v.n0, sgc);
  Value sgBuf = o.i32(c % 2 * kStoreChunkBytes);
  Value sgB = o.add(stB, sgBuf);
  Value sgM = o.idx(p.m);
  Value sgN = o.idx(p.n);
  Value sg16 = o.idx(16);
  Value sg1 = o.idx(1);
  Value sg0 = o.idx(0);
  auto loop = scf::ForOp::create(o.b, o.loc, sg0, sg16, sg1);
  OpBuilder::InsertionGuard guard(o.b);
  o.b.setInsertionPoint(loop.getBody()->getTerminator());
  Value sgr4 = o.mul(loop.getInductionVar(), c4);
  Value sgr = o.add(sgr4, warp);
  Value sgrI = o.toI32(sgr);
  Value sg7 = o.i32(7);
  Value sgKey = o.andi(sgrI, sg7);
  Value sgRowB = o.mul(sgrI, c128eI);
  Value sgRowA = o.add(sgB, sgRowB);
  Value sgGr0 = o.add(v.m0, wgRow);
  Value sgGr = o.add(sgGr0, sgr);
  Value sgRin = o.cmp(arith::CmpIPredicate::ult, sgGr, sgM);
  for (int64_t x = 0; x < perLane; ++x) {
    Value sgx = o.idx(32 * x);
    Value sgCol = o.add(lane, sgx);
    Value sgColI = o.toI32(sgCol);
    Value sgEb = o.i32(eb);
    Value sgByte = o.mul(sgColI, sgEb);
    Value sgUnit = o.shru(sgByte, c4e);
    Value sg15 = o.i32(15);
    Value sgIn = o.andi(sgByte, sg15);
    Value sgSw = o.xori(sgUnit, sgKey);
    Value sgSwB = o.mul(sgSw, c16e);
    Value sgO = o.add(sgSwB, sgIn);
    Value sgA = o.add(sgRowA, sgO);
    Value sgP = o.toPtr3(sgA);
    Value sgV = LLVM::LoadOp::create(o.b, o.loc, outType, sgP);
    Value sgGc = o.add(sgn, sgCol);
    Value sgCin = o.cmp(arith::CmpIPredicate::ult, sgGc, sgN);
    Value sgIn2 = o.andi(sgRin, sgCin);
    auto ifOp = scf::IfOp::create(o.b, o.loc, sgIn2, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inner(o.b);
    o.b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    o.store(sgV, v.C, cIndices(sgGr, sgGc));
  }
}

/// After chunk c's shared stores: make them visible to the async proxy,
/// wait for the warpgroup, and let its first thread issue the TMA store of
/// the chunk (a predicated store; every thread commits): columns n0 + col,
/// the warpgroup's 64 rows.
void TileEpilogue::emitStoreChunkEnd(int64_t c, int64_t col) {
  if (p.stagedStore) {
    emitStagedChunkStore(c, col);
    return;
  }
  NVVM::FenceProxyOp::create(
      o.b, o.loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  o.barrier(epiBar, c128e);
  Value ecOff = o.idx(col);
  Value ecx = o.add(v.n0, ecOff);
  Value ecxI = o.toI32(ecx);
  Value ecy = o.add(v.m0, wgRow);
  Value ecyI = o.toI32(ecy);
  Value ecb = o.i32(c % 2 * kStoreChunkBytes);
  Value eca = o.add(stB, ecb);
  Value ecp = o.toPtr3(eca);
  // The coordinates, innermost first: with several batch dimensions as C's
  // tensor map orders them (and with N spanning matrices side by side, the
  // chunk's matrix and its column within it); transposed (a swapped
  // kernel), C's rows are the kernel's columns.
  SmallVector<Value> coords;
  if (p.foldsN() || p.multiBatch()) {
    Value inner = ecxI, fold;
    if (p.foldsN()) {
      Value ecFold = o.i32(p.foldN);
      inner = o.remu(ecxI, ecFold);
      fold = o.divu(ecxI, ecFold);
    }
    for (int d : p.cMapDims)
      coords.push_back(d == KernelParams::kMapInner       ? inner
                       : d == KernelParams::kMapOuter     ? ecyI
                       : d == KernelParams::kMapBroadcast ? v.c0
                       : p.foldsN() && d == p.foldDim     ? fold
                                                          : bIdxIs[d]);
  } else if (p.transposedStore()) {
    coords = {ecyI, ecxI};
  } else if (!p.batched) {
    coords = {ecxI, ecyI};
  } else if (p.cBatchMiddle) {
    coords = {ecxI, bIdxI, ecyI};
  } else {
    coords = {ecxI, ecyI, bIdxI};
  }
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
      o.b, o.loc, v.tmapC, ecp, coords, /*l2CacheHint=*/Value(),
      NVVM::TMAStoreMode::TILE, epiLeader);
  NVVM::CpAsyncBulkCommitGroupOp::create(o.b, o.loc);
}

/// The shared address, in chunk c's buffer, of this thread's pair in the
/// rows of half h of column group jj of the chunk (a !llvm.ptr<3>). See
/// emitStoreSetup for the swizzle.
Value TileEpilogue::emitChunkPairAddress(int h, int64_t c, int64_t jj) {
  const int64_t unitBytes = p.outType == "f32" ? 32 : 16;
  // Buffer c % 2, and row r + 8 for "cd": constant offsets.
  const int64_t fixed = c % 2 * kStoreChunkBytes + (h == 0 ? 0 : 8 * 128);
  Value sk = o.i32(jj * unitBytes);
  Value sx = o.xori(stX, sk);
  Value sf = o.i32(fixed);
  Value sy = o.add(sx, sf);
  Value sa = o.add(stT, sy);
  return o.toPtr3(sa);
}

/// At the start of chunk c, once the buffers are free (emitStoreChunkBegin
/// waits for every TMA store to have read its buffer when an operand is
/// loaded this way): chunk 0 issues the loads of chunks 0 and 1, chunk c
/// that of chunk c + 1 (into the buffer chunk c - 1 was stored from), so
/// each load overlaps the chunk before it; then every thread waits for
/// chunk c's. The wait's phase is the buffer's use count: the block's items
/// so far times the buffer's uses per item, plus c / 2.
void TileEpilogue::emitOperandLoad(int64_t c) {
  const int64_t chunks = p.outBlockN() / p.storeChunkCols();
  const int64_t usesPerItem = (chunks + 1 - c % 2) / 2;
  // Chunks 0 and 1: issued before the main loop on the block's first item
  // (emitEpilogueOperandPrefetch), here on later ones.
  if (c == 0) {
    Value later = o.cmp(arith::CmpIPredicate::uge, eeDone, v.ncl);
    eeLead01 = o.andi(epiLeader, later);
    emitOperandIssue(o, p, v, ee, 0, eeLead01);
  }
  if (c + 1 < chunks)
    emitOperandIssue(o, p, v, ee, c + 1, c == 0 ? eeLead01 : epiLeader);
  Value buf = o.idx(c % 2);
  Value bar = o.add(ee.bar0, buf);
  Value uses = o.idx(usesPerItem);
  Value u0 = o.mul(eeItem, uses);
  Value half = o.idx(c / 2);
  Value u = o.add(u0, half);
  Value ur = o.remu(u, ee.c2);
  Value parity = o.indexCast(o.b.getI1Type(), ur);
  nvgpu::MBarrierTryWaitParityOp::create(o.b, o.loc, v.eBar, parity, v.ticks,
                                         bar);
}

/// Reads this thread's pair of the TMA-loaded epilogue operand k for
/// fragment column group j (group jj of chunk c) in the rows of half h
/// from the chunk buffer, as emitFusedPair takes it.
void TileEpilogue::emitOperandPair(int64_t k, int64_t j, int h, int64_t c,
                                   int64_t jj) {
  Value sp = emitChunkPairAddress(h, c, jj);
  Pair &pair = loaded[{k, j, h}];
  if (p.outType == "f32") {
    pair.vec = LLVM::LoadOp::create(o.b, o.loc, o.vec2Type(outType), sp,
                                    /*alignment=*/8);
  } else {
    Value word = LLVM::LoadOp::create(o.b, o.loc, o.b.getI32Type(), sp,
                                      /*alignment=*/4);
    pair.vec = o.bitcast(o.vec2Type(outType), word);
  }
  for (int x = 0; x < 2; ++x)
    pair.x[x] = o.extract(pair.vec, x);
}

/// Stores the pair `value` (a vector<2 x outType>) of fragment column group
/// j in the rows of half h: straight to C, or into the swizzled buffer of
/// chunk c, where it is column group jj.
void TileEpilogue::emitPairStore(Value value, int h, int64_t j, int64_t c,
                                 int64_t jj) {
  if (!p.chunkedStore()) {
    // Pairs outside C (edge tiles) are not stored.
    const bool raggedM = p.ragged(/*alongM=*/true), raggedN = p.ragged(false);
    const Column &col = cols[j];
    Value both;
    if (raggedM && raggedN)
      both = o.andi(rowIn[h], col.in);
    auto guarded = [&](Value in, function_ref<void()> body) {
      if (!in)
        return body();
      auto ifOp = scf::IfOp::create(o.b, o.loc, in, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(o.b);
      o.b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      body();
    };
    if (p.elementwiseC()) {
      // Pairs are not aligned (odd N) or not contiguous (C stored [n][m]):
      // each element is stored on its own, if it is inside C.
      for (int x = 0; x < 2; ++x) {
        // The element's mask: its column (where tiles reach past N) and
        // its row (past M); none inside whole tiles.
        Value in = raggedN ? (x ? col.in1 : col.in) : Value();
        if (raggedM && raggedN)
          in = o.andi(rowIn[h], in);
        else if (raggedM)
          in = rowIn[h];
        guarded(in, [&] {
          Value elt = o.extract(value, x);
          Value at = o.add(col.col, x ? v.c1 : v.c0);
          o.store(elt, v.C, cIndices(row[h], at));
        });
      }
      return;
    }
    Value in = raggedM && raggedN ? both : raggedM ? rowIn[h] : col.in;
    guarded(raggedM || raggedN ? in : Value(),
            [&] { o.vectorStore(value, v.C, cIndices(row[h], col.col)); });
    return;
  }
  // Transposed: emitTransposedStore writes both halves of the group.
  if (p.transposedStore())
    return;
  Value sp = emitChunkPairAddress(h, c, jj);
  if (p.outType == "f32") {
    LLVM::StoreOp::create(o.b, o.loc, value, sp, /*alignment=*/8);
    return;
  }
  Value word = o.bitcast(o.b.getI32Type(), value);
  LLVM::StoreOp::create(o.b, o.loc, word, sp, /*alignment=*/4);
}

/// A swapped kernel's TMA-store chunk (transposedStore): a column group's
/// two 8x8 blocks of 16-bit pairs `ab` and `cd` (group jj of chunk c),
/// stored transposed into C's rows 8 jj .. 8 jj + 7 of the chunk's buffer
/// at the lane addresses of emitStoreSetup.
void TileEpilogue::emitTransposedStore(Value ab, Value cd, int64_t c,
                                       int64_t jj) {
  Value tsa = o.bitcast(o.b.getI32Type(), ab);
  Value tsc = o.bitcast(o.b.getI32Type(), cd);
  Value tsk = o.i32(c % 2 * kStoreChunkBytes + jj * 8 * 128);
  Value tsx = o.add(stTr, tsk);
  Value tsp = o.toPtr3(tsx);
  NVVM::StMatrixOp::create(
      o.b, o.loc, tsp, ValueRange{tsa, tsc}, NVVM::MMALayout::col,
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
}

/// Stream-K: the sums of the partial slots (cLow ..< bid) for the
/// accumulator quads [first, first + count) (a zero-trip loop unless this
/// block finishes a split tile); result i is quad first + i. One pointer
/// walks the slots, and the quads are constant offsets from it.
SmallVector<Value> TileEpilogue::emitPartialSums(int64_t first, int64_t count) {
  SmallVector<Value> inits(count, v.zero4);
  inits.push_back(v.sumBase);
  auto loop = scf::ForOp::create(
      o.b, o.loc, v.cLow, v.bid, v.c1, inits,
      [&](OpBuilder &b, Location loc, Value, ValueRange args) {
        auto ptr1 = LLVM::LLVMPointerType::get(ctx, 1);
        Value pp = args.back();
        SmallVector<Value> parts;
        for (int64_t i = 0; i < count; ++i) {
          Value rp = LLVM::GEPOp::create(
              b, loc, ptr1, b.getI8Type(), pp,
              ArrayRef<LLVM::GEPArg>{int32_t((first + i) * 2048)});
          parts.push_back(LLVM::LoadOp::create(
              b, loc, VectorType::get({4}, b.getF32Type()), rp,
              /*alignment=*/16));
        }
        SmallVector<Value> next;
        for (int64_t i = 0; i < count; ++i)
          next.push_back(arith::AddFOp::create(b, loc, args[i], parts[i]));
        next.push_back(LLVM::GEPOp::create(b, loc, ptr1, b.getI8Type(), pp,
                                           ValueRange{v.cSlotStride}));
        scf::YieldOp::create(b, loc, next);
      });
  return SmallVector<Value>(loop.getResults());
}

/// Emits the whole epilogue of the row block: coordinates, edges, store
/// setup, then column group by column group the accumulators (pinned,
/// stream-K sums added), the fused epilogue or the rounding, and the
/// stores, chunk by chunk.
void TileEpilogue::emit(Value acc, Value wgIndex) {
  emitCoordinates(wgIndex);
  emitEdges();
  if (p.chunkedStore())
    emitStoreSetup();
  emitColumnOperandLoads();
  // Column group j goes out in whole chunk j / groupsPerChunk; where the
  // block width is not a multiple of the chunk, the groups of the last,
  // overlapping chunk (storeChunks) are stored into it once all are
  // computed, from the values kept in `stored`.
  const int64_t groups = p.outBlockN() / 8;
  const int64_t groupsPerChunk = p.storeChunkCols() / 8;
  const std::vector<int64_t> chunks = p.storeChunks();
  const int64_t wholeChunks = p.outBlockN() / p.storeChunkCols();
  std::vector<std::array<Value, 2>> stored(groups);
  auto inWholeChunk = [&](int64_t j) {
    return !p.chunkedStore() || j / groupsPerChunk < wholeChunks;
  };
  SmallVector<Value> sums;
  for (int64_t j = 0; j < groups; ++j) {
    const int64_t c = j / groupsPerChunk, jj = j % groupsPerChunk;
    if (p.chunkedStore() && jj == 0 && inWholeChunk(j)) {
      emitStoreChunkBegin(c);
      if (p.tmaEpilogueOperand >= 0)
        emitOperandLoad(c);
    }
    if (p.fusedEpilogue && j % kEpilogueLoadGroup == 0)
      for (int64_t g = j; g < std::min(j + kEpilogueLoadGroup, groups); ++g)
        emitFusedLoads(g);
    if (!p.fusedEpilogue) {
      Value cj = o.idx(8 * j);
      cols[j].col = o.add(colBase, cj);
      emitColumnEdge(j);
    }
    SmallVector<Value> e, e2;
    for (int64_t x = 0; x < 4; ++x)
      e.push_back(LLVM::ExtractValueOp::create(o.b, o.loc, acc,
                                               ArrayRef<int64_t>{4 * j + x}));
    // A dual GEMM: P2's same columns, `groups` column groups on.
    for (int64_t x = 0; x < 4 && p.dual; ++x)
      e2.push_back(LLVM::ExtractValueOp::create(
          o.b, o.loc, acc, ArrayRef<int64_t>{4 * (j + groups) + x}));
    // A fused epilogue computes on the accumulators; LLVM sees nothing tie
    // them to the wgmma wait and may hoist that arithmetic above it, which
    // makes ptxas serialize the wgmma chain (C7514). An empty volatile asm
    // per register (CUTLASS's warpgroup_fence_operand) pins each value
    // after the wait. The same with odd N, whose element stores sit in
    // branches.
    if (pinAccumulators(p))
      for (SmallVector<Value> *values : {&e, &e2})
        for (Value &x : *values)
          x = o.asmOp(o.b.getF32Type(), {x}, "", "=f,0",
                      /*sideEffects=*/true);
    if (p.streamK) {
      // Quad j of the accumulators is the fragment's column group j.
      if (j % kPartialGroup == 0)
        sums = emitPartialSums(j, std::min<int64_t>(kPartialGroup, groups - j));
      for (Value &x : e) {
        Value part = o.extract(sums[j % kPartialGroup], &x - e.data());
        x = arith::AddFOp::create(o.b, o.loc, x, part);
      }
    }
    for (int h = 0; h < 2; ++h) {
      if (p.fusedEpilogue) {
        if (p.tmaEpilogueOperand >= 0)
          emitOperandPair(p.tmaEpilogueOperand, j, h, c, jj);
        stored[j][h] = emitFusedPair(j, h, e, e2);
        if (inWholeChunk(j))
          emitPairStore(stored[j][h], h, j, c, jj);
        continue;
      }
      Value out = vector::FromElementsOp::create(
          o.b, o.loc, o.vec2Type(o.b.getF32Type()),
          ValueRange{e[2 * h], e[2 * h + 1]});
      if (p.outType != "f32" && pinAccumulators(p) && !singleCColumn(p)) {
        // Pinned accumulators: one packed cvt per pair, as in the fused
        // epilogue (scalar cvt.rn.f16.f32 serialize the wgmma chain).
        Value packed =
            o.asmOp(o.b.getI32Type(), {e[2 * h + 1], e[2 * h]},
                    "cvt.rn." + p.outType + "x2.f32 $0, $1, $2;", "=r,f,f",
                    /*sideEffects=*/false);
        out = o.bitcast(o.vec2Type(outType), packed);
      } else if (p.outType != "f32") {
        out = arith::TruncFOp::create(o.b, o.loc, o.vec2Type(outType), out);
      }
      stored[j][h] = out;
      if (inWholeChunk(j))
        emitPairStore(out, h, j, c, jj);
    }
    if (p.transposedStore() && inWholeChunk(j))
      emitTransposedStore(stored[j][0], stored[j][1], c, jj);
    if (p.chunkedStore() && jj + 1 == groupsPerChunk && inWholeChunk(j))
      emitStoreChunkEnd(c, c * p.storeChunkCols());
  }
  if (p.chunkedStore() && int64_t(chunks.size()) > wholeChunks) {
    const int64_t c = wholeChunks, first = chunks.back() / 8;
    emitStoreChunkBegin(c);
    for (int64_t j = first; j < groups && p.transposedStore(); ++j)
      emitTransposedStore(stored[j][0], stored[j][1], c, j - first);
    for (int64_t j = first; j < groups; ++j)
      for (int h = 0; h < 2; ++h)
        emitPairStore(stored[j][h], h, j, c, j - first);
    emitStoreChunkEnd(c, chunks.back());
  }
}

} // namespace

void mlir::tcgen::sm90::emitTileEpilogue(OpBuilder &b, Location loc,
                                         const KernelParams &p,
                                         const EpilogueValues &v, Value acc,
                                         Value wgIndex) {
  TileEpilogue(b, loc, p, v).emit(acc, wgIndex);
}
