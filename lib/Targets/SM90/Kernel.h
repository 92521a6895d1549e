//===- Kernel.h - The typed sm90 kernel: kernel-wide values -----*- C++ -*-===//
//
// This file implements the interface between the top level of the typed
// sm90 kernel generator (Kernel.cpp) and its producer (Producer.cpp) and
// schedule (Schedule.cpp): the kernel-wide values they read, named as in
// the kernel's documentation (%tid, %dsm, %full, ...), and the functions
// that emit their parts.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_LIB_TARGETS_SM90_KERNEL_H
#define TCGEN_LIB_TARGETS_SM90_KERNEL_H

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcgen::sm90 {

/// Byte sizes of the shared-memory layout and of wgmma descriptors.
constexpr int64_t kSwizzleRowBytes = 128;             // one swizzle atom row
constexpr int64_t kAtomBytes = 8 * kSwizzleRowBytes;  // 8 rows: the SBO
constexpr int64_t kBBoxBytes = 64 * kSwizzleRowBytes; // a [64 k][64 n] box

/// The kernel-wide values: the kernel's parameters and what its entry
/// block defines (both roles read them), then what the consumer branch
/// defines before its work loop (valid in that branch only). Fields a
/// kernel does not define are null.
struct KernelValues {
  // Parameters.
  Value pA, pB, pA2, pB2, pW;
  Value tmapA, tmapB, tmapA2, tmapB2;
  // Entry block.
  Value c0, c1, c1024, cStages, cBM, cBN, cStageBytes, cTx, ticks;
  Value cTrue; ///< %true
  Value tid, bid, nbl, cGroup, cClSize, cClM, cClN;
  Value cNumK, cTilesM, cTilesN, cPerGroup, cUnits, cTiles;
  Value cid, ncl, tid32, c128i, c0i, c32i, wg32, wg;
  Value dsm, base, pad, full, empty, isT0;
  Value rankX, rankM, rankN, mcMask;
  /// A grouped product: the offsets (memref<G+1 x i32|i64>) and G.
  Value offsets, cGroups;
  // Stream-K partition (emitStreamKPartition).
  Value skUnits, skP, skStart, skEnd, dpFirst;
  // Consumer branch.
  Value wtid, c4i;
  Value wsG, cCons, cSlotBytes, cConsI, flagBase, lt16, isLt0, namedBar, c128n;
};

/// The tile origin the raster order gives a work item.
struct RasterValues {
  Value m0, n0;
  /// With a batch: the matrix (%bIdx), and with several batch dimensions
  /// the index along each (%bIdx<i>; null for the dimension laid side by
  /// side in N).
  Value bIdx;
  SmallVector<Value> bIdxDims;
  /// A grouped product: the end of the tile's group (offsets[g + 1]); the
  /// rows from there on are not stored.
  Value rowEnd;
};

/// One iteration of the work loop (emitWorkLoopBegin): the tile %t, its
/// first k-tile %ks, k-tile count %len and ring counter %it0.
struct WorkItem {
  Operation *loop = nullptr;
  Value t, ks, len, it0;
  Value uN, dtN; ///< stream-K: the loop's next state
  /// A grouped product: the group scan's state carried from tile to tile
  /// (the group of the block's previous tile, the tiles before it, its
  /// first row; emitGroupedRaster starts there, as the block's tiles only
  /// grow), and the state this tile leaves for the next.
  SmallVector<Value> scan, scanNext;
};

/// Emits the stream-K partition (the split of the launched grid) and
/// sets its fields of `v`.
void emitStreamKPartition(OpBuilder &b, Location loc, KernelValues &v);

/// Emits the tile origin of tile `t` (emitRaster).
/// A grouped product's scan starts from `item`'s state and leaves the next
/// tile's in item->scanNext.
RasterValues emitRaster(OpBuilder &b, Location loc, const KernelParams &p,
                        const KernelValues &v, Value t,
                        WorkItem *item = nullptr);

/// A grouped product: the group's offset `g` (an index) as an index.
Value emitGroupOffset(OpBuilder &b, Location loc, const KernelParams &p,
                      const KernelValues &v, Value g);

/// A grouped product: the number of tiles of all groups,
/// sum over g of ceil((offsets[g + 1] - offsets[g]) / blockM) x tilesN.
Value emitGroupedTileCount(OpBuilder &b, Location loc, const KernelParams &p,
                           const KernelValues &v);

/// Opens the loop over this block's work items and moves `b` into its
/// body.
WorkItem emitWorkLoopBegin(OpBuilder &b, Location loc, const KernelParams &p,
                           const KernelValues &v);

/// Closes the loop of `item` with the ring counter after the item and
/// moves `b` after it; returns the counter after the last item (%itEnd).
Value emitWorkLoopEnd(OpBuilder &b, Location loc, const KernelParams &p,
                      const WorkItem &item, Value itNext);

/// What the stream-K fix-up leaves the tile epilogue: the first slot to
/// add (%cLow), the zero quad, the slot stride and this thread's first
/// float4 in slot %cLow; and the `scf.if %notContrib` the epilogue runs
/// in, which the caller closes after it.
struct StreamKFixup {
  Value cLow, zero4, cSlotStride, sumBase;
  scf::IfOp notContrib;
};

/// Emits the stream-K fix-up of one consumer warpgroup after its k-range
/// of `item`'s tile, with its accumulators `acc`; leaves `b` inside the
/// returned `scf.if %notContrib`.
StreamKFixup emitStreamKFixup(OpBuilder &b, Location loc, const KernelParams &p,
                              const KernelValues &v, const WorkItem &item,
                              Value acc);

/// Emits the sums of the partial slots (%cLow ..< %bid) for the
/// accumulator quads [first, first + count); returns them (vector<4xf32>
/// each).
SmallVector<Value> emitPartialSums(OpBuilder &b, Location loc,
                                   const KernelValues &v,
                                   const StreamKFixup &fixup, int64_t first,
                                   int64_t count);

/// The shared-memory type of a TMA box of `rows` rows of 128 bytes: with a
/// batch the tensor maps have a third dimension, and so do their boxes
/// (one matrix deep): outermost, or between the two others where the
/// operand stores its batch there (`middle`).
MemRefType boxType(MLIRContext *ctx, const KernelParams &p, int64_t rows,
                   bool middle = false);

/// With several batch dimensions: the shared-memory type of a TMA box of an
/// operand whose tensor map has the dimensions `dims` (innermost first):
/// 128 bytes of the inner one, `rows` of the outer one, one matrix of each
/// batch dimension.
MemRefType boxTypeOf(MLIRContext *ctx, const KernelParams &p,
                     const std::vector<int> &dims, int64_t rows);

/// Emits the producer warpgroup's branch (`scf.if %isProducer`), `b`
/// after it; returns the producer's warpgroup index (%cProducer).
Value emitProducer(OpBuilder &b, Location loc, const KernelParams &p,
                   const KernelValues &v);

/// The consumer-branch values of the fused prologue in shared memory.
struct PrologueValues {
  /// pThread: the thread's first piece's shared address offset within the
  /// stage; pPiece: the same offset within the slab (A) or tile (B).
  Value pRing32, pStageBytes, pThread, pPiece, pBar, cPThreads;
};

/// The fused prologue for the stage `stage` (emitPrologue): on A, the
/// warpgroup's 8 KiB slab of the A tile (its 64 rows, whatever the layout),
/// read by its 128 threads 16 bytes at a time, 2 KiB apart; on B, the whole
/// B tile (shared by the warpgroups) split over all consumer threads (the
/// last round guarded where the tile is not a whole number of rounds, e.g.
/// 128 rows over three warpgroups). Each piece is transformed element by
/// element (@tcgen_prologue calls) and written back; the generic-proxy writes
/// are fenced for the async proxy (wgmma reads through it) and the threads that
/// share the tile wait for each other. The stage's address comes from the
/// unmasked shared address (%pRing32): in a cluster the descriptors' masked
/// one is not an address.
void emitPrologue(OpBuilder &b, Location loc, const KernelParams &p,
                  const PrologueValues &v, Value stage);

/// Builds the kernel's gpu.module (the kernel, its pack kernels and the
/// declarations of the functions a fused epilogue or prologue calls) at
/// the end of `module`.
FailureOr<gpu::GPUModuleOp>
buildTypedKernel(ModuleOp module, const KernelParams &p, Location loc);

} // namespace mlir::tcgen::sm90

#endif // TCGEN_LIB_TARGETS_SM90_KERNEL_H
