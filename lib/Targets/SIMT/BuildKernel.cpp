//===- BuildKernel.cpp - CUDA-core f32 matmul kernels -----------*- C++ -*-===//
//
// This file implements tcgen-simt-build-kernel: a contraction configured
// for the simt back end becomes a gpu.launch of a register-tiled,
// double-buffered FFMA kernel (seed 002's design).
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SIMT/Passes.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSIMTBUILDKERNELPASS
#include "tcgen/Targets/SIMT/Passes.h.inc"

namespace {

/// Elements of one strip of a thread tile (one 16-byte shared load).
constexpr int64_t kStrip = 4;
/// The names of the shared tiles the pass creates (one pair per kernel).
constexpr StringLiteral kBufferPrefix = "__tcgen_simt_";
/// Static shared memory a kernel may declare.
constexpr int64_t kStaticSharedLimit = 48 * 1024;

/// The static shape of the kernel, from the config and the sizes.
struct SimtShape {
  int64_t m, n, k, batch;
  int64_t bm, bn, bk;     ///< block tile
  int64_t wm, wn;         ///< warp tile
  int64_t tm, tn;         ///< thread tile
  int64_t pad;            ///< elements after each shared row
  int64_t threads() const { return (bm / wm) * (bn / wn) * kWarpSize; }
  int64_t warpsN() const { return bn / wn; }
  int64_t lanesM() const { return wm / tm; }
  int64_t lanesN() const { return wn / tn; }
  int64_t kTiles() const { return (k + bk - 1) / bk; }
};

/// One operand tile's trip from global to shared memory: the stored
/// operand is [rows][cols] (cols contiguous); the tile starts at
/// (rowBase, colBase) and spans tileRows x tileCols; `transpose`: cols run
/// along K, so the tile is written to the K-major shared buffer column by
/// column.
struct TileCopy {
  Value memref;
  bool batched;
  int64_t rows, cols;         ///< the stored matrix
  int64_t tileRows, tileCols; ///< the tile
  bool transpose;
  int64_t vector; ///< elements per access: 4, 2 or 1
  /// The last block along M (A) or N (B) is shifted back to end at the
  /// matrix's edge (shiftedOrigin): the tile's M or N extent lies inside.
  bool outerShifted = false;
  /// Accesses per thread.
  int64_t perThread(int64_t threads) const {
    return tileRows * tileCols / vector / threads;
  }
  /// Whether the tile's rows (columns) lie inside the matrix: every tile's
  /// do where the tile divides the matrix; along M or N also where the last
  /// block is shifted back. Columns run along K when `transpose`, rows
  /// otherwise. `fullK`: the k-tile being copied is not the last one (the
  /// only one that may be partial).
  bool rowsInside(bool fullK) const {
    return rows % tileRows == 0 || (outerShifted && transpose) ||
           (fullK && !transpose);
  }
  bool colsInside(bool fullK) const {
    return cols % tileCols == 0 || (outerShifted && !transpose) ||
           (fullK && transpose);
  }
};

/// Why `s` cannot be generated, or an empty string. (ConfigAttr::verify
/// checks the thread, warp and block tiles and the padding already.)
std::string checkShape(const SimtShape &s) {
  // Each thread copies as many elements of both tiles.
  for (int64_t rows : {s.bm, s.bn})
    if ((rows * s.bk) % s.threads() != 0)
      return ("a " + Twine(rows) + "x" + Twine(s.bk) +
              " tile does not split evenly over " + Twine(s.threads()) +
              " threads")
          .str();
  return "";
}

/// How many parts the copies of a k-tile go in: as few as keep at most
/// 256 / BK prefetched elements (an address counts as one more where the
/// access is 4 bytes wide) in registers at a time (16 at K steps of 16; a
/// longer unrolled K step holds more shared loads in flight), dividing A's
/// and B's units per thread and the k-tile's steps. Measured at the edge
/// of 128 registers: docs/log/NOTES.md.
int64_t prefetchPhases(const SimtShape &s, const TileCopy &a,
                       const TileCopy &b) {
  int64_t pa = a.perThread(s.threads()), pb = b.perThread(s.threads());
  int64_t cost = pa * std::max<int64_t>(a.vector, 2) +
                 pb * std::max<int64_t>(b.vector, 2);
  int64_t budget = std::max<int64_t>(4, 256 / s.bk);
  int64_t best = 1;
  for (int64_t phases = 1; phases <= s.bk; ++phases) {
    if (pa % phases != 0 || pb % phases != 0 || s.bk % phases != 0)
      continue;
    best = phases; // the most parts that divide, if none is in budget
    if (cost / phases <= budget)
      return phases;
  }
  return best;
}

/// The kernel generator for one contraction.
class Generator {
public:
  Generator(OpBuilder &b, Location loc, const SimtShape &s)
      : b(b), loc(loc), s(s), f32(b.getF32Type()) {}

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) {
    return c == 1 ? x : arith::MulIOp::create(b, loc, x, cst(c)).getResult();
  }
  Value addC(Value x, int64_t c) { return c == 0 ? x : add(x, cst(c)); }
  Value lt(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, cst(c));
  }
  /// The tile row and column of the unit `u` of `t`: row-major, so that a
  /// warp reads whole rows of the stored tile. (A transposing order whose
  /// shared stores avoid bank conflicts, 16 rows x 2 units a warp, ran 7 %
  /// slower at 8192^3: docs/log/NOTES.md.)
  /// Unit p of thread `tid` is u = tid + p * threads; where the threads
  /// cover whole rows, its row is the thread's first plus a constant and
  /// its column the thread's own (addresses a constant apart).
  std::pair<Value, Value> unitAt(const TileCopy &t, Value tid, int64_t p) {
    int64_t perRow = t.tileCols / t.vector;
    if (s.threads() % perRow == 0) {
      Value row = arith::DivUIOp::create(b, loc, tid, cst(perRow));
      Value col =
          mul(arith::RemUIOp::create(b, loc, tid, cst(perRow)), t.vector);
      return {addC(row, p * (s.threads() / perRow)), col};
    }
    Value u = addC(tid, p * s.threads());
    Value row = arith::DivUIOp::create(b, loc, u, cst(perRow));
    Value col = mul(arith::RemUIOp::create(b, loc, u, cst(perRow)), t.vector);
    return {row, col};
  }

  Value zeros(int64_t n) {
    auto t = VectorType::get({n}, f32);
    return arith::ConstantOp::create(b, loc, t,
                                     DenseElementsAttr::get(t, 0.0f));
  }

  /// Indices into a possibly batched memref.
  SmallVector<Value> at(bool batched, Value bz, Value r, Value c) {
    if (batched)
      return {bz, r, c};
    return {r, c};
  }

  /// Loads this thread's units of the tile at (rowBase, colBase): values
  /// outside the matrix read as zero (the address is clamped into it).
  SmallVector<Value> loadTile(const TileCopy &t, Value bz, Value tid,
                              Value rowBase, Value colBase, int64_t first,
                              int64_t end) {
    SmallVector<Value> units;
    auto vt = VectorType::get({t.vector}, f32);
    for (int64_t p = first; p < end; ++p) {
      auto [row, col] = unitAt(t, tid, p);
      Value r = add(rowBase, row), c = add(colBase, col);
      bool rowsIn = t.rowsInside(fullK), colsIn = t.colsInside(fullK);
      if (rowsIn && colsIn) {
        units.push_back(vector::LoadOp::create(b, loc, vt, t.memref,
                                               at(t.batched, bz, r, c)));
        continue;
      }
      // Only the dimensions that may leave the matrix are checked.
      Value inside = rowsIn   ? lt(c, t.cols)
                     : colsIn ? lt(r, t.rows)
                              : arith::AndIOp::create(b, loc, lt(r, t.rows),
                                                      lt(c, t.cols))
                                    .getResult();
      Value rc = rowsIn ? r
                        : arith::MinUIOp::create(b, loc, r, cst(t.rows - 1))
                              .getResult();
      Value cc =
          colsIn ? c
                 : arith::MinUIOp::create(b, loc, c, cst(t.cols - t.vector))
                       .getResult();
      Value v = vector::LoadOp::create(b, loc, vt, t.memref,
                                       at(t.batched, bz, rc, cc));
      units.push_back(arith::SelectOp::create(b, loc, inside, v,
                                              zeros(t.vector)));
    }
    return units;
  }

  /// Stores the units loadTile returned into buffer `buf` (a value: 0 or
  /// 1) of the K-major shared tile `smem` ([2 * bk][outer + pad]).
  void storeTile(const TileCopy &t, ArrayRef<Value> units, int64_t firstUnit,
                 Value smem, Value tid, Value buf) {
    Value first = mul(buf, s.bk);
    for (auto [i, v] : llvm::enumerate(units)) {
      auto [row, col] = unitAt(t, tid, firstUnit + int64_t(i));
      if (!t.transpose) {
        // Rows run along K: row k of the buffer, the unit at `col`.
        vector::StoreOp::create(b, loc, v, smem, {add(first, row), col});
        continue;
      }
      // Columns run along K: element e goes to row col + e, column `row`.
      for (int64_t e = 0; e < t.vector; ++e) {
        Value x = vector::ExtractOp::create(b, loc, v, e);
        memref::StoreOp::create(b, loc, x, smem,
                                {add(first, addC(col, e)), row});
      }
    }
  }

  /// Whether the k-tile being copied is known not to be the last.
  bool fullK = false;

private:
  OpBuilder &b;
  Location loc;
  const SimtShape &s;
  Type f32;
};

struct BuildKernelPass final
    : impl::TCGenSIMTBuildKernelPassBase<BuildKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    for (linalg::LinalgOp op : getOpsForBackend(getOperation(), "simt"))
      if (failed(build(op)))
        return signalPassFailure();
  }

  /// Outlines `launch` into a gpu.module of its own with the shared
  /// buffers and launch bounds: at least 512 threads' worth of blocks per
  /// SM (ptxas keeps the registers to 65536 / 512 = 128 a thread).
  LogicalResult outline(gpu::LaunchOp launch, StringRef name,
                        SmallVector<Value> params, const SimtShape &s) {
    ModuleOp module = getOperation();
    // Past 48 KiB the tiles live in dynamic shared memory.
    SymbolTable symbols(module);
    if (failed(moveSharedBuffersToDynamic(launch, symbols,
                                          kStaticSharedLimit)))
      return failure();
    size_t declared = params.size();
    gpu::GPUFuncOp kernel = outlineKernelFunc(launch, name, params);
    if (params.size() != declared)
      return launch.emitOpError("internal error: the simt kernel captures ")
             << params.size() - declared
             << " values besides its operands (a tcgen bug)";
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(b, launch.getLoc(), name);
    SymbolTable(module).insert(gpuModule);
    SymbolTable inner(gpuModule);
    inner.insert(kernel);
    // The shared globals the kernel reads go with it: its own tiles, and a
    // copy of the dynamic region other kernels may read too.
    llvm::SetVector<StringRef> globals;
    kernel.walk([&](memref::GetGlobalOp get) { globals.insert(get.getName()); });
    for (StringRef g : globals) {
      auto global = symbols.lookup<memref::GlobalOp>(g);
      if (!global || inner.lookup(g))
        continue;
      if (g.starts_with(kBufferPrefix)) {
        symbols.remove(global);
        global->remove();
        inner.insert(global, gpuModule.getBody()->begin());
      } else {
        inner.insert(global.clone(), gpuModule.getBody()->begin());
      }
    }
    kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(std::max<int64_t>(1, 512 / s.threads())));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPoint(launch);
    auto launchFunc = gpu::LaunchFuncOp::create(
        b, launch.getLoc(), kernel,
        gpu::KernelDim3{launch.getGridSizeX(), launch.getGridSizeY(),
                        launch.getGridSizeZ()},
        gpu::KernelDim3{launch.getBlockSizeX(), launch.getBlockSizeY(),
                        launch.getBlockSizeZ()},
        launch.getDynamicSharedMemorySize(), params);
    (void)launchFunc;
    launch.erase();
    return success();
  }

  LogicalResult build(linalg::LinalgOp op) {
    auto func = op->getParentOfType<func::FuncOp>();
    auto module = getOperation();
    FailureOr<ContractionInfo> info = analyzeContraction(op);
    if (failed(info))
      return failure();
    auto config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (!func || !isa<MemRefType>(info->c.getType()))
      return op.emitOpError("the simt back end needs a bufferized "
                            "contraction in a function");
    if (info->isDynamic() || info->batchReduce || info->anyBatchMiddle() ||
        info->multiBatch())
      return op.emitOpError("the simt back end takes static sizes and one "
                            "outermost batch dimension (or none)");
    if (!info->aType.isF32() || !info->bType.isF32() || !info->cType.isF32())
      return op.emitOpError("the simt back end takes f32 x f32 -> f32");

    SimtShape s;
    s.m = info->m;
    s.n = info->n;
    s.k = info->k;
    s.batch = info->batched ? info->batch : 1;
    ArrayRef<int64_t> bt = config.getBlockTile(), wt = config.getWarpTile(),
                      tt = config.getMmaShape();
    s.bm = bt[0];
    s.bn = bt[1];
    s.bk = bt[2];
    s.wm = wt[0];
    s.wn = wt[1];
    s.tm = tt[0];
    s.tn = tt[1];
    s.pad = config.getPadding();
    if (std::string why = checkShape(s); !why.empty())
      return op.emitOpError("simt config ") << config << ": " << why;

    // The consumer, fused where it can be.
    std::string whyNot;
    std::optional<EpilogueInfo> epilogue;
    linalg::FillOp fill = getZeroFillOfOutput(*info);
    if (fuseEpilogue) {
      epilogue = findEpilogue(*info, whyNot);
      if (epilogue && (!fill || info->cTransposed)) {
        op.emitRemark("the consumer of the result is not fused into the "
                      "kernel: the simt back end fuses epilogues of a "
                      "row-major C = A*B only (a zero fill of C)");
        epilogue.reset();
      } else if (!epilogue && !whyNot.empty()) {
        op.emitRemark("the consumer of the result is not fused into the "
                      "kernel: ")
            << whyNot;
      }
    }
    Value out = epilogue ? epilogue->out : info->c;
    if (failed(tagOperandArgument(func, op, info->a, "A")) ||
        failed(tagOperandArgument(func, op, info->b, "B")) ||
        failed(tagOperandArgument(func, op, out, "C")))
      return failure();
    if (epilogue && failed(tagEpilogueOperands(func, *epilogue)))
      return failure();
    bool accumulate = !fill;

    // Shared tiles, K-major, double-buffered.
    Location loc = op.getLoc();
    Type f32 = Builder(op.getContext()).getF32Type();
    std::string base = func.getSymName().str();
    memref::GlobalOp sA =
        createSharedBuffer(module, loc, (kBufferPrefix + base + "_A").str(),
                           2 * s.bk, s.bm + s.pad, f32);
    memref::GlobalOp sB =
        createSharedBuffer(module, loc, (kBufferPrefix + base + "_B").str(),
                           2 * s.bk, s.bn + s.pad, f32);

    // Stored operands (ContractionInfo: A [m][k] or [k][m], B [k][n] or
    // [n][k]; a column-major C's product is already swapped into these).
    // The widest access (4, 2 or 1 elements) that the stored rows align
    // and that splits the tile evenly over the threads.
    auto vectorOf = [&](const TileCopy &t) {
      for (int64_t v : {kStrip, int64_t(2)})
        if (t.cols % v == 0 && t.tileCols % v == 0 &&
            (t.tileRows * t.tileCols / v) % s.threads() == 0)
          return v;
      return int64_t(1);
    };
    // A batched memref (of one matrix too) is rank 3.
    auto isBatched = [](Value v) {
      return cast<MemRefType>(v.getType()).getRank() == 3;
    };
    // A stored [m][k] (rows along M: transposed into the K-major tile) or
    // [k][m]; B stored [k][n] or [n][k] (transposed).
    TileCopy ta = info->aTransposed
                      ? TileCopy{info->a, isBatched(info->a), s.k, s.m,
                                 s.bk, s.bm, /*transpose=*/false, 1}
                      : TileCopy{info->a, isBatched(info->a), s.m, s.k,
                                 s.bm, s.bk, /*transpose=*/true, 1};
    TileCopy tb = info->bTransposed
                      ? TileCopy{info->b, isBatched(info->b), s.n, s.k,
                                 s.bn, s.bk, /*transpose=*/true, 1}
                      : TileCopy{info->b, isBatched(info->b), s.k, s.n,
                                 s.bk, s.bn, /*transpose=*/false, 1};
    ta.vector = vectorOf(ta);
    tb.vector = vectorOf(tb);
    bool cBatched = isBatched(out);

    OpBuilder b(op);
    Generator g(b, loc, s);
    Value gx = g.cst((s.n + s.bn - 1) / s.bn);
    Value gy = g.cst((s.m + s.bm - 1) / s.bm);
    Value gz = g.cst(s.batch);
    Value one = g.cst(1);
    auto launch = gpu::LaunchOp::create(b, loc, gx, gy, gz,
                                        g.cst(s.threads()), one, one);
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body);
    one = g.cst(1); // the launch's own: nothing but operands is captured

    // The outlined kernel's parameters follow the first uses: A, B, the
    // epilogue's operands, C (the manifest lists them in that order).
    Value memC = out;

    Value tid = launch.getThreadIds().x;
    Value bz = launch.getBlockIds().z;
    // The block's first row and column. Where the tile does not divide M
    // (N) but fits in it, the last block is shifted back to end at the
    // edge (origin min(b bm, M - bm)): it reads no element outside, so the
    // copies need no checks along M (N); it recomputes rows of the block
    // before it and stores only its own, from mLo (nLo) on.
    // Not for C += A*B with element copies: its stores stay guarded, so
    // its K loop keeps the branches, and there the shifted kernel ran
    // slower (8191^3: 0.75 of cuBLAS against 0.80). With C = A*B the
    // shift makes the K loop branch-free (8191^3: 0.82 -> 0.95).
    bool wideCopies = ta.vector == kStrip && tb.vector == kStrip;
    bool shiftable = wideCopies || !accumulate;
    bool shiftM = shiftable && s.m % s.bm != 0 && s.m >= s.bm;
    bool shiftN = shiftable && s.n % s.bn != 0 && s.n >= s.bn;
    Value mLo = g.mul(launch.getBlockIds().y, s.bm);
    Value nLo = g.mul(launch.getBlockIds().x, s.bn);
    Value m0 = shiftM ? arith::MinUIOp::create(b, loc, mLo, g.cst(s.m - s.bm))
                            .getResult()
                      : mLo;
    Value n0 = shiftN ? arith::MinUIOp::create(b, loc, nLo, g.cst(s.n - s.bn))
                            .getResult()
                      : nLo;
    ta.outerShifted = shiftM;
    tb.outerShifted = shiftN;
    Value warp = arith::DivUIOp::create(b, loc, tid, g.cst(kWarpSize));
    Value lane = arith::RemUIOp::create(b, loc, tid, g.cst(kWarpSize));
    Value warpM = arith::DivUIOp::create(b, loc, warp, g.cst(s.warpsN()));
    Value warpN = arith::RemUIOp::create(b, loc, warp, g.cst(s.warpsN()));
    Value laneM = arith::DivUIOp::create(b, loc, lane, g.cst(s.lanesN()));
    Value laneN = arith::RemUIOp::create(b, loc, lane, g.cst(s.lanesN()));
    // First row (column) of this thread's strips within the block tile.
    Value rowIn = g.add(g.mul(warpM, s.wm), g.mul(laneM, kStrip));
    Value colIn = g.add(g.mul(warpN, s.wn), g.mul(laneN, kStrip));
    int64_t stripRowStep = s.lanesM() * kStrip;
    int64_t stripColStep = s.lanesN() * kStrip;

    Value smA = memref::GetGlobalOp::create(b, loc, sA.getType(), sA.getName());
    Value smB = memref::GetGlobalOp::create(b, loc, sB.getType(), sB.getName());

    // The tile origins of k-tile `kt` in each stored operand.
    auto origins = [&](const TileCopy &t, bool isA, Value k0)
        -> std::pair<Value, Value> {
      Value outer = isA ? m0 : n0;
      // Rows run along K for A stored [k][m] and B stored [k][n].
      bool rowsK = isA ? info->aTransposed : !info->bTransposed;
      return rowsK ? std::make_pair(k0, outer) : std::make_pair(outer, k0);
    };
    // The copies of a k-tile go in `phases` parts (A's units and B's split
    // evenly), so that only one part is held in registers at a time.
    int64_t pa = ta.perThread(s.threads()), pb = tb.perThread(s.threads());
    int64_t phases = prefetchPhases(s, ta, tb);
    auto loadPart = [&](Value kt, int64_t phase) {
      Value k0 = g.mul(kt, s.bk);
      auto [ar, ac] = origins(ta, true, k0);
      auto [br, bc] = origins(tb, false, k0);
      SmallVector<Value> units =
          g.loadTile(ta, bz, tid, ar, ac, phase * pa / phases,
                     (phase + 1) * pa / phases);
      units.append(g.loadTile(tb, bz, tid, br, bc, phase * pb / phases,
                              (phase + 1) * pb / phases));
      return units;
    };
    auto storePart = [&](ArrayRef<Value> units, int64_t phase, Value buf) {
      size_t na = pa / phases;
      g.storeTile(ta, units.take_front(na), phase * pa / phases, smA, tid,
                  buf);
      g.storeTile(tb, units.drop_front(na), phase * pb / phases, smB, tid,
                  buf);
    };

    // K steps [first, end) of the k-tile whose rows start at `firstRow` of
    // the shared buffers: per step, this thread's A and B strips (16-byte
    // shared loads) and TM x TN FMAs into `acc`.
    auto kSteps = [&](Value firstRow, int64_t first, int64_t end,
                      SmallVector<Value> &acc) {
      auto v4 = VectorType::get({kStrip}, f32);
      for (int64_t kk = first; kk < end; ++kk) {
        Value krow = g.addC(firstRow, kk);
        SmallVector<Value> aVals, bVals;
        for (int64_t st = 0; st < s.tm / kStrip; ++st) {
          Value v = vector::LoadOp::create(
              b, loc, v4, smA, {krow, g.addC(rowIn, st * stripRowStep)});
          for (int64_t e = 0; e < kStrip; ++e)
            aVals.push_back(vector::ExtractOp::create(b, loc, v, e));
        }
        for (int64_t st = 0; st < s.tn / kStrip; ++st) {
          Value v = vector::LoadOp::create(
              b, loc, v4, smB, {krow, g.addC(colIn, st * stripColStep)});
          for (int64_t e = 0; e < kStrip; ++e)
            bVals.push_back(vector::ExtractOp::create(b, loc, v, e));
        }
        for (int64_t i = 0; i < s.tm; ++i)
          for (int64_t j = 0; j < s.tn; ++j)
            acc[i * s.tn + j] = LLVM::FMAOp::create(b, loc, aVals[i], bVals[j],
                                                    acc[i * s.tn + j]);
      }
    };

    // The K loop for kernels whose epilogue has no branches: the steady
    // loop copies full k-tiles without checks or branches, and the last
    // two k-tiles are peeled: the one that copies the last k-tile
    // (checking K where it is partial) and the last one. (With a guarded
    // epilogue LLVM sinks the peeled k-tile's FMAs into the guarded stores
    // and keeps the whole k-tile's shared values live: it spills. Those
    // kernels keep the loop below with its branches: docs/log/NOTES.md.)
    auto emitPeeledLoop = [&](SmallVector<Value> &acc) {
      Value zero = g.cst(0), one = g.cst(1);
      Value fzero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
      acc.assign(s.tm * s.tn, fzero);
      int64_t kTiles = s.kTiles();
      int64_t stepsPerPhase = s.bk / phases;
      enum class Next { None, Full, Last };
      // One k-tile: per phase, part of the next k-tile into registers
      // (none after the last), the phase's share of k-tile kt's steps, the
      // part into the other buffer; then one barrier.
      auto kTile = [&](Value kt, SmallVector<Value> &acc, Next next) {
        Value buf = arith::RemUIOp::create(b, loc, kt, g.cst(2));
        Value firstRow = g.mul(buf, s.bk);
        Value nextKt = g.add(kt, one);
        for (int64_t phase = 0; phase < phases; ++phase) {
          SmallVector<Value> units;
          if (next != Next::None) {
            g.fullK = next == Next::Full;
            units = loadPart(nextKt, phase);
            g.fullK = false;
          }
          kSteps(firstRow, phase * stepsPerPhase,
                 (phase + 1) * stepsPerPhase, acc);
          if (next != Next::None)
            storePart(units, phase, arith::SubIOp::create(b, loc, one, buf));
        }
        gpu::BarrierOp::create(b, loc);
      };
      int64_t steady = std::max<int64_t>(0, kTiles - 2);
      if (steady > 0) {
        auto loop = scf::ForOp::create(b, loc, zero, g.cst(steady), one, acc);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        SmallVector<Value> carried(loop.getRegionIterArgs().begin(),
                                   loop.getRegionIterArgs().end());
        kTile(loop.getInductionVar(), carried, Next::Full);
        scf::YieldOp::create(b, loc, carried);
        acc.assign(loop.getResults().begin(), loop.getResults().end());
      }
      if (kTiles >= 2)
        kTile(g.cst(kTiles - 2), acc,
              s.k % s.bk != 0 ? Next::Last : Next::Full);
      kTile(g.cst(kTiles - 1), acc, Next::None);
    };

    // The kernel body. (A second copy of it for the interior blocks of a C
    // the tiles do not divide, behind a branch on the block, made ptxas
    // spill at every K step: docs/log/NOTES.md.)
    auto emitBody = [&] {
      // Prologue: k-tile 0 into buffer 0.
      Value zero = g.cst(0);
      // (k-tile 0 is full unless it is the only one).
      g.fullK = s.kTiles() > 1;
      for (int64_t phase = 0; phase < phases; ++phase)
        storePart(loadPart(zero, phase), phase, zero);
      g.fullK = false;
      gpu::BarrierOp::create(b, loc);

      // Which stores need a guard: none where the tiles divide C, nor in
      // a shifted block without C += A*B (the rows and columns it shares
      // with the block before get the same values twice).
      bool guardRows = !(s.m % s.bm == 0 || (shiftM && !accumulate));
      bool guardCols = !(s.n % s.bn == 0 || (shiftN && !accumulate));
      SmallVector<Value> finalAcc;
      if (!guardRows && !guardCols) {
        emitPeeledLoop(finalAcc);
      } else {
        int64_t nAcc = s.tm * s.tn;
        Value fzero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
        SmallVector<Value> inits(nAcc, fzero);
        int64_t kTiles = s.kTiles();
        auto loop = scf::ForOp::create(b, loc, zero, g.cst(kTiles), one, inits);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          Value kt = loop.getInductionVar();
          Value next = g.add(kt, one);
          Value hasNext = g.lt(next, kTiles);
          // Per phase: part of the next k-tile into registers (seed 002,
          // Algorithm 3), the phase's share of the current k-tile's steps from
          // shared memory, the part into the other buffer.
          SmallVector<Type> unitTypes;
          unitTypes.append(pa / phases, VectorType::get({ta.vector}, f32));
          unitTypes.append(pb / phases, VectorType::get({tb.vector}, f32));
          Value buf = arith::RemUIOp::create(b, loc, kt, g.cst(2));
          Value firstRow = g.mul(buf, s.bk);
          SmallVector<Value> acc(loop.getRegionIterArgs().begin(),
                                 loop.getRegionIterArgs().end());
          int64_t stepsPerPhase = s.bk / phases;
          for (int64_t phase = 0; phase < phases; ++phase) {
            auto prefetch = scf::IfOp::create(b, loc, unitTypes, hasNext,
                                              /*withElseRegion=*/true);
            {
              OpBuilder::InsertionGuard inner(b);
              b.setInsertionPointToStart(prefetch.thenBlock());
              if (s.k % s.bk == 0 || kTiles < 2) {
                scf::YieldOp::create(b, loc, loadPart(next, phase));
              } else {
                // Only the last k-tile checks K: the others are copied
                // without (K's tail peeled from the copies).
                auto last = scf::IfOp::create(b, loc, unitTypes,
                                              g.lt(next, kTiles - 1),
                                              /*withElseRegion=*/true);
                b.setInsertionPointToStart(last.thenBlock());
                g.fullK = true;
                scf::YieldOp::create(b, loc, loadPart(next, phase));
                g.fullK = false;
                b.setInsertionPointToStart(last.elseBlock());
                scf::YieldOp::create(b, loc, loadPart(next, phase));
                b.setInsertionPointAfter(last);
                scf::YieldOp::create(b, loc, last.getResults());
              }
              b.setInsertionPointToStart(prefetch.elseBlock());
              SmallVector<Value> zeros;
              for (Type t : unitTypes)
                zeros.push_back(
                    g.zeros(cast<VectorType>(t).getNumElements()));
              scf::YieldOp::create(b, loc, zeros);
            }
            kSteps(firstRow, phase * stepsPerPhase,
                   (phase + 1) * stepsPerPhase, acc);
            // The prefetched part into the other buffer.
            auto store = scf::IfOp::create(b, loc, TypeRange(), hasNext,
                                           /*withElseRegion=*/false);
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(store.thenBlock());
            Value other = arith::SubIOp::create(b, loc, one, buf);
            SmallVector<Value> units(prefetch.getResults().begin(),
                                     prefetch.getResults().end());
            storePart(units, phase, other);
          }
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, acc);
        }
        finalAcc.assign(loop.getResults().begin(), loop.getResults().end());
      }

      // The epilogue: each accumulator (through the fused consumer) to C.
      SmallVector<Value> scalars;
      if (epilogue)
        for (const EpilogueOperand &e : epilogue->operands)
          scalars.push_back(e.kind == EpilogueOperandKind::Scalar
                                ? memref::LoadOp::create(b, loc, e.memref,
                                                         ValueRange())
                                      .getResult()
                                : Value());
      auto finish = [&](Value x, Value r, Value c) -> Value {
        if (!epilogue)
          return x;
        SmallVector<Value> args;
        for (auto [k, e] : llvm::enumerate(epilogue->operands)) {
          switch (e.kind) {
          case EpilogueOperandKind::Scalar:
            args.push_back(scalars[k]);
            break;
          case EpilogueOperandKind::Row:
            args.push_back(memref::LoadOp::create(b, loc, e.memref, c));
            break;
          case EpilogueOperandKind::Col:
            args.push_back(memref::LoadOp::create(b, loc, e.memref, r));
            break;
          case EpilogueOperandKind::Matrix: {
            bool batched = cast<MemRefType>(e.memref.getType()).getRank() == 3;
            args.push_back(memref::LoadOp::create(b, loc, e.memref,
                                                  g.at(batched, bz, r, c)));
            break;
          }
          }
        }
        return emitEpilogueBody(b, *epilogue, x, args);
      };
      Type outType = cast<MemRefType>(out.getType()).getElementType();
      // 16-byte stores need rows of a multiple of 4 f32 elements.
      bool wide = s.n % kStrip == 0 && outType.isF32();
      for (int64_t st = 0; st < s.tm / kStrip; ++st)
        for (int64_t e = 0; e < kStrip; ++e) {
          int64_t i = st * kStrip + e;
          Value r = g.add(m0, g.addC(rowIn, st * stripRowStep + e));
          for (int64_t sn = 0; sn < s.tn / kStrip; ++sn) {
            Value c0 = g.add(n0, g.addC(colIn, sn * stripColStep));
            auto guarded = [&](Value cond, function_ref<void()> emit) {
              if (!cond)
                return emit();
              auto ifOp = scf::IfOp::create(b, loc, TypeRange(), cond, false);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(ifOp.thenBlock());
              emit();
            };
            // A shifted block stores its own rows (from mLo) only.
            auto ge = [&](Value x, Value y) -> Value {
              return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                           x, y);
            };
            Value rowOk = !guardRows ? Value()
                          : shiftM   ? ge(r, mLo)
                                     : g.lt(r, s.m);
            auto accAt = [&](int64_t j) {
              return finalAcc[i * s.tn + sn * kStrip + j];
            };
            // The guard of a store at column c (null: none).
            auto storeCond = [&](Value c) -> Value {
              if (!guardCols)
                return rowOk;
              Value colOk = shiftN ? ge(c, nLo) : g.lt(c, s.n);
              return rowOk ? arith::AndIOp::create(b, loc, rowOk, colOk)
                                 .getResult()
                           : colOk;
            };
            if (wide) {
              // A strip lies wholly on one side of nLo (both multiples of
              // 4 here).
              guarded(storeCond(c0), [&] {
                auto idx = g.at(cBatched, bz, r, c0);
                SmallVector<Value> xs;
                Value old;
                if (accumulate)
                  old = vector::LoadOp::create(b, loc, VectorType::get({4}, f32),
                                               memC, idx);
                for (int64_t j = 0; j < kStrip; ++j) {
                  Value x = accAt(j);
                  if (old)
                    x = arith::AddFOp::create(
                        b, loc, vector::ExtractOp::create(b, loc, old, j), x);
                  xs.push_back(finish(x, r, g.addC(c0, j)));
                }
                Value v = vector::FromElementsOp::create(
                    b, loc, VectorType::get({kStrip}, outType), xs);
                vector::StoreOp::create(b, loc, v, memC, idx);
              });
              continue;
            }
            for (int64_t j = 0; j < kStrip; ++j) {
              Value c = g.addC(c0, j);
              guarded(storeCond(c), [&] {
                auto idx = g.at(cBatched, bz, r, c);
                Value x = accAt(j);
                if (accumulate)
                  x = arith::AddFOp::create(
                      b, loc, memref::LoadOp::create(b, loc, memC, idx), x);
                memref::StoreOp::create(b, loc, finish(x, r, c), memC, idx);
              });
            }
          }
        }
    };
    emitBody();

    // The kernel: parameters A, B, the epilogue's operands, C.
    SmallVector<Value> params = {info->a, info->b};
    if (epilogue)
      for (const EpilogueOperand &e : epilogue->operands)
        params.push_back(e.memref);
    params.push_back(memC);
    if (failed(outline(launch, (func.getSymName() + "_kernel").str(), params,
                       s)))
      return failure();

    // The host function: the manifest reads these.
    if (info->aTransposed || info->bTransposed)
      func->setAttr("tcgen.transposed",
                    b.getDenseBoolArrayAttr(
                        {info->aTransposed, info->bTransposed}));
    func->setAttr(kConfigAttrName, config);
    if (!accumulate)
      func->setAttr(kOverwriteAttrName, b.getUnitAttr());
    return eraseComputedContraction(func, op, fill,
                                    epilogue ? &*epilogue : nullptr);
  }
};
} // namespace
} // namespace mlir::tcgen
