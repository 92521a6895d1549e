//===- KernelBuilder.cpp - Hopper warp-specialized GEMM kernels -*- C++ -*-===//
//
// This file implements the sm90 kernel generator. The kernel is rendered as
// MLIR (nvgpu mbarrier/TMA ops, nvvm wgmma ops, scf control flow) from the
// parameters, then parsed: every number in it (tile sizes, byte offsets,
// descriptor fields) is computed here, next to its reason.
//
// Shared memory, per stage s (1024-byte aligned):
//   A tile  [blockM rows][64 k] f16, 128 B rows, 128B-swizzled   (K-major)
//   B tile  blockN/64 boxes of [64 k rows][64 n] f16, 8 KiB each  (N-major)
// then, with TMA stores, two 8 KiB C chunk buffers per consumer warpgroup
// (64 rows x 128 bytes, 128B-swizzled).
// Warpgroups: consumers 0..C-1 (64 rows of C each), then one producer whose
// first thread issues the TMA loads. full[s]: TMA -> consumers (arrive +
// transaction bytes); empty[s]: consumers -> producer (all consumer threads).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdlib>
#include <tuple>

using namespace mlir;
using namespace mlir::tcgen::sm90;

namespace mlir::tcgen::sm90 {
// The typed generator (Kernel.h), which replaces this file's text.
FailureOr<gpu::GPUModuleOp> buildTypedKernel(ModuleOp module,
                                             const KernelParams &p,
                                             Location loc);
} // namespace mlir::tcgen::sm90

/// wgmma matrix-descriptor fields (PTX ISA "matrix descriptor format").
constexpr uint64_t kSwizzle128B = 1ull << 62; // bits 62-63: 1 = 128B
constexpr uint64_t kSboShift = 32;            // bits 32-45: stride offset >> 4
constexpr uint64_t kLboShift = 16;            // bits 16-29: leading offset >> 4
constexpr int64_t kSwizzleRowBytes = 128;     // one swizzle atom row
constexpr int64_t kAtomBytes = 8 * kSwizzleRowBytes;  // 8 rows: the SBO
constexpr int64_t kBBoxBytes = 64 * kSwizzleRowBytes; // one [64 k][64 n] box
constexpr uint64_t kDescAddressMask = (1ull << 18) - 1; // 14 bits of addr >> 4

/// The tile origin (%m0, %n0) of linear tile %t under grouped rasterization
/// (L2 reuse): consecutive tiles walk `groupM` tile rows of M before moving
/// to the next tile column of N, so the blocks in flight share few A and B
/// panels. With a cluster, %t numbers cluster tiles (clusterM x clusterN
/// block tiles) and the block takes its own (%rankM, %rankN) inside.
static const char *kRaster = R"(
          %groupId = arith.divui {0}, %cPerGroup : index
          %firstM = arith.muli %groupId, %cGroup : index
          %leftM = arith.subi %cTilesM, %firstM : index
          %groupM = arith.minui %leftM, %cGroup : index
          %inGroup = arith.remui {0}, %cPerGroup : index
          %tileMIn = arith.remui %inGroup, %groupM : index
          %tileM = arith.addi %firstM, %tileMIn : index
          %tileN = arith.divui %inGroup, %groupM : index
          %tileMc = arith.muli %tileM, %cClM : index
          %tileMb = arith.addi %tileMc, %rankM : index
          %tileNc = arith.muli %tileN, %cClN : index
          %tileNb = arith.addi %tileNc, %rankN : index
          %m0 = arith.muli %tileMb, %cBM : index
          %n0 = arith.muli %tileNb, %cBN : index
)";

/// Emits the tile origin of %t: with a batch, the matrix %bIdx first (the
/// tiles of one matrix are consecutive, so the raster order's L2 reuse
/// holds within each), then kRaster within it.
static void emitRaster(llvm::raw_ostream &os, const KernelParams &p) {
  if (!p.batched) {
    os << llvm::formatv(kRaster, "%t");
    return;
  }
  if (p.dynamicShape)
    os << "          %cMatTiles = arith.muli %cTilesM, %cTilesN : index\n";
  else
    os << llvm::formatv(
        "          %cMatTiles = arith.constant {0} : index\n",
        p.clusterTilesPerMatrix());
  os << llvm::formatv(R"(
          %bIdx = arith.divui %t, %cMatTiles : index
          %tInMat = arith.remui %t, %cMatTiles : index
)");
  // Several batch dimensions: %bIdx is row-major over them (%bIdx0 *
  // batchShape[1] + %bIdx1 for two), the innermost peeled off first.
  // (A dimension laid side by side in N (foldsN) is not among them: the
  // columns give its index.)
  if (p.multiBatch()) {
    SmallVector<size_t> dims;
    for (size_t i = 0; i < p.batchShape.size(); ++i)
      if (int(i) != p.foldDim)
        dims.push_back(i);
    std::string rest = "%bIdx";
    for (size_t j = dims.size(); j-- > 1;) {
      size_t i = dims[j];
      std::string outer = j == 1 ? llvm::formatv("%bIdx{0}", dims[0]).str()
                                 : llvm::formatv("%bIdxRest{0}", i).str();
      os << llvm::formatv(R"(
          %cBatchExt{0} = arith.constant {1} : index
          {3} = arith.divui {2}, %cBatchExt{0} : index
          %bIdx{0} = arith.remui {2}, %cBatchExt{0} : index
)",
                          i, p.batchShape[i], rest, outer);
      rest = outer;
    }
    // One batch dimension (that an input lacks): %bIdx itself.
    if (dims.size() == 1)
      os << llvm::formatv("          %bIdx{0} = arith.addi %bIdx, %c0 : "
                          "index\n",
                          dims[0]);
  }
  os << llvm::formatv(kRaster, "%tInMat");
}

/// The shared-memory type of a TMA box of `rows` rows of 64 elements: with
/// a batch the tensor maps have a third dimension, and so do their boxes
/// (one matrix deep): outermost, or between the two others where the
/// operand stores its batch there (`middle`).
static std::string boxType(const KernelParams &p, int64_t rows, StringRef elt,
                           bool middle = false) {
  // 128 bytes of the inner dimension: 64 16-bit or 32 32-bit elements.
  bool batched = p.operandsBatched();
  return llvm::formatv("memref<{0}{1}{2}x{3}x{4}, 3>",
                       batched && !middle ? "1x" : "", rows,
                       batched && middle ? "x1" : "",
                       128 / p.elementBytes(), elt)
      .str();
}

/// The coordinates of a TMA copy (innermost first) of the matrix
/// coordinates `inner` and `outer`: with a batch (`batched`), the matrix
/// `idx` too, last, or between them where the operand stores its batch
/// there.
static std::string tmaCoords(bool batched, StringRef inner, StringRef outer,
                             bool middle, StringRef idx) {
  if (!batched)
    return (inner + ", " + outer).str();
  if (middle)
    return (inner + ", " + idx + ", " + outer).str();
  return (inner + ", " + outer + ", " + idx).str();
}

/// The matrix of the batch an A or B load reads: the tile's (%bIdx), or
/// for a summed batch the k-tile's (%kbIdx).
static StringRef loadBatchIndex(const KernelParams &p) {
  return p.batchReduce ? "%kbIdx" : "%bIdx";
}

/// With several batch dimensions: the shared-memory type of a TMA box of an
/// operand whose tensor map has the dimensions `dims` (innermost first):
/// 64 elements (128 bytes) of the inner one, `rows` of the outer one, one
/// matrix of each batch dimension.
static std::string boxTypeOf(const KernelParams &p, const std::vector<int> &dims,
                             int64_t rows, StringRef elt) {
  std::string shape;
  for (int d : llvm::reverse(dims))
    shape += std::to_string(d == KernelParams::kMapInner   ? 128 / p.elementBytes()
                            : d == KernelParams::kMapOuter ? rows
                                                           : 1) +
             "x";
  return ("memref<" + shape + elt + ", 3>").str();
}

/// With several batch dimensions: the coordinates of a TMA copy (innermost
/// first) through a tensor map with the dimensions `dims`: `inner`,
/// `outer`, batch dimension i's index `idx` + i, `zero` for one the
/// operand lacks (a broadcast), and `foldIdx` for dimension `foldDim`
/// (one laid side by side in N: its index comes from the column).
static std::string coordsOf(const std::vector<int> &dims, StringRef inner,
                            StringRef outer, StringRef idx,
                            StringRef zero = "%c0", int foldDim = -1,
                            StringRef foldIdx = "") {
  std::string coords;
  for (int d : dims) {
    if (!coords.empty())
      coords += ", ";
    coords += d == KernelParams::kMapInner       ? inner.str()
              : d == KernelParams::kMapOuter     ? outer.str()
              : d == KernelParams::kMapBroadcast ? zero.str()
              : d == foldDim                     ? foldIdx.str()
                             : (idx + std::to_string(d)).str();
  }
  return coords;
}

/// The type of C as a plain memref parameter (stores from registers).
static std::string cMemrefType(const KernelParams &p) {
  if (p.cColumnMajor)
    return llvm::formatv("memref<{0}x{1}x{2}>", p.n, p.m, p.outType).str();
  if (!p.batched)
    return llvm::formatv("memref<{0}x{1}x{2}>", p.m, p.n, p.outType).str();
  if (p.cBatchMiddle)
    return llvm::formatv("memref<{0}x{1}x{2}x{3}>", p.m, p.batch, p.n,
                         p.outType)
        .str();
  return llvm::formatv("memref<{0}x{1}x{2}x{3}>", p.batch, p.m, p.n,
                       p.outType)
      .str();
}

/// The indices of element (`row`, `col`) of C as a plain memref (of the
/// batch's matrix %bIdx).
static std::string cIndices(const KernelParams &p, StringRef row,
                            StringRef col) {
  if (p.cColumnMajor)
    return (col + ", " + row).str();
  if (!p.batched)
    return (row + ", " + col).str();
  if (p.cBatchMiddle)
    return (row + ", %bIdx, " + col).str();
  return ("%bIdx, " + row + ", " + col).str();
}


/// The high bits of a wgmma matrix descriptor for a 128B-swizzled f16/bf16
/// tile: SBO = 8 rows of 128 B either way; LBO is unused (1) for K-major
/// tiles and is the distance to the next 64-wide box (8 KiB) for MN-major
/// tiles, which are stored as [64 k rows][64 m|n] boxes.
static uint64_t descriptorHigh(bool kMajor) {
  uint64_t lbo = kMajor ? 1 : uint64_t(kBBoxBytes >> 4);
  return kSwizzle128B | (uint64_t(kAtomBytes >> 4) << kSboShift) |
         (lbo << kLboShift);
}

/// Bytes a wgmma k16 step advances the descriptor's start address: 16
/// elements along a 128-byte row (K-major) or 16 rows (MN-major).
static int64_t kStepBytes(bool kMajor) {
  // One wgmma's K is 32 bytes: 16 f16 / bf16 or 8 tf32 elements.
  return kMajor ? 32 : 16 * kSwizzleRowBytes;
}

/// Emits the TMA loads of one operand's tile of a stage into shared memory
/// at `%aOff + offset`: a K-major tile [rows][64 k] is one box (coordinates
/// innermost first: k, then row; one per matrix where N spans matrices
/// side by side); an MN-major tile is rows/64 boxes [64 k][64 rows-dim]
/// stacked 8 KiB apart (bTileRows: whole boxes). Either
/// way row r of the tile starts r * 128 bytes in (for MN-major: within its
/// box column), so with `shared` (the tile both blocks of a cluster use)
/// this block loads the half of the rows its cluster rank %rankX names and
/// multicasts it to both.
static void emitTileLoads(llvm::raw_ostream &os, const KernelParams &p,
                          StringRef name, StringRef tmap, StringRef tmapType,
                          bool kMajor, int64_t rows, int64_t offset,
                          StringRef origin, bool shared, bool middle,
                          const std::vector<int> &mapDims = {}) {
  std::string base = "%aOff", org = origin.str(), multicast;
  std::string eltType = p.memType();
  StringRef elt = eltType;
  if (shared) {
    rows /= 2;
    os << llvm::formatv(R"(
          %{0}HalfRows = arith.constant {1} : index
          %{0}PartRow = arith.muli %rankX, %{0}HalfRows : index
          %{0}Org = arith.addi {2}, %{0}PartRow : index
          %{0}HalfBytes = arith.constant {3} : index
          %{0}PartByte = arith.muli %rankX, %{0}HalfBytes : index
          %{0}Base = arith.addi %aOff, %{0}PartByte : index
)",
                        name, rows, origin, rows * kSwizzleRowBytes);
    base = ("%" + name + "Base").str();
    org = ("%" + name + "Org").str();
    multicast = " multicast_mask = %mcMask";
  }
  auto boxOf = [&](int64_t boxRows) {
    return mapDims.empty() ? boxType(p, boxRows, elt, middle)
                           : boxTypeOf(p, mapDims, boxRows, elt);
  };
  // B of a kernel whose N spans matrices laid side by side (foldsN): each
  // box's column n' is column n' mod foldN of matrix n' / foldN, and a
  // K-major tile loads one box per matrix it spans (or a part of one).
  const bool fold = name == "B" && p.foldsN();
  auto coords = [&](StringRef inner, StringRef outer, StringRef foldIdx) {
    return mapDims.empty() ? tmaCoords(p.operandsBatched(), inner, outer,
                                       middle, loadBatchIndex(p))
                           : coordsOf(mapDims, inner, outer, "%bIdx", "%c0",
                                      fold ? p.foldDim : -1, foldIdx);
  };
  const int64_t boxRows = kMajor ? (fold ? std::min(rows, p.foldN) : rows) : 64;
  const std::string type = boxOf(boxRows);
  for (int64_t b = 0; b < rows / boxRows; ++b) {
    os << llvm::formatv(
        R"(
          %{0}Off{1} = arith.constant {2} : index
          %{0}At{1} = arith.addi {3}, %{0}Off{1} : index
          %{0}Buf{1} = memref.view %dsm[%{0}At{1}][] : !smem to {4}
)",
        name, b,
        offset + (kMajor ? b * boxRows * kSwizzleRowBytes : b * kBBoxBytes),
        base, type);
    // The box's place along the tile's rows (an MN-major tile's: along its
    // columns), and with `fold` its matrix and column within it.
    std::string at = org, foldIdx;
    if (b > 0 || !kMajor) {
      os << llvm::formatv(R"(
          %{0}o{1}c = arith.constant {2} : index
          %{0}o{1} = arith.addi {3}, %{0}o{1}c : index
)",
                          name, b, b * boxRows, org);
      at = llvm::formatv("%{0}o{1}", name, b).str();
    }
    if (fold) {
      os << llvm::formatv(R"(
          %{0}f{1}W = arith.constant {2} : index
          %{0}f{1}E = arith.remui {3}, %{0}f{1}W : index
          %{0}f{1}H = arith.divui {3}, %{0}f{1}W : index
)",
                          name, b, p.foldN, at);
      foldIdx = llvm::formatv("%{0}f{1}H", name, b).str();
      at = llvm::formatv("%{0}f{1}E", name, b).str();
    }
    os << llvm::formatv(
        "          nvgpu.tma.async.load {0}[{1}], %full[%s] to %{2}Buf{3}{4} "
        ": {5}, !barT -> {6}\n",
        tmap, kMajor ? coords("%k0", at, foldIdx) : coords(at, "%k0", foldIdx),
        name, b, multicast, tmapType, type);
  }
}

/// The per-thread constants of the producer's cp.async copies (pack mode
/// "async"): producer thread t copies the 16-byte chunk t mod 8 of the
/// 128-byte rows t / 8, t / 8 + 16, ... of every tile. TMA's 128B swizzle
/// puts chunk c of row r at chunk c ^ (r mod 8) of the row (the stage
/// bases are 1024-byte aligned), and r mod 8 = (t / 8) mod 8 in every row
/// the thread copies: one shared offset per thread (%cpDst), plus
/// constant steps of 16 rows (2 KiB) and of 64-wide boxes (8 KiB).
static void emitAsyncSetup(llvm::raw_ostream &os, const KernelParams &p) {
  os << R"(
      %cpT = arith.subi %tid, %cLeader : index
      %cpC8 = arith.constant 8 : index
      %cpR = arith.divui %cpT, %cpC8 : index
      %cpCh = arith.remui %cpT, %cpC8 : index
      %cpR8 = arith.remui %cpR, %cpC8 : index
      %cpSw = arith.xori %cpCh, %cpR8 : index
      %cpC128 = arith.constant 128 : index
      %cpC16 = arith.constant 16 : index
      %cpDr = arith.muli %cpR, %cpC128 : index
      %cpDc = arith.muli %cpSw, %cpC16 : index
      %cpDst = arith.addi %cpDr, %cpDc : index
      %cpCol = arith.muli %cpCh, %cpC8 : index
)";
  for (auto [name, async] : {std::pair<StringRef, bool>{"A", p.aAsync},
                             {"B", p.bAsync}})
    if (async)
      os << llvm::formatv(R"(
      %cpG{0} = llvm.addrspacecast %p{0} : !llvm.ptr to !llvm.ptr<1>
      %cpG{0}i = llvm.ptrtoint %cpG{0} : !llvm.ptr<1> to i64
)",
                          name);
}

/// Emits the producer thread's cp.async copies of operand `name`'s tile of
/// the stage at `%aOff + offset` (see emitAsyncSetup and
/// KernelParams::aAsync): a K-major tile [tile][64 k] is rows
/// `origin` + (t / 8 + 16 a) at column %k0 + 8 (t mod 8); an MN-major one,
/// boxes b of [64 k][64], is k rows %k0 + t / 8 + 16 a (a < 4) at column
/// `origin` + 64 b + 8 (t mod 8). Pieces past the matrix's rows copy
/// nothing and pieces past its columns the bytes left, the rest of the 16
/// zero-filled (cp.async's source size), as TMA's out-of-bounds fill does;
/// a piece that copies nothing reads from the operand's base. `rows` x
/// `cols` is the matrix as the kernel reads it.
static void emitAsyncCopies(llvm::raw_ostream &os, const KernelParams &p,
                            StringRef name, bool kMajor, int64_t tile,
                            int64_t offset, StringRef origin, int64_t rows,
                            int64_t cols) {
  const int64_t eb = p.elementBytes();
  const int64_t rowElems = 128 / eb;
  StringRef rowOrigin = kMajor ? origin : "%k0";
  StringRef colOrigin = kMajor ? "%k0" : origin;
  // Pieces (a, b): 16-row steps a, 64-wide boxes b. `tile` is the block tile's extent along `origin` (blockM or blockN);
  // an MN-major tile copies whole 64-wide boxes (bTileRows). The columns
  // are always checked: rows that are not 128-byte multiples apart hold a
  // number of elements that no 64-wide tile column divides.
  // A K-major tile of fewer rows than 16 steps (8 to 56: a swapped
  // kernel's narrow B) copies the last step's rows in the threads whose
  // row t / 8 is inside the tile.
  const int64_t rowSteps = kMajor ? ceilDiv(tile, 16) : p.blockK / 16;
  const int64_t partialRows = kMajor ? tile % 16 : 0;
  if (partialRows)
    os << llvm::formatv(R"(
          %cp{0}Part = arith.constant {1} : index
          %cp{0}InPart = arith.cmpi ult, %cpR, %cp{0}Part : index
)",
                        name, partialRows);
  const int64_t boxes = kMajor ? 1 : ceilDiv(tile, rowElems);
  const bool rowCheck = rows % (kMajor ? tile : p.blockK) != 0;
  os << llvm::formatv(R"(
          %cp{0}rT = arith.addi {1}, %cpR : index
          %cp{0}cT = arith.addi {2}, %cpCol : index
          %cp{0}St = arith.constant {3} : index
          %cp{0}rS = arith.muli %cp{0}rT, %cp{0}St : index
          %cp{0}eT = arith.addi %cp{0}rS, %cp{0}cT : index
)",
                      name, rowOrigin, colOrigin, cols);
  std::string elem = ("%cp" + name + "eT").str();
  if (p.batched) {
    os << llvm::formatv(R"(
          %cp{0}Mat = arith.constant {1} : index
          %cp{0}bO = arith.muli %bIdx, %cp{0}Mat : index
          %cp{0}eB = arith.addi %cp{0}eT, %cp{0}bO : index
)",
                        name, rows * cols);
    elem = ("%cp" + name + "eB").str();
  }
  os << llvm::formatv(R"(
          %cp{0}eI = arith.index_cast {1} : index to i64
          %cp{0}Eb = arith.constant {2} : i64
          %cp{0}eY = arith.muli %cp{0}eI, %cp{0}Eb : i64
          %cp{0}Src = arith.addi %cpG{0}i, %cp{0}eY : i64
          %cp{0}Sm = arith.addi %base, %aOff : index
          %cp{0}Dt = arith.addi %cp{0}Sm, %cpDst : index
          %cp{0}D = arith.index_cast %cp{0}Dt : index to i32
)",
                      name, elem, eb);
  if (rowCheck)
    os << llvm::formatv(R"(
          %cp{0}Rows = arith.constant {1} : index
          %cp{0}rL = arith.subi %cp{0}Rows, %cp{0}rT : index
)",
                        name, rows);
  os << llvm::formatv(R"(
          %cp{0}Cols = arith.constant {1} : index
          %cp{0}cL = arith.subi %cp{0}Cols, %cp{0}cT : index
          %cp{0}Z = arith.constant 0 : index
          %cp{0}E8 = arith.constant 8 : index
          %cp{0}EbX = arith.constant {2} : index
)",
                        name, cols, eb);
  for (int64_t a = 0; a < rowSteps; ++a) {
    for (int64_t b = 0; b < boxes; ++b) {
      std::string id = llvm::formatv("{0}{1}_{2}", name, a, b).str();
      os << llvm::formatv(R"(
          %cpDo{0} = arith.constant {1} : i32
          %cpDa{0} = arith.addi %cp{2}D, %cpDo{0} : i32
          %cpDp{0} = llvm.inttoptr %cpDa{0} : i32 to !llvm.ptr<3>
          %cpSo{0} = arith.constant {3} : i64
          %cpSa{0} = arith.addi %cp{2}Src, %cpSo{0} : i64
)",
                          id, offset + a * 16 * kSwizzleRowBytes + b * kBBoxBytes,
                          name, (a * 16 * cols + b * rowElems) * eb);
      // Bytes to copy: 16, or what is left of the row (0 past its end);
      // 0 past the last row.
      os << llvm::formatv(R"(
          %cpBo{0} = arith.constant {1} : index
          %cpL{0} = arith.subi %cp{2}cL, %cpBo{0} : index
          %cpLz{0} = arith.maxsi %cpL{0}, %cp{2}Z : index
          %cpLe{0} = arith.minsi %cpLz{0}, %cp{2}E8 : index
          %cpLb{0} = arith.muli %cpLe{0}, %cp{2}EbX : index
)",
                          id, b * rowElems, name);
      std::string bytes = "%cpLb" + id;
      if (rowCheck) {
        os << llvm::formatv(R"(
          %cpRo{0} = arith.constant {1} : index
          %cpRv{0} = arith.cmpi sgt, %cp{2}rL, %cpRo{0} : index
          %cpRz{0} = arith.constant 0 : index
          %cpRb{0} = arith.select %cpRv{0}, {3}, %cpRz{0} : index
)",
                            id, 16 * a, name, bytes);
        bytes = "%cpRb" + id;
      }
      const bool partial = partialRows && a == rowSteps - 1;
      if (partial)
        os << llvm::formatv("          scf.if %cp{0}InPart {{\n", name);
      os << llvm::formatv(R"(
          %cpN{0} = arith.index_cast {1} : index to i32
          %cpZ{0} = arith.constant 0 : i32
          %cpAny{0} = arith.cmpi sgt, %cpN{0}, %cpZ{0} : i32
          %cpSs{0} = arith.select %cpAny{0}, %cpSa{0}, %cpG{2}i : i64
          %cpSp{0} = llvm.inttoptr %cpSs{0} : i64 to !llvm.ptr<1>
          nvvm.cp.async.shared.global %cpDp{0}, %cpSp{0}, 16, cache = cg, %cpN{0} : !llvm.ptr<3>, !llvm.ptr<1>, i32
)",
                          id, bytes, name);
      if (partial)
        os << "          }\n";
    }
  }
}

/// The fused prologue for the stage at `%s<sfx>`: on A, the warpgroup's
/// 8 KiB slab of the A tile (its 64 rows, whatever the layout), read by
/// its 128 threads 16 bytes at a time, 2 KiB apart; on B, the whole B tile
/// (shared by the warpgroups) split over all consumer threads. Each piece
/// is transformed element by element and written back; the generic-proxy
/// writes are fenced for the async proxy (wgmma reads through it) and the
/// threads that share the tile wait for each other. The stage's address
/// comes from the unmasked shared address (%pRing32): in a cluster the
/// descriptors' masked one is not an address.
static void emitPrologue(llvm::raw_ostream &os, StringRef sfx,
                         const KernelParams &p) {
  const int64_t threads = p.prologueA ? 128 : 128 * p.consumers();
  const int64_t stride = 16 * threads;
  const int64_t bytes =
      p.prologueA ? 64 * kSwizzleRowBytes : p.blockN * kSwizzleRowBytes;
  os << llvm::formatv(R"(
        %pS{0} = arith.index_cast %s{0} : index to i32
        %pSo{0} = arith.muli %pS{0}, %pStageBytes : i32
        %pSt{0} = arith.addi %pRing32, %pSo{0} : i32
        %pBase{0} = arith.addi %pSt{0}, %pThread : i32
)",
                      sfx);
  for (int64_t v = 0; v < bytes / stride; ++v) {
    os << llvm::formatv(R"(
        %pOff{0}{1} = arith.constant {2} : i32
        %pAd{0}{1} = arith.addi %pBase{1}, %pOff{0}{1} : i32
        %pP{0}{1} = llvm.inttoptr %pAd{0}{1} : i32 to !llvm.ptr<3>
        %pV{0}{1} = llvm.load %pP{0}{1} {{alignment = 16 : i64} : !llvm.ptr<3> -> vector<8x{3}>
)",
                        v, sfx, v * stride, p.inType);
    std::string vec = llvm::formatv("%pV{0}{1}", v, sfx).str();
    for (int64_t e = 0; e < 8; ++e) {
      os << llvm::formatv(R"(
        %pX{0}_{1}{2} = vector.extract {3}[{1}] : {4} from vector<8x{4}>
        %pY{0}_{1}{2} = func.call @{5}(%pX{0}_{1}{2}) : ({4}) -> {4}
        %pW{0}_{1}{2} = vector.insert %pY{0}_{1}{2}, {3} [{1}] : {4} into vector<8x{4}>
)",
                          v, e, sfx, vec, p.inType, kPrologueFuncName);
      vec = llvm::formatv("%pW{0}_{1}{2}", v, e, sfx).str();
    }
    os << llvm::formatv(R"(
        llvm.store {2}, %pP{0}{1} {{alignment = 16 : i64} : vector<8x{3}>, !llvm.ptr<3>
)",
                        v, sfx, vec, p.inType);
  }
  os << R"(
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        nvvm.barrier id = %pBar number_of_threads = %cPThreads
)";
}

/// The fused prologue on A in registers (`prologueInRegisters`): the base
/// address `%raSt<tag>` of the stage whose index is the SSA value `stage`.
static void emitRegisterAStage(llvm::raw_ostream &os, StringRef tag,
                               StringRef stage) {
  os << llvm::formatv(R"(
        %raS{0} = arith.index_cast {1} : index to i32
        %raSo{0} = arith.muli %raS{0}, %pStageBytes : i32
        %raSt{0} = arith.addi %pRing32, %raSo{0} : i32
)",
                      tag, stage);
}

/// Loads and transforms the A fragment of wgmma k-step `kk` from the stage
/// at `%raSt<tag>` into `%<out>0` .. `%<out>3`: each warp loads its 16 rows
/// of the warpgroup's A slab with one ldmatrix.x4 (A [m][k]: lanes 0-15
/// address rows 0-15 at columns 0-7, lanes 16-31 the same rows at columns
/// 8-15, through the 128B swizzle: chunk c of row r sits at chunk
/// c ^ (r % 8); A [k][m]: the same four 8x8 matrices from rows along K,
/// transposed by ldmatrix .trans), which leaves thread t holding exactly
/// wgmma's A fragment: rows t / 4 and t / 4 + 8, columns 2 (t % 4) +
/// {0, 1} and + 8. Each 16-bit element then goes through @tcgen_prologue.
static void emitRegisterAFragment(llvm::raw_ostream &os, StringRef tag,
                                  int64_t kk, StringRef out,
                                  const KernelParams &p) {
  const StringRef t = p.inType;
  os << llvm::formatv(R"(
        %raAd{2} = arith.addi %raSt{0}, %raOff{1} : i32
        %raP{2} = llvm.inttoptr %raAd{2} : i32 to !llvm.ptr<3>
        %raM{2} = nvvm.ldmatrix %raP{2} {{num = 4 : i32, layout = #nvvm.mma_layout<{3}>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
)",
                      tag, kk, out, p.aMNMajor ? "col" : "row");
  for (int64_t j = 0; j < 4; ++j)
    os << llvm::formatv(R"(
        %raR{0}_{1} = llvm.extractvalue %raM{0}[{1}] : !llvm.struct<(i32, i32, i32, i32)>
        %raV{0}_{1} = llvm.bitcast %raR{0}_{1} : i32 to vector<2x{2}>
        %raXa{0}_{1} = vector.extract %raV{0}_{1}[0] : {2} from vector<2x{2}>
        %raXb{0}_{1} = vector.extract %raV{0}_{1}[1] : {2} from vector<2x{2}>
        %raYa{0}_{1} = func.call @{3}(%raXa{0}_{1}) : ({2}) -> {2}
        %raYb{0}_{1} = func.call @{3}(%raXb{0}_{1}) : ({2}) -> {2}
        %raWa{0}_{1} = vector.insert %raYa{0}_{1}, %raV{0}_{1} [0] : {2} into vector<2x{2}>
        %raWb{0}_{1} = vector.insert %raYb{0}_{1}, %raWa{0}_{1} [1] : {2} into vector<2x{2}>
        %{0}{1} = llvm.bitcast %raWb{0}_{1} : vector<2x{2}> to i32
)",
                        out, j, t, kPrologueFuncName);
}

/// One wgmma m64nNk16 with A from registers (the fragment `%<frag>0..3`)
/// and B from descriptor `descB`, accumulating `input` into `%<name>`. The
/// NVVM wgmma op takes descriptors only, so this is the PTX itself: the
/// accumulators are tied operands, scale-d a predicate set from an i32.
static void emitRegisterAWgmma(llvm::raw_ostream &os, StringRef name,
                               StringRef frag, StringRef descB,
                               StringRef input, bool zeroScale,
                               const KernelParams &p) {
  const int64_t n = p.accRegs();
  std::string asmText = "{ .reg .pred p; setp.ne.b32 p, $" +
                        std::to_string(n + 5) + ", 0; " +
                        llvm::formatv("wgmma.mma_async.sync.aligned.m64n{0}k16."
                                      "f32.{1}.{1} {{",
                                      p.blockN, p.inType)
                            .str();
  for (int64_t i = 0; i < n; ++i)
    asmText += (i ? ", $" : "$") + std::to_string(i);
  asmText += llvm::formatv("}, {{${0}, ${1}, ${2}, ${3}}, ${4}, p, 1, 1, {5}; }",
                           n, n + 1, n + 2, n + 3, n + 4, p.bKMajor ? 0 : 1)
                 .str();
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  constraints += "r,r,r,r,l,r";
  for (int64_t i = 0; i < n; ++i)
    constraints += "," + std::to_string(i);
  std::string operands =
      llvm::formatv("%{0}0, %{0}1, %{0}2, %{0}3, {1}, {2}", frag, descB,
                    zeroScale ? "%raZero" : "%raOne")
          .str();
  std::string types = "i32, i32, i32, i32, i64, i32";
  for (int64_t i = 0; i < n; ++i) {
    os << llvm::formatv(
        "        %{0}i{1} = llvm.extractvalue {2}[{1}] : !acc\n", name, i,
        input);
    operands += llvm::formatv(", %{0}i{1}", name, i).str();
    types += ", f32";
  }
  os << llvm::formatv("        %{0} = llvm.inline_asm has_side_effects "
                      "asm_dialect = att \"{1}\", \"{2}\" {3} : ({4}) -> !acc\n",
                      name, asmText, constraints, operands, types);
}

/// Emits the consumer's wait for the stage of the k-tile whose ring counter
/// is `it` to be full: `%s<tag>` is the stage, `%par<tag>` the phase.
static void emitFullWait(llvm::raw_ostream &os, StringRef tag, StringRef it) {
  os << llvm::formatv(R"(
        %s{0} = arith.remui {1}, %cStages : index
        %round{0} = arith.divui {1}, %cStages : index
        %par{0} = arith.index_cast %round{0} : index to i1
        nvgpu.mbarrier.try_wait.parity %full[%s{0}], %par{0}, %ticks : !barT
)",
                      tag, it);
}

/// The addresses in the stage `%s<sfx>` of the k-tile: `%stage<sfx>` (its
/// base), `%aAddr<sfx>` (the warpgroup's A slab; unless `withA` is false)
/// and `%bAddr<sfx>` (its B tile), 64-bit shared addresses.
static void emitStageAddresses(llvm::raw_ostream &os, StringRef sfx,
                               bool withA) {
  os << llvm::formatv(R"(
        %sI{0} = arith.index_cast %s{0} : index to i64
        %so{0} = arith.muli %sI{0}, %cStageBytesI : i64
        %stage{0} = arith.addi %ring, %so{0} : i64
)",
                      sfx);
  if (withA)
    os << llvm::formatv(
        "        %aAddr{0} = arith.addi %stage{0}, %aSlab : i64\n", sfx);
  os << llvm::formatv(
      "        %bAddr{0} = arith.addi %stage{0}, %cATile : i64\n", sfx);
}

/// The wgmma descriptor `%d<X><kk><sfx>` of operand `x` ("a" or "b", X its
/// capital) for k-step kk, `offset` bytes into the operand's tile at
/// `%<x>Addr<sfx>`. Step 0 builds the tile's low word once (address >> 4
/// or'ed with the constant fields of `%desc<X>LoWord`); every step adds
/// offset / 16 to it (the start address, bits 0-13, never carries: shared
/// addresses stay below 2^18) and pairs it with the constant high word
/// (`%desc<X>HiWord`), one 32-bit add a step where a 64-bit add, shift and
/// or would be three 64-bit operations (each two uniform instructions in
/// SASS).
static void emitStepDescriptor(llvm::raw_ostream &os, StringRef x, int64_t kk,
                               StringRef sfx, int64_t offset) {
  if (kk == 0)
    os << llvm::formatv(R"(
        %{0}Sh{1} = arith.shrui %{0}Addr{1}, %c4i : i64
        %{0}Sh32{1} = arith.trunci %{0}Sh{1} : i64 to i32
        %{0}Lo{1} = arith.ori %desc{2}LoWord, %{0}Sh32{1} : i32
)",
                        x, sfx, x.upper());
  assert(offset % 16 == 0 && "descriptor offsets are 16-byte units");
  os << llvm::formatv(R"(
        %{0}OffK{1}{2} = arith.constant {3} : i32
        %{0}LoK{1}{2} = arith.addi %{0}Lo{2}, %{0}OffK{1}{2} : i32
        %{0}PairK{1}{2} = vector.from_elements %{0}LoK{1}{2}, %desc{4}HiWord : vector<2xi32>
        %{0}VecK{1}{2} = vector.bitcast %{0}PairK{1}{2} : vector<2xi32> to vector<1xi64>
        %d{4}{1}{2} = vector.extract %{0}VecK{1}{2}[0] : i64 from vector<1xi64>
)",
                      x, kk, sfx, offset / 16, x.upper());
}

/// One wgmma m64nNk16 on shared-memory descriptors: `%<name>` = `input`
/// plus A (`descA`) times B (`descB`), or A times B alone where `scaleZero`
/// (a tile's first k-step).
static void emitSmemWgmma(llvm::raw_ostream &os, StringRef name,
                          StringRef descA, StringRef descB, StringRef input,
                          bool scaleZero, const KernelParams &p) {
  os << llvm::formatv(R"(
        %{0} = nvvm.wgmma.mma_async {1}, {2}, {3}, #nvvm.shape<m = 64, n = {4}, k = {5}>, D [<f32>, #nvvm.wgmma_scale_out<{6}>], A [<{7}>, #nvvm.wgmma_scale_in<one>, <{8}>], B [<{7}>, #nvvm.wgmma_scale_in<one>, <{9}>] : !acc -> !acc
)",
                      name, descA, descB, input, p.blockN, p.wgmmaK(),
                      scaleZero ? "zero" : "one", p.inType,
                      // NVVM spells the PTX transpose bits as layouts: A
                      // row = K-major (trans-a 0), B col = K-major (trans-b
                      // 0).
                      p.aMNMajor ? "col" : "row", p.bKMajor ? "col" : "row");
}

/// The wgmmas of one k-tile for a warpgroup of several 64-row blocks
/// (`rowBlocks`): the B descriptors of every k-step, then per row block (its
/// A slab 8 KiB further on) its k-steps on its own accumulator, as cuBLAS
/// orders them. `input` names the row blocks' accumulators separated by
/// commas; returns the results likewise.
static std::string emitRowBlockWgmmas(llvm::raw_ostream &os, StringRef sfx,
                                      bool isFirst, StringRef input,
                                      const KernelParams &p) {
  const int64_t aStepBytes = kStepBytes(!p.aMNMajor);
  const int64_t bStepBytes = kStepBytes(p.bKMajor);
  const int64_t steps = p.blockK / p.wgmmaK();
  SmallVector<StringRef> inputs;
  input.split(inputs, ',');
  for (int64_t kk = 0; kk < steps; ++kk)
    emitStepDescriptor(os, "b", kk, sfx, kk * bStepBytes);
  std::string results;
  for (int64_t rb = 0; rb < p.rowBlocks; ++rb) {
    std::string rsfx = llvm::formatv("r{0}{1}", rb, sfx).str();
    os << llvm::formatv(
        "        %aAddr{0} = arith.addi %aAddr{1}, %cRowBlock{2} : i64\n", rsfx,
        sfx, rb);
    std::string prev = inputs[rb].trim().str();
    for (int64_t kk = 0; kk < steps; ++kk) {
      emitStepDescriptor(os, "a", kk, rsfx, kk * aStepBytes);
      std::string name = llvm::formatv("d{0}{1}", kk, rsfx).str();
      emitSmemWgmma(os, name, llvm::formatv("%dA{0}{1}", kk, rsfx).str(),
                    llvm::formatv("%dB{0}{1}", kk, sfx).str(), prev,
                    isFirst && kk == 0, p);
      prev = "%" + name;
    }
    results += (rb ? ", " : "") + prev;
  }
  os << R"(
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 1
)";
  return results;
}

/// Emits the consumer's work on one k-tile: wait for its stage, then
/// blockK / 16 wgmma m64nNk16 steps on descriptors that walk the stage, then
/// commit and wait until at most this group is in flight. SSA names carry
/// `sfx` so that the peeled copy and the loop body can coexist. `it` is the
/// k-tile's ring counter, `input` the accumulator it starts from. Returns
/// the name of the resulting accumulator.
static std::string emitKTile(llvm::raw_ostream &os, StringRef sfx, StringRef it,
                             bool isFirst, StringRef input,
                             const KernelParams &p) {
  const int64_t aStepBytes = kStepBytes(!p.aMNMajor);
  const int64_t bStepBytes = kStepBytes(p.bKMajor);
  emitFullWait(os, sfx, it);
  emitStageAddresses(os, sfx, /*withA=*/true);
  if (p.hasPrologue())
    emitPrologue(os, sfx, p);
  os << R"(
        nvvm.wgmma.fence.aligned
)";
  if (p.rowBlocks > 1)
    return emitRowBlockWgmmas(os, sfx, isFirst, input, p);
  std::string prev = input.str();
  for (int64_t kk = 0; kk < p.blockK / p.wgmmaK(); ++kk) {
    emitStepDescriptor(os, "a", kk, sfx, kk * aStepBytes);
    emitStepDescriptor(os, "b", kk, sfx, kk * bStepBytes);
    std::string name = llvm::formatv("d{0}{1}", kk, sfx).str();
    emitSmemWgmma(os, name, llvm::formatv("%dA{0}{1}", kk, sfx).str(),
                  llvm::formatv("%dB{0}{1}", kk, sfx).str(), prev,
                  isFirst && kk == 0, p);
    prev = "%" + name;
  }
  os << R"(
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 1
)";
  return prev;
}

static void emitRelease(llvm::raw_ostream &os, StringRef name, StringRef stage,
                        const KernelParams &p);

/// The consumer's work on one k-tile with A in registers
/// (`prologueInRegisters`). wgmma reads its A registers asynchronously,
/// and PTX forbids writing them before the group that reads them is
/// retired: a k-tile whose one group read fragments the next k-tile had
/// already rewritten gave wrong results from N = 192 on. So each k-step is
/// its own group with fragments of its own (F0 .. F3), and step kk first
/// loads the next step's fragment, then fences, multiplies, commits and
/// waits until at most two groups are in flight: the fragment a step
/// rewrites was last read three groups earlier (the pattern of CUTLASS's
/// register-A mainloop). The last step loads the next k-tile's F0 from
/// stage `next` after its own group is issued, so that waiting for that
/// stage does not hold back this k-tile's last wgmma. `f0` names this k-tile's F0 (`%<f0>0..3`); the
/// next k-tile's is `%raN<sfx>_0..3`. In the loop (not `isFirst`) the
/// previous k-tile's stage is released after step 1, when its last group is
/// retired. Returns the resulting accumulator.
static std::string emitKTileRegs(llvm::raw_ostream &os, StringRef sfx,
                                 StringRef it, StringRef next, bool isFirst,
                                 StringRef input, StringRef f0,
                                 const KernelParams &p) {
  const int64_t bStepBytes = kStepBytes(p.bKMajor);
  const int64_t steps = p.blockK / p.wgmmaK();
  os << llvm::formatv(R"(
        %s{0} = arith.remui {1}, %cStages : index
)",
                      sfx, it);
  emitStageAddresses(os, sfx, /*withA=*/false);
  emitRegisterAStage(os, sfx, llvm::formatv("%s{0}", sfx).str());
  std::string prev = input.str();
  for (int64_t kk = 0; kk < steps; ++kk) {
    if (kk + 1 < steps)
      emitRegisterAFragment(os, sfx, kk + 1,
                            llvm::formatv("raF{0}{1}_", kk + 1, sfx).str(), p);
    os << R"(
        nvvm.wgmma.fence.aligned
)";
    emitStepDescriptor(os, "b", kk, sfx, kk * bStepBytes);
    std::string name = llvm::formatv("d{0}{1}", kk, sfx).str();
    std::string frag =
        kk == 0 ? f0.str() : llvm::formatv("raF{0}{1}_", kk, sfx).str();
    emitRegisterAWgmma(os, name, frag, llvm::formatv("%dB{0}{1}", kk, sfx).str(),
                       prev, isFirst && kk == 0, p);
    prev = "%" + name;
    os << R"(
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 2
)";
    if (kk + 1 == steps) {
      // The next k-tile's F0, once this k-tile's last group is issued (its
      // stage may not have landed yet). The last k-tile loads its own
      // again: a harmless read of a stage it holds.
      emitFullWait(os, ("N" + sfx).str(), next);
      emitRegisterAStage(os, llvm::formatv("N{0}", sfx).str(),
                         llvm::formatv("%sN{0}", sfx).str());
      emitRegisterAFragment(os, llvm::formatv("N{0}", sfx).str(), 0,
                            llvm::formatv("raN{0}_", sfx).str(), p);
    }
    if (!isFirst && kk == 1) {
      os << R"(
        // The previous k-tile's groups are retired: release its stage.
        %prevIt = arith.subi %it, %c1 : index
        %ps = arith.remui %prevIt, %cStages : index
)";
      emitRelease(os, "tok", "%ps", p);
    }
  }
  return prev;
}

/// Emits the consumers' release of stage `stage` (an index SSA name) to the
/// producers. Without a cluster every consumer thread arrives on the
/// block's empty barrier. In a cluster both blocks' producers write the
/// stage (multicast), so it is free only once both blocks' consumers are
/// done with it: lane 0 of every consumer warp arrives on the empty barrier
/// of each block of the cluster (its own and the peer's, through `mapa`),
/// predicated rather than branched so that the wgmma chain stays on a
/// uniform path.
static void emitRelease(llvm::raw_ostream &os, StringRef name, StringRef stage,
                        const KernelParams &p) {
  if (p.clusterSize() == 1) {
    os << llvm::formatv(
        "        %{0} = nvgpu.mbarrier.arrive %empty[{1}] : !barT -> "
        "!nvgpu.mbarrier.token\n",
        name, stage);
    return;
  }
  // The two blocks' barriers of the stage: the cluster addresses of
  // barrier 0 (%emptyR0, %emptyR1, mapped once per consumer) plus 8 bytes
  // a stage.
  os << llvm::formatv(R"(
        %{0}Idx = arith.index_cast {1} : index to i32
        %{0}Off = arith.muli %{0}Idx, %c8bar : i32
        %{0}R0 = arith.addi %emptyR0, %{0}Off : i32
        %{0}R1 = arith.addi %emptyR1, %{0}Off : i32
        llvm.inline_asm has_side_effects asm_dialect = att "{{ .reg .pred p; setp.eq.u32 p, $2, 0; @p mbarrier.arrive.shared::cluster.b64 _, [$0]; @p mbarrier.arrive.shared::cluster.b64 _, [$1]; }", "r,r,r" %{0}R0, %{0}R1, %lane32 : (i32, i32, i32) -> ()
)",
                      name, stage);
}

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
static const char *kStreamKPartition = R"(
    %skW = arith.divui %cTiles, %nbl : index
    %skR = arith.remui %cTiles, %nbl : index
    %skRz = arith.cmpi eq, %skR, %c0 : index
    %skW1 = arith.cmpi ule, %skW, %c1 : index
    %skR2 = arith.addi %skR, %skR : index
    %skHalf = arith.cmpi uge, %skR2, %nbl : index
    %skRP = arith.addi %skR, %nbl : index
    %skRS = arith.select %skHalf, %skR, %skRP : index
    %skT1 = arith.select %skW1, %cTiles, %skRS : index
    %skTiles = arith.select %skRz, %c0, %skT1 : index
    %skUnits = arith.muli %skTiles, %cNumK : index
    %skP0 = arith.minui %nbl, %skUnits : index
    %skP = arith.maxui %skP0, %c1 : index
    %skB0 = arith.minui %bid, %skP : index
    %skS0 = arith.muli %skB0, %skUnits : index
    %skStart = arith.divui %skS0, %skP : index
    %bidNext = arith.addi %bid, %c1 : index
    %skB1 = arith.minui %bidNext, %skP : index
    %skE0 = arith.muli %skB1, %skUnits : index
    %skEnd = arith.divui %skE0, %skP : index
    %dpFirst = arith.addi %skTiles, %bid : index
)";

/// Opens the loop over this block's work items; defines %t (the tile),
/// %ks (its first k-tile), %len (how many k-tiles) and %it0 (the ring
/// counter at the item's start).
static void emitWorkLoopBegin(llvm::raw_ostream &os, const KernelParams &p) {
  if (!p.streamK) {
    // Data-parallel: cluster c (block c without clusters) computes cluster
    // tiles c, c + the number of clusters, ...
    os << llvm::formatv(R"(
      %itEnd = scf.for %t = %cid to %cUnits step %ncl iter_args(%it0 = %c0) -> (index) {{
        %ks = arith.constant 0 : index
        %len = {0}
)",
                        p.dynamicShape
                            ? std::string("arith.addi %cNumK, %c0 : index")
                            : llvm::formatv("arith.constant {0} : index",
                                            p.kTiles())
                                  .str());
    return;
  }
  // Stream-K items first, last to first (while %u > %skStart: the item
  // ends at unit %u), then whole tiles.
  os << R"(
      %wl:3 = scf.while (%u = %skEnd, %dt = %dpFirst, %it0 = %c0) : (index, index, index) -> (index, index, index) {
        %inSKc = arith.cmpi ugt, %u, %skStart : index
        %inDPc = arith.cmpi ult, %dt, %cTiles : index
        %more = arith.ori %inSKc, %inDPc : i1
        scf.condition(%more) %u, %dt, %it0 : index, index, index
      } do {
      ^bb0(%u: index, %dt: index, %it0: index):
        %inSK = arith.cmpi ugt, %u, %skStart : index
        // (Past the stream-K items %u - 1 may wrap; the selects drop it.)
        %uLast = arith.subi %u, %c1 : index
        %tS = arith.divui %uLast, %cNumK : index
        %tSk = arith.muli %tS, %cNumK : index
        %uFirst = arith.maxui %tSk, %skStart : index
        %ksS = arith.subi %uFirst, %tSk : index
        %lenS = arith.subi %u, %uFirst : index
        %t = arith.select %inSK, %tS, %dt : index
        %ks = arith.select %inSK, %ksS, %c0 : index
        %len = arith.select %inSK, %lenS, %cNumK : index
        %uN = arith.select %inSK, %uFirst, %u : index
        %dtAdv = arith.addi %dt, %nbl : index
        %dtN = arith.select %inSK, %dt, %dtAdv : index
)";
}

/// Closes the loop of emitWorkLoopBegin; %itNext is the ring counter after
/// the item.
static void emitWorkLoopEnd(llvm::raw_ostream &os, const KernelParams &p) {
  if (!p.streamK) {
    os << R"(
        scf.yield %itNext : index
      }
)";
    return;
  }
  os << R"(
        scf.yield %uN, %dtN, %itNext : index, index, index
      }
)";
}

/// Emits %{name}, the i64 index of this warpgroup's partial slot (and flag)
/// in the workspace of block `block`: block * consumers + warpgroup.
static void emitSlotIndex(llvm::raw_ostream &os, StringRef name,
                          StringRef block) {
  os << llvm::formatv(R"(
        %{0}B = arith.muli {1}, %cCons : index
        %{0}W = arith.addi %{0}B, %wg : index
        %{0} = arith.index_cast %{0}W : index to i64
)",
                      name, block);
}

/// Emits %{name}, a pointer to the ready flag of slot %{slot} (the flags
/// follow the partial slots of all blocks).
static void emitFlagPointer(llvm::raw_ostream &os, StringRef name,
                            StringRef slot) {
  os << llvm::formatv(R"(
          %{0}Off = arith.muli %{1}, %c4i : i64
          %{0}At = arith.addi %flagBase, %{0}Off : i64
          %{0} = llvm.getelementptr %wsG[%{0}At] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
)",
                      name, slot);
}

/// Emits %{name}, a pointer to thread %wtid's first float4 in slot %{slot};
/// float4 q follows at q * 2 KiB.
static void emitSlotPointer(llvm::raw_ostream &os, StringRef name,
                            StringRef slot) {
  os << llvm::formatv(R"(
        %{0}Slot = arith.muli %{1}, %cSlotBytes : i64
        %{0}Off = arith.addi %{0}Slot, %lt16 : i64
        %{0} = llvm.getelementptr %wsG[%{0}Off] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
)",
                      name, slot);
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
static void emitStreamKFixup(llvm::raw_ostream &os, const KernelParams &p) {
  const int64_t quads = p.accRegs() / 4;
  os << llvm::formatv(R"(
      %ksEnd = arith.addi %ks, %len : index
      %isContrib = arith.cmpi ult, %ksEnd, %cNumK : index
      %ksMid = arith.cmpi ugt, %ks, %c0 : index
      %notContrib = arith.xori %isContrib, %true : i1
      %isFinisher = arith.andi %ksMid, %notContrib : i1
      scf.if %isContrib {{
)");
  emitSlotIndex(os, "slotC", "%bid");
  emitSlotPointer(os, "pC", "slotC");
  for (int64_t q = 0; q < quads; ++q) {
    os << llvm::formatv(R"(
        %wp{0} = llvm.getelementptr %pC[{1}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
        %we{0}a = llvm.extractvalue %acc[{2}] : !acc
        %we{0}b = llvm.extractvalue %acc[{3}] : !acc
        %we{0}c = llvm.extractvalue %acc[{4}] : !acc
        %we{0}d = llvm.extractvalue %acc[{5}] : !acc
        %wv{0} = vector.from_elements %we{0}a, %we{0}b, %we{0}c, %we{0}d : vector<4xf32>
        llvm.store %wv{0}, %wp{0} {{alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
)",
                        q, q * 2048, 4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3);
  }
  os << R"(
        // Every thread's partial is written before thread 0 releases it.
        nvvm.barrier id = %namedBar number_of_threads = %c128n
        scf.if %isLt0 {
)";
  emitFlagPointer(os, "fpC", "slotC");
  os << R"(
          %oneI = arith.constant 1 : i32
          llvm.inline_asm has_side_effects asm_dialect = att "st.release.gpu.global.b32 [$0], $1;", "l,r" %fpC, %oneI : (!llvm.ptr<1>, i32) -> ()
        }
      }
      // The finisher waits for every earlier block whose range ends in this
      // tile (block %cb - 1 while block %cb starts inside it); the epilogue
      // adds their slots (%cLow ..< %bid).
      %cLow = scf.if %isFinisher -> (index) {
        %tStartU = arith.muli %t, %cNumK : index
        %fw = scf.while (%cb = %bid) : (index) -> (index) {
          %cbP = arith.minui %cb, %skP : index
          %cs0 = arith.muli %cbP, %skUnits : index
          %cs = arith.divui %cs0, %skP : index
          %inTile = arith.cmpi ugt, %cs, %tStartU : index
          scf.condition(%inTile) %cb : index
        } do {
        ^bb0(%cb: index):
          %cbPrev = arith.subi %cb, %c1 : index
          scf.if %isLt0 {
)";
  emitSlotIndex(os, "slotF", "%cbPrev");
  emitFlagPointer(os, "fpF", "slotF");
  os << R"(
            %oneW = arith.constant 1 : i32
            scf.while : () -> () {
              %flag = llvm.inline_asm has_side_effects asm_dialect = att "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l" %fpF : (!llvm.ptr<1>) -> i32
              %notReady = arith.cmpi ne, %flag, %oneW : i32
              scf.condition(%notReady)
            } do {
              scf.yield
            }
            // Consumed: zero again for the next launch.
            %zeroI = arith.constant 0 : i32
            llvm.inline_asm has_side_effects asm_dialect = att "st.relaxed.gpu.global.b32 [$0], $1;", "l,r" %fpF, %zeroI : (!llvm.ptr<1>, i32) -> ()
          }
          scf.yield %cbPrev : index
        }
        nvvm.barrier id = %namedBar number_of_threads = %c128n
        scf.yield %fw : index
      } else {
        scf.yield %bid : index
      }
      scf.if %notContrib {
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %cSlotStride = arith.muli %cSlotBytes, %cConsI : i64
)";
  emitSlotIndex(os, "sumSlot", "%cLow");
  emitSlotPointer(os, "sumBase", "sumSlot");
}

/// Quads of partial accumulators a finisher loads in one loop: their loads
/// are in flight together (one L2 round trip per group instead of one per
/// quad) while the extra registers (2 x 4 per quad) stay within the
/// consumers' budget.
constexpr int64_t kPartialGroup = 8;

/// Stream-K: the sums of the partial slots (%cLow ..< %bid) for the
/// accumulator quads [first, first + count) (a zero-trip loop unless
/// this block finishes a split tile); result #i is quad first + i. One
/// pointer walks the slots, and the quads are constant offsets from it.
static void emitPartialSums(llvm::raw_ostream &os, int64_t first,
                            int64_t count) {
  std::string inits, types, args, yields;
  for (int64_t i = 0; i < count; ++i) {
    inits += llvm::formatv("%sv{0} = %zero4, ", i).str();
    types += "vector<4xf32>, ";
    yields += llvm::formatv("%svN{0}, ", i).str();
  }
  os << llvm::formatv(R"(
      %ps{0}:{1} = scf.for %cb = %cLow to %bid step %c1 iter_args({2}%pp = %sumBase) -> ({3}!llvm.ptr<1>) {{
)",
                      first, count + 1, inits, types);
  for (int64_t i = 0; i < count; ++i)
    os << llvm::formatv(R"(
        %rp{0} = llvm.getelementptr %pp[{1}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
        %rv{0} = llvm.load %rp{0} {{alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
)",
                        i, (first + i) * 2048);
  for (int64_t i = 0; i < count; ++i)
    os << llvm::formatv(
        "        %svN{0} = arith.addf %sv{0}, %rv{0} : vector<4xf32>\n", i);
  os << llvm::formatv(R"(
        %ppN = llvm.getelementptr %pp[%cSlotStride] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
        scf.yield {0}%ppN : {1}!llvm.ptr<1>
      }
)",
                      yields, types);
}

/// The memref type of extra epilogue operand `e`.
static std::string epilogueOperandType(const KernelParams &p,
                                       const KernelParams::EpilogueOperand &e) {
  if (e.kind == "scalar")
    return "memref<" + e.type + ">";
  // Sizes known at run time only: a view of the run-time size
  // (epilogueViews) over the parameter; a matrix's rows are its run-time
  // row stride apart.
  if (p.dynamicShape)
    return e.kind == "matrix" ? "memref<?x?x" + e.type + ", strided<[?, 1]>>"
                              : "memref<?x" + e.type + ">";
  // (With matrices side by side in N, a row vector is one matrix's.)
  if (e.kind == "row")
    return llvm::formatv("memref<{0}x{1}>", p.foldsN() ? p.foldN : p.n, e.type)
        .str();
  if (e.kind == "col")
    return llvm::formatv("memref<{0}x{1}>", p.m, e.type).str();
  // A matrix operand of a batch has C's shape: one matrix per batch entry
  // (vectors and scalars are shared by the whole batch).
  if (p.multiBatch()) {
    std::string shape;
    for (int64_t extent : p.batchShape)
      shape += std::to_string(extent) + "x";
    return llvm::formatv("memref<{0}{1}x{2}x{3}>", shape, p.m, p.n, e.type)
        .str();
  }
  if (p.batched)
    return llvm::formatv("memref<{0}x{1}x{2}x{3}>", p.batch, p.m, p.n, e.type)
        .str();
  // Stored like C: [n][m] where C is column-major.
  if (p.cColumnMajor)
    return llvm::formatv("memref<{0}x{1}x{2}>", p.n, p.m, e.type).str();
  return llvm::formatv("memref<{0}x{1}x{2}>", p.m, p.n, e.type).str();
}

/// The kernel parameters of the extra epilogue operands.
static std::string epilogueParams(const KernelParams &p) {
  std::string s;
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    s += int64_t(k) == p.tmaEpilogueOperand
             ? llvm::formatv(", %pE{0}: !llvm.ptr", k).str()
         : p.dynamicShape && e.kind != "scalar"
             ? llvm::formatv(", %E{0}raw: memref<1x{1}>", k, e.type).str()
             : llvm::formatv(", %E{0}: {1}", k, epilogueOperandType(p, e))
                   .str();
  return s;
}

/// Sizes known at run time only: the row, column and matrix operands
/// arrive as bare pointers (%E<k>raw, a memref<1 x T> parameter) and are
/// viewed at the run-time N or M, a matrix at M x N with its run-time row
/// stride (%E<k>stride, a parameter after the sizes).
static std::string epilogueViews(const KernelParams &p) {
  std::string s;
  if (!p.dynamicShape)
    return s;
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands)) {
    if (e.kind == "matrix")
      s += llvm::formatv("\n    %E{0} = memref.reinterpret_cast %E{0}raw to "
                         "offset: [0], sizes: [%sizeM, %sizeN], strides: "
                         "[%E{0}stride, 1] : memref<1x{1}> to {2}",
                         k, e.type, epilogueOperandType(p, e))
               .str();
    else if (e.kind != "scalar")
      s += llvm::formatv("\n    %E{0} = memref.reinterpret_cast %E{0}raw to "
                         "offset: [0], sizes: [{1}], strides: [1] : "
                         "memref<1x{2}> to memref<?x{2}>",
                         k, e.kind == "row" ? "%sizeN" : "%sizeM", e.type)
               .str();
  }
  return s;
}

/// Sizes known at run time only: the size parameters, then the row stride
/// of each matrix epilogue operand.
static std::string dynamicParams(const KernelParams &p) {
  if (!p.dynamicShape)
    return "";
  std::string s = ", %sizeM: index, %sizeN: index, %sizeK: index";
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    if (e.kind == "matrix")
      s += llvm::formatv(", %E{0}stride: index", k).str();
  return s;
}

/// The declaration of the epilogue function the kernel calls.
static std::string epilogueDecl(const KernelParams &p) {
  std::string s;
  if (p.callsPrologue())
    s += llvm::formatv("\n  func.func private @{0}({1}) -> {1}",
                       kPrologueFuncName, p.inType)
             .str();
  if (!p.fusedEpilogue)
    return s;
  // Computed on pairs (epilogueInHalf): every argument and the result are
  // vector<2 x T>.
  auto type = [&](const std::string &t) {
    return p.epilogueInHalf ? "vector<2x" + t + ">" : t;
  };
  s += llvm::formatv("\n  func.func private @{0}({1}", kEpilogueFuncName,
                     type(p.matmulType))
           .str();
  for (const KernelParams::EpilogueOperand &e : p.epilogueOperands)
    s += ", " + type(e.type);
  return s + ") -> " + type(p.outType);
}

/// The index of fragment row `r` (0: %row0, 1: %row1) for extra-operand
/// loads: clamped to the last row where a tile reaches past M, so that the
/// load stays inside the operand (the value is not stored).
static std::string loadRow(const KernelParams &p, int r) {
  return llvm::formatv(p.clampedLoads(/*alongM=*/true) ? "%row{0}c" : "%row{0}",
                       r);
}

/// The index of fragment column group j's pair for extra-operand loads:
/// clamped to the last pair where a tile reaches past N.
static std::string loadCol(const KernelParams &p, int64_t j) {
  return llvm::formatv(
      p.clampedLoads(/*alongM=*/false) ? "%col{0}c" : "%col{0}", j);
}

/// Defines, where tiles reach past N, %col<j>c (the clamped load column)
/// and %col<j>in (whether the pair is inside C; N is even, so a pair is
/// wholly inside or outside).
static void emitColumnEdge(llvm::raw_ostream &os, const KernelParams &p,
                           int64_t j) {
  // Clamped load columns only where extra operands are loaded. Odd N: the
  // pair's elements are loaded and stored one at a time, each clamped to
  // (or masked at) the last column.
  const bool loads = !p.epilogueOperands.empty();
  if (loads && p.clampedLoads(/*alongM=*/false))
    os << llvm::formatv(
        "      %col{0}c = arith.minui %col{0}, %cLastPair : index\n", j);
  // Stores are masked only where tiles reach past N (with sizes known at
  // run time only, TMA stores clip them).
  const bool ragged = p.ragged(/*alongM=*/false);
  if (ragged)
    os << llvm::formatv(
        "      %col{0}in = arith.cmpi ult, %col{0}, %cN : index\n", j);
  // (C stored [n][m] with transposed stores: its matrix operands are
  // still loaded one element at a time.)
  if (!(p.elementwiseC() || p.cColumnMajor) || (!ragged && !loads))
    return;
  os << llvm::formatv("      %col{0}n = arith.addi %col{0}, %c1 : index\n", j);
  if (ragged)
    os << llvm::formatv(
        "      %col{0}in1 = arith.cmpi ult, %col{0}n, %cN : index\n", j);
  // The elements' load columns: clamped to the last column at the edge.
  if (loads && ragged)
    os << llvm::formatv(R"(
      %col{0}c0 = arith.minui %col{0}, %cLastCol : index
      %col{0}c1 = arith.minui %col{0}n, %cLastCol : index
)",
                        j);
  else if (loads)
    os << llvm::formatv(R"(
      %col{0}c0 = arith.addi %col{0}, %c0 : index
      %col{0}c1 = arith.addi %col{0}n, %c0 : index
)",
                        j);
}

/// Loads, once per tile, the column-vector operands at the thread's two
/// fragment rows: %colE<k>a at %row0, %colE<k>b at %row1.
static void emitColumnOperandLoads(llvm::raw_ostream &os,
                                   const KernelParams &p) {
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    if (e.kind == "col")
      os << llvm::formatv(R"(
      %colE{0}a = memref.load %E{0}[{2}] : {1}
      %colE{0}b = memref.load %E{0}[{3}] : {1}
)",
                          k, epilogueOperandType(p, e), loadRow(p, 0),
                          loadRow(p, 1));
}

/// Fragment column groups whose extra-operand loads are issued together,
/// before their arithmetic and stores: one exposed load latency per group
/// instead of per column group (the loads cannot pass the stores before
/// them: the operands may alias C as far as LLVM knows).
constexpr int64_t kEpilogueLoadGroup = 8;

/// Defines %col<j> and loads the row-vector and matrix operands of fragment
/// column group j: %rowE<k>_<j>x{0,1} and %matE<k>_<j>{ab,cd}x{0,1}.
static void emitFusedLoads(llvm::raw_ostream &os, const KernelParams &p,
                           int64_t j) {
  os << llvm::formatv(R"(
      %cj{0} = arith.constant {1} : index
      %col{0} = arith.addi %colBase, %cj{0} : index
)",
                      j, 8 * j);
  emitColumnEdge(os, p, j);
  for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
    if (op.kind != "row" && op.kind != "matrix")
      continue;
    // Read from the chunk buffer instead (emitEpilogueOperandPair).
    if (int64_t(k) == p.tmaEpilogueOperand)
      continue;
    std::string type = epilogueOperandType(p, op);
    SmallVector<std::pair<std::string, std::string>> loads;
    if (op.kind == "row")
      loads.push_back({llvm::formatv("%rowE{0}_{1}", k, j).str(), ""});
    else {
      // A batch's matrix operand: the tile's matrix first.
      std::string matrix = p.batched && !p.multiBatch() ? "%bIdx, " : "";
      for (size_t i = 0; p.multiBatch() && i < p.batchShape.size(); ++i)
        matrix += "%bIdx" + std::to_string(i) + ", ";
      loads = {{llvm::formatv("%matE{0}_{1}ab", k, j).str(),
                matrix + loadRow(p, 0) + ", "},
               {llvm::formatv("%matE{0}_{1}cd", k, j).str(),
                matrix + loadRow(p, 1) + ", "}};
    }
    for (auto &[vec, row] : loads) {
      if (p.elementwiseC() || (p.cColumnMajor && op.kind == "matrix")) {
        // Pairs are not aligned (odd N), or not contiguous (a matrix
        // stored [n][m]): one element at a time.
        for (int x = 0; x < 2; ++x) {
          std::string col = llvm::formatv("%col{0}c{1}", j, x).str();
          std::string at =
              p.cColumnMajor && op.kind == "matrix"
                  ? col + ", " + StringRef(row).drop_back(2).str()
                  : row + col;
          os << llvm::formatv("      {0}x{1} = memref.load %E{2}[{3}] : {4}\n",
                              vec, x, k, at, type);
        }
        continue;
      }
      // Matrices side by side in N: a row vector is indexed by the
      // column within the pair's matrix.
      std::string col = loadCol(p, j);
      if (op.kind == "row" && p.foldsN()) {
        os << llvm::formatv(R"(
      %cFold{0}_{1} = arith.constant {2} : index
      %colF{0}_{1} = arith.remui {3}, %cFold{0}_{1} : index
)",
                            k, j, p.foldN, col);
        col = llvm::formatv("%colF{0}_{1}", k, j).str();
      }
      os << llvm::formatv(
          "      {0} = vector.load %E{1}[{2}{3}] : {4}, vector<2x{5}>\n", vec,
          k, row, col, type, op.type);
      for (int x = 0; x < 2; ++x)
        os << llvm::formatv("      {0}x{1} = vector.extract {0}[{1}] : {2} "
                            "from vector<2x{2}>\n",
                            vec, x, op.type);
    }
  }
}

/// Whether C has a single column in the kernel's terms and is stored
/// [n][m] (a swapped kernel at M = 1): each pair's second element lies past
/// C, and ptxas serialized the wgmma chain (C7514) when the pair was
/// rounded in one packed cvt (M = 1 with N not a multiple of the tile, or
/// with a fused epilogue; docs/log/NOTES.md), but not with two truncf.
static bool singleCColumn(const KernelParams &p) {
  return p.cColumnMajor && p.n == 1;
}

/// Emits the fused epilogue of the element pair {0,1} of fragment column
/// group j in the rows of `half` ("ab": %row0, "cd": %row1), whose f32
/// values are `%<e><half[0]>`, `%<e><half[1]>`; defines `%v<j><half>h`, a
/// vector<2 x outType>. The row and matrix operands were loaded ahead by
/// emitFusedLoads.
static void emitFusedPair(llvm::raw_ostream &os, const KernelParams &p,
                          int64_t j, StringRef half, StringRef e) {
  std::string v = llvm::formatv("%v{0}{1}", j, half).str();
  // One element of each extra operand for each of the two columns.
  SmallVector<std::array<std::string, 2>> ext;
  for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
    if (op.kind == "scalar") {
      ext.push_back({llvm::formatv("%sclE{0}", k).str(),
                     llvm::formatv("%sclE{0}", k).str()});
    } else if (op.kind == "col") {
      std::string name =
          llvm::formatv("%colE{0}{1}", k, half == "ab" ? "a" : "b").str();
      ext.push_back({name, name});
    } else {
      // Row vectors are the same for both halves.
      std::string vec = op.kind == "row"
                            ? llvm::formatv("%rowE{0}_{1}", k, j).str()
                            : llvm::formatv("%matE{0}_{1}{2}", k, j, half).str();
      ext.push_back({vec + "x0", vec + "x1"});
    }
  }
  // Rounding to a 16-bit matmul type converts the pair at once, in one
  // packed cvt.rn.f16x2.f32: ptxas serializes the wgmma chain (C7514) when
  // scalar cvt.rn.f16.f32 read the accumulator registers, and LLVM splits
  // a vector truncf into those.
  // The exception is a swapped kernel with M = 1 (singleCColumn): there
  // the packed cvt serialized the chain, and plain truncf does not.
  if (p.matmulType != "f32" && singleCColumn(p))
    os << llvm::formatv(R"(
      {0}r0 = arith.truncf {1}{2} : f32 to {4}
      {0}r1 = arith.truncf {1}{3} : f32 to {4}
)",
                        v, e, half[0], half[1], p.matmulType);
  else if (p.matmulType != "f32") {
    os << llvm::formatv(R"(
      {0}p = llvm.inline_asm "cvt.rn.{4}x2.f32 $0, $1, $2;", "=r,f,f" {1}{3}, {1}{2} : (f32, f32) -> i32
      {0}r = llvm.bitcast {0}p : i32 to vector<2x{4}>
)",
                        v, e, half[0], half[1], p.matmulType);
    // The elements, for the epilogue computed element by element.
    if (!p.epilogueInHalf)
      os << llvm::formatv(R"(
      {0}r0 = vector.extract {0}r[0] : {1} from vector<2x{1}>
      {0}r1 = vector.extract {0}r[1] : {1} from vector<2x{1}>
)",
                          v, p.matmulType);
  }
  if (p.epilogueInHalf) {
    // The pair at once: the rounded accumulators as a vector, each operand's
    // pair (row and matrix operands are loaded as pairs; a column or scalar
    // element is the same for both).
    std::string args = llvm::formatv("{0}r", v).str();
    std::string types = "vector<2x" + p.matmulType + ">";
    for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
      std::string vecType = "vector<2x" + op.type + ">";
      std::string arg;
      if (op.kind == "row")
        arg = llvm::formatv("%rowE{0}_{1}", k, j).str();
      else if (op.kind == "matrix")
        arg = llvm::formatv("%matE{0}_{1}{2}", k, j, half).str();
      else {
        arg = llvm::formatv("{0}b{1}", v, k).str();
        os << llvm::formatv("      {0} = vector.broadcast {1} : {2} to {3}\n",
                            arg, ext[k][0], op.type, vecType);
      }
      args += ", " + arg;
      types += ", " + vecType;
    }
    os << llvm::formatv("      {0}h = func.call @{1}({2}) : ({3}) -> "
                        "vector<2x{4}>\n",
                        v, kEpilogueFuncName, args, types, p.outType);
    return;
  }
  std::string results[2];
  // With a single column of C (singleCColumn) the pair's second element
  // lies past C and is never stored: the epilogue computes the first only
  // (with GELU's tanh on both, ptxas serialized the wgmma chain, C7514).
  const int computed = singleCColumn(p) ? 1 : 2;
  for (int x = 0; x < computed; ++x) {
    std::string acc = p.matmulType != "f32"
                          ? llvm::formatv("{0}r{1}", v, x).str()
                          : llvm::formatv("{0}{1}", e, half[x]).str();
    std::string args = acc, types = p.matmulType;
    for (auto [k, op] : llvm::enumerate(p.epilogueOperands)) {
      args += ", " + ext[k][x];
      types += ", " + op.type;
    }
    results[x] = llvm::formatv("{0}y{1}", v, x).str();
    os << llvm::formatv("      {0} = func.call @{1}({2}) : ({3}) -> {4}\n",
                        results[x], kEpilogueFuncName, args, types, p.outType);
  }
  if (computed == 1)
    results[1] = results[0];
  os << llvm::formatv(
      "      {0}h = vector.from_elements {1}, {2} : vector<2x{3}>\n", v,
      results[0], results[1], p.outType);
}

/// The TMA-loaded epilogue operand's per-tile values, named %<px>...: the
/// warpgroup's chunk buffers' base (an index into %dsm), its first
/// mbarrier, its first row, the bytes of a chunk.
static void emitEpilogueOperandBase(llvm::raw_ostream &os,
                                    const KernelParams &p, StringRef px) {
  os << llvm::formatv(R"(
      %{0}C2 = arith.constant 2 : index
      %{0}C64 = arith.constant 64 : index
      %{0}RingOff = arith.constant {1} : index
      %{0}Ring = arith.addi %pad, %{0}RingOff : index
      %{0}WgBytes = arith.constant {2} : index
      %{0}Tx = arith.constant {3} : index
      %{0}Bar0 = arith.muli %wg, %{0}C2 : index
      %{0}WgRow = arith.muli %wg, %{0}C64 : index
      %{0}y = arith.addi %m0, %{0}WgRow : index
      %{0}WgOff = arith.muli %wg, %{0}WgBytes : index
      %{0}Bufs = arith.addi %{0}Ring, %{0}WgOff : index
)",
                      px, p.stages * p.stageBytes(), 2 * kStoreChunkBytes,
                      kStoreChunkBytes);
}

/// TMA-store epilogue of a tile: the warpgroup's two chunk buffers follow
/// the ring (the first at %stB, a 32-bit shared address), and %stT is the
/// thread's fixed part of its store addresses in it. A chunk is
/// 64 rows x 128 bytes, 128B-swizzled as the tensor map of C says: the
/// 16-byte unit u of row r lives at unit u ^ (r % 8). The thread's fragment
/// rows are r = 16 * warp + lane / 4 and r + 8, so r % 8 = lane / 4 for
/// both; with 16-bit C column group jj of the chunk is unit jj and the
/// thread's pair sits (lane % 4) * 4 bytes in; with f32 C group jj spans
/// units 2jj and 2jj + 1, the thread's pair in unit 2jj + (lane % 4) / 2 at
/// (lane % 4) % 2 * 8 bytes. Unit u ^ key is (16u) ^ (16 key) in bytes, so
/// each store adds (its constant unit offset) ^ %stX, the buffer's offset
/// and 1 KiB for row r + 8 to %stT.
static void emitStoreSetup(llvm::raw_ostream &os, const KernelParams &p) {
  // Emitted per tile, after the fragment coordinates (%wRow, %lRow, %lq)
  // of the epilogue, which come from the per-tile thread index. The buffer
  // (8 KiB) and row-half (1 KiB) offsets of a store are constants added
  // last.
  os << llvm::formatv(R"(
      // TMA-store epilogue: buffers, barrier, and this thread's addresses.
      %epiLeader = arith.cmpi eq, %wtidE, %c0 : index
      %c1e = arith.constant 1 : i32
      %epiBar = arith.addi %wg32, %c1e : i32
      %c128e = arith.constant 128 : i32
      %ringAddr32 = arith.trunci %ringAddr : i64 to i32
      %cStoreBase = arith.constant {0} : i32
      %cWgStore = arith.constant {1} : i32
      %stR = arith.addi %ringAddr32, %cStoreBase : i32
      %stW = arith.muli %wg32, %cWgStore : i32
      %stB = arith.addi %stR, %stW : i32
      %c4e = arith.constant 4 : i32
      %c16e = arith.constant 16 : i32
      %c128eI = arith.constant 128 : i32
      %eRowIdx = arith.addi %wRow, %lRow : index
      %eRow = arith.index_cast %eRowIdx : index to i32
      %eRowOff = arith.muli %eRow, %c128eI : i32
      %eKey = arith.index_cast %lRow : index to i32
      %eQ = arith.index_cast %lq : index to i32
)",
                      p.stages * p.stageBytes(),
                      2 * kStoreChunkBytes);
  if (p.outType == "f32")
    os << R"(
      %c1eI = arith.constant 1 : i32
      %c8e = arith.constant 8 : i32
      %eH = arith.shrui %eQ, %c1eI : i32
      %eKH = arith.xori %eKey, %eH : i32
      %stX = arith.muli %eKH, %c16e : i32
      %eQ1 = arith.andi %eQ, %c1eI : i32
      %eIn = arith.muli %eQ1, %c8e : i32
)";
  else
    os << R"(
      %stX = arith.muli %eKey, %c16e : i32
      %eIn = arith.muli %eQ, %c4e : i32
)";
  os << R"(
      %eT = arith.addi %eRowOff, %eIn : i32
      %stT = arith.addi %stB, %eT : i32
)";
  if (p.transposedStore())
    // stmatrix.trans of two 8x8 blocks (kernel rows 16w..16w+7 and
    // 16w+8..16w+15 of column group j): lane L gives row L % 8 of block
    // (L / 8) % 2 in C's terms, the kernel's column 8 j + L % 8, whose 8
    // elements (kernel rows, C's columns) are 16-byte unit 2 w + block of
    // the chunk's 128-byte row, 128B-swizzled by the row: chunk row r,
    // unit u at r * 128 + (u ^ (r % 8)) * 16.
    os << R"(
      %c8t = arith.constant 8 : index
      %tLi = arith.remui %lane, %c8t : index
      %tLb0 = arith.divui %lane, %c8t : index
      %tLb = arith.remui %tLb0, %c2 : index
      %tW2 = arith.muli %warp, %c2 : index
      %tU0 = arith.addi %tW2, %tLb : index
      %tU = arith.xori %tU0, %tLi : index
      %tUo = arith.muli %tU, %c16 : index
      %c128t = arith.constant 128 : index
      %tRo = arith.muli %tLi, %c128t : index
      %tO = arith.addi %tRo, %tUo : index
      %tOI = arith.index_cast %tO : index to i32
      %stTr = arith.addi %stB, %tOI : i32
)";
  if (p.tmaEpilogueOperand >= 0) {
    os << R"(
      // The TMA-loaded epilogue operand: this item's number among the
      // block's.
      %eeDone = arith.subi %t, %cid : index
      %eeItem = arith.divui %eeDone, %ncl : index
)";
    emitEpilogueOperandBase(os, p, "ee");
  }
}

/// Before chunk c's shared stores: its buffer (c % 2) is free once the TMA
/// store that last read it has read it. Within a tile that is the store
/// before the previous one (at most one in flight); the first chunk of a
/// tile waits for all, as the last tile's final chunk may have used the
/// same buffer. Every thread waits on and commits its own bulk groups; only
/// the first thread has any (its TMA stores are predicated, not branched:
/// with branches around them ptxas spilled 72 bytes when A is MN-major).
static void emitStoreChunkBegin(llvm::raw_ostream &os, const KernelParams &p,
                                int64_t c) {
  // Staged stores: the barrier alone frees the buffer (every thread has
  // read it out in program order before it arrives).
  // With an epilogue operand loaded through the buffers, chunk c loads
  // chunk c + 1 into the buffer chunk c - 1 was stored from: wait for
  // every store (emitEpilogueOperandLoad).
  if (p.tmaStore)
    os << llvm::formatv(R"(
      nvvm.cp.async.bulk.wait_group {0} {{read}
)",
                        c == 0 || p.tmaEpilogueOperand >= 0 ? 0 : 1);
  os << R"(
      nvvm.barrier id = %epiBar number_of_threads = %c128e
)";
}

/// Staged stores of chunk c (64 rows x 128 bytes of C, 128B-swizzled like
/// a TMA store's): once the warpgroup has written it, warp w reads rows w,
/// w + 4, ... and lane l the columns l (f32) or l and l + 32 (16-bit) of
/// each, so that one store instruction writes 128 contiguous bytes of a row
/// of C; elements past M or N are not stored.
static void emitStagedChunkStore(llvm::raw_ostream &os, const KernelParams &p,
                                 int64_t c, int64_t col) {
  const int64_t eb = p.outType == "f32" ? 4 : 2;
  const int64_t perLane = p.storeChunkCols() / 32;
  os << llvm::formatv(R"(
      nvvm.barrier id = %epiBar number_of_threads = %c128e
      %sgc{0} = arith.constant {1} : index
      %sgn{0} = arith.addi %n0, %sgc{0} : index
      %sgBuf{0} = arith.constant {2} : i32
      %sgB{0} = arith.addi %stB, %sgBuf{0} : i32
      %sgM{0} = arith.constant {3} : index
      %sgN{0} = arith.constant {4} : index
      %sg16{0} = arith.constant 16 : index
      %sg1{0} = arith.constant 1 : index
      %sg0{0} = arith.constant 0 : index
      scf.for %sgi{0} = %sg0{0} to %sg16{0} step %sg1{0} {{
        %sgr4{0} = arith.muli %sgi{0}, %c4 : index
        %sgr{0} = arith.addi %sgr4{0}, %warp : index
        %sgrI{0} = arith.index_cast %sgr{0} : index to i32
        %sg7{0} = arith.constant 7 : i32
        %sgKey{0} = arith.andi %sgrI{0}, %sg7{0} : i32
        %sgRowB{0} = arith.muli %sgrI{0}, %c128eI : i32
        %sgRowA{0} = arith.addi %sgB{0}, %sgRowB{0} : i32
        %sgGr0{0} = arith.addi %m0, %wgRow : index
        %sgGr{0} = arith.addi %sgGr0{0}, %sgr{0} : index
        %sgRin{0} = arith.cmpi ult, %sgGr{0}, %sgM{0} : index
)",
                      c, col, c % 2 * kStoreChunkBytes, p.m, p.n);
  for (int64_t x = 0; x < perLane; ++x)
    os << llvm::formatv(R"(
        %sgx{0}_{1} = arith.constant {2} : index
        %sgCol{0}_{1} = arith.addi %lane, %sgx{0}_{1} : index
        %sgColI{0}_{1} = arith.index_cast %sgCol{0}_{1} : index to i32
        %sgEb{0}_{1} = arith.constant {3} : i32
        %sgByte{0}_{1} = arith.muli %sgColI{0}_{1}, %sgEb{0}_{1} : i32
        %sgUnit{0}_{1} = arith.shrui %sgByte{0}_{1}, %c4e : i32
        %sg15{0}_{1} = arith.constant 15 : i32
        %sgIn{0}_{1} = arith.andi %sgByte{0}_{1}, %sg15{0}_{1} : i32
        %sgSw{0}_{1} = arith.xori %sgUnit{0}_{1}, %sgKey{0} : i32
        %sgSwB{0}_{1} = arith.muli %sgSw{0}_{1}, %c16e : i32
        %sgO{0}_{1} = arith.addi %sgSwB{0}_{1}, %sgIn{0}_{1} : i32
        %sgA{0}_{1} = arith.addi %sgRowA{0}, %sgO{0}_{1} : i32
        %sgP{0}_{1} = llvm.inttoptr %sgA{0}_{1} : i32 to !llvm.ptr<3>
        %sgV{0}_{1} = llvm.load %sgP{0}_{1} : !llvm.ptr<3> -> {4}
        %sgGc{0}_{1} = arith.addi %sgn{0}, %sgCol{0}_{1} : index
        %sgCin{0}_{1} = arith.cmpi ult, %sgGc{0}_{1}, %sgN{0} : index
        %sgIn2{0}_{1} = arith.andi %sgRin{0}, %sgCin{0}_{1} : i1
        scf.if %sgIn2{0}_{1} {{
          memref.store %sgV{0}_{1}, %C[{5}] : {6}
        }
)",
                        c, x, 32 * x, eb, p.outType,
                        cIndices(p, llvm::formatv("%sgGr{0}", c).str(),
                                 llvm::formatv("%sgGc{0}_{1}", c, x).str()),
                        cMemrefType(p));
  os << "      }\n";
}

/// After chunk c's shared stores: make them visible to the async proxy,
/// wait for the warpgroup, and let its first thread issue the TMA store of
/// the chunk (a predicated store; every thread commits) (columns n0 + c * chunk width, the warpgroup's 64 rows).
static void emitStoreChunkEnd(llvm::raw_ostream &os, const KernelParams &p,
                              int64_t c, int64_t col) {
  if (p.stagedStore) {
    emitStagedChunkStore(os, p, c, col);
    return;
  }
  os << llvm::formatv(
      R"(
      nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %epiBar number_of_threads = %c128e
      %ecOff{0} = arith.constant {1} : index
        %ecx{0} = arith.addi %n0, %ecOff{0} : index
        %ecxI{0} = arith.index_cast %ecx{0} : index to i32
        %ecy{0} = arith.addi %m0, %wgRow : index
        %ecyI{0} = arith.index_cast %ecy{0} : index to i32
        %ecb{0} = arith.constant {2} : i32
        %eca{0} = arith.addi %stB, %ecb{0} : i32
        %ecp{0} = llvm.inttoptr %eca{0} : i32 to !llvm.ptr<3>{4}
      nvvm.cp.async.bulk.tensor.global.shared.cta %tmapC, %ecp{0}, box [{3}], predicate = %epiLeader : !llvm.ptr, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
)",
      c, col, c % 2 * kStoreChunkBytes,
      p.foldsN() ? coordsOf(p.cMapDims, llvm::formatv("%ecEI{0}", c).str(),
                            llvm::formatv("%ecyI{0}", c).str(), "%bIdxI", "%c0",
                            p.foldDim, llvm::formatv("%ecHI{0}", c).str())
      : p.multiBatch()
          ? coordsOf(p.cMapDims, llvm::formatv("%ecxI{0}", c).str(),
                     llvm::formatv("%ecyI{0}", c).str(), "%bIdxI")
      // Transposed (a swapped kernel): its rows are C's columns.
      : p.transposedStore()
          ? tmaCoords(false, llvm::formatv("%ecyI{0}", c).str(),
                      llvm::formatv("%ecxI{0}", c).str(), false, "")
          : tmaCoords(p.batched, llvm::formatv("%ecxI{0}", c).str(),
                      llvm::formatv("%ecyI{0}", c).str(), p.cBatchMiddle,
                      "%bIdxI"),
      // N spanning matrices side by side: the chunk's
      // matrix and its column within it.
      p.foldsN() ? llvm::formatv(R"(
        %ecFold{0} = arith.constant {1} : i32
        %ecEI{0} = arith.remui %ecxI{0}, %ecFold{0} : i32
        %ecHI{0} = arith.divui %ecxI{0}, %ecFold{0} : i32)",
                                 c, p.foldN)
                       .str()
                 : std::string());
}

/// The shared address, in chunk `c`'s buffer, of this thread's pair of
/// fragment column group j (column group `jj` of the chunk) in the rows of
/// `half`: `%sp<id>` (a !llvm.ptr<3>), id = j half sfx (returned). See
/// emitStoreSetup for the swizzle.
static std::string emitChunkPairAddress(llvm::raw_ostream &os,
                                        const KernelParams &p, int64_t j,
                                        StringRef half, int64_t c, int64_t jj,
                                        StringRef sfx) {
  const int64_t unitBytes = p.outType == "f32" ? 32 : 16;
  // Buffer c % 2, and row r + 8 for "cd": constant offsets.
  const int64_t fixed =
      c % 2 * kStoreChunkBytes + (half == "ab" ? 0 : 8 * 128);
  const std::string id = llvm::formatv("{0}{1}{2}", j, half, sfx).str();
  os << llvm::formatv(R"(
      %sk{0} = arith.constant {1} : i32
      %sx{0} = arith.xori %stX, %sk{0} : i32
      %sf{0} = arith.constant {2} : i32
      %sy{0} = arith.addi %sx{0}, %sf{0} : i32
      %sa{0} = arith.addi %stT, %sy{0} : i32
      %sp{0} = llvm.inttoptr %sa{0} : i32 to !llvm.ptr<3>
)",
                      id, jj * unitBytes, fixed);
  return id;
}

/// With a matrix epilogue operand read through the chunk buffers
/// (`tmaEpilogueOperand`): the warpgroup's leader loads the operand's chunk
/// cc (C's store box: columns n0 + cc x chunk width, the warpgroup's 64
/// rows) into buffer cc % 2 with TMA, on that buffer's mbarrier (warpgroup
/// w, buffer b: barrier 2 w + b); `px` names the values of
/// emitEpilogueOperandBase it uses, `leader` the predicate.
static void emitEpilogueOperandIssue(llvm::raw_ostream &os,
                                     const KernelParams &p, int64_t cc,
                                     StringRef leader, StringRef px = "ee") {
  os << llvm::formatv(R"(
      %{6}IB{0} = arith.constant {1} : index
      %{6}IBar{0} = arith.addi %{6}Bar0, %{6}IB{0} : index
      scf.if {7} {{
        %{6}Col{0} = arith.constant {2} : index
        %{6}x{0} = arith.addi %n0, %{6}Col{0} : index
        %{6}Off{0} = arith.constant {3} : index
        %{6}At{0} = arith.addi %{6}Bufs, %{6}Off{0} : index
        %{6}View{0} = memref.view %dsm[%{6}At{0}][] : !smem to memref<64x{4}x{5}, 3>
        nvgpu.mbarrier.arrive.expect_tx %eBar[%{6}IBar{0}], %{6}Tx : !barE
        nvgpu.tma.async.load %tmapE[%{6}x{0}, %{6}y], %eBar[%{6}IBar{0}] to %{6}View{0} : !tmE, !barE -> memref<64x{4}x{5}, 3>
      }
)",
                      cc, cc % 2, cc * p.storeChunkCols(),
                      cc % 2 * kStoreChunkBytes, p.storeChunkCols(),
                      p.outType, px, leader);
}

/// Before the main loop of the block's first item: the warpgroup's leader
/// issues the TMA loads of the epilogue operand's chunks 0 and 1 (no store
/// has used the chunk buffers yet), so that their latency hides behind the
/// main loop; on later items emitEpilogueOperandLoad issues them at chunk
/// 0, once the previous item's stores have read the buffers. The buffers'
/// use counts, and so the waits' phases, are the same either way.
static void emitEpilogueOperandPrefetch(llvm::raw_ostream &os,
                                        const KernelParams &p) {
  os << R"(
      %epDone = arith.subi %t, %cid : index
      %epFirst = arith.cmpi ult, %epDone, %ncl : index
      %epLead0 = arith.cmpi eq, %wtid, %c0 : index
      %epLead = arith.andi %epLead0, %epFirst : i1
)";
  emitEpilogueOperandBase(os, p, "ep");
  const int64_t chunks = p.blockN / p.storeChunkCols();
  for (int64_t cc = 0; cc < std::min<int64_t>(2, chunks); ++cc)
    emitEpilogueOperandIssue(os, p, cc, "%epLead", "ep");
}

/// At the start of chunk c, once the buffers are free (emitStoreChunkBegin
/// waits for every TMA store to have read its buffer when an operand is
/// loaded this way): chunk 0 issues the loads of chunks 0 and 1, chunk c
/// that of chunk c + 1 (into the buffer chunk c - 1 was stored from), so
/// each load overlaps the chunk before it; then every thread waits for
/// chunk c's. The wait's phase is the buffer's use count: the block's items
/// so far (%eeItem) times the buffer's uses per item, plus c / 2.
static void emitEpilogueOperandLoad(llvm::raw_ostream &os,
                                    const KernelParams &p, int64_t c) {
  const int64_t chunks = p.blockN / p.storeChunkCols();
  const int64_t usesPerItem = (chunks + 1 - c % 2) / 2;
  // Chunks 0 and 1: issued before the main loop on the block's first item
  // (emitEpilogueOperandPrefetch), here on later ones.
  if (c == 0) {
    os << R"(
      %eeLater = arith.cmpi uge, %eeDone, %ncl : index
      %eeLead01 = arith.andi %epiLeader, %eeLater : i1
)";
    emitEpilogueOperandIssue(os, p, 0, "%eeLead01");
  }
  if (c + 1 < chunks)
    emitEpilogueOperandIssue(os, p, c + 1,
                             c == 0 ? "%eeLead01" : "%epiLeader");
  os << llvm::formatv(R"(
      %eeBuf{0} = arith.constant {1} : index
      %eeB{0} = arith.addi %eeBar0, %eeBuf{0} : index
      %eeUses{0} = arith.constant {2} : index
      %eeU0{0} = arith.muli %eeItem, %eeUses{0} : index
      %eeHalf{0} = arith.constant {3} : index
      %eeU{0} = arith.addi %eeU0{0}, %eeHalf{0} : index
      %eeUr{0} = arith.remui %eeU{0}, %eeC2 : index
      %eePar{0} = arith.index_cast %eeUr{0} : index to i1
      nvgpu.mbarrier.try_wait.parity %eBar[%eeB{0}], %eePar{0}, %ticks : !barE
)",
                      c, c % 2, usesPerItem, c / 2);
}

/// Reads this thread's pair of the TMA-loaded epilogue operand k for
/// fragment column group j (group jj of chunk c) in the rows of `half`
/// from the chunk buffer, as the %matE<k>_<j><half>x0 / x1 that
/// emitFusedPair takes.
static void emitEpilogueOperandPair(llvm::raw_ostream &os,
                                    const KernelParams &p, int64_t k,
                                    int64_t j, StringRef half, int64_t c,
                                    int64_t jj) {
  std::string id = emitChunkPairAddress(os, p, j, half, c, jj, "e");
  std::string vec = llvm::formatv("%matE{0}_{1}{2}", k, j, half).str();
  if (p.outType == "f32")
    os << llvm::formatv("      {0} = llvm.load %sp{1} {{alignment = 8 : i64} "
                        ": !llvm.ptr<3> -> vector<2xf32>\n",
                        vec, id);
  else
    os << llvm::formatv(R"(
      %eeL{0} = llvm.load %sp{0} {{alignment = 4 : i64} : !llvm.ptr<3> -> i32
      {1} = llvm.bitcast %eeL{0} : i32 to vector<2x{2}>
)",
                        id, vec, p.outType);
  for (int x = 0; x < 2; ++x)
    os << llvm::formatv("      {0}x{1} = vector.extract {0}[{1}] : {2} "
                        "from vector<2x{2}>\n",
                        vec, x, p.outType);
}

/// Stores the pair `value` (a vector<2 x outType>) of fragment column group
/// j in the rows of `half` ("ab": `row`, "cd": eight below): straight to C,
/// or into the swizzled buffer of chunk `c`, where it is column group `jj`
/// (a group stored twice, in a whole chunk and the overlapping last one,
/// names its second store's values with `sfx`).
static void emitPairStore(llvm::raw_ostream &os, const KernelParams &p,
                          StringRef value, StringRef row, int64_t j,
                          StringRef half, int64_t c, int64_t jj,
                          StringRef sfx = "") {
  if (!p.chunkedStore()) {
    // Pairs outside C (edge tiles) are not stored.
    bool raggedM = p.ragged(/*alongM=*/true), raggedN = p.ragged(false);
    std::string rowIn = llvm::formatv("{0}in", row).str();
    std::string colIn = llvm::formatv("%col{0}in", j).str();
    if (raggedM && raggedN)
      os << llvm::formatv("      %in{0}{1} = arith.andi {2}, {3} : i1\n", j,
                          half, rowIn, colIn);
    if (p.elementwiseC()) {
      // Pairs are not aligned (odd N) or not contiguous (C stored [n][m]):
      // each element is stored on its own, if it is inside C.
      for (int x = 0; x < 2; ++x) {
        // The element's mask: its column (where tiles reach past N) and
        // its row (past M); none inside whole tiles.
        std::string in =
            raggedN ? llvm::formatv("%col{0}in{1}", j, x ? "1" : "").str()
                    : std::string();
        if (raggedM && raggedN) {
          os << llvm::formatv("      %in{0}{1}{2} = arith.andi {3}, {4} : i1\n",
                              j, half, x, rowIn, in);
          in = llvm::formatv("%in{0}{1}{2}", j, half, x).str();
        } else if (raggedM) {
          in = rowIn;
        }
        if (!in.empty())
          os << llvm::formatv("      scf.if {0} {{\n", in);
        os << llvm::formatv(R"(
        %sx{0}{1}{2} = vector.extract {3}[{2}] : {4} from vector<2x{4}>
        %col{0}{1}{2} = arith.addi %col{0}, %c{2} : index
        memref.store %sx{0}{1}{2}, %C[{5}] : {6}
)",
                            j, half, x, value, p.outType,
                            cIndices(p, row,
                                     llvm::formatv("%col{0}{1}{2}", j, half, x)
                                         .str()),
                            cMemrefType(p));
        if (!in.empty())
          os << "      }\n";
      }
      return;
    }
    if (raggedM || raggedN)
      os << llvm::formatv(
          "      scf.if {0} {{\n",
          raggedM && raggedN
              ? llvm::formatv("%in{0}{1}", j, half).str()
              : (raggedM ? rowIn : colIn));
    os << llvm::formatv("      vector.store {0}, %C[{1}] : "
                        "{2}, vector<2x{3}>\n",
                        value,
                        cIndices(p, row, llvm::formatv("%col{0}", j).str()),
                        cMemrefType(p), p.outType);
    if (raggedM || raggedN)
      os << "      }\n";
    return;
  }
  // Transposed: emitTransposedStore writes both halves of the group.
  if (p.transposedStore())
    return;
  const std::string id = emitChunkPairAddress(os, p, j, half, c, jj, sfx);
  if (p.outType == "f32") {
    os << llvm::formatv("      llvm.store {0}, %sp{1} {{alignment = 8 : "
                        "i64} : vector<2xf32>, !llvm.ptr<3>\n",
                        value, id);
    return;
  }
  os << llvm::formatv(R"(
      %sv{0} = llvm.bitcast {1} : vector<2x{2}> to i32
      llvm.store %sv{0}, %sp{0} {{alignment = 4 : i64} : i32, !llvm.ptr<3>
)",
                      id, value, p.outType);
}

/// A swapped kernel's TMA-store chunk (transposedStore): column group j
/// (group `jj` of chunk c), its two 8x8 blocks of 16-bit pairs `ab` and
/// `cd`, stored transposed into C's rows 8 jj .. 8 jj + 7 of the chunk's
/// buffer at the lane addresses of emitStoreSetup.
static void emitTransposedStore(llvm::raw_ostream &os, const KernelParams &p,
                                StringRef ab, StringRef cd, int64_t j,
                                int64_t c, int64_t jj) {
  os << llvm::formatv(R"(
      %tsa{0} = llvm.bitcast {1} : vector<2x{3}> to i32
      %tsc{0} = llvm.bitcast {2} : vector<2x{3}> to i32
      %tsk{0} = arith.constant {4} : i32
      %tsx{0} = arith.addi %stTr, %tsk{0} : i32
      %tsp{0} = llvm.inttoptr %tsx{0} : i32 to !llvm.ptr<3>
      nvvm.stmatrix %tsp{0}, %tsa{0}, %tsc{0} {{layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32, i32
)",
                      llvm::formatv("{0}_{1}", j, c).str(), ab, cd, p.outType,
                      c % 2 * kStoreChunkBytes + jj * 8 * 128);
}

/// Whether the epilogue pins each accumulator register after the wgmma
/// wait with an empty volatile asm: with a fused epilogue (its arithmetic)
/// and with odd N (element stores in branches) LLVM otherwise moves reads
/// of the accumulators where ptxas serializes the wgmma chain (C7514).
static bool pinAccumulators(const KernelParams &p) {
  return p.fusedEpilogue || p.elementwiseC();
}

/// Defines the problem's counts: %cNumK (k-tiles per tile), %cTilesM and
/// %cTilesN (cluster tiles along M and N), %cPerGroup (cluster tiles per
/// raster group), %cUnits (cluster tiles in all) and %cTiles (block tiles
/// in all); constants, or computed from %sizeM, %sizeN and %sizeK when the
/// sizes are known at run time only. Needs %cGroup.
static std::string problemSizes(const KernelParams &p) {
  if (!p.dynamicShape)
    return llvm::formatv(R"(
    %cNumK = arith.constant {0} : index
    %cTilesM = arith.constant {1} : index
    %cTilesN = arith.constant {2} : index
    %cPerGroup = arith.constant {3} : index
    %cUnits = arith.constant {4} : index
    %cTiles = arith.constant {5} : index)",
                         p.kTiles(), p.clusterTilesM(), p.clusterTilesN(),
                         std::max<int64_t>(1, p.groupM / p.clusterM) *
                             p.clusterTilesN(),
                         p.tiles() / p.clusterSize(), p.tiles())
        .str();
  // ceil(ceil(M / blockM) / clusterM) = ceil(M / (blockM clusterM)).
  return llvm::formatv(R"(
    %dSpanM = arith.constant {0} : index
    %dSpanM1 = arith.constant {1} : index
    %dM1 = arith.addi %sizeM, %dSpanM1 : index
    %cTilesM = arith.divui %dM1, %dSpanM : index
    %dSpanN = arith.constant {2} : index
    %dSpanN1 = arith.constant {3} : index
    %dN1 = arith.addi %sizeN, %dSpanN1 : index
    %cTilesN = arith.divui %dN1, %dSpanN : index
    %dSpanK = arith.constant {4} : index
    %dSpanK1 = arith.constant {5} : index
    %dK1 = arith.addi %sizeK, %dSpanK1 : index
    %cNumK = arith.divui %dK1, %dSpanK : index
    %cPerGroup = arith.muli %cGroup, %cTilesN : index
    %dMatUnits = arith.muli %cTilesM, %cTilesN : index
    %dBatch = arith.constant {6} : index
    %cUnits = arith.muli %dMatUnits, %dBatch : index
    %cTiles = arith.muli %cUnits, %cClSize : index)",
                       p.blockM * p.clusterM, p.blockM * p.clusterM - 1,
                       p.blockN * p.clusterN, p.blockN * p.clusterN - 1,
                       p.blockK, p.blockK - 1, p.batch)
      .str();
}

/// The epilogue of one 64-row block of the tile: `accName` its accumulator,
/// `wgName` its index among the tile's 64-row blocks (the warpgroup's own
/// index with one row block a warpgroup). Emitted inside the work loop,
/// after the main loop and the stream-K fix-up.
static void emitTileEpilogue(llvm::raw_ostream &os, const KernelParams &p,
                             StringRef accName, StringRef wgName) {
  // Epilogue: the m64nN f32 fragment of thread (warp w, lane l) holds, for
  // j in [0, N/8): d[4j], d[4j+1] at row 16w + l/4, columns 8j + 2(l%4) +
  // {0,1} and d[4j+2], d[4j+3] eight rows below.
  os << llvm::formatv(R"(
    %c32 = arith.constant 32 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64r = arith.constant 64 : index
    // The thread's place in its warpgroup, read per tile through a
    // volatile asm that LLVM cannot hoist: coordinates (and the TMA-store
    // addresses made from them) computed once before the tile loop would
    // live through every main loop, and with A MN-major and TMA stores
    // the consumers spilled.
    %tidE = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %tidEI = arith.index_cast %tidE : i32 to index
    %wtidE = arith.remui %tidEI, %c128 : index
    %warp = arith.divui %wtidE, %c32 : index
    %lane = arith.remui %wtidE, %c32 : index
    %wgRow = arith.muli {0}, %c64r : index
    %wRow = arith.muli %warp, %c16 : index
    %lRow = arith.divui %lane, %c4 : index
    %r0a = arith.addi %m0, %wgRow : index
    %r0b = arith.addi %r0a, %wRow : index
    %row0 = arith.addi %r0b, %lRow : index
    %row1 = arith.addi %row0, %c8 : index
    %lq = arith.remui %lane, %c4 : index
    %c2 = arith.constant 2 : index
    %lCol = arith.muli %lq, %c2 : index
    %colBase = arith.addi %n0, %lCol : index
)",
                      wgName);
  if (p.batched && p.tmaStore && !p.multiBatch())
    os << "      %bIdxI = arith.index_cast %bIdx : index to i32\n";
  for (size_t i = 0; p.multiBatch() && p.tmaStore && i < p.batchShape.size();
       ++i)
    if (int(i) != p.foldDim)
      os << llvm::formatv("      %bIdxI{0} = arith.index_cast %bIdx{0} : "
                          "index to i32\n",
                          i);
  // Edge tiles: rows past M are clamped for loads (%row<r>c) and not
  // stored (%row<r>in); columns likewise (emitColumnEdge).
  if (p.ragged(/*alongM=*/true))
    os << llvm::formatv(R"(
    %cLastRow = arith.constant {0} : index
    %cM = arith.constant {1} : index
    %row0c = arith.minui %row0, %cLastRow : index
    %row1c = arith.minui %row1, %cLastRow : index
    %row0in = arith.cmpi ult, %row0, %cM : index
    %row1in = arith.cmpi ult, %row1, %cM : index
)",
                        p.m - 1, p.m);
  if (p.ragged(/*alongM=*/false))
    os << llvm::formatv(R"(
    %cLastPair = arith.constant {0} : index
    %cLastCol = arith.constant {1} : index
    %cN = arith.constant {2} : index
)",
                        p.n - 2, p.n - 1, p.n);
  // Sizes known at run time only: the operand loads are clamped to the last
  // row and column pair of the run-time sizes (N is even: TMA stores need
  // C's rows 16-byte multiples apart).
  if (p.dynamicShape && !p.epilogueOperands.empty())
    os << R"(
    %cLastRow = arith.subi %sizeM, %c1 : index
    %row0c = arith.minui %row0, %cLastRow : index
    %row1c = arith.minui %row1, %cLastRow : index
    %cLastPair = arith.subi %sizeN, %c2 : index
)";
  if (p.chunkedStore())
    emitStoreSetup(os, p);
  emitColumnOperandLoads(os, p);
  // Column group j goes out in whole chunk j / groupsPerChunk; where the
  // block width is not a multiple of the chunk, the groups of the last,
  // overlapping chunk (storeChunks) are stored into it once all are
  // computed, from the values kept in `stored`.
  const int64_t groupsPerChunk = p.storeChunkCols() / 8;
  const std::vector<int64_t> chunks = p.storeChunks();
  const int64_t wholeChunks = p.blockN / p.storeChunkCols();
  std::vector<std::array<std::string, 2>> stored(p.blockN / 8);
  auto inWholeChunk = [&](int64_t j) {
    return !p.chunkedStore() || j / groupsPerChunk < wholeChunks;
  };
  for (int64_t j = 0; j < p.blockN / 8; ++j) {
    if (p.chunkedStore() && j % groupsPerChunk == 0 && inWholeChunk(j)) {
      emitStoreChunkBegin(os, p, j / groupsPerChunk);
      if (p.tmaEpilogueOperand >= 0)
        emitEpilogueOperandLoad(os, p, j / groupsPerChunk);
    }
    if (p.fusedEpilogue && j % kEpilogueLoadGroup == 0)
      for (int64_t g = j; g < std::min(j + kEpilogueLoadGroup, p.blockN / 8);
           ++g)
        emitFusedLoads(os, p, g);
    if (!p.fusedEpilogue)
      os << llvm::formatv(R"(
    %cj{0} = arith.constant {1} : index
    %col{0} = arith.addi %colBase, %cj{0} : index
)",
                          j, 8 * j);
    if (!p.fusedEpilogue)
      emitColumnEdge(os, p, j);
    os << llvm::formatv(R"(
    %e{0}a{6} = llvm.extractvalue {7}[{2}] : !acc
    %e{0}b{6} = llvm.extractvalue {7}[{3}] : !acc
    %e{0}c{6} = llvm.extractvalue {7}[{4}] : !acc
    %e{0}d{6} = llvm.extractvalue {7}[{5}] : !acc
)",
                        j, 8 * j, 4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3,
                        pinAccumulators(p) ? "raw" : "", accName);
    // A fused epilogue computes on the accumulators; LLVM sees nothing tie
    // them to the wgmma wait and may hoist that arithmetic above it, which
    // makes ptxas serialize the wgmma chain (C7514). An empty volatile asm
    // per register (CUTLASS's warpgroup_fence_operand) pins each value
    // after the wait.
    // The same with odd N, whose element stores sit in branches.
    if (pinAccumulators(p))
      for (char x : StringRef("abcd"))
        os << llvm::formatv("      %e{0}{1} = llvm.inline_asm has_side_effects "
                            "\"\", \"=f,0\" %e{0}{1}raw : (f32) -> f32\n",
                            j, x);
    std::string e = llvm::formatv("%e{0}", j).str();
    if (p.streamK) {
      // Quad j of the accumulators is the fragment's column group j.
      if (j % kPartialGroup == 0)
        emitPartialSums(os, j,
                        std::min<int64_t>(kPartialGroup, p.blockN / 8 - j));
      std::string sum =
          llvm::formatv("%ps{0}#{1}", j - j % kPartialGroup, j % kPartialGroup)
              .str();
      for (int64_t x = 0; x < 4; ++x)
        os << llvm::formatv(R"(
    %p{0}{1} = vector.extract {2}[{3}] : f32 from vector<4xf32>
    %t{0}{1} = arith.addf %e{0}{1}, %p{0}{1} : f32
)",
                            j, "abcd"[x], sum, x);
      e = llvm::formatv("%t{0}", j).str();
    }
    for (auto [h, half, row] :
         {std::tuple<int, const char *, const char *>{0, "ab", "%row0"},
          {1, "cd", "%row1"}}) {
      std::string v = llvm::formatv("%v{0}{1}", j, half).str();
      if (p.fusedEpilogue) {
        if (p.tmaEpilogueOperand >= 0)
          emitEpilogueOperandPair(os, p, p.tmaEpilogueOperand, j, half,
                                  j / groupsPerChunk, j % groupsPerChunk);
        emitFusedPair(os, p, j, half, e);
        stored[j][h] = v + "h";
        if (inWholeChunk(j))
          emitPairStore(os, p, v + "h", row, j, half, j / groupsPerChunk,
                        j % groupsPerChunk);
        continue;
      }
      os << llvm::formatv(R"(
    {0}0 = vector.from_elements {1}{2}, {1}{3} : vector<2xf32>
)",
                          v, e, half[0], half[1]);
      std::string out = v + "0";
      if (p.outType != "f32" && pinAccumulators(p) && !singleCColumn(p)) {
        // Pinned accumulators: one packed cvt per pair, as in the fused
        // epilogue (scalar cvt.rn.f16.f32 serialize the wgmma chain).
        os << llvm::formatv(R"(
    {0}p = llvm.inline_asm "cvt.rn.{4}x2.f32 $0, $1, $2;", "=r,f,f" {1}{3}, {1}{2} : (f32, f32) -> i32
    {0}h = llvm.bitcast {0}p : i32 to vector<2x{4}>
)",
                            v, e, half[0], half[1], p.outType);
        out = v + "h";
      } else if (p.outType != "f32") {
        os << llvm::formatv("      {0}h = arith.truncf {0}0 : vector<2xf32> to "
                            "vector<2x{1}>\n",
                            v, p.outType);
        out = v + "h";
      }
      stored[j][h] = out;
      if (inWholeChunk(j))
        emitPairStore(os, p, out, row, j, half, j / groupsPerChunk,
                      j % groupsPerChunk);
    }
    if (p.transposedStore() && inWholeChunk(j))
      emitTransposedStore(os, p, stored[j][0], stored[j][1], j,
                          j / groupsPerChunk, j % groupsPerChunk);
    if (p.chunkedStore() && (j + 1) % groupsPerChunk == 0 && inWholeChunk(j))
      emitStoreChunkEnd(os, p, j / groupsPerChunk,
                        j / groupsPerChunk * p.storeChunkCols());
  }
  if (p.chunkedStore() && int64_t(chunks.size()) > wholeChunks) {
    const int64_t c = wholeChunks, first = chunks.back() / 8;
    emitStoreChunkBegin(os, p, c);
    for (int64_t j = first; j < p.blockN / 8 && p.transposedStore(); ++j)
      emitTransposedStore(os, p, stored[j][0], stored[j][1], j, c, j - first);
    for (int64_t j = first; j < p.blockN / 8; ++j)
      for (auto [h, half, row] :
           {std::tuple<int, const char *, const char *>{0, "ab", "%row0"},
            {1, "cd", "%row1"}})
        emitPairStore(os, p, stored[j][h], row, j, half, c, j - first, "t");
    emitStoreChunkEnd(os, p, c, chunks.back());
  }
}

std::string mlir::tcgen::sm90::renderKernelModule(const KernelParams &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  const int64_t numK = p.kTiles();
  const int64_t consumers = p.consumers();
  const int64_t accRegs = p.accRegs();
  const std::string &cType = p.outType;
  const uint64_t descAHi = descriptorHigh(/*kMajor=*/!p.aMNMajor);
  const uint64_t descBHi = descriptorHigh(/*kMajor=*/p.bKMajor);
  const int64_t aTileBytes = p.blockM * kSwizzleRowBytes;
  const bool clustered = p.clusterSize() > 1;
  // Stage releases the empty barrier waits for: every consumer thread, or
  // in a cluster lane 0 of every consumer warp of both blocks.
  const int64_t releases =
      clustered ? consumers * 4 * p.clusterSize() : consumers * 128;
  // Raster over cluster tiles; the group keeps its height in block tiles.
  const int64_t tilesM = p.clusterTilesM();
  const int64_t tilesN = p.clusterTilesN();
  const int64_t groupM = std::max<int64_t>(1, p.groupM / p.clusterM);

  std::string acc = "!llvm.struct<(";
  for (int64_t i = 0; i < accRegs; ++i)
    acc += i ? ", f32" : "f32";
  acc += ")>";

  os << llvm::formatv(
      R"(
!barT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = {0}>
!tmA = !nvgpu.tensormap.descriptor<tensor = {1}, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = {2}, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!smem = memref<?xi8, 3>
)",
      p.stages,
      p.multiBatch()
          ? boxTypeOf(p, p.aMapDims, p.aMNMajor ? 64 : p.blockM / p.clusterN,
                      p.memType())
          : boxType(p, p.aMNMajor ? 64 : p.blockM / p.clusterN, p.memType(),
                    p.aBatchMiddle),
      p.multiBatch()
          ? boxTypeOf(p, p.bMapDims, p.bKMajor ? bBoxRows(p) : 64, p.memType())
          : boxType(p, p.bKMajor ? p.blockN / p.clusterM : 64, p.memType(),
                    p.bBatchMiddle));
  os << "!acc = " << acc << "\n";
  if (p.tmaEpilogueOperand >= 0)
    os << llvm::formatv(
        "!tmE = !nvgpu.tensormap.descriptor<tensor = memref<64x{0}x{1}, 3>, "
        "swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, "
        "interleave = none>\n"
        "!barE = !nvgpu.mbarrier.group<memorySpace = "
        "#gpu.address_space<workgroup>, num_barriers = {2}>\n",
        p.storeChunkCols(), p.outType, 2 * consumers);
  os << llvm::formatv(R"(
module {{
gpu.module @{0} {{
  memref.global @__tcgen_dsmem : memref<0xi8, 3> {{alignment = 16 : i64}{23}
  gpu.func @{0}(%pA: !llvm.ptr, %pB: !llvm.ptr, {25}{24}{17}{28}) kernel
      attributes {{nvvm.maxntid = array<i32: {4}, 1, 1>, nvvm.minctasm = 1 : i32{18}} {{
{31}{32}{26}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %cStages = arith.constant {5} : index
    %cBM = arith.constant {7} : index
    %cBN = arith.constant {8} : index
    %cStageBytes = arith.constant {9} : index
    %cTx = arith.constant {30} : index
    %ticks = arith.constant 10000000 : index
    %true = arith.constant true
    %tid = gpu.thread_id x
    // Persistent: the blocks share the tiles (tcgen.launch).
    %bid = gpu.block_id x
    %nbl = gpu.grid_dim x
    %cGroup = arith.constant {12} : index
    // Clusters of {19} x {20} blocks take cluster tiles (that many block
    // tiles) in turn; %rankM / %rankN place the block's tile inside.
    %cClSize = arith.constant {21} : index
    %cClM = arith.constant {19} : index
    %cClN = arith.constant {20} : index
{27}
    %cid = arith.divui %bid, %cClSize : index
    %ncl = arith.divui %nbl, %cClSize : index
    // Warp-uniform warpgroup index (lane 0's), so that ptxas sees uniform
    // role branches and does not serialize the wgmma.
    %tid32 = arith.index_cast %tid : index to i32
    %c128i = arith.constant 128 : i32
    %c0i = arith.constant 0 : i32
    %c32i = arith.constant 32 : i32
    %wgRaw = arith.divui %tid32, %c128i : i32
    %wg32, %valid = gpu.shuffle idx %wgRaw, %c0i, %c32i : i32
    %wg = arith.index_cast %wg32 : i32 to index
    // Dynamic shared memory, its base rounded up to 1024 bytes (the 128B
    // swizzle atom: TMA and the descriptors' base_offset = 0 agree).
    %g = memref.get_global @__tcgen_dsmem : memref<0xi8, 3>
    %cSmem = arith.constant {10} : index
    %dsm = memref.reinterpret_cast %g to offset: [0], sizes: [%cSmem], strides: [1] : memref<0xi8, 3> to !smem
    %base = memref.extract_aligned_pointer_as_index %dsm : !smem -> index
    %rem = arith.remui %base, %c1024 : index
    %padRaw = arith.subi %c1024, %rem : index
    %pad = arith.remui %padRaw, %c1024 : index
    %full = nvgpu.mbarrier.create -> !barT
    %empty = nvgpu.mbarrier.create -> !barT
    %isT0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %isT0 {{
      %cReleases = arith.constant {11} : index
      %cFullArrivals = arith.constant {29} : index
      scf.for %s = %c0 to %cStages step %c1 {{
        nvgpu.mbarrier.init %full[%s], %cFullArrivals : !barT
        nvgpu.mbarrier.init %empty[%s], %cReleases : !barT
      }
      nvvm.fence.mbarrier.init
    }
)",
                      p.name, p.m, p.n, cType, p.threads(), p.stages, numK,
                      p.blockM, p.blockN, p.stageBytes(), p.smemBytes(),
                      releases, groupM, tilesN, tilesM, groupM * tilesN,
                      p.tiles(), epilogueParams(p) + (p.streamK ? ", %pW: !llvm.ptr" : ""),
                      clustered ? llvm::formatv(", nvvm.cluster_dim = "
                                                "array<i32: {0}, 1, 1>",
                                                p.clusterSize())
                                      .str()
                                : std::string(),
                      p.clusterM, p.clusterN, p.clusterSize(),
                      p.tiles() / p.clusterSize(), epilogueDecl(p),
                      p.tmaStore ? std::string("%tmapC: !llvm.ptr")
                                 : "%C: " + cMemrefType(p),
                      p.k2 > 0 ? "%pA2: !llvm.ptr, %pB2: !llvm.ptr, " : "",
                      p.k2 > 0 ? R"(
    %tmapA2 = builtin.unrealized_conversion_cast %pA2 : !llvm.ptr to !tmA
    %tmapB2 = builtin.unrealized_conversion_cast %pB2 : !llvm.ptr to !tmB)"
                               : "",
                      problemSizes(p) + epilogueViews(p), dynamicParams(p),
                      // The leader's arrive (with the TMA bytes), and with
                      // cp.async copies one per producer thread.
                      p.anyAsync() ? 129 : 1, p.tmaStageBytes(),
                      // A and B copied with cp.async are plain pointers.
                      p.aAsync ? "" : R"(
    %tmapA = builtin.unrealized_conversion_cast %pA : !llvm.ptr to !tmA)",
                      p.bAsync ? "" : R"(
    %tmapB = builtin.unrealized_conversion_cast %pB : !llvm.ptr to !tmB)");
  if (p.tmaEpilogueOperand >= 0)
    os << llvm::formatv(R"(
    %tmapE = builtin.unrealized_conversion_cast %pE{0} : !llvm.ptr to !tmE
    %eBar = nvgpu.mbarrier.create -> !barE
    scf.if %isT0 {{
      %cEBars = arith.constant {1} : index
      scf.for %eb = %c0 to %cEBars step %c1 {{
        nvgpu.mbarrier.init %eBar[%eb], %c1 : !barE
      }
      nvvm.fence.mbarrier.init
    }
)",
                        p.tmaEpilogueOperand, 2 * consumers);
  if (!clustered) {
    os << "    gpu.barrier\n";
    os << R"(
    %rankX = arith.constant 0 : index
    %rankM = arith.constant 0 : index
    %rankN = arith.constant 0 : index
)";
  } else {
    // The peer's barriers must be initialized before this block multicasts
    // into its shared memory or arrives on them: thread 0's
    // fence.mbarrier_init (release at cluster scope) orders the inits
    // before the arrive, which can then be relaxed (the default arrive
    // releases at cluster scope: MEMBAR.ALL.GPU in every thread).
    os << llvm::formatv(R"(
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rankX = arith.index_cast %rank32 : i32 to index
    %rankM = {0}
    %rankN = {1}
    %mcMask = arith.constant 3 : i16
)",
                        p.clusterM == 2 ? "arith.addi %rankX, %c0 : index"
                                        : "arith.constant 0 : index",
                        p.clusterN == 2 ? "arith.addi %rankX, %c0 : index"
                                        : "arith.constant 0 : index");
  }
  if (p.streamK)
    os << kStreamKPartition;

  // Producer: the last warpgroup; its first thread issues every TMA load.
  os << llvm::formatv(R"(
    %cProducer = arith.constant {0} : index
    %isProducer = arith.cmpi eq, %wg, %cProducer : index
    scf.if %isProducer {{
      nvvm.setmaxregister decrease {2}
      %cLeader = arith.constant {1} : index
      %isLeader = arith.cmpi eq, %tid, %cLeader : index
      scf.if %isLeader {{
)",
                      consumers, consumers * 128,
                      p.producerRegisters());
  if (!p.aAsync)
    os << "        nvgpu.tma.prefetch.descriptor %tmapA : !tmA\n";
  if (!p.bAsync)
    os << "        nvgpu.tma.prefetch.descriptor %tmapB : !tmB\n";
  if (p.k2 > 0)
    os << R"(
        nvgpu.tma.prefetch.descriptor %tmapA2 : !tmA
        nvgpu.tma.prefetch.descriptor %tmapB2 : !tmB
)";
  // With cp.async copies every producer thread walks the work (the
  // leader alone issues the TMA loads); otherwise the leader alone.
  if (p.anyAsync()) {
    os << "      }\n";
    emitAsyncSetup(os, p);
  }
  emitWorkLoopBegin(os, p);
  emitRaster(os, p);
  os << R"(
        scf.for %j = %c0 to %len step %c1 {
          // %it counts k-tiles over all of this block's work: the ring
          // position and the barrier phase continue from item to item.
          %kt = arith.addi %ks, %j : index
          %it = arith.addi %it0, %j : index
          %s = arith.remui %it, %cStages : index
          %round = arith.divui %it, %cStages : index
          %rb = arith.index_cast %round : index to i1
          // Round 0 passes on fresh barriers: wait for parity (round & 1) ^ 1.
          %par = arith.xori %rb, %true : i1
          nvgpu.mbarrier.try_wait.parity %empty[%s], %par, %ticks : !barT
          %so = arith.muli %s, %cStageBytes : index
          %aOff = arith.addi %pad, %so : index
          %c64 = arith.constant )" +
            std::to_string(p.blockK) + R"( : index
)";
  if (!p.anyAsync())
    os << "          nvgpu.mbarrier.arrive.expect_tx %full[%s], %cTx : "
          "!barT\n";
  auto emitLoads = [&](StringRef tmapA, StringRef tmapB) {
    if (p.anyAsync())
      os << "          scf.if %isLeader {\n"
         << (p.tmaStageBytes() > 0
                 ? "          nvgpu.mbarrier.arrive.expect_tx %full[%s], "
                   "%cTx : !barT\n"
                 : "          %leaderArrived = nvgpu.mbarrier.arrive "
                   "%full[%s] : !barT -> !nvgpu.mbarrier.token\n");
    if (!p.aAsync)
      emitTileLoads(os, p, "A", tmapA, "!tmA", /*kMajor=*/!p.aMNMajor,
                    p.blockM, /*offset=*/0, "%m0", /*shared=*/p.clusterN == 2,
                    p.aBatchMiddle, p.aMapDims);
    if (!p.bAsync)
      emitTileLoads(os, p, "B", tmapB, "!tmB", /*kMajor=*/p.bKMajor,
                    bTileRows(p.blockN, p.bKMajor), aTileBytes, "%n0",
                    /*shared=*/p.clusterM == 2, p.bBatchMiddle, p.bMapDims);
    if (!p.anyAsync())
      return;
    os << "          }\n";
    if (p.aAsync)
      emitAsyncCopies(os, p, "A", /*kMajor=*/!p.aMNMajor, p.blockM,
                      /*offset=*/0, "%m0", p.aRows, p.aCols);
    if (p.bAsync)
      emitAsyncCopies(os, p, "B", /*kMajor=*/p.bKMajor, p.blockN,
                      aTileBytes, "%n0", p.bRows, p.bCols);
    // This thread's arrival when its copies have landed.
    os << R"(
          %cpBar = nvgpu.mbarrier.get %full[%s] : !barT -> i32
          %cpBarP = llvm.inttoptr %cpBar : i32 to !llvm.ptr<3>
          nvvm.cp.async.mbarrier.arrive %cpBarP {noinc = true} : !llvm.ptr<3>
)";
  };
  if (p.batchReduce) {
    // A summed batch: k-tile %kt is k-tile %kt mod kTiles1 of matrix
    // %kbIdx = %kt / kTiles1.
    os << llvm::formatv(R"(
          %cKPerMat = arith.constant {0} : index
          %kbIdx = arith.divui %kt, %cKPerMat : index
          %ktInMat = arith.remui %kt, %cKPerMat : index
          %k0 = arith.muli %ktInMat, %c64 : index
)",
                        p.kTiles1());
    emitLoads("%tmapA", "%tmapB");
  } else if (p.k2 == 0) {
    os << "          %k0 = arith.muli %kt, %c64 : index\n";
    emitLoads("%tmapA", "%tmapB");
  } else {
    // add(gemm, gemm): k-tiles [0, kTiles1) read A and B, the rest A2
    // and B2 from their k-tile 0; one branch per k-tile, uniform in the
    // one issuing thread.
    os << llvm::formatv(R"(
          %cK1 = arith.constant {0} : index
          %inFirst = arith.cmpi ult, %kt, %cK1 : index
          scf.if %inFirst {{
          %k0 = arith.muli %kt, %c64 : index
)",
                        p.kTiles1());
    emitLoads("%tmapA", "%tmapB");
    os << R"(
          } else {
          %kt2 = arith.subi %kt, %cK1 : index
          %k0 = arith.muli %kt2, %c64 : index
)";
    emitLoads("%tmapA2", "%tmapB2");
    os << "          }\n";
  }
  os << R"(
        }
        %itNext = arith.addi %it0, %len : index
)";
  emitWorkLoopEnd(os, p);
  // In a cluster, the producer's tail: it waits, as for S more loads,
  // until every stage's last load has been released by the consumers of
  // both blocks. The peer's releases then have all arrived on this block's
  // barriers, and the peer has consumed all this block multicast into its
  // shared memory (this block's consumers likewise waited for all the peer
  // multicast here), so the block may exit without a cluster barrier.
  // (Clusters walk whole tiles: no stream-K.)
  if (clustered)
    os << R"(
        scf.for %tj = %c0 to %cStages step %c1 {
          %tIt = arith.addi %itEnd, %tj : index
          %tS = arith.remui %tIt, %cStages : index
          %tRound = arith.divui %tIt, %cStages : index
          %tRb = arith.index_cast %tRound : index to i1
          %tPar = arith.xori %tRb, %true : i1
          nvgpu.mbarrier.try_wait.parity %empty[%tS], %tPar, %ticks : !barT
        }
)";
  os << (p.anyAsync() ? "    }\n" : "      }\n    }\n");

  // Consumers: 64 rows of the tile each.
  os << llvm::formatv(R"(
    %isConsumer = arith.cmpi ult, %wg, %cProducer : index
    scf.if %isConsumer {{
      nvvm.setmaxregister increase {4}
      %ringIdx = arith.addi %base, %pad : index
      %ringAddr = arith.index_cast %ringIdx : index to i64
      // Descriptors hold 18 address bits (14 bits of address >> 4). In a
      // cluster the shared address of a variable carries the block's rank
      // above them, which would spill into the leading-byte-offset field.
      %cAddrMask = arith.constant {5} : i64
      %ring = arith.andi %ringAddr, %cAddrMask : i64
      %descALoWord = arith.constant {0} : i32
      %descBLoWord = arith.constant {1} : i32
      %descAHiWord = arith.constant {7} : i32
      %descBHiWord = arith.constant {8} : i32
      %c4i = arith.constant 4 : i64
      %wgI = arith.index_cast %wg : index to i64
      %cASlab = arith.constant {6} : i64
      %aSlab = arith.muli %wgI, %cASlab : i64
      %cStageBytesI = arith.constant {2} : i64
      %cATile = arith.constant {3} : i64
      %c128 = arith.constant 128 : index
      %wtid = arith.remui %tid, %c128 : index
      %lane32 = arith.remui %tid32, %c32i : i32
)",
                      int32_t(descAHi), int32_t(descBHi), p.stageBytes(),
                      aTileBytes, p.consumerRegisters(), kDescAddressMask,
                      8192 * p.rowBlocks, int32_t(descAHi >> 32),
                      int32_t(descBHi >> 32));
  // A warpgroup's row blocks: 8 KiB of its A slab each.
  for (int64_t rb = 0; p.rowBlocks > 1 && rb < p.rowBlocks; ++rb)
    os << llvm::formatv("      %cRowBlock{0} = arith.constant {1} : i64\n", rb,
                        rb * 8192);
  if (clustered)
    // The cluster addresses of both blocks' first empty barrier, for the
    // releases (emitRelease): mapped once, not per k-tile.
    os << R"(
      %c8bar = arith.constant 8 : i32
      %emptyBar0 = nvgpu.mbarrier.get %empty[%c0] : !barT -> i32
      %emptyR = llvm.inline_asm asm_dialect = att "mapa.shared::cluster.u32 $0, $2, 0; mapa.shared::cluster.u32 $1, $2, 1;", "=r,=r,r" %emptyBar0 : (i32) -> !llvm.struct<(i32, i32)>
      %emptyR0 = llvm.extractvalue %emptyR[0] : !llvm.struct<(i32, i32)>
      %emptyR1 = llvm.extractvalue %emptyR[1] : !llvm.struct<(i32, i32)>
)";
  if (p.hasPrologue() && !p.prologueInRegisters)
    os << llvm::formatv(R"(
      // The fused prologue's addresses: on A, thread t of warpgroup w
      // rewrites the 16-byte pieces t, t + 128, ... of the w-th 8 KiB slab
      // of A; on B, consumer thread 128 w + t the pieces 128 w + t, + 128 x
      // consumers, ... of the B tile.
      %pRing32 = arith.trunci %ringAddr : i64 to i32
      %pStageBytes = arith.constant {0} : i32
      %pWtid = arith.index_cast %wtid : index to i32
      %c16p = arith.constant 16 : i32
      %cSlabP = arith.constant {1} : i32
      %pT16 = arith.muli %pWtid, %c16p : i32
      %pSlab = arith.muli %wg32, %cSlabP : i32
      %pThread0 = arith.addi %pSlab, %pT16 : i32
      %cTileP = arith.constant {2} : i32
      %pThread = arith.addi %pThread0, %cTileP : i32
      {3}
      %cPThreads = arith.constant {4} : i32
)",
                        p.stageBytes(), p.prologueA ? 8192 : 2048,
                        p.prologueA ? 0 : p.blockM * kSwizzleRowBytes,
                        // A: named barrier 1 + w per warpgroup; B: named
                        // barrier 7 for all consumer threads.
                        p.prologueA
                            ? "%cBarP = arith.constant 1 : i32\n"
                              "      %pBar = arith.addi %wg32, %cBarP : i32"
                            : "%pBar = arith.constant 7 : i32",
                        p.prologueA ? 128 : 128 * p.consumers());
  if (p.prologueInRegisters) {
    // The register form's per-thread addresses (emitRegisterAFragment).
    os << llvm::formatv(R"(
      %pRing32 = arith.trunci %ringAddr : i64 to i32
      %pStageBytes = arith.constant {0} : i32
      %pWtid = arith.index_cast %wtid : index to i32
)",
                        p.stageBytes());
    os << R"(
      %raC32 = arith.constant 32 : i32
      %raC16 = arith.constant 16 : i32
      %raC8 = arith.constant 8 : i32
      %raC4 = arith.constant 4 : i32
      %raC128 = arith.constant 128 : i32
      %raCSlab = arith.constant 8192 : i32
      %raLane = arith.remui %pWtid, %raC32 : i32
      %raWarp = arith.divui %pWtid, %raC32 : i32
      %raHalf = arith.divui %raLane, %raC16 : i32
      %raRow8 = arith.remui %raLane, %raC8 : i32
      %raSlab = arith.muli %wg32, %raCSlab : i32
      %raZero = arith.constant 0 : i32
      %raOne = arith.constant 1 : i32
)";
    if (!p.aMNMajor) {
      // A [m][k]: lane l of warp v of warpgroup w addresses row
      // 16 v + l % 16 of the w-th 8 KiB slab, 16-byte chunk
      // 2 kk + l / 16 for the kk-th k-step, swizzled: chunk ^ (row % 8).
      os << R"(
      %raRowL = arith.remui %raLane, %raC16 : i32
      %raRowW = arith.muli %raWarp, %raC16 : i32
      %raRow = arith.addi %raRowW, %raRowL : i32
      %raY = arith.xori %raHalf, %raRow8 : i32
      %raRowB = arith.muli %raRow, %raC128 : i32
      %raBase = arith.addi %raSlab, %raRowB : i32
)";
      for (int64_t kk = 0; kk < p.blockK / p.wgmmaK(); ++kk)
        os << llvm::formatv(R"(
      %raK{0} = arith.constant {1} : i32
      %raKx{0} = arith.xori %raY, %raK{0} : i32
      %raKs{0} = arith.shli %raKx{0}, %raC4 : i32
      %raOff{0} = arith.addi %raBase, %raKs{0} : i32
)",
                            kk, 2 * kk);
    } else {
      // A [k][m]: the w-th slab is a [64 k][64 m] box, rows along K. The
      // four 8x8 matrices of a k-step (m 16 v + {0, 8}, k 16 kk + {0, 8})
      // are read transposed (ldmatrix .trans): lane l addresses k row
      // 16 kk + 8 (l / 16) + l % 8, 16-byte chunk 2 v + (l / 8) % 2 of it,
      // swizzled: chunk ^ (k % 8) = chunk ^ (l % 8). k-steps are 2 KiB
      // apart.
      os << R"(
      %raTwo = arith.constant 2 : i32
      %raKr0 = arith.muli %raHalf, %raC8 : i32
      %raKr = arith.addi %raKr0, %raRow8 : i32
      %raKrB = arith.muli %raKr, %raC128 : i32
      %raQ = arith.divui %raLane, %raC8 : i32
      %raQ2 = arith.remui %raQ, %raTwo : i32
      %raW2 = arith.muli %raWarp, %raTwo : i32
      %raCh = arith.addi %raW2, %raQ2 : i32
      %raChX = arith.xori %raCh, %raRow8 : i32
      %raChB = arith.shli %raChX, %raC4 : i32
      %raBase0 = arith.addi %raSlab, %raKrB : i32
      %raBase = arith.addi %raBase0, %raChB : i32
)";
      for (int64_t kk = 0; kk < p.blockK / p.wgmmaK(); ++kk)
        os << llvm::formatv(R"(
      %raK{0} = arith.constant {1} : i32
      %raOff{0} = arith.addi %raBase, %raK{0} : i32
)",
                            kk, kk * 16 * kSwizzleRowBytes);
    }
  }
  for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
    if (e.kind == "scalar")
      os << llvm::formatv("      %sclE{0} = memref.load %E{0}[] : {1}\n", k,
                          epilogueOperandType(p, e));
  if (p.streamK)
    os << llvm::formatv(R"(
      // Stream-K workspace: partial slots of every block, then the flags.
      %wsG = llvm.addrspacecast %pW : !llvm.ptr to !llvm.ptr<1>
      %cCons = arith.constant {0} : index
      %cSlotBytes = arith.constant {1} : i64
      %cConsI = arith.constant {0} : i64
      %nblI = arith.index_cast %nbl : index to i64
      %cBlockSlots = arith.constant {2} : i64
      %flagBase = arith.muli %nblI, %cBlockSlots : i64
      %ltI = arith.index_cast %wtid : index to i64
      %c16i = arith.constant 16 : i64
      %lt16 = arith.muli %ltI, %c16i : i64
      %isLt0 = arith.cmpi eq, %wtid, %c0 : index
      %c1n = arith.constant 1 : i32
      %namedBar = arith.addi %wg32, %c1n : i32
      %c128n = arith.constant 128 : i32
)",
                        consumers, p.partialSlotBytes(),
                        consumers * p.partialSlotBytes());
  emitWorkLoopBegin(os, p);
  emitRaster(os, p);
  // The first k-tile of every item is peeled: its first wgmma runs with
  // scale-d = 0 on an undefined accumulator, so no instruction other than
  // wgmma writes the accumulator registers and ptxas injects no
  // warpgroup.arrive / wait (C7519 / C7517) around the chain.
  if (p.tmaEpilogueOperand >= 0)
    emitEpilogueOperandPrefetch(os, p);
  os << R"(
      %accU = llvm.mlir.undef : !acc
)";
  std::string last;
  if (p.prologueInRegisters) {
    // A in registers: the item's first F0 is loaded here, every k-tile
    // loads the next one's (emitKTileRegs); the loop carries it.
    emitFullWait(os, "0p", "%it0");
    emitRegisterAStage(os, "P", "%s0p");
    emitRegisterAFragment(os, "P", 0, "raP_", p);
    os << R"(
      %itEnd = arith.addi %it0, %len : index
      %itLast = arith.subi %itEnd, %c1 : index
      %it1 = arith.addi %it0, %c1 : index
      %itNf = arith.minui %it1, %itLast : index
)";
    std::string first = emitKTileRegs(os, "f", "%it0", "%itNf",
                                      /*isFirst=*/true, "%accU", "raP_", p);
    os << llvm::formatv(R"(
      %acc, %raE0, %raE1, %raE2, %raE3 = scf.for %kt = %c1 to %len step %c1 iter_args(%accIn = {0}, %raC0 = %raNf_0, %raC1 = %raNf_1, %raC2 = %raNf_2, %raC3 = %raNf_3) -> (!acc, i32, i32, i32, i32) {{
        %it = arith.addi %it0, %kt : index
        %itP1 = arith.addi %it, %c1 : index
        %itN = arith.minui %itP1, %itLast : index
)",
                        first);
    last = emitKTileRegs(os, "", "%it", "%itN", /*isFirst=*/false, "%accIn",
                         "raC", p);
    os << llvm::formatv(R"(
        scf.yield {0}, %raN_0, %raN_1, %raN_2, %raN_3 : !acc, i32, i32, i32, i32
      }
)",
                        last);
  } else {
    // One accumulator per row block, carried together (%acc#r; one row
    // block: %acc).
    const int64_t r = p.rowBlocks;
    auto accName = [&](StringRef base, int64_t rb) {
      return r == 1 ? base.str() : llvm::formatv("{0}{1}", base, rb).str();
    };
    std::string undefs, ins, types;
    for (int64_t rb = 0; rb < r; ++rb) {
      undefs += (rb ? ", " : "") + std::string("%accU");
      ins += (rb ? ", " : "") + accName("%accIn", rb);
      types += rb ? ", !acc" : "!acc";
    }
    std::string first = emitKTile(os, "f", "%it0", /*isFirst=*/true, undefs, p);
    SmallVector<StringRef> firsts;
    StringRef(first).split(firsts, ',');
    std::string iterArgs;
    for (int64_t rb = 0; rb < r; ++rb)
      iterArgs += llvm::formatv("{0}{1} = {2}", rb ? ", " : "",
                                accName("%accIn", rb), firsts[rb].trim())
                      .str();
    os << llvm::formatv(R"(
      {2} = scf.for %kt = %c1 to %len step %c1 iter_args({0}) -> ({1}) {{
        %it = arith.addi %it0, %kt : index
)",
                        iterArgs, types,
                        r == 1 ? std::string("%acc")
                               : llvm::formatv("%acc:{0}", r).str());
    last = emitKTile(os, "", "%it", /*isFirst=*/false, ins, p);
    os << R"(
        // The previous k-tile's wgmma group is done: release its stage.
        %prevIt = arith.subi %it, %c1 : index
        %ps = arith.remui %prevIt, %cStages : index
)";
    emitRelease(os, "tok", "%ps", p);
    os << llvm::formatv(R"(
        scf.yield {0} : {1}
      }
)",
                        last, types);
  }
  os << llvm::formatv(R"(
      nvvm.wgmma.wait.group.sync.aligned 0
      // The item's last stage is read: release it (the producer may already
      // be filling the ring for the next item while this epilogue runs).
      %itNext = arith.addi %it0, %len : index
      %lastIt = arith.subi %itNext, %c1 : index
      %ls = arith.remui %lastIt, %cStages : index
)",
                      last);
  emitRelease(os, "ltok", "%ls", p);
  if (p.streamK)
    emitStreamKFixup(os, p);

  if (p.rowBlocks == 1) {
    emitTileEpilogue(os, p, "%acc", "%wg");
  } else {
    // A warpgroup's row blocks one after the other, each in a region of its
    // own (the same SSA names in sibling regions), through the same store
    // buffers: a block's first chunk waits for every store before it.
    os << llvm::formatv(R"(
      %cRowBlocks = arith.constant {0} : index
      %wgRB = arith.muli %wg, %cRowBlocks : index
)",
                        p.rowBlocks);
    for (int64_t rb = 0; rb < p.rowBlocks; ++rb) {
      os << llvm::formatv(R"(
      scf.execute_region {{
      %cRbE = arith.constant {0} : index
      %wgE = arith.addi %wgRB, %cRbE : index
)",
                          rb);
      emitTileEpilogue(os, p, llvm::formatv("%acc#{0}", rb).str(), "%wgE");
      os << R"(
      scf.yield
      }
)";
    }
  }
  if (p.streamK)
    os << R"(
      }
)";
  emitWorkLoopEnd(os, p);
  // The shared buffers must outlive the last TMA stores' reads.
  if (p.tmaStore)
    os << R"(
      %epiLast = arith.cmpi eq, %wtid, %c0 : index
      scf.if %epiLast {
        nvvm.cp.async.bulk.wait_group 0
      }
)";
  os << R"(
    }
)";
  os << R"(
    gpu.return
  }
)";
  for (const PackParams &pack : p.packs)
    os << renderPackFunc(pack);
  os << R"(
}
}
)";
  return s;
}


/// The transposing pack of 32-bit elements, through shared memory: the
/// blocks stride over 32 x 32 tiles of the source; 256 threads (8 warps)
/// load a tile row-wise (warp w rows w, w + 8, ..., lane l column l:
/// coalesced), meet, and store its transpose row-wise (lane l writes
/// column l of copy rows w, w + 8, ...: coalesced). The tile has 33
/// columns so that the column reads hit 32 banks. Source elements past
/// the edge are clamped to the last row or column; copy rows past the
/// source's columns are not stored, copy columns past its rows land in
/// the padding (the rows are 128-byte multiples), which TMA never reads.
static std::string renderTransposePackFunc(const PackParams &pack) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv(R"(
  memref.global "private" @{0}_tile : memref<32x33x{7}, 3>
  gpu.func @{0}(%src: !llvm.ptr, %dst: !llvm.ptr) kernel
      attributes {{nvvm.maxntid = array<i32: {1}, 1, 1>} {{
    %tile = memref.get_global @{0}_tile : memref<32x33x{7}, 3>
    %srcG = llvm.addrspacecast %src : !llvm.ptr to !llvm.ptr<1>
    %dstG = llvm.addrspacecast %dst : !llvm.ptr to !llvm.ptr<1>
    %cTilesN = arith.constant {2} : index
    %cTiles = arith.constant {3} : index
    %cSrcStride = arith.constant {4} : index
    %cDstStride = arith.constant {5} : index
    %cLastRow = arith.constant {6} : index
    %cLastCol = arith.constant {8} : index
    %cCols = arith.constant {9} : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %nb = gpu.grid_dim x
    %tx = arith.remui %tid, %c32 : index
    %ty = arith.divui %tid, %c32 : index
    scf.for %t = %bid to %cTiles step %nb {{
      %tk = arith.divui %t, %cTilesN : index
      %tn = arith.remui %t, %cTilesN : index
      %k0 = arith.muli %tk, %c32 : index
      %n0 = arith.muli %tn, %c32 : index
      %nL = arith.addi %n0, %tx : index
      %nC = arith.minui %nL, %cLastCol : index
)",
                      pack.name, PackParams::kThreads,
                      ceilDiv(pack.cols, 32),
                      ceilDiv(pack.rows, 32) * ceilDiv(pack.cols, 32),
                      pack.srcStride, pack.dstStride, pack.rows - 1,
                      pack.type, pack.cols - 1, pack.cols);
  for (int64_t j = 0; j < 4; ++j)
    os << llvm::formatv(R"(
      %lr{0}c = arith.constant {1} : index
      %lr{0} = arith.addi %ty, %lr{0}c : index
      %lk{0}u = arith.addi %k0, %lr{0} : index
      %lk{0} = arith.minui %lk{0}u, %cLastRow : index
      %lo{0}r = arith.muli %lk{0}, %cSrcStride : index
      %lo{0} = arith.addi %lo{0}r, %nC : index
      %lo{0}I = arith.index_cast %lo{0} : index to i64
      %lp{0} = llvm.getelementptr %srcG[%lo{0}I] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {2}
      %lv{0} = llvm.load %lp{0} {{alignment = 4 : i64} : !llvm.ptr<1> -> {2}
      memref.store %lv{0}, %tile[%lr{0}, %tx] : memref<32x33x{2}, 3>
)",
                        j, 8 * j, pack.type);
  os << "      gpu.barrier\n      %kS = arith.addi %k0, %tx : index\n";
  for (int64_t j = 0; j < 4; ++j)
    os << llvm::formatv(R"(
      %sr{0}c = arith.constant {1} : index
      %sr{0} = arith.addi %ty, %sr{0}c : index
      %sn{0} = arith.addi %n0, %sr{0} : index
      %sin{0} = arith.cmpi ult, %sn{0}, %cCols : index
      scf.if %sin{0} {{
        %sv{0} = memref.load %tile[%tx, %sr{0}] : memref<32x33x{2}, 3>
        %so{0}r = arith.muli %sn{0}, %cDstStride : index
        %so{0} = arith.addi %so{0}r, %kS : index
        %so{0}I = arith.index_cast %so{0} : index to i64
        %sp{0} = llvm.getelementptr %dstG[%so{0}I] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {2}
        llvm.store %sv{0}, %sp{0} {{alignment = 4 : i64} : {2}, !llvm.ptr<1>
      }
)",
                        j, 8 * j, pack.type);
  os << R"(
      gpu.barrier
    }
    gpu.return
  }
)";
  return s;
}

std::string mlir::tcgen::sm90::renderPackFunc(const PackParams &pack) {
  if (pack.transpose)
    return renderTransposePackFunc(pack);
  // Each thread copies chunks of 8 elements (16 bytes) of a row and stores
  // each with one 16-byte store (the copy's rows are 128-byte multiples).
  // Where the source rows are 8- or 16-byte aligned (their stride in bytes
  // is a multiple), it loads the chunk in such pieces. Otherwise (rows 2 or
  // 4 bytes aligned, which differ from row to row) it loads the three
  // aligned 8-byte words around the chunk and funnel-shifts them into
  // place; the last chunks of a row, where those words would reach past
  // the row (and past the matrix, in the last row), load element pieces
  // instead. In the last chunk of a row the pieces past the end re-read
  // the row's last piece; they land in the copy's padding, which TMA never
  // reads (the tensor map keeps the operand's extents).
  const int64_t elementBytes = 2;
  int64_t pieceBytes = 16;
  while ((pack.srcStride * elementBytes) % pieceBytes != 0)
    pieceBytes /= 2;
  const bool shifted = pieceBytes < 8;
  const int64_t pieceElems = pieceBytes / elementBytes;
  const int64_t pieces = 8 / pieceElems;
  const int64_t lastPiece = pack.cols - pieceElems;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv(R"(
  gpu.func @{0}(%src: !llvm.ptr, %dst: !llvm.ptr) kernel
      attributes {{nvvm.maxntid = array<i32: {1}, 1, 1>} {{
    %srcG = llvm.addrspacecast %src : !llvm.ptr to !llvm.ptr<1>
    %dstG = llvm.addrspacecast %dst : !llvm.ptr to !llvm.ptr<1>
    %cThreads = arith.constant {1} : index
    %cPerRow = arith.constant {2} : index
    %cTotal = arith.constant {3} : index
    %cSrcStride = arith.constant {4} : index
    %cDstStride = arith.constant {5} : index
    %cLastPiece = arith.constant {6} : index
    %cCols = arith.constant {7} : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
)",
                      pack.name, PackParams::kThreads, pack.chunksPerRow(),
                      pack.rows * pack.chunksPerRow(), pack.srcStride,
                      pack.dstStride, lastPiece, pack.cols);
  os << kGridStrideIndicesText << llvm::formatv(R"(
    scf.for %i = %first to %cTotal step %step {{
      %r = arith.divui %i, %cPerRow : index
      %q = arith.remui %i, %cPerRow : index
      %c = arith.muli %q, %c8 : index
      %srcRow = arith.muli %r, %cSrcStride : index
)");
  if (shifted)
    os << llvm::formatv(R"(
      %cEnd = arith.addi %c, %c12 : index
      %fast = arith.cmpi ule, %cEnd, %cCols : index
      %chunk = scf.if %fast -> (vector<8x{0}>) {{
        %fAt = arith.addi %srcRow, %c : index
        %fAtI = arith.index_cast %fAt : index to i64
        %fp = llvm.getelementptr %srcG[%fAtI] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {0}
        %fa = llvm.ptrtoint %fp : !llvm.ptr<1> to i64
        %c7i = arith.constant 7 : i64
        %c8i = arith.constant 8 : i64
        %fMis = arith.andi %fa, %c7i : i64
        %fa0 = arith.subi %fa, %fMis : i64
        %fSh = arith.muli %fMis, %c8i : i64
        %fp0 = llvm.inttoptr %fa0 : i64 to !llvm.ptr<1>
        %fp1 = llvm.getelementptr %fp0[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
        %fp2 = llvm.getelementptr %fp0[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
        %w0 = llvm.load %fp0 {{alignment = 8 : i64} : !llvm.ptr<1> -> i64
        %w1 = llvm.load %fp1 {{alignment = 8 : i64} : !llvm.ptr<1> -> i64
        %w2 = llvm.load %fp2 {{alignment = 8 : i64} : !llvm.ptr<1> -> i64
        %o0 = llvm.intr.fshr(%w1, %w0, %fSh) : (i64, i64, i64) -> i64
        %o1 = llvm.intr.fshr(%w2, %w1, %fSh) : (i64, i64, i64) -> i64
        %ow = vector.from_elements %o0, %o1 : vector<2xi64>
        %oc = llvm.bitcast %ow : vector<2xi64> to vector<8x{0}>
        scf.yield %oc : vector<8x{0}>
      } else {{
)",
                        pack.type);
  std::string elems;
  for (int64_t x = 0; x < pieces; ++x) {
    os << llvm::formatv(R"(
      %o{0} = arith.constant {1} : index
      %col{0}u = arith.addi %c, %o{0} : index
      %col{0} = arith.minui %col{0}u, %cLastPiece : index
      %at{0} = arith.addi %srcRow, %col{0} : index
      %at{0}I = arith.index_cast %at{0} : index to i64
      %p{0} = llvm.getelementptr %srcG[%at{0}I] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {2}
      %v{0} = llvm.load %p{0} {{alignment = {3} : i64} : !llvm.ptr<1> -> vector<{4}x{2}>
)",
                        x, x * pieceElems, pack.type, pieceBytes, pieceElems);
    for (int64_t e = 0; e < pieceElems; ++e) {
      os << llvm::formatv(
          "      %e{0}_{1} = vector.extract %v{0}[{1}] : {2} from "
          "vector<{3}x{2}>\n",
          x, e, pack.type, pieceElems);
      elems += llvm::formatv("{0}%e{1}_{2}", elems.empty() ? "" : ", ", x, e)
                   .str();
    }
  }
  os << llvm::formatv("      %{0} = vector.from_elements {1} : vector<8x{2}>\n",
                      shifted ? "slow" : "chunk", elems, pack.type);
  if (shifted)
    os << llvm::formatv(R"(
        scf.yield %slow : vector<8x{0}>
      }
)",
                        pack.type);
  if (pack.transform) {
    // The fused prologue, element by element, on the chunk.
    std::string vec = "%chunk";
    for (int64_t e = 0; e < 8; ++e) {
      os << llvm::formatv(R"(
      %tX{0} = vector.extract {1}[{0}] : {2} from vector<8x{2}>
      %tY{0} = func.call @{3}(%tX{0}) : ({2}) -> {2}
      %tW{0} = vector.insert %tY{0}, {1} [{0}] : {2} into vector<8x{2}>
)",
                          e, vec, pack.type, kPrologueFuncName);
      vec = llvm::formatv("%tW{0}", e).str();
    }
  }
  os << llvm::formatv(R"(
      %dstRow = arith.muli %r, %cDstStride : index
      %dAt = arith.addi %dstRow, %c : index
      %dAtI = arith.index_cast %dAt : index to i64
      %dp = llvm.getelementptr %dstG[%dAtI] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {0}
      llvm.store {1}, %dp {{alignment = 16 : i64} : vector<8x{0}>, !llvm.ptr<1>
    }
    gpu.return
  }
)",
                      pack.type, pack.transform ? "%tW7" : "%chunk");
  return s;
}

/// Replaces the calls of @tcgen_epilogue and @tcgen_prologue in `gpuModule`
/// by what the body builders emit, and erases their declarations.
static LogicalResult applyBodies(gpu::GPUModuleOp gpuModule,
                                 const KernelParams &params, Location loc,
                                 const EpilogueBodyBuilder &epilogueBody,
                                 const PrologueBodyBuilder &prologueBody) {
  if (params.fusedEpilogue) {
    if (!epilogueBody)
      return emitError(loc, "internal error: a fused epilogue without a body "
                            "(a tcgen bug)");
    SmallVector<func::CallOp> calls;
    gpuModule.walk([&](func::CallOp call) {
      if (call.getCallee() == kEpilogueFuncName)
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      OpBuilder builder(call);
      Value result = epilogueBody(builder, call.getOperand(0),
                                  call.getOperands().drop_front());
      if (!result || result.getType() != call.getResult(0).getType())
        return emitError(loc, "internal error: the fused epilogue yields ")
               << (result ? result.getType() : Type()) << ", not "
               << call.getResult(0).getType() << " (a tcgen bug)";
      call.getResult(0).replaceAllUsesWith(result);
      call.erase();
    }
    if (auto decl = gpuModule.lookupSymbol<func::FuncOp>(kEpilogueFuncName))
      decl.erase();
  }
  if (params.callsPrologue()) {
    if (!prologueBody)
      return emitError(loc, "internal error: a fused prologue without a body "
                            "(a tcgen bug)");
    SmallVector<func::CallOp> calls;
    gpuModule.walk([&](func::CallOp call) {
      if (call.getCallee() == kPrologueFuncName)
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      OpBuilder builder(call);
      Value result = prologueBody(builder, call.getOperand(0));
      if (!result || result.getType() != call.getResult(0).getType())
        return emitError(loc, "internal error: the fused prologue yields ")
               << (result ? result.getType() : Type()) << ", not "
               << call.getResult(0).getType() << " (a tcgen bug)";
      call.getResult(0).replaceAllUsesWith(result);
      call.erase();
    }
    if (auto decl = gpuModule.lookupSymbol<func::FuncOp>(kPrologueFuncName))
      decl.erase();
  }
  return success();
}

/// The generator buildKernelModule uses (transition): TCGEN_SM90_GENERATOR
/// = "typed" (the default), "text", or "compare" (both; a difference in
/// their printed modules is an error that shows the first differing line,
/// and the text's module is kept).
static StringRef generatorMode() {
  const char *mode = std::getenv("TCGEN_SM90_GENERATOR");
  return mode ? StringRef(mode) : StringRef("typed");
}

/// The printed form of `op`.
static std::string printed(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os, OpPrintingFlags().assumeVerified());
  return s;
}

/// The text generator's gpu.module, parsed into `holder`.
static FailureOr<gpu::GPUModuleOp>
parseTextKernel(OwningOpRef<ModuleOp> &holder, const KernelParams &params,
                Location loc) {
  std::string text = renderKernelModule(params);
  ParserConfig config(loc.getContext());
  holder = parseSourceString<ModuleOp>(text, config);
  if (!holder)
    return emitError(loc, "internal error: the sm90 kernel template did not "
                          "parse (a tcgen bug)");
  return *holder->getOps<gpu::GPUModuleOp>().begin();
}

FailureOr<Operation *>
mlir::tcgen::sm90::buildKernelModule(ModuleOp module,
                                     const KernelParams &params, Location loc,
                                     const EpilogueBodyBuilder &epilogueBody,
                                     const PrologueBodyBuilder &prologueBody) {
  StringRef mode = generatorMode();
  OwningOpRef<ModuleOp> textHolder, typedHolder;
  gpu::GPUModuleOp gpuModule;
  if (mode != "typed") {
    FailureOr<gpu::GPUModuleOp> text = parseTextKernel(textHolder, params, loc);
    if (failed(text))
      return failure();
    gpuModule = *text;
  }
  if (mode != "text") {
    typedHolder = ModuleOp::create(loc);
    FailureOr<gpu::GPUModuleOp> typed =
        buildTypedKernel(*typedHolder, params, loc);
    if (failed(typed))
      return failure();
    if (mode == "typed") {
      gpuModule = *typed;
    } else {
      std::string want = printed(gpuModule), got = printed(*typed);
      if (want != got) {
        if (const char *dump = std::getenv("TCGEN_SM90_DUMP")) {
          std::error_code ec;
          llvm::raw_fd_ostream(std::string(dump) + ".text", ec) << want;
          llvm::raw_fd_ostream(std::string(dump) + ".typed", ec) << got;
        }
        SmallVector<StringRef> wantLines, gotLines;
        StringRef(want).split(wantLines, '\n');
        StringRef(got).split(gotLines, '\n');
        size_t i = 0;
        while (i < wantLines.size() && i < gotLines.size() &&
               wantLines[i] == gotLines[i])
          ++i;
        return emitError(loc, "typed sm90 kernel differs at line ")
               << i + 1 << ":\n  text:  "
               << (i < wantLines.size() ? wantLines[i] : "<end>")
               << "\n  typed: "
               << (i < gotLines.size() ? gotLines[i] : "<end>");
      }
    }
  }
  if (failed(applyBodies(gpuModule, params, loc, epilogueBody, prologueBody)))
    return failure();
  gpuModule->remove();
  SymbolTable(module).insert(gpuModule);
  return gpuModule.getOperation();
}
