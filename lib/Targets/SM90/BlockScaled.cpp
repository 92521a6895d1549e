//===- BlockScaled.cpp - Block-scaled fp8 main loop of sm90 ----*- C++ -*-===//
//
// This file implements the consumers' main loop of a block-scaled fp8
// kernel (DeepSeek-V3's recipe, KernelParams::blockScaled): each k-tile is
// one 128-wide K block, multiplied by wgmma into a temporary accumulator
// set from zero and promoted into the tile's accumulators with the block's
// scales, acc += tmp x SA[row][kb] x SB[n0/128][kb].
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "tcgen/Targets/SM90/Mainloop.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;

/// The global (address space 1) pointer type.
static Type globalPtrType(MLIRContext *ctx) {
  return LLVM::LLVMPointerType::get(ctx, 1);
}

void mlir::tcgen::sm90::emitBlockScaleRows(OpBuilder &b, Location loc,
                                           const KernelParams &p, Value wg,
                                           Value wtid, Value m0, Value n0,
                                           Value pSA, Value pSB,
                                           MainloopValues &v) {
  Emitter e(b, loc);
  Type f32 = b.getF32Type();
  Type ptr = globalPtrType(b.getContext());
  // The thread's rows in wgmma's m64 accumulator layout: warp w of the
  // warpgroup holds rows 16 w .. 16 w + 15, lane l rows l / 4 and l / 4 + 8.
  Value c4 = e.idx(4), c8 = e.idx(8), c16 = e.idx(16), c32 = e.idx(32),
        c64 = e.idx(64);
  Value warp = e.divu(wtid, c32);
  Value lane = e.remu(wtid, c32);
  Value wgRow = e.mul(wg, c64);
  Value warpRow = e.mul(warp, c16);
  Value laneRow = e.divu(lane, c4);
  Value row0 = e.add(e.add(m0, wgRow), e.add(warpRow, laneRow));
  Value row1 = e.add(row0, c8);
  // Rows past M (an edge tile) read the last row's scales: their products
  // are zeros (TMA's fill) and their results are never stored.
  Value lastRow = e.idx(p.m - 1);
  Value kBlocks = e.idx(p.scaleKBlocks);
  Value sa = LLVM::AddrSpaceCastOp::create(b, loc, ptr, pSA);
  Value sb = LLVM::AddrSpaceCastOp::create(b, loc, ptr, pSB);
  auto rowPointer = [&](Value base, Value row) {
    Value offset = e.indexCast(e.i64Type(), e.mul(row, kBlocks));
    return LLVM::GEPOp::create(b, loc, ptr, f32, base, ValueRange{offset})
        .getResult();
  };
  v.saRow0 = rowPointer(sa, e.minu(row0, lastRow));
  v.saRow1 = rowPointer(sa, e.minu(row1, lastRow));
  Value c128 = e.idx(128);
  v.sbRow = rowPointer(sb, e.divu(n0, c128));
}

/// Loads the f32 scale at `row`[kb] (kb: i64).
static Value loadScale(OpBuilder &b, Location loc, Value row, Value kb) {
  Type f32 = b.getF32Type();
  Value at = LLVM::GEPOp::create(b, loc, globalPtrType(b.getContext()), f32,
                                 row, ValueRange{kb});
  return LLVM::LoadOp::create(b, loc, f32, at);
}

/// acc[i] = fma(tmp[i], scale of i's row, acc[i]): registers 4j and 4j + 1
/// are the thread's first row, 4j + 2 and 4j + 3 its second (m64nN).
static Value promote(OpBuilder &b, Location loc, const KernelParams &p,
                     Value acc, Value tmp, Value scale0, Value scale1) {
  Value out = acc;
  for (int64_t i = 0; i < p.accRegs(); ++i) {
    Value x = LLVM::ExtractValueOp::create(b, loc, tmp, i);
    Value y = LLVM::ExtractValueOp::create(b, loc, acc, i);
    Value s = i % 4 < 2 ? scale0 : scale1;
    Value r = LLVM::FMAOp::create(b, loc, x, s, y);
    out = LLVM::InsertValueOp::create(b, loc, out, r, i);
  }
  return out;
}

MainloopResult mlir::tcgen::sm90::buildBlockScaledMainLoop(
    OpBuilder &b, Location loc, const KernelParams &p, const MainloopValues &v,
    Value it0, Value len) {
  Type accType = accumulatorType(b.getContext(), p);
  Value zero = LLVM::ZeroOp::create(b, loc, accType);
  Value c0 = arith::ConstantOp::create(b, loc, b.getIndexAttr(0));
  auto loop = scf::ForOp::create(
      b, loc, c0, len, v.c1, ValueRange{zero},
      [&](OpBuilder &lb, Location l, Value kt, ValueRange args) {
        Value it = arith::AddIOp::create(lb, l, it0, kt);
        // The block's scales first: their loads run while the stage fills
        // and the wgmmas multiply.
        Value kb = arith::IndexCastOp::create(lb, l, lb.getI64Type(), kt);
        Value sa0 = loadScale(lb, l, v.saRow0, kb);
        Value sa1 = loadScale(lb, l, v.saRow1, kb);
        Value sb = loadScale(lb, l, v.sbRow, kb);
        Value scale0 = LLVM::FMulOp::create(lb, l, sa0, sb);
        Value scale1 = LLVM::FMulOp::create(lb, l, sa1, sb);
        // The k-tile's products from zero (its first wgmma has scale-d 0
        // on an undefined set, so that only wgmma writes it).
        Value undef = LLVM::UndefOp::create(lb, l, accType);
        SmallVector<Value> tmp =
            buildKTile(lb, l, p, v, it, /*isFirst=*/true, ValueRange{undef});
        NVVM::WgmmaWaitGroupSyncOp::create(lb, l, 0);
        Value stage = arith::RemUIOp::create(lb, l, it, v.cStages);
        buildRelease(lb, l, p, v, stage);
        Value acc = promote(lb, l, p, args.front(), tmp.front(), scale0,
                            scale1);
        scf::YieldOp::create(lb, l, acc);
      });
  MainloopResult out;
  out.acc.push_back(loop.getResult(0));
  out.itNext = arith::AddIOp::create(b, loc, it0, len);
  return out;
}
