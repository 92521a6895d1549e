//===- Epilogue.h - The sm90 epilogue, built with typed ops ----*- C++ -*-===//
//
// This file declares the epilogue of the sm90 kernel built with typed
// builders: the fused epilogue's operands (kernel parameters, views,
// scalar loads), the problem's counts, the prefetch of a TMA-loaded
// operand, and the per-tile epilogue (fused pairs, stores from registers,
// staged, TMA and transposed stores through the chunk buffers).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_SM90_EPILOGUE_H
#define TCGEN_TARGETS_SM90_EPILOGUE_H

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::tcgen::sm90 {

/// The kernel-wide values the epilogue reads, named as the kernel's values
/// (`%c0` is `c0`, `%E1` is `E[1]`, ...). A field is null where the kernel
/// lacks the value (no batch: `bIdx`; no stream-K: `zero4`, ...).
struct EpilogueValues {
  /// Index constants 0, 1 and 128, and the mbarrier wait's tick budget.
  Value c0, c1, c128, ticks;
  /// The work item's tile (`%t`), the block's cluster and the clusters
  /// (`%cid`, `%ncl`), the block (`%bid`).
  Value t, cid, ncl, bid;
  /// The tile's origin, and with a grouped product the end of its group's
  /// rows (RasterValues::rowEnd).
  Value m0, n0, rowEnd;
  /// The tile's matrix with one batch dimension (`%bIdx`); with several
  /// (`multiBatch`), `bIdxs[i]` is `%bIdx<i>` (null for `foldDim`).
  Value bIdx;
  SmallVector<Value> bIdxs;
  /// The warpgroup (index and i32), the thread in its warpgroup (`%wtid`),
  /// the alignment pad of the ring, the dynamic shared memory (`!smem`),
  /// and the ring's shared address (`%ringAddr`, i64).
  Value wg, wg32, wtid, pad, dsm, ringAddr;
  /// Sizes known at run time only.
  Value sizeM, sizeN;
  /// C: a memref (`%C`, stores from registers or staged) or its tensor map
  /// (`%tmapC`, a !llvm.ptr, TMA stores).
  Value C, tmapC;
  /// The extra operands `%E<k>` (with run-time sizes their views,
  /// emitEpilogueViews; null for the TMA-loaded one), and the scalars'
  /// values `%sclE<k>` (emitScalarOperandLoads; null for the others).
  SmallVector<Value> E, sclE;
  /// The TMA-loaded operand's tensor map (`!tmE`) and mbarriers (`!barE`).
  Value tmapE, eBar;
  /// Stream-K (emitStreamKFixup): a zero vector<4xf32>, the first block
  /// whose partials this block adds, its slot's pointer and the slots'
  /// stride.
  Value zero4, cLow, sumBase, cSlotStride;
};

/// The memref type of extra epilogue operand `e` (its view with sizes known
/// at run time only).
Type epilogueOperandType(MLIRContext *ctx, const KernelParams &p,
                         const KernelParams::EpilogueOperand &e);

/// The types of the kernel parameters of the extra epilogue operands, in
/// order (after C): a !llvm.ptr for the TMA-loaded one, a memref<1 x T> for
/// a non-scalar one with sizes known at run time only, else the operand's
/// memref type.
SmallVector<Type> epilogueParamTypes(MLIRContext *ctx, const KernelParams &p);

/// Sizes known at run time only: the types of the parameters after the
/// others (%sizeM, %sizeN, %sizeK, then %E<k>stride per matrix operand);
/// empty otherwise.
SmallVector<Type> dynamicParamTypes(MLIRContext *ctx, const KernelParams &p);

/// Declares, at the builder's point in the gpu.module, the private
/// functions the kernel calls: @tcgen_prologue (where callsPrologue) and
/// @tcgen_epilogue (with a fused epilogue), in that order.
void emitEpilogueDecls(OpBuilder &b, Location loc, const KernelParams &p);

/// The problem's counts: constants, or computed from the run-time sizes.
struct ProblemSizes {
  Value cNumK, cTilesM, cTilesN, cPerGroup, cUnits, cTiles;
};

/// Emits the problem's counts (%cNumK, %cTilesM, %cTilesN, %cPerGroup,
/// %cUnits, %cTiles; with sizes known at run time only computed from
/// `sizeM`, `sizeN`, `sizeK`, `cGroup` and `cClSize`).
ProblemSizes emitProblemSizes(OpBuilder &b, Location loc, const KernelParams &p,
                              Value cGroup, Value cClSize, Value sizeM,
                              Value sizeN, Value sizeK);

/// Sizes known at run time only: views the raw parameters `raw` (one per
/// extra operand, epilogueParamTypes) at the run-time sizes, a matrix with
/// its row stride `strides[k]` (the %E<k>stride parameters, indexed by
/// operand; null for the others). Returns the operands' values `%E<k>` (the
/// parameter itself where no view is made). Emits nothing with static
/// sizes.
SmallVector<Value> emitEpilogueViews(OpBuilder &b, Location loc,
                                     const KernelParams &p, ValueRange raw,
                                     Value sizeM, Value sizeN,
                                     ArrayRef<Value> strides);

/// Loads the scalar operands once per consumer (`%sclE<k>`); returns one
/// value per extra operand (null for those that are not scalars).
SmallVector<Value> emitScalarOperandLoads(OpBuilder &b, Location loc,
                                          const KernelParams &p,
                                          ArrayRef<Value> E);

/// Before the main loop of the block's first item: the warpgroup's leader
/// issues the TMA loads of the TMA-loaded operand's first two chunks
/// (`tmaEpilogueOperand` >= 0). Reads t, cid, ncl, wtid, c0, pad, wg, m0,
/// n0, dsm, eBar, tmapE.
void emitEpilogueOperandPrefetch(OpBuilder &b, Location loc,
                                 const KernelParams &p,
                                 const EpilogueValues &v);

/// The epilogue of one 64-row block of the tile: `acc` its accumulator
/// (!acc), `wgIndex` its index among the tile's 64-row blocks (%wg with one
/// row block a warpgroup). Emitted inside the work loop after the main loop
/// and the stream-K fix-up; with a fused epilogue it calls
/// @tcgen_epilogue, which buildKernelModule replaces.
void emitTileEpilogue(OpBuilder &b, Location loc, const KernelParams &p,
                      const EpilogueValues &v, Value acc, Value wgIndex);

} // namespace mlir::tcgen::sm90

#endif // TCGEN_TARGETS_SM90_EPILOGUE_H
