//===- Packs.cpp - The sm90 pack kernels, typed -----------------*- C++ -*-===//
//
// This file implements the sm90 pack kernels with typed op builders: the
// copy of a 16-bit operand into rows 128-byte multiples apart (16-byte
// chunks, loaded in the widest pieces the source rows' alignment allows,
// optionally through the fused prologue), and the transposing copy of a
// 32-bit operand through 32 x 32 shared-memory tiles.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Packs.h"

#include "tcgen/Transforms/GridStride.h"

#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcgen;
using namespace mlir::tcgen::sm90;

namespace {

/// Index arithmetic and global-pointer helpers of the pack kernels.
struct PackEmitter : Emitter {
  Type global; ///< !llvm.ptr<1>

  PackEmitter(OpBuilder &b, Location loc, Type global)
      : Emitter(b, loc), global(global) {}

  Value toI64(Value x) { return indexCast(i64Type(), x); }
  /// Element `index` (i64) of type `t` from `base`.
  Value gep(Value base, Value index, Type t) {
    return LLVM::GEPOp::create(b, loc, global, t, base, ValueRange{index});
  }
};

/// The kernel's signature: (%src, %dst: !llvm.ptr), 256 threads.
gpu::GPUFuncOp createPackKernel(OpBuilder &b, Location loc,
                                const PackParams &pack) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto func = gpu::GPUFuncOp::create(b, loc, pack.name,
                                     b.getFunctionType({ptr, ptr}, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr("nvvm.maxntid",
                b.getDenseI32ArrayAttr({int32_t(PackParams::kThreads), 1, 1}));
  return func;
}

/// The transposing pack of 32-bit elements through shared memory: the
/// blocks stride over 32 x 32 tiles of the source; 256 threads (8 warps)
/// load a tile row-wise (coalesced), meet, and store its transpose
/// row-wise. The tile has 33 columns so that the column reads hit 32
/// banks. Source elements past the edge are clamped to the last row or
/// column; copy rows past the source's columns are not stored, copy
/// columns past its rows land in the padding, which TMA never reads.
gpu::GPUFuncOp buildTransposePackFunc(OpBuilder &b, Location loc,
                                      const PackParams &pack) {
  MLIRContext *ctx = b.getContext();
  Type t = scalarType(b.getContext(), pack.type);
  auto tileType = MemRefType::get({32, 33}, t, AffineMap(),
                                  IntegerAttr::get(b.getI64Type(), 3));
  std::string tileName = pack.name + "_tile";
  memref::GlobalOp::create(b, loc, tileName, b.getStringAttr("private"),
                           tileType, Attribute(), /*constant=*/false,
                           IntegerAttr());
  gpu::GPUFuncOp func = createPackKernel(b, loc, pack);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.front());
  PackEmitter e{b, loc, LLVM::LLVMPointerType::get(ctx, 1)};
  Value tile = memref::GetGlobalOp::create(b, loc, tileType, tileName);
  Value srcG =
      LLVM::AddrSpaceCastOp::create(b, loc, e.global, func.getArgument(0));
  Value dstG =
      LLVM::AddrSpaceCastOp::create(b, loc, e.global, func.getArgument(1));
  Value cTilesN = e.idx(ceilDiv(pack.cols, 32));
  Value cTiles = e.idx(ceilDiv(pack.rows, 32) * ceilDiv(pack.cols, 32));
  Value cSrcStride = e.idx(pack.srcStride);
  Value cDstStride = e.idx(pack.dstStride);
  Value cLastRow = e.idx(pack.rows - 1);
  Value cLastCol = e.idx(pack.cols - 1);
  Value cCols = e.idx(pack.cols);
  Value c32 = e.idx(32);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value nb = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value tx = arith::RemUIOp::create(b, loc, tid, c32);
  Value ty = arith::DivUIOp::create(b, loc, tid, c32);
  scf::ForOp::create(
      b, loc, bid, cTiles, nb, ValueRange(),
      [&](OpBuilder &, Location, Value tIdx, ValueRange) {
        Value tk = arith::DivUIOp::create(b, loc, tIdx, cTilesN);
        Value tn = arith::RemUIOp::create(b, loc, tIdx, cTilesN);
        Value k0 = e.mul(tk, c32);
        Value n0 = e.mul(tn, c32);
        Value nL = e.add(n0, tx);
        Value nC = arith::MinUIOp::create(b, loc, nL, cLastCol);
        for (int64_t j = 0; j < 4; ++j) {
          Value lr = e.add(ty, e.idx(8 * j));
          Value lk = arith::MinUIOp::create(b, loc, e.add(k0, lr), cLastRow);
          Value lo = e.add(e.mul(lk, cSrcStride), nC);
          Value lp = e.gep(srcG, e.toI64(lo), t);
          Value lv = LLVM::LoadOp::create(b, loc, t, lp, /*alignment=*/4);
          // No nontemporal attribute (the convenience builders set one).
          memref::StoreOp::create(b, loc, lv, tile, ValueRange{lr, tx},
                                  BoolAttr(), IntegerAttr());
        }
        gpu::BarrierOp::create(b, loc);
        Value kS = e.add(k0, tx);
        for (int64_t j = 0; j < 4; ++j) {
          Value sr = e.add(ty, e.idx(8 * j));
          Value sn = e.add(n0, sr);
          Value inside = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, sn, cCols);
          auto ifOp = scf::IfOp::create(b, loc, inside,
                                        /*withElseRegion=*/false);
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
          Value sv = memref::LoadOp::create(b, loc, tile, ValueRange{tx, sr},
                                            BoolAttr(), IntegerAttr());
          Value so = e.add(e.mul(sn, cDstStride), kS);
          Value sp = e.gep(dstG, e.toI64(so), t);
          LLVM::StoreOp::create(b, loc, sv, sp, /*alignment=*/4);
        }
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc);
      });
  gpu::ReturnOp::create(b, loc);
  return func;
}

/// The fast load of a chunk whose source rows are only 2- or 4-byte
/// aligned: the three aligned 8-byte words around it, funnel-shifted into
/// place.
Value buildShiftedChunkLoad(PackEmitter &e, Value srcG, Value srcRow, Value c,
                            Type t) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type i64 = b.getI64Type();
  Value fp = e.gep(srcG, e.toI64(e.add(srcRow, c)), t);
  Value fa = LLVM::PtrToIntOp::create(b, loc, i64, fp);
  Value c7i = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(7));
  Value c8i = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(8));
  Value misalign = arith::AndIOp::create(b, loc, fa, c7i);
  Value fa0 = arith::SubIOp::create(b, loc, fa, misalign);
  Value shift = arith::MulIOp::create(b, loc, misalign, c8i);
  Value fp0 = LLVM::IntToPtrOp::create(b, loc, e.global, fa0);
  Value fp1 = LLVM::GEPOp::create(b, loc, e.global, i64, fp0,
                                  ArrayRef<LLVM::GEPArg>{1});
  Value fp2 = LLVM::GEPOp::create(b, loc, e.global, i64, fp0,
                                  ArrayRef<LLVM::GEPArg>{2});
  Value w0 = LLVM::LoadOp::create(b, loc, i64, fp0, /*alignment=*/8);
  Value w1 = LLVM::LoadOp::create(b, loc, i64, fp1, /*alignment=*/8);
  Value w2 = LLVM::LoadOp::create(b, loc, i64, fp2, /*alignment=*/8);
  Value o0 = LLVM::FshrOp::create(b, loc, i64, w1, w0, shift);
  Value o1 = LLVM::FshrOp::create(b, loc, i64, w2, w1, shift);
  Value words = vector::FromElementsOp::create(
      b, loc, VectorType::get({2}, i64), ValueRange{o0, o1});
  return LLVM::BitcastOp::create(b, loc, VectorType::get({8}, t), words);
}

/// The chunk at column `c` of the row at `srcRow` in `pieces` loads of
/// `pieceElems` elements, each clamped to the row's last piece.
Value buildPieceChunkLoad(PackEmitter &e, Value srcG, Value srcRow, Value c,
                          Value cLastPiece, Type t, int64_t pieces,
                          int64_t pieceElems) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  SmallVector<Value> elems;
  for (int64_t x = 0; x < pieces; ++x) {
    Value colU = e.add(c, e.idx(x * pieceElems));
    Value col = arith::MinUIOp::create(b, loc, colU, cLastPiece);
    Value p = e.gep(srcG, e.toI64(e.add(srcRow, col)), t);
    Value v = LLVM::LoadOp::create(b, loc, VectorType::get({pieceElems}, t), p,
                                   /*alignment=*/pieceElems * 2);
    for (int64_t i = 0; i < pieceElems; ++i)
      elems.push_back(vector::ExtractOp::create(b, loc, v, i));
  }
  return vector::FromElementsOp::create(b, loc, VectorType::get({8}, t), elems);
}

} // namespace

gpu::GPUFuncOp mlir::tcgen::sm90::buildPackFunc(OpBuilder &b, Location loc,
                                                const PackParams &pack) {
  if (pack.transpose)
    return buildTransposePackFunc(b, loc, pack);
  // Each thread copies chunks of 8 elements (16 bytes) of a row and stores
  // each with one 16-byte store (the copy's rows are 128-byte multiples).
  // Where the source rows are 8- or 16-byte aligned it loads the chunk in
  // such pieces; otherwise it funnel-shifts aligned words into place
  // (buildShiftedChunkLoad), except in the last chunks of a row, where
  // those words would reach past the row: they load element pieces. In the
  // last chunk of a row the pieces past the end re-read the row's last
  // piece; they land in the copy's padding, which TMA never reads.
  const int64_t elementBytes = 2;
  int64_t pieceBytes = 16;
  while ((pack.srcStride * elementBytes) % pieceBytes != 0)
    pieceBytes /= 2;
  const bool shifted = pieceBytes < 8;
  const int64_t pieceElems = pieceBytes / elementBytes;
  const int64_t pieces = 8 / pieceElems;
  Type t = scalarType(b.getContext(), pack.type);
  gpu::GPUFuncOp func = createPackKernel(b, loc, pack);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.front());
  PackEmitter e{b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1)};
  Value srcG =
      LLVM::AddrSpaceCastOp::create(b, loc, e.global, func.getArgument(0));
  Value dstG =
      LLVM::AddrSpaceCastOp::create(b, loc, e.global, func.getArgument(1));
  Value cThreads = e.idx(PackParams::kThreads);
  Value cPerRow = e.idx(pack.chunksPerRow());
  Value cTotal = e.idx(pack.rows * pack.chunksPerRow());
  Value cSrcStride = e.idx(pack.srcStride);
  Value cDstStride = e.idx(pack.dstStride);
  Value cLastPiece = e.idx(pack.cols - pieceElems);
  Value cCols = e.idx(pack.cols);
  Value c8 = e.idx(8);
  Value c12 = e.idx(12);
  GridStrideIndices grid = buildGridStrideIndices(b, loc, cThreads);
  scf::ForOp::create(
      b, loc, grid.first, cTotal, grid.step, ValueRange(),
      [&](OpBuilder &, Location, Value i, ValueRange) {
        Value r = arith::DivUIOp::create(b, loc, i, cPerRow);
        Value q = arith::RemUIOp::create(b, loc, i, cPerRow);
        Value c = e.mul(q, c8);
        Value srcRow = e.mul(r, cSrcStride);
        Value chunk;
        if (shifted) {
          Value fast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                             e.add(c, c12), cCols);
          chunk =
              scf::IfOp::create(
                  b, loc, fast,
                  [&](OpBuilder &, Location) {
                    scf::YieldOp::create(
                        b, loc, buildShiftedChunkLoad(e, srcG, srcRow, c, t));
                  },
                  [&](OpBuilder &, Location) {
                    scf::YieldOp::create(
                        b, loc,
                        buildPieceChunkLoad(e, srcG, srcRow, c, cLastPiece, t,
                                            pieces, pieceElems));
                  })
                  .getResult(0);
        } else {
          chunk = buildPieceChunkLoad(e, srcG, srcRow, c, cLastPiece, t, pieces,
                                      pieceElems);
        }
        // The fused prologue, element by element, on the chunk.
        for (int64_t x = 0; pack.transform && x < 8; ++x) {
          Value elem = vector::ExtractOp::create(b, loc, chunk, x);
          Value y = func::CallOp::create(b, loc, kPrologueFuncName, t, elem)
                        .getResult(0);
          chunk = vector::InsertOp::create(b, loc, y, chunk, x);
        }
        Value dAt = e.add(e.mul(r, cDstStride), c);
        Value dp = e.gep(dstG, e.toI64(dAt), t);
        LLVM::StoreOp::create(b, loc, chunk, dp, /*alignment=*/16);
        scf::YieldOp::create(b, loc);
      });
  gpu::ReturnOp::create(b, loc);
  return func;
}
