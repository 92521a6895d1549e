//===- Mainloop.h - The sm90 consumers' main loop, typed --------*- C++ -*-===//
//
// The consumer warpgroups' main loop of the sm90 kernel, built with typed
// op builders: per k-tile the wait for its stage, the wgmma descriptors
// that walk the stage, the wgmmas (shared-memory A, or A in registers
// through the fused prologue) and the stage's release to the producer.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_SM90_MAINLOOP_H
#define TCGEN_TARGETS_SM90_MAINLOOP_H

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

#include <array>
#include <functional>

namespace mlir::tcgen::sm90 {

/// The kernel-wide values the main loop reads, named as the kernel's SSA
/// values are (`%cStages`, `%full`, ...). Fields a kernel does not define
/// (the register-A values without `prologueInRegisters`, the cluster
/// values without a cluster, ...) stay null.
struct MainloopValues {
  /// index: the ring depth, 1, the mbarrier wait's tick budget.
  Value cStages, c1, ticks;
  /// !barT: the stages' full (TMA -> consumers) and empty (consumers ->
  /// producer) barriers.
  Value full, empty;
  /// i64: the ring's masked shared address, one stage's bytes, this
  /// warpgroup's A slab offset, the A tile's bytes (B's offset in a stage),
  /// the descriptor shift 4.
  Value ring, cStageBytesI, aSlab, cATile, c4i;
  /// i32: the descriptors' constant low and high words.
  Value descALoWord, descBLoWord, descAHiWord, descBHiWord;
  /// i64: with row blocks (rowBlocks > 1), %cRowBlock<rb> (rb x 8 KiB).
  SmallVector<Value> cRowBlock;
  /// i32 (a fused prologue): the ring's unmasked 32-bit shared address
  /// and one stage's bytes.
  Value pRing32, pStageBytes;
  /// i32 (prologueInRegisters): %raOff<kk>, the thread's ldmatrix offset
  /// in the warpgroup's A slab for k-step kk; %raZero and %raOne, the
  /// scale-d operands.
  SmallVector<Value> raOff;
  Value raZero, raOne;
  /// i32 (a cluster): 8 (bytes per barrier), the cluster addresses of both
  /// blocks' first empty barrier, the thread's lane.
  Value c8bar, emptyR0, emptyR1, lane32;
  /// The fused prologue in shared memory (hasPrologue() and not
  /// prologueInRegisters): emits it for the stage whose index (index) is
  /// `stage`, after the stage's addresses (the text's emitPrologue).
  std::function<void(OpBuilder &, Location, Value stage)> prologue;
  /// Block-scaled fp8 (blockScaled), per work item: global pointers (!ptr
  /// <1>) to the SA rows of the thread's two accumulator rows (clamped to
  /// the last row of A) and to the tile's SB row (emitBlockScaleRows).
  Value saRow0, saRow1, sbRow;
};

/// The addresses of a k-tile's stage (i64 shared addresses): `stage` its
/// base, `aAddr` the warpgroup's A slab (null when not asked for), `bAddr`
/// its B tile; `index` the stage's index.
struct StageAddresses {
  Value index, stage, aAddr, bAddr;
};

/// The LLVM struct of one row block's f32 accumulators (`!acc`).
Type accumulatorType(MLIRContext *ctx, const KernelParams &p);

/// prologueInRegisters: the base address (i32) of the stage whose index
/// (index) is `stage` (`%raSt<tag>`).
Value buildRegisterAStage(OpBuilder &b, Location loc, const KernelParams &p,
                          const MainloopValues &v, Value stage);

/// prologueInRegisters: the A fragment of k-step `kk` from the stage at
/// `stageAddr` (buildRegisterAStage), loaded with ldmatrix.x4 and passed
/// element by element through @tcgen_prologue: four i32 registers.
std::array<Value, 4> buildRegisterAFragment(OpBuilder &b, Location loc,
                                            const KernelParams &p,
                                            const MainloopValues &v,
                                            Value stageAddr, int64_t kk);

/// One wgmma m64nNk16 with A from registers (`frag`) and B from the
/// descriptor `descB` (i64), accumulating `input` (!acc), or not where
/// `zeroScale`: the PTX as inline assembly. Returns the accumulator.
Value buildRegisterAWgmma(OpBuilder &b, Location loc, const KernelParams &p,
                          const MainloopValues &v, ArrayRef<Value> frag,
                          Value descB, Value input, bool zeroScale);

/// The consumer's wait for the stage of the k-tile with ring counter `it`
/// (index) to be full. Returns the stage's index (`%s<tag>`).
Value buildFullWait(OpBuilder &b, Location loc, const KernelParams &p,
                    const MainloopValues &v, Value it);

/// The shared addresses in the stage whose index is `stage`: its base, the
/// warpgroup's A slab (if `withA`) and its B tile.
StageAddresses buildStageAddresses(OpBuilder &b, Location loc,
                                   const KernelParams &p,
                                   const MainloopValues &v, Value stage,
                                   bool withA);

/// The wgmma descriptor (i64) of operand A (`isA`) or B for k-step `kk`,
/// `offset` bytes (a multiple of 16) into the operand's tile at `addr`.
/// Step 0 computes the tile's low word into `lo`; later steps read it.
Value buildStepDescriptor(OpBuilder &b, Location loc, const KernelParams &p,
                          const MainloopValues &v, bool isA, int64_t kk,
                          Value addr, Value &lo, int64_t offset);

/// One wgmma m64nNk16 on shared-memory descriptors: `input` plus A times B,
/// or A times B alone where `scaleZero`. Returns the accumulator.
Value buildSmemWgmma(OpBuilder &b, Location loc, const KernelParams &p,
                     const MainloopValues &v, Value descA, Value descB,
                     Value input, bool scaleZero);

/// The wgmmas of one k-tile of a warpgroup of several row blocks: `inputs`
/// holds one accumulator per row block; returns the results likewise.
SmallVector<Value> buildRowBlockWgmmas(OpBuilder &b, Location loc,
                                       const KernelParams &p,
                                       const MainloopValues &v,
                                       const StageAddresses &addrs,
                                       bool isFirst, ValueRange inputs);

/// The consumer's work on one k-tile with ring counter `it` (shared-memory
/// A): wait for its stage, the fused prologue if any, the wgmmas, commit
/// and wait for all but this group. `inputs`: one accumulator per row
/// block (undefined for the first k-tile, `isFirst`). Returns the results.
SmallVector<Value> buildKTile(OpBuilder &b, Location loc, const KernelParams &p,
                              const MainloopValues &v, Value it, bool isFirst,
                              ValueRange inputs);

/// What a register-A k-tile yields: the accumulator and the next k-tile's
/// first fragment (loaded from the stage of ring counter `next`).
struct RegisterKTile {
  Value acc;
  std::array<Value, 4> nextF0;
};

/// The consumer's work on one k-tile with A in registers
/// (prologueInRegisters): `it` its ring counter, `next` the next k-tile's,
/// `input` the accumulator, `f0` this k-tile's first fragment. Outside the
/// first k-tile it releases the previous k-tile's stage after step 1.
RegisterKTile buildKTileRegs(OpBuilder &b, Location loc, const KernelParams &p,
                             const MainloopValues &v, Value it, Value next,
                             bool isFirst, Value input, ArrayRef<Value> f0);

/// The consumers' release of the stage whose index is `stage` to the
/// producers (the block's empty barrier; in a cluster, both blocks').
void buildRelease(OpBuilder &b, Location loc, const KernelParams &p,
                  const MainloopValues &v, Value stage);

/// What the main loop of one work item yields: the accumulators (one per
/// row block: the text's %acc or %acc#r) and the ring counter after the
/// item (%itNext).
struct MainloopResult {
  SmallVector<Value> acc;
  Value itNext;
};

/// The main loop of one work item of `len` k-tiles from ring counter `it0`
/// (both index): the peeled first k-tile, the loop over the others, the
/// wait for the last wgmma group and the release of the last stage (the
/// text from `%accU` through the release of `%ls`).
MainloopResult buildMainLoop(OpBuilder &b, Location loc, const KernelParams &p,
                             const MainloopValues &v, Value it0, Value len);

/// Block-scaled fp8: sets `v`'s saRow0, saRow1 and sbRow for the tile at
/// (%m0, %n0) (index): thread `wtid` of consumer warpgroup `wg` (index)
/// holds accumulator rows m0 + 64 wg + 16 (wtid / 32) + (wtid % 32) / 4
/// and 8 below (wgmma's m64 layout), whose SA rows it reads; the tile's
/// 128-wide block of B is n0 / 128. `pSA`, `pSB`: the kernel's pointers.
void emitBlockScaleRows(OpBuilder &b, Location loc, const KernelParams &p,
                        Value wg, Value wtid, Value m0, Value n0, Value pSA,
                        Value pSB, MainloopValues &v);

/// Block-scaled fp8: the main loop of one work item of `len` k-tiles from
/// ring counter `it0` (a whole tile: K block kb is k-tile kb). Per k-tile:
/// the three scales' loads, the k-tile's wgmmas into a temporary
/// accumulator set from zero (buildKTile), the wait for them, the stage's
/// release, and the promotion acc = fma(tmp, SA[row][kb] x SB[nb][kb],
/// acc) on the accumulators (zero before the first k-tile).
MainloopResult buildBlockScaledMainLoop(OpBuilder &b, Location loc,
                                        const KernelParams &p,
                                        const MainloopValues &v, Value it0,
                                        Value len);

} // namespace mlir::tcgen::sm90

#endif // TCGEN_TARGETS_SM90_MAINLOOP_H
