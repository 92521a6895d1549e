//===- Kernel.cpp - The typed sm90 kernel: module and entry -----*- C++ -*-===//
//
// This file implements the top level of the sm90 kernel generator: the
// gpu.module and its gpu.func (signature and attributes), the kernel-wide
// constants and barriers, and the two roles' branches, whose bodies the
// producer (Producer.cpp), the schedule (Schedule.cpp), the main loop
// (Mainloop.cpp) and the epilogue (Epilogue.cpp) emit. Every number in the
// kernel (tile sizes, byte offsets, descriptor fields) is computed here or
// in those files, next to its reason.
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

#include "Kernel.h"
#include "Emit.h"

#include "tcgen/Targets/SM90/Epilogue.h"
#include "tcgen/Targets/SM90/Mainloop.h"
#include "tcgen/Targets/SM90/Packs.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;
using arith::CmpIPredicate;

/// wgmma matrix-descriptor fields (PTX ISA "matrix descriptor format").
constexpr uint64_t kSwizzle128B = 1ull << 62; // bits 62-63: 1 = 128B
constexpr uint64_t kSboShift = 32;            // bits 32-45: stride offset >> 4
constexpr uint64_t kLboShift = 16;            // bits 16-29: leading offset >> 4
constexpr uint64_t kDescAddressMask = (1ull << 18) - 1; // 14 bits of addr >> 4

/// The high bits of a wgmma matrix descriptor for a 128B-swizzled f16/bf16
/// tile: SBO = 8 rows of 128 B either way; LBO is unused (1) for K-major
/// tiles and is the distance to the next 64-wide box (8 KiB) for MN-major
/// tiles, which are stored as [64 k rows][64 m|n] boxes.
static uint64_t descriptorHigh(bool kMajor) {
  uint64_t lbo = kMajor ? 1 : uint64_t(kBBoxBytes >> 4);
  return kSwizzle128B | (uint64_t(kAtomBytes >> 4) << kSboShift) |
         (lbo << kLboShift);
}

namespace {
/// The kernel's types (the text's aliases !barT, !tmA, !tmB, !acc, !tmE,
/// !barE, !smem).
struct KernelTypes {
  Type barT, tmA, tmB, acc, tmE, barE, smem;
};

/// The kernel's parameters and what the consumers alone define besides
/// KernelValues.
struct KernelArgs {
  Value C, tmapC, pE;
  Value pSA, pSB; ///< block-scaled fp8: the scales' pointers
  SmallVector<Value> E, sclE;
  Value sizeM, sizeN, sizeK;
  SmallVector<Value> strides; ///< %E<k>stride (sizes known at run time)
  Value tmapE, eBar;
  Value ringAddr, c128;
  MainloopValues mainloop;
  PrologueValues prologue;
};
} // namespace

static KernelTypes kernelTypes(MLIRContext *ctx, const KernelParams &p) {
  KernelTypes t;
  t.barT = barrierGroupType(ctx, p.stages);
  const int64_t aRows = p.aMNMajor ? 64 : p.blockM / p.clusterN;
  t.tmA = tensorMapType(!p.aMapDims.empty()
                            ? boxTypeOf(ctx, p, p.aMapDims, aRows)
                            : boxType(ctx, p, aRows, p.aBatchMiddle));
  t.tmB = tensorMapType(
      !p.bMapDims.empty()
          ? boxTypeOf(ctx, p, p.bMapDims, p.bKMajor ? bBoxRows(p) : 64)
          : boxType(ctx, p, p.bKMajor ? p.outBlockN() / p.clusterM : 64,
                    p.bBatchMiddle));
  t.acc = accumulatorType(ctx, p);
  if (p.tmaEpilogueOperand >= 0) {
    t.tmE = tensorMapType(
        smemType({64, p.storeChunkCols()}, scalarType(ctx, p.outType)));
    t.barE = barrierGroupType(ctx, 2 * p.consumers());
  }
  t.smem = smemType({ShapedType::kDynamic}, IntegerType::get(ctx, 8));
  return t;
}

/// The type of C as a plain memref parameter (stores from registers).
static Type cMemrefType(MLIRContext *ctx, const KernelParams &p) {
  Type elt = scalarType(ctx, p.outType);
  // A grouped product's C: a bare pointer, viewed in emitEntry.
  if (p.grouped())
    return MemRefType::get({1}, elt);
  if (p.cColumnMajor)
    return MemRefType::get({p.n, p.m}, elt);
  if (!p.batched)
    return MemRefType::get({p.m, p.n}, elt);
  if (p.cBatchMiddle)
    return MemRefType::get({p.m, p.batch, p.n}, elt);
  return MemRefType::get({p.batch, p.m, p.n}, elt);
}

/// Creates the kernel's gpu.func at `b`'s point: its parameters are %pA,
/// %pB, (%pA2, %pB2, or a dual GEMM's %pB2,) %tmapC or %C, (%pSA, %pSB,) the extra epilogue
/// operands, (%pW,)
/// and with sizes known at run time the sizes and row strides.
static gpu::GPUFuncOp createKernelFunc(OpBuilder &b, Location loc,
                                       const KernelParams &p) {
  MLIRContext *ctx = b.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Type> args = {ptr, ptr};
  if (p.k2 > 0)
    args.append({ptr, ptr});
  if (p.dual)
    args.push_back(ptr);
  args.push_back(p.tmaStore ? ptr : cMemrefType(ctx, p));
  if (p.blockScaled)
    args.append({ptr, ptr});
  llvm::append_range(args, epilogueParamTypes(ctx, p));
  if (p.grouped())
    args.push_back(MemRefType::get(
        {p.groups + 1}, IntegerType::get(ctx, p.offsetsI64 ? 64 : 32)));
  if (p.streamK)
    args.push_back(ptr);
  llvm::append_range(args, dynamicParamTypes(ctx, p));
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("nvvm.maxntid",
                     b.getDenseI32ArrayAttr({int32_t(p.threads()), 1, 1})),
      b.getNamedAttr("nvvm.minctasm", b.getI32IntegerAttr(1))};
  if (p.clusterSize() > 1)
    attrs.push_back(b.getNamedAttr(
        "nvvm.cluster_dim",
        b.getDenseI32ArrayAttr({int32_t(p.clusterSize()), 1, 1})));
  auto func =
      gpu::GPUFuncOp::create(b, loc, p.name, b.getFunctionType(args, {}),
                             TypeRange(), TypeRange(), attrs);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  return func;
}

/// Binds the kernel's parameters (`args` in createKernelFunc's order) to
/// their names and casts the TMA operands' pointers to tensor maps.
static void bindParameters(Emitter &e, const KernelParams &p,
                           const KernelTypes &t, ValueRange params,
                           KernelValues &v, KernelArgs &a) {
  auto next = [&, i = size_t(0)]() mutable { return params[i++]; };
  v.pA = next();
  v.pB = next();
  if (p.k2 > 0) {
    v.pA2 = next();
    v.pB2 = next();
  }
  if (p.dual)
    v.pB2 = next();
  (p.tmaStore ? a.tmapC : a.C) = next();
  if (p.blockScaled) {
    a.pSA = next();
    a.pSB = next();
  }
  SmallVector<Value> raw;
  for (size_t k = 0; k < p.epilogueOperands.size(); ++k)
    raw.push_back(next());
  a.E = raw;
  if (p.tmaEpilogueOperand >= 0) {
    a.pE = raw[p.tmaEpilogueOperand];
    a.E[p.tmaEpilogueOperand] = Value();
  }
  if (p.grouped())
    v.offsets = next();
  if (p.streamK)
    v.pW = next();
  SmallVector<Value> strides(p.epilogueOperands.size());
  if (p.dynamicShape) {
    a.sizeM = next();
    a.sizeN = next();
    a.sizeK = next();
    for (auto [k, op] : llvm::enumerate(p.epilogueOperands))
      if (op.kind == "matrix")
        strides[k] = next();
  }
  // A and B copied with cp.async are plain pointers.
  auto cast = [&](Type type, Value ptr) {
    return UnrealizedConversionCastOp::create(e.b, e.loc, type, ptr)
        .getResult(0);
  };
  if (!p.aAsync)
    v.tmapA = cast(t.tmA, v.pA);
  if (!p.bAsync)
    v.tmapB = cast(t.tmB, v.pB);
  if (p.k2 > 0) {
    v.tmapA2 = cast(t.tmA, v.pA2);
    v.tmapB2 = cast(t.tmB, v.pB2);
  }
  if (p.dual)
    v.tmapB2 = cast(t.tmB, v.pB2);
  a.strides = strides;
}

/// Emits the kernel-wide constants and indices, the problem's counts and
/// the dynamic shared memory's aligned base.
static void emitEntry(Emitter &e, const KernelParams &p, const KernelTypes &t,
                      KernelValues &v, KernelArgs &a) {
  OpBuilder &b = e.b;
  MLIRContext *ctx = b.getContext();
  v.c0 = e.idx(0);
  v.c1 = e.idx(1);
  v.c1024 = e.idx(1024);
  v.cStages = e.idx(p.stages);
  v.cBM = e.idx(p.blockM);
  v.cBN = e.idx(p.outBlockN());
  v.cStageBytes = e.idx(p.stageBytes());
  v.cTx = e.idx(p.tmaStageBytes());
  v.ticks = e.idx(10000000);
  v.cTrue = e.i1(true);
  v.tid = gpu::ThreadIdOp::create(b, e.loc, gpu::Dimension::x);
  // Persistent: the blocks share the tiles (tcgen.launch).
  v.bid = gpu::BlockIdOp::create(b, e.loc, gpu::Dimension::x);
  v.nbl = gpu::GridDimOp::create(b, e.loc, gpu::Dimension::x);
  // Raster over cluster tiles; the group keeps its height in block tiles.
  v.cGroup = e.idx(std::max<int64_t>(1, p.groupM / p.clusterM));
  // Clusters of clusterM x clusterN blocks take cluster tiles (that many
  // block tiles) in turn; %rankM / %rankN place the block's tile inside.
  v.cClSize = e.idx(p.clusterSize());
  v.cClM = e.idx(p.clusterM);
  v.cClN = e.idx(p.clusterN);
  ProblemSizes sizes = emitProblemSizes(b, e.loc, p, v.cGroup, v.cClSize,
                                        a.sizeM, a.sizeN, a.sizeK);
  v.cNumK = sizes.cNumK;
  v.cTilesM = sizes.cTilesM;
  v.cTilesN = sizes.cTilesN;
  v.cPerGroup = sizes.cPerGroup;
  v.cUnits = sizes.cUnits;
  v.cTiles = sizes.cTiles;
  if (p.grouped()) {
    // The groups' tiles, counted from the offsets; C viewed at
    // offsets[G] (= T) rows.
    v.cGroups = e.idx(p.groups);
    v.cUnits = emitGroupedTileCount(b, e.loc, p, v);
    v.cTiles = v.cUnits;
    Value rows = emitGroupOffset(b, e.loc, p, v, v.cGroups);
    auto view = MemRefType::get({ShapedType::kDynamic, p.n},
                                scalarType(ctx, p.outType));
    a.C = memref::ReinterpretCastOp::create(
        b, e.loc, view, a.C, b.getIndexAttr(0),
        ArrayRef<OpFoldResult>{rows, b.getIndexAttr(p.n)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(p.n), b.getIndexAttr(1)});
  }
  SmallVector<Value> raw = a.E;
  a.E = emitEpilogueViews(b, e.loc, p, raw, a.sizeM, a.sizeN, a.strides);
  v.cid = e.divu(v.bid, v.cClSize);
  v.ncl = e.divu(v.nbl, v.cClSize);
  // Warp-uniform warpgroup index (lane 0's), so that ptxas sees uniform
  // role branches and does not serialize the wgmma.
  v.tid32 = e.indexCast(e.i32Type(), v.tid);
  v.c128i = e.i32(128);
  v.c0i = e.i32(0);
  v.c32i = e.i32(32);
  Value wgRaw = e.divu(v.tid32, v.c128i);
  v.wg32 = gpu::ShuffleOp::create(b, e.loc, wgRaw, v.c0i, v.c32i,
                                  gpu::ShuffleMode::IDX)
               .getShuffleResult();
  v.wg = e.indexCast(e.indexType(), v.wg32);
  // Dynamic shared memory, its base rounded up to 1024 bytes (the 128B
  // swizzle atom: TMA and the descriptors' base_offset = 0 agree).
  auto global = smemType({0}, IntegerType::get(ctx, 8));
  Value g = memref::GetGlobalOp::create(b, e.loc, global, "__tcgen_dsmem");
  Value cSmem = e.idx(p.smemBytes());
  v.dsm = memref::ReinterpretCastOp::create(
      b, e.loc, cast<MemRefType>(t.smem), g, b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{cSmem}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  v.base = memref::ExtractAlignedPointerAsIndexOp::create(b, e.loc, v.dsm);
  Value rem = e.remu(v.base, v.c1024);
  Value padRaw = e.sub(v.c1024, rem);
  v.pad = e.remu(padRaw, v.c1024);
}

/// Emits the stages' barriers, initialized by thread 0 (with a TMA-loaded
/// epilogue operand its chunk buffers' too), and the block's place in its
/// cluster.
static void emitBarriers(Emitter &e, const KernelParams &p,
                         const KernelTypes &t, KernelValues &v, KernelArgs &a) {
  OpBuilder &b = e.b;
  const int64_t consumers = p.consumers();
  const bool clustered = p.clusterSize() > 1;
  // Stage releases the empty barrier waits for: every consumer thread, or
  // in a cluster lane 0 of every consumer warp of both blocks.
  const int64_t releases =
      clustered ? consumers * 4 * p.clusterSize() : consumers * 128;
  v.full = nvgpu::MBarrierCreateOp::create(b, e.loc, t.barT);
  v.empty = nvgpu::MBarrierCreateOp::create(b, e.loc, t.barT);
  v.isT0 = e.cmp(CmpIPredicate::eq, v.tid, v.c0);
  {
    OpBuilder::InsertionGuard guard(b);
    openIf(b, e.loc, v.isT0);
    Value cReleases = e.idx(releases);
    // The leader's arrive (with the TMA bytes), and with cp.async copies
    // one per producer thread.
    Value cFullArrivals = e.idx(p.anyAsync() ? 129 : 1);
    scf::ForOp init = openFor(b, e.loc, v.c0, v.cStages, v.c1);
    Value s = init.getInductionVar();
    nvgpu::MBarrierInitOp::create(b, e.loc, v.full, cFullArrivals, s, Value());
    nvgpu::MBarrierInitOp::create(b, e.loc, v.empty, cReleases, s, Value());
    b.setInsertionPointAfter(init);
    NVVM::FenceMbarrierInitOp::create(b, e.loc);
  }
  if (p.tmaEpilogueOperand >= 0) {
    a.tmapE =
        UnrealizedConversionCastOp::create(b, e.loc, t.tmE, a.pE).getResult(0);
    a.eBar = nvgpu::MBarrierCreateOp::create(b, e.loc, t.barE);
    OpBuilder::InsertionGuard guard(b);
    openIf(b, e.loc, v.isT0);
    Value cEBars = e.idx(2 * consumers);
    scf::ForOp init = openFor(b, e.loc, v.c0, cEBars, v.c1);
    nvgpu::MBarrierInitOp::create(b, e.loc, a.eBar, v.c1,
                                  init.getInductionVar(), Value());
    b.setInsertionPointAfter(init);
    NVVM::FenceMbarrierInitOp::create(b, e.loc);
  }
  if (!clustered) {
    gpu::BarrierOp::create(b, e.loc);
    v.rankX = e.idx(0);
    v.rankM = e.idx(0);
    v.rankN = e.idx(0);
    return;
  }
  // The peer's barriers must be initialized before this block multicasts
  // into its shared memory or arrives on them: thread 0's
  // fence.mbarrier_init (release at cluster scope) orders the inits
  // before the arrive, which can then be relaxed (the default arrive
  // releases at cluster scope: MEMBAR.ALL.GPU in every thread).
  NVVM::ClusterArriveRelaxedOp::create(b, e.loc, UnitAttr());
  NVVM::ClusterWaitOp::create(b, e.loc, UnitAttr());
  Value rank32 = NVVM::ClusterId::create(b, e.loc, e.i32Type());
  v.rankX = e.indexCast(e.indexType(), rank32);
  v.rankM = p.clusterM == 2 ? e.add(v.rankX, v.c0) : e.idx(0);
  v.rankN = p.clusterN == 2 ? e.add(v.rankX, v.c0) : e.idx(0);
  v.mcMask = e.i16(3);
}

/// Emits the fused prologue's per-thread values (in shared memory, or in
/// registers: prologueInRegisters).
static void emitPrologueSetup(Emitter &e, const KernelParams &p,
                              const KernelValues &v, KernelArgs &a) {
  MainloopValues &m = a.mainloop;
  PrologueValues &pv = a.prologue;
  if (p.hasPrologue() && !p.prologueInRegisters) {
    // The fused prologue's addresses: on A, thread t of warpgroup w
    // rewrites the 16-byte pieces t, t + 128, ... of the w-th 8 KiB slab
    // of A; on B, consumer thread 128 w + t the pieces 128 w + t, + 128 x
    // consumers, ... of the B tile.
    pv.pRing32 = e.trunc(e.i32Type(), a.ringAddr);
    pv.pStageBytes = e.i32(p.stageBytes());
    Value pWtid = e.indexCast(e.i32Type(), v.wtid);
    Value c16p = e.i32(16);
    Value cSlabP = e.i32(p.prologueA ? 8192 : 2048);
    Value pT16 = e.mul(pWtid, c16p);
    Value pSlab = e.mul(v.wg32, cSlabP);
    Value pThread0 = e.add(pSlab, pT16);
    Value cTileP = e.i32(p.prologueA ? 0 : p.blockM * kSwizzleRowBytes);
    pv.pThread = e.add(pThread0, cTileP);
    pv.pPiece = p.prologueA ? pT16 : pThread0;
    // A: named barrier 1 + w per warpgroup; B: named barrier 7 for all
    // consumer threads.
    if (p.prologueA) {
      Value cBarP = e.i32(1);
      pv.pBar = e.add(v.wg32, cBarP);
    } else {
      pv.pBar = e.i32(7);
    }
    pv.cPThreads = e.i32(p.prologueA ? 128 : 128 * p.consumers());
    m.pRing32 = pv.pRing32;
    m.pStageBytes = pv.pStageBytes;
  }
  if (!p.prologueInRegisters)
    return;
  // The register form's per-thread addresses (buildRegisterAFragment).
  m.pRing32 = e.trunc(e.i32Type(), a.ringAddr);
  m.pStageBytes = e.i32(p.stageBytes());
  Value pWtid = e.indexCast(e.i32Type(), v.wtid);
  Value raC32 = e.i32(32), raC16 = e.i32(16), raC8 = e.i32(8);
  Value raC4 = e.i32(4), raC128 = e.i32(128), raCSlab = e.i32(8192);
  Value raLane = e.remu(pWtid, raC32);
  Value raWarp = e.divu(pWtid, raC32);
  Value raHalf = e.divu(raLane, raC16);
  Value raRow8 = e.remu(raLane, raC8);
  Value raSlab = e.mul(v.wg32, raCSlab);
  m.raZero = e.i32(0);
  m.raOne = e.i32(1);
  const int64_t steps = p.blockK / p.wgmmaK();
  if (!p.aMNMajor) {
    // A [m][k]: lane l of warp v of warpgroup w addresses row
    // 16 v + l % 16 of the w-th 8 KiB slab, 16-byte chunk
    // 2 kk + l / 16 for the kk-th k-step, swizzled: chunk ^ (row % 8).
    Value raRowL = e.remu(raLane, raC16);
    Value raRowW = e.mul(raWarp, raC16);
    Value raRow = e.add(raRowW, raRowL);
    Value raY = e.xori(raHalf, raRow8);
    Value raRowB = e.mul(raRow, raC128);
    Value raBase = e.add(raSlab, raRowB);
    for (int64_t kk = 0; kk < steps; ++kk) {
      Value raK = e.i32(2 * kk);
      Value raKx = e.xori(raY, raK);
      Value raKs = e.shli(raKx, raC4);
      m.raOff.push_back(e.add(raBase, raKs));
    }
    return;
  }
  // A [k][m]: the w-th slab is a [64 k][64 m] box, rows along K. The four
  // 8x8 matrices of a k-step (m 16 v + {0, 8}, k 16 kk + {0, 8}) are read
  // transposed (ldmatrix .trans): lane l addresses k row
  // 16 kk + 8 (l / 16) + l % 8, 16-byte chunk 2 v + (l / 8) % 2 of it,
  // swizzled: chunk ^ (k % 8) = chunk ^ (l % 8). k-steps are 2 KiB apart.
  Value raTwo = e.i32(2);
  Value raKr0 = e.mul(raHalf, raC8);
  Value raKr = e.add(raKr0, raRow8);
  Value raKrB = e.mul(raKr, raC128);
  Value raQ = e.divu(raLane, raC8);
  Value raQ2 = e.remu(raQ, raTwo);
  Value raW2 = e.mul(raWarp, raTwo);
  Value raCh = e.add(raW2, raQ2);
  Value raChX = e.xori(raCh, raRow8);
  Value raChB = e.shli(raChX, raC4);
  Value raBase0 = e.add(raSlab, raKrB);
  Value raBase = e.add(raBase0, raChB);
  for (int64_t kk = 0; kk < steps; ++kk) {
    Value raK = e.i32(kk * 16 * kSwizzleRowBytes);
    m.raOff.push_back(e.add(raBase, raK));
  }
}

/// Emits what the consumer branch computes before its work loop: the
/// wgmma descriptors' constant parts, the thread's indices, the cluster's
/// release addresses, the prologue's addresses, the scalar operands and
/// the stream-K workspace's.
static void emitConsumerSetup(Emitter &e, const KernelParams &p,
                              KernelValues &v, KernelArgs &a) {
  OpBuilder &b = e.b;
  MainloopValues &m = a.mainloop;
  const uint64_t descAHi = descriptorHigh(/*kMajor=*/!p.aMNMajor);
  const uint64_t descBHi = descriptorHigh(/*kMajor=*/p.bKMajor);
  Value ringIdx = e.add(v.base, v.pad);
  a.ringAddr = e.indexCast(e.i64Type(), ringIdx);
  // Descriptors hold 18 address bits (14 bits of address >> 4). In a
  // cluster the shared address of a variable carries the block's rank
  // above them, which would spill into the leading-byte-offset field.
  Value cAddrMask = e.i64(kDescAddressMask);
  m.ring = e.andi(a.ringAddr, cAddrMask);
  m.descALoWord = e.i32(int32_t(descAHi));
  m.descBLoWord = e.i32(int32_t(descBHi));
  m.descAHiWord = e.i32(int32_t(descAHi >> 32));
  m.descBHiWord = e.i32(int32_t(descBHi >> 32));
  v.c4i = m.c4i = e.i64(4);
  Value wgI = e.indexCast(e.i64Type(), v.wg);
  Value cASlab = e.i64(8192 * p.rowBlocks);
  m.aSlab = e.mul(wgI, cASlab);
  m.cStageBytesI = e.i64(p.stageBytes());
  m.cATile = e.i64(p.blockM * kSwizzleRowBytes);
  a.c128 = e.idx(128);
  v.wtid = e.remu(v.tid, a.c128);
  m.lane32 = e.remu(v.tid32, v.c32i);
  // A warpgroup's row blocks: 8 KiB of its A slab each.
  for (int64_t rb = 0; p.rowBlocks > 1 && rb < p.rowBlocks; ++rb)
    m.cRowBlock.push_back(e.i64(rb * 8192));
  if (p.clusterSize() > 1) {
    // The cluster addresses of both blocks' first empty barrier, for the
    // releases (buildRelease): mapped once, not per k-tile.
    m.c8bar = e.i32(8);
    Value emptyBar0 =
        nvgpu::MBarrierGetOp::create(b, e.loc, e.i32Type(), v.empty, v.c0);
    auto pair = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 {e.i32Type(), e.i32Type()});
    Value emptyR =
        LLVM::InlineAsmOp::create(
            b, e.loc, pair, ValueRange{emptyBar0},
            "mapa.shared::cluster.u32 $0, $2, 0; mapa.shared::cluster.u32 "
            "$1, $2, 1;",
            "=r,=r,r", /*has_side_effects=*/false, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
            ArrayAttr())
            .getResult(0);
    m.emptyR0 = LLVM::ExtractValueOp::create(b, e.loc, emptyR, 0);
    m.emptyR1 = LLVM::ExtractValueOp::create(b, e.loc, emptyR, 1);
  }
  emitPrologueSetup(e, p, v, a);
  a.sclE = emitScalarOperandLoads(b, e.loc, p, a.E);
  if (!p.streamK)
    return;
  // Stream-K workspace: partial slots of every block, then the flags.
  v.wsG = LLVM::AddrSpaceCastOp::create(
      b, e.loc, LLVM::LLVMPointerType::get(b.getContext(), 1), v.pW);
  v.cCons = e.idx(p.consumers());
  v.cSlotBytes = e.i64(p.partialSlotBytes());
  v.cConsI = e.i64(p.consumers());
  Value nblI = e.indexCast(e.i64Type(), v.nbl);
  Value cBlockSlots = e.i64(p.consumers() * p.partialSlotBytes());
  v.flagBase = e.mul(nblI, cBlockSlots);
  Value ltI = e.indexCast(e.i64Type(), v.wtid);
  Value c16i = e.i64(16);
  v.lt16 = e.mul(ltI, c16i);
  v.isLt0 = e.cmp(CmpIPredicate::eq, v.wtid, v.c0);
  Value c1n = e.i32(1);
  v.namedBar = e.add(v.wg32, c1n);
  v.c128n = e.i32(128);
}

/// The epilogue's view of the kernel's values for one work item.
static EpilogueValues epilogueValues(const KernelValues &v, const KernelArgs &a,
                                     const WorkItem &item,
                                     const RasterValues &r) {
  EpilogueValues ev;
  ev.c0 = v.c0;
  ev.c1 = v.c1;
  ev.c128 = a.c128;
  ev.ticks = v.ticks;
  ev.t = item.t;
  ev.cid = v.cid;
  ev.ncl = v.ncl;
  ev.bid = v.bid;
  ev.m0 = r.m0;
  ev.n0 = r.n0;
  ev.rowEnd = r.rowEnd;
  ev.bIdx = r.bIdx;
  ev.bIdxs = r.bIdxDims;
  ev.wg = v.wg;
  ev.wg32 = v.wg32;
  ev.wtid = v.wtid;
  ev.pad = v.pad;
  ev.dsm = v.dsm;
  ev.ringAddr = a.ringAddr;
  ev.sizeM = a.sizeM;
  ev.sizeN = a.sizeN;
  ev.C = a.C;
  ev.tmapC = a.tmapC;
  ev.E = a.E;
  ev.sclE = a.sclE;
  ev.tmapE = a.tmapE;
  ev.eBar = a.eBar;
  return ev;
}

/// Emits the consumer warpgroups' branch: 64 rows of the tile each (times
/// the row blocks).
static void emitConsumer(Emitter &e, const KernelParams &p, KernelValues &v,
                         KernelArgs &a, Value cProducer) {
  OpBuilder &b = e.b;
  Value isConsumer = e.cmp(CmpIPredicate::ult, v.wg, cProducer);
  OpBuilder::InsertionGuard guard(b);
  openIf(b, e.loc, isConsumer);
  NVVM::SetMaxRegisterOp::create(b, e.loc, p.consumerRegisters(),
                                 NVVM::SetMaxRegisterAction::increase);
  emitConsumerSetup(e, p, v, a);
  MainloopValues &m = a.mainloop;
  m.cStages = v.cStages;
  m.c1 = v.c1;
  m.ticks = v.ticks;
  m.full = v.full;
  m.empty = v.empty;
  if (p.hasPrologue() && !p.prologueInRegisters)
    m.prologue = [&](OpBuilder &builder, Location loc, Value stage) {
      emitPrologue(builder, loc, p, a.prologue, stage);
    };
  WorkItem item = emitWorkLoopBegin(b, e.loc, p, v);
  // The tile's coordinates are computed after the main loop unless
  // something before it reads them. Computed before, LLVM sinks them
  // towards the epilogue, between the last wgmma and its wait_group 0, and
  // a division among them (a 16-bit udiv by a raster group's rows) is a
  // subroutine call across which ptxas lost track of the accumulators: it
  // moved the wait past the epilogue's first reads of them (wrong results
  // at random, found by the random-problem run).
  const bool rasterFirst = p.tmaEpilogueOperand >= 0 || p.blockScaled;
  std::optional<RasterValues> raster;
  std::optional<EpilogueValues> evFirst;
  if (rasterFirst) {
    raster = emitRaster(b, e.loc, p, v, item.t, &item);
    evFirst = epilogueValues(v, a, item, *raster);
  }
  // The first k-tile of every item is peeled: its first wgmma runs with
  // scale-d = 0 on an undefined accumulator, so no instruction other than
  // wgmma writes the accumulator registers and ptxas injects no
  // warpgroup.arrive / wait (C7519 / C7517) around the chain.
  if (p.tmaEpilogueOperand >= 0)
    emitEpilogueOperandPrefetch(b, e.loc, p, *evFirst);
  if (p.blockScaled)
    emitBlockScaleRows(b, e.loc, p, v.wg, v.wtid, raster->m0, raster->n0, a.pSA,
                       a.pSB, m);
  MainloopResult main =
      p.blockScaled
          ? buildBlockScaledMainLoop(b, e.loc, p, m, item.it0, item.len)
          : buildMainLoop(b, e.loc, p, m, item.it0, item.len);
  if (!rasterFirst)
    raster = emitRaster(b, e.loc, p, v, item.t, &item);
  EpilogueValues ev = evFirst ? *evFirst : epilogueValues(v, a, item, *raster);
  std::optional<StreamKFixup> fixup;
  if (p.streamK) {
    fixup = emitStreamKFixup(b, e.loc, p, v, item, main.acc[0]);
    ev.zero4 = fixup->zero4;
    ev.cLow = fixup->cLow;
    ev.sumBase = fixup->sumBase;
    ev.cSlotStride = fixup->cSlotStride;
  }
  if (p.rowBlocks == 1) {
    emitTileEpilogue(b, e.loc, p, ev, main.acc[0], v.wg);
  } else {
    // A warpgroup's row blocks one after the other, each in a region of its
    // own, through the same store buffers: a block's first chunk waits for
    // every store before it.
    Value cRowBlocks = e.idx(p.rowBlocks);
    Value wgRB = e.mul(v.wg, cRowBlocks);
    for (int64_t rb = 0; rb < p.rowBlocks; ++rb) {
      auto region = scf::ExecuteRegionOp::create(b, e.loc, TypeRange());
      OpBuilder::InsertionGuard regionGuard(b);
      b.createBlock(&region.getRegion());
      Value cRbE = e.idx(rb);
      Value wgE = e.add(wgRB, cRbE);
      emitTileEpilogue(b, e.loc, p, ev, main.acc[rb], wgE);
      scf::YieldOp::create(b, e.loc);
    }
  }
  if (fixup)
    b.setInsertionPointAfter(fixup->notContrib);
  emitWorkLoopEnd(b, e.loc, p, item, main.itNext);
  // The shared buffers must outlive the last TMA stores' reads.
  if (p.tmaStore) {
    Value epiLast = e.cmp(CmpIPredicate::eq, v.wtid, v.c0);
    openIf(b, e.loc, epiLast);
    NVVM::CpAsyncBulkWaitGroupOp::create(b, e.loc, 0, UnitAttr());
  }
}

FailureOr<gpu::GPUModuleOp>
mlir::tcgen::sm90::buildTypedKernel(ModuleOp module, const KernelParams &p,
                                    Location loc) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, p.name);
  b.setInsertionPointToStart(gpuModule.getBody());
  auto global = smemType({0}, IntegerType::get(ctx, 8));
  memref::GlobalOp::create(b, loc, "__tcgen_dsmem", StringAttr(), global,
                           Attribute(), /*constant=*/false,
                           b.getI64IntegerAttr(16));
  emitEpilogueDecls(b, loc, p);
  gpu::GPUFuncOp func = createKernelFunc(b, loc, p);
  KernelTypes types = kernelTypes(ctx, p);
  KernelValues v;
  KernelArgs a;
  b.setInsertionPointToStart(&func.getBody().front());
  Emitter e(b, loc);
  bindParameters(e, p, types, func.getArguments(), v, a);
  emitEntry(e, p, types, v, a);
  emitBarriers(e, p, types, v, a);
  if (p.streamK)
    emitStreamKPartition(b, loc, v);
  Value cProducer = emitProducer(b, loc, p, v);
  emitConsumer(e, p, v, a, cProducer);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointAfter(func);
  for (const PackParams &pack : p.packs)
    buildPackFunc(b, loc, pack);
  return gpuModule;
}
