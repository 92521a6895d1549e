//===- KernelBuilder.h - Hopper warp-specialized GEMM kernels ---*- C++ -*-===//
//
// The sm90 back end generates the whole kernel of one contraction: TMA loads
// into 128B-swizzled shared memory through an mbarrier ring, a producer
// warpgroup and consumer warpgroups issuing wgmma.mma_async with descriptors
// the generator computes, accumulators in registers and the epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_SM90_KERNELBUILDER_H
#define TCGEN_TARGETS_SM90_KERNELBUILDER_H

#include "tcgen/Targets/SM90/Resources.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace mlir::tcgen::sm90 {

/// A pack kernel: copies a [rows][cols] matrix of 16-bit elements, whose
/// rows are `srcStride` elements apart, into a buffer with rows
/// `dstStride` apart (a multiple of 128 bytes): TMA cannot read rows that
/// are not a multiple of 16 bytes apart, and reads rows that are not a
/// multiple of 128 bytes apart at a fraction of its speed (docs/log/NOTES.md).
/// Its parameters are the source and destination addresses.
struct PackParams {
  std::string name;    ///< the kernel's symbol
  std::string operand; ///< the operand it packs ("A" or "B")
  int64_t rows = 0, cols = 0, srcStride = 0, dstStride = 0;
  /// Rows of one matrix: a batch is packed as one stack of its matrices
  /// (rows = batch x matrixRows), and the copy's tensor map is rank 3.
  int64_t matrixRows = 0;
  std::string type = "f16";
  /// The copy applies the fused prologue to every element (@tcgen_prologue
  /// calls, replaced like the main kernel's): the operand is transformed
  /// once, here, instead of on every tile in shared memory.
  bool transform = false;
  /// The copy is the transpose, [cols][rows] with rows `dstStride` apart,
  /// of 32-bit elements (tf32 operands, which wgmma reads K-major only),
  /// made 32 x 32 tiles at a time through shared memory.
  bool transpose = false;
  /// Threads per block and blocks: each thread copies 16-byte chunks of
  /// eight elements, striding over the matrix (a transposing pack: each
  /// block one 32 x 32 tile at a time).
  static constexpr int64_t kThreads = 256;
  int64_t chunksPerRow() const { return ceilDiv(cols, 8); }
  int64_t blocks() const {
    if (transpose)
      return std::clamp<int64_t>(ceilDiv(rows, 32) * ceilDiv(cols, 32), 1,
                                 8 * 132);
    return std::clamp<int64_t>(ceilDiv(rows * chunksPerRow(), kThreads), 1,
                               8 * 132);
  }
};

/// Everything the generated kernel depends on.
struct KernelParams {
  std::string name; ///< kernel symbol (also the gpu.module name)
  /// The problem: any sizes. Partial tiles at the M, N and K edges are
  /// zero-filled by TMA loads and clipped by TMA stores (or masked).
  int64_t m = 0, n = 0, k = 0;
  /// Sizes known only at run time: m, n and k are ignored, and the kernel
  /// takes M, N and K as its last three parameters (%sizeM, %sizeN,
  /// %sizeK: index) and computes the tile and k-tile counts from them. Its
  /// operands are all tensor maps (TMA loads, TMA stores clipping the edge
  /// tiles), so their strides come with the maps; it is persistent and
  /// data-parallel, without packs, a fused epilogue or prologue, or a
  /// second product. A fused epilogue may take scalar, row ([n]) and
  /// column ([m]) operands, each passed as a bare pointer and viewed at the
  /// run-time size, with its loads clamped at the edges.
  bool dynamicShape = false;
  /// A grouped product (mixtures of experts; tcgen/Analysis/Grouped.h):
  /// `groups` matmuls sharing N and K whose rows are consecutive slices of
  /// A [T][k] and C [T][n], given by the kernel parameter %offsets (G + 1
  /// integers, i64 where `offsetsI64`, else i32) after %C, known on the
  /// device only. B is [G][n][k] (bKMajor) or [G][k][n], read through a
  /// 3-d tensor map whose outermost coordinate is the group (bMapDims); A
  /// through a 2-d map over all T rows. `m` is unused: the blocks count the
  /// groups' tiles from the offsets and walk them (emitGroupedRaster), and
  /// C, a bare pointer viewed at offsets[G] rows, is stored from registers
  /// with the rows past the tile's group masked. Persistent and
  /// data-parallel: no cluster, stream-K, packs, prologue, epilogue
  /// operands or TMA stores.
  int64_t groups = 0;
  bool offsetsI64 = false;
  bool grouped() const { return groups > 0; }
  /// add(gemm, gemm): with k2 > 0 the kernel computes C = A B + A2 B2 (A2
  /// [m][k2], B2 [k2][n], stored like A and B; kernel parameters %pA2 and
  /// %pB2 after %pB, tensor maps with A's and B's boxes). Both products
  /// accumulate into one set of f32 accumulators: the producer walks A
  /// and B's k-tiles, then A2 and B2's, through the same ring, so the
  /// consumers see one longer K loop.
  int64_t k2 = 0;
  /// A dual GEMM: the kernel computes P = A B and P2 = A B2 (B2 stored like
  /// B; %pB2 after %pB, a tensor map with half of B's box) and the fused
  /// epilogue combines them (its last operand is P2). A stage's B tile
  /// holds blockN rows (columns, N-major): B's outBlockN() of the tile's
  /// output columns, then B2's same ones; one m64nN wgmma with N = blockN
  /// computes both, and each thread holds P's column groups [0, blockN/16)
  /// and P2's same columns blockN/16 groups later. C's tile is outBlockN()
  /// wide.
  bool dual = false;
  /// The width of C's tile: half of the wgmma N with a dual GEMM.
  int64_t outBlockN() const { return dual ? blockN / 2 : blockN; }
  /// A batch of `batch` independent matmuls (A [batch][m][k] or
  /// [batch][k][m], and so on): the operands' tensor maps get a third,
  /// outermost dimension and the blocks walk the tiles of every matrix of
  /// the batch, one matrix after the other.
  bool batched = false;
  int64_t batch = 1;
  /// With a batch: per operand, whether its batch dimension sits between
  /// its two matrix dimensions (A stored [m][b][k], say) instead of
  /// outermost. Its tensor map's dimensions are then (inner, batch, outer),
  /// its boxes [outer][1][inner], and the matrix is the middle coordinate.
  bool aBatchMiddle = false, bBatchMiddle = false, cBatchMiddle = false;
  /// A summed batch (C[m][n] = sum_b A[b] B[b], the 3-d contraction
  /// C[i,j] = sum_{k,l} A[i,k,l] B[l,k,j] with k as the batch): A's and B's
  /// tensor maps get the batch dimension (outermost or middle, as above)
  /// and C does not (`batched` is false). Every tile walks `batch` x
  /// kTiles1() k-tiles: k-tile t reads matrix t / kTiles1() of the batch at
  /// its k-tile t % kTiles1(), all into one set of accumulators.
  bool batchReduce = false;
  /// Batch dimensions that do not collapse into one (A [b][s][h][d] read
  /// per (b, h), say) or that an operand lacks (a broadcast), up to three:
  /// their extents, outermost first (`batch` is their product, the matrix
  /// index row-major over them), and per operand the dimensions of its
  /// tensor map, innermost first: kMapInner (the 128-byte rows' dimension),
  /// kMapOuter (the rows), or batch dimension i >= 0, in the order the
  /// runtime builds the map (by stride), or kMapBroadcast for a batch
  /// dimension the operand lacks (a broadcast batch: the manifest gives it
  /// stride 0, and the kernel reads it at 0). Empty with one batch
  /// dimension that A, B and C have, whose place the flags above give.
  static constexpr int kMapInner = -1, kMapOuter = -2, kMapBroadcast = -3;
  std::vector<int64_t> batchShape;
  std::vector<int> aMapDims, bMapDims, cMapDims;
  bool multiBatch() const { return !batchShape.empty(); }
  /// Batch dimension `foldDim` (one that A lacks) laid side by side in N:
  /// `n` is batchShape[foldDim] x foldN columns, `batch` counts the other
  /// dimensions' matrices, and a column n' is column n' mod foldN of
  /// matrix n' / foldN along foldDim (a coordinate each TMA copy of B and C
  /// computes; foldN is a multiple of 64, so no 64-wide box or store chunk
  /// crosses two). -1: none.
  int foldDim = -1;
  int64_t foldN = 0;
  bool foldsN() const { return foldDim >= 0; }
  /// Whether A's and B's tensor maps have a batch dimension.
  bool operandsBatched() const { return batched || batchReduce; }
  int64_t blockM = 128; ///< 64 x rowBlocks rows per consumer
  /// 64-row blocks of the tile per consumer warpgroup (config warp tile M /
  /// 64): each k-step issues one wgmma m64nNk16 per row block, on
  /// accumulators of its own, and the epilogue stores the row blocks one
  /// after the other. One warpgroup on a 192-row tile (three m64n96
  /// accumulators, 144 registers) is how cuBLAS runs 1536^3 with a 16-bit
  /// C. No stream-K, cluster, prologue or TMA-loaded epilogue operand.
  int64_t rowBlocks = 1;
  /// wgmma N (64 to 256, a multiple of 16). A width that is not a multiple
  /// of 64 (128 x 160, say: 120 tiles of a 1536^2 C instead of 96) keeps an
  /// MN-major B's last box whole (bTileRows) and stores C's last chunk of
  /// columns overlapping the one before it (storeChunks); it takes neither
  /// stream-K nor a prologue on B in shared memory.
  int64_t blockN = 256;
  int64_t blockK = 64; ///< one 128-byte swizzle atom of f16
  int64_t stages = 4;  ///< shared-memory ring depth
  /// A and B element type: f16, bf16, tf32 (f32 operands that the
  /// tensor cores read as tf32: 4-byte elements, blockK = 32 so that a
  /// k-tile row is still one 128-byte swizzle atom, wgmma k = 8; both
  /// operands K-major), or the 8-bit floats e4m3 and e5m2 (blockK = 128,
  /// wgmma k = 32, both operands K-major).
  std::string inType = "f16";
  bool aMNMajor = false;       ///< A stored [k][m] (else [m][k], K-major)
  bool bKMajor = false;        ///< B stored [n][k] (else [k][n], N-major)
  std::string outType = "f32"; ///< C element type: f32, f16 or bf16
  int64_t groupM = 8;          ///< tile rows per raster group (L2 reuse)
  /// Stream-K: the k-tiles of the last partial wave's tiles (plus one full
  /// wave) are split evenly over the blocks; partial accumulators meet in
  /// a global workspace. Launched with one block per SM.
  bool streamK = false;
  /// Blocks per cluster along M and N (at most 2 in all). With clusterM = 2
  /// the two blocks compute vertically adjacent tiles and share the B tile:
  /// each loads half of it and TMA multicasts it into both; clusterN = 2
  /// shares the A tile the same way.
  int64_t clusterM = 1, clusterN = 1;
  /// C is staged through shared memory (two 8 KiB buffers per consumer
  /// warpgroup, each a 128B-swizzled chunk of 64 rows x 128 bytes) and
  /// written by TMA stores, which run while the warpgroup starts its next
  /// tile; otherwise each thread stores its accumulator pairs to global
  /// memory itself.
  bool tmaStore = false;
  /// C is staged through the same chunk buffers, and the warpgroup's
  /// threads write each chunk out with coalesced stores, a row of the chunk
  /// per warp instruction (masked at the edges): for C whose rows TMA
  /// cannot address (not 16-byte multiples apart, such as odd N), where
  /// stores from registers would write scattered pairs or single elements.
  bool stagedStore = false;
  /// C (and a fused epilogue's matrix operands) is stored [n][m]: the
  /// kernel computes the transposed product of a swapped config (C^T =
  /// B^T A^T into the caller's row-major C). Stores from registers, one
  /// element at a time (as for odd N), at the swapped indices.
  bool cColumnMajor = false;
  /// Whether C is stored, and matrix operands loaded, one element at a
  /// time: odd N (unaligned pairs) or a column-major C.
  bool elementwiseC() const {
    return oddN() || (cColumnMajor && !transposedStore());
  }
  /// A swapped kernel's 16-bit C through the store chunks: each 8x8 block
  /// of the fragment goes to shared memory transposed (stmatrix.trans), so
  /// that the chunk holds C's rows (the kernel's columns) and one TMA store
  /// writes it in C's own layout.
  bool transposedStore() const { return cColumnMajor && tmaStore; }
  /// Whether C goes through the shared chunk buffers (TMA or staged).
  bool chunkedStore() const { return tmaStore || stagedStore; }
  /// A fused pointwise epilogue: each f32 accumulator is rounded to
  /// `matmulType` and passed, with one element of every extra operand, to
  /// the function @tcgen_epilogue the kernel module declares; the result,
  /// of `outType`, is stored. The caller replaces the calls with the body
  /// of the consumer (buildKernelModule's `epilogueBody`).
  bool fusedEpilogue = false;
  /// The epilogue is computed on pairs in the 16-bit matmul type (it gives
  /// the same bits as written in f32: isExactInHalf): @tcgen_epilogue then
  /// takes and returns vector<2 x T> values, whose ops become packed
  /// f16x2 / bf16x2 instructions.
  bool epilogueInHalf = false;
  std::string matmulType = "f32";
  /// The extra operands, kernel parameters %E0, %E1, ... after %C.
  struct EpilogueOperand {
    std::string kind; ///< "scalar", "row" ([n]), "col" ([m]), "matrix"
    std::string type; ///< element type: f16, bf16 or f32
  };
  std::vector<EpilogueOperand> epilogueOperands;
  /// A fused prologue on A: once a stage's A tile has landed, each consumer
  /// warpgroup rewrites its own 64 rows of it in shared memory (16-byte
  /// loads, the function @tcgen_prologue per element, 16-byte stores), then
  /// fences the writes for the async proxy and waits for its 128 threads
  /// before its wgmma reads them. The caller replaces the calls with the
  /// producer's body (buildKernelModule's `prologueBody`). A pointwise map
  /// does not care where an element sits, so the swizzle is irrelevant.
  bool prologueA = false;
  /// A fused prologue on B instead: B's tile is shared by the consumer
  /// warpgroups, so they split it (thread t of warpgroup w rewrites the
  /// 16-byte pieces 128 w + t, + 128 x consumers, ...) and all consumer
  /// threads wait for each other (named barrier 7) before their wgmma.
  bool prologueB = false;
  /// With `prologueA`: the prologue runs on A in registers instead of in
  /// shared memory. Each consumer warp loads its 16 rows of a stage's A
  /// slab with ldmatrix (the 128B swizzle undone in the addresses), applies
  /// @tcgen_prologue to each element there, and feeds the registers to
  /// wgmma's register-A form (wgmma.mma_async with A fragments, B from its
  /// descriptor). A is read from shared memory once, as wgmma would read it,
  /// and nothing is written back: no extra shared-memory traffic, no
  /// barrier between the warpgroup's threads. 16-bit A (read K-major, or
  /// MN-major with ldmatrix .trans), one 128-byte k-tile per stage.
  bool prologueInRegisters = false;
  /// The matrix epilogue operand read with TMA (epilogue-loads = tma), or
  /// -1. At the start of each store chunk the warpgroup's leader loads the
  /// operand's chunk (the C chunk's box, same dtype, same 128B swizzle)
  /// into the chunk buffer and every thread waits on the buffer's mbarrier;
  /// each thread then reads its pairs where it will store its results
  /// (emitPairStore's addresses), so the fragment-layout global loads of
  /// that operand are gone. Needs TMA stores of whole chunks, no batch,
  /// stream-K or cluster, static sizes, a row-major C.
  int64_t tmaEpilogueOperand = -1;
  bool hasPrologue() const { return prologueA || prologueB; }
  /// Whether @tcgen_prologue is called: in the main kernel or a pack.
  bool callsPrologue() const {
    return hasPrologue() ||
           llvm::any_of(packs, [](const PackParams &p) { return p.transform; });
  }
  /// Pack kernels of A or B, emitted into the kernel's module; the main
  /// kernel reads their copies through its tensor maps (the runtime
  /// encodes those over the copies).
  std::vector<PackParams> packs;
  /// Operands the producer warpgroup copies itself with cp.async, instead
  /// of TMA reading them (pack mode "async"): rows a multiple of 16 bytes
  /// but not of 128 bytes apart, which TMA reads at a fraction of its speed
  /// and packs cost a pass over. The copies write 16-byte pieces where the
  /// TMA boxes' 128B swizzle puts them (same shared layout, same
  /// descriptors), zero-filling past the edges; each producer thread then
  /// arrives on the stage's full barrier when its copies land
  /// (cp.async.mbarrier.arrive.noinc). The operand's parameter is a plain
  /// pointer; `aRows` x `aCols` (`bRows` x `bCols`) is the matrix in the
  /// layout the kernel reads it (A [m][k] K-major, [k][m] MN-major; B
  /// [n][k] or [k][n]), rows `aCols` (`bCols`) elements apart, a batch's
  /// matrices one after the other. Static sizes, one batch dimension at
  /// most (outermost), no clusters, no second product, 16-bit elements.
  /// `aAsyncVec` (`bAsyncVec`): the bytes of each cp.async, 16 where the
  /// rows are 16-byte multiples apart, else 8 or 4 (rows of 4-byte but not
  /// 16-byte multiples, which TMA cannot read: four or two copies for each
  /// 16-byte piece).
  bool aAsync = false, bAsync = false;
  int64_t aRows = 0, aCols = 0, bRows = 0, bCols = 0;
  int64_t aAsyncVec = 16, bAsyncVec = 16;
  /// Block-scaled fp8 (DeepSeek-V3's recipe): C = sum_kb SA[m][kb]
  /// SB[n/128][kb] (A B over K block kb). The kernel takes the f32 scales
  /// SA [m][scaleKBlocks] and SB [ceil(n/128)][scaleKBlocks] as plain
  /// pointers %pSA and %pSB after C. A k-tile is one 128-wide K block
  /// (fp8 blockK = 128): the consumers multiply it into a second set of
  /// accumulators from zero, wait for the wgmmas and promote, acc += tmp x
  /// SA[row][kb] x SB[n0/128][kb], the scales read from global memory
  /// (L2) before the k-tile's wgmmas. Static sizes, data-parallel tiles,
  /// blockN 64 or 128, one row block, no cluster.
  bool blockScaled = false;
  /// fp8 with per-tensor (or no) scales over a long K: every
  /// `promoteKTiles` k-tiles the consumers wait for their wgmmas and add
  /// the sums into f32 registers, starting the next group from zero
  /// (wgmma keeps fewer bits than f32 when it accumulates fp8 products:
  /// over K of about half a million the lost bits passed the check's
  /// bound). 0: one chain over the whole K.
  int64_t promoteKTiles = 0;
  int64_t scaleKBlocks = 0;
  bool anyAsync() const { return aAsync || bAsync; }

  int64_t consumers() const { return blockM / (64 * rowBlocks); }
  /// Bytes of one A or B element.
  int64_t elementBytes() const {
    return inType == "tf32" ? 4 : isFP8() ? 1 : 2;
  }
  /// 8-bit float operands (e4m3 or e5m2): 128-element k-tiles, wgmma k = 32,
  /// both operands K-major.
  bool isFP8() const { return inType == "e4m3" || inType == "e5m2"; }
  /// The element type of A and B in memory (MLIR spelling).
  std::string memType() const {
    // 8-bit floats travel as bytes (TMA's UINT8).
    return inType == "tf32" ? "f32" : isFP8() ? "i8" : inType;
  }
  /// K of one wgmma: 32 bytes of K.
  int64_t wgmmaK() const { return 32 / elementBytes(); }
  int64_t clusterSize() const { return clusterM * clusterN; }
  /// Registers per thread at launch: ptxas caps a kernel with `threads()`
  /// threads per block (.maxntid) and one block per SM at 64K / threads,
  /// rounded down to a multiple of 8 (168 for 384 threads).
  int64_t entryRegisters() const {
    return std::min<int64_t>(255 / 8 * 8, 65536 / threads() / 8 * 8);
  }
  /// The producer warpgroup drops to this many registers (setmaxnreg): 48
  /// (40 spilled for one data-parallel shape). Stream-K consumers carry the
  /// schedule's state through the main loop and need 232 (224 spilled 8
  /// bytes): with 384 threads that leaves the producer 40. A stream-K
  /// producer that also makes cp.async copies spilled with 40; it gets 56
  /// (its consumers, with 224, hold narrow swapped tiles).
  int64_t producerRegisters() const {
    if (streamK && anyAsync())
      return 56;
    return streamK ? 40 : 48;
  }
  /// The consumer warpgroups rise to this many: what the producer frees,
  /// shared among them. setmaxnreg.inc blocks until the registers exist, so
  /// asking for more than the block owns hangs the kernel.
  int64_t consumerRegisters() const {
    int64_t pool = threads() * entryRegisters() - 128 * producerRegisters();
    return std::min<int64_t>(240, pool / (128 * consumers()) / 8 * 8);
  }
  /// Cluster tiles along M and N: block tiles rounded up to the cluster
  /// (a cluster's tiles past the edge load zeros and store nothing).
  int64_t clusterTilesM() const {
    return ceilDiv(ceilDiv(m, blockM), clusterM);
  }
  int64_t clusterTilesN() const {
    return ceilDiv(ceilDiv(n, outBlockN()), clusterN);
  }
  /// Cluster tiles of one matrix of the batch.
  int64_t clusterTilesPerMatrix() const {
    return clusterTilesM() * clusterTilesN();
  }
  /// Block tiles the blocks walk, edge tiles and the whole batch included
  /// (a summed batch has one C).
  int64_t tiles() const {
    return (batchReduce ? 1 : batch) * clusterTilesPerMatrix() * clusterSize();
  }
  /// k-tiles of the first product per output tile; the last may be
  /// partial (TMA zero fill).
  int64_t kTiles1() const { return ceilDiv(k, blockK); }
  /// k-tiles per output tile: the first product's (of every matrix of a
  /// summed batch), then the second's.
  int64_t kTiles() const {
    return kTiles1() * (batchReduce ? batch : 1) +
           (k2 > 0 ? ceilDiv(k2, blockK) : 0);
  }
  /// With odd N the pairs of C (and of matrix and row operands) are not
  /// aligned: they are stored and loaded one element at a time.
  bool oddN() const { return !dynamicShape && n % 2 != 0; }
  /// Whether some tile reaches past M (or N): its stores are masked (or
  /// clipped by TMA) and its extra-operand loads clamped.
  bool ragged(bool alongM) const {
    // A grouped product's tiles end at their group's last row.
    if (grouped() && alongM)
      return true;
    // With sizes known at run time C goes out through TMA stores, which
    // clip the edge tiles themselves.
    if (dynamicShape)
      return false;
    return alongM ? clusterTilesM() * clusterM * blockM != m
                  : clusterTilesN() * clusterN * outBlockN() != n;
  }
  /// Whether extra-operand loads are clamped to the last row (column pair)
  /// of the operand: where some tile reaches past M (N), and always with
  /// sizes known at run time only.
  bool clampedLoads(bool alongM) const {
    return dynamicShape || ragged(alongM);
  }
  int64_t threads() const { return 128 * (consumers() + 1); }
  /// Bytes of one stage of the ring (what TMA writes into it, too).
  int64_t stageBytes() const {
    return (blockM + bTileRows(blockN, bKMajor)) * blockK * elementBytes();
  }
  /// Bytes of a stage that TMA loads (the full barrier's transaction
  /// count): the tiles the producer does not copy with cp.async.
  int64_t tmaStageBytes() const {
    return ((aAsync ? 0 : blockM) + (bAsync ? 0 : bTileRows(blockN, bKMajor))) *
           blockK * elementBytes();
  }
  /// Columns of C in one TMA-store chunk: 128 bytes of the output type.
  int64_t storeChunkCols() const { return outType == "f32" ? 32 : 64; }
  /// The first column (within the tile) of each chunk C leaves in: whole
  /// chunks side by side, and where the block width is not a multiple of
  /// the chunk, one more whole chunk ending at the tile's last column (it
  /// overlaps the one before; its columns are written twice, with the same
  /// values, so no store ever reaches past the tile).
  std::vector<int64_t> storeChunks() const {
    std::vector<int64_t> starts;
    const int64_t w = storeChunkCols();
    const int64_t width = outBlockN();
    for (int64_t c = 0; c + w <= width; c += w)
      starts.push_back(c);
    if (width % w != 0)
      starts.push_back(width - w); // width >= 64 >= w
    return starts;
  }
  /// Shared memory of the TMA-store buffers (two per consumer warpgroup).
  int64_t storeBytes() const {
    return storeBufferBytes(blockM, chunkedStore(), rowBlocks);
  }
  /// Dynamic shared memory: the ring, the store buffers, the alignment.
  int64_t smemBytes() const {
    // The ring in bytes: blockK x elementBytes() is 128 for every type.
    return sharedMemoryBytes(blockM, blockN, blockK * elementBytes() / 2,
                             stages, chunkedStore(), bKMajor, rowBlocks);
  }
  /// f32 accumulator registers per consumer thread (m64nN: N/2).
  int64_t accRegs() const { return blockN / 2; }
  /// Stream-K workspace of one consumer warpgroup: its partial accumulators.
  int64_t partialSlotBytes() const { return 128 * accRegs() * 4; }
  /// Stream-K workspace per launched block: one partial slot per consumer
  /// warpgroup, and 16 bytes holding the warpgroups' ready flags (4 each).
  int64_t workspaceBytesPerBlock() const {
    return consumers() * partialSlotBytes() + 16;
  }
};

/// The rows of one TMA box of a K-major B tile: the block's share of the
/// tile (half of it in a 2x1 cluster; B's or B2's half with a dual GEMM), or one matrix's width where the
/// tile spans several matrices laid side by side in N (foldsN).
inline int64_t bBoxRows(const KernelParams &p) {
  int64_t rows = p.outBlockN() / p.clusterM;
  return p.foldsN() ? std::min(rows, p.foldN) : rows;
}

/// The name of the function a fused epilogue's calls name.
constexpr llvm::StringLiteral kEpilogueFuncName = "tcgen_epilogue";

/// The name of the function a fused prologue's calls name.
constexpr llvm::StringLiteral kPrologueFuncName = "tcgen_prologue";

/// Emits the fused epilogue at the builder's insertion point for one
/// element: the rounded accumulator and one element of each extra operand
/// in; the stored value out.
using EpilogueBodyBuilder =
    std::function<Value(OpBuilder &, Value acc, ValueRange operands)>;

/// Emits the fused prologue for one element of A: the element in, the
/// transformed element (same type) out.
using PrologueBodyBuilder = std::function<Value(OpBuilder &, Value element)>;

/// Builds the kernel's gpu.module and appends it to `module`. With
/// a fused epilogue, every call of @tcgen_epilogue is replaced by what
/// `epilogueBody` emits, with a fused prologue every call of
/// @tcgen_prologue by what `prologueBody` emits, and the declarations are
/// erased.
FailureOr<Operation *>
buildKernelModule(ModuleOp module, const KernelParams &params, Location loc,
                  const EpilogueBodyBuilder &epilogueBody = {},
                  const PrologueBodyBuilder &prologueBody = {});

} // namespace mlir::tcgen::sm90

#endif // TCGEN_TARGETS_SM90_KERNELBUILDER_H
