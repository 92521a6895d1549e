//===- BuildKernel.cpp - Contractions to generated sm90 kernels -*- C++ -*-===//
//
// This file implements tcgen-sm90-build-kernel: each contraction configured
// for the sm90 back end becomes a generated kernel module whose ABI is
// recorded on the kernel.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Passes.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Config/Config.h"
#include "tcgen/Targets/SM90/KernelBuilder.h"
#include "tcgen/Transforms/LoopTags.h"

#include "OperandMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSM90BUILDKERNELPASS
#include "tcgen/Targets/SM90/Passes.h.inc"

/// The bytes up to which pack = auto has the producer copy an operand whose
/// rows TMA cannot read with cp.async rather than pack it first (measured
/// up to 256 x 250 x 2 bytes).
static constexpr int64_t kSmallAsyncBytes = 128 * 1024;

/// The k-tiles of one fp8 wgmma chain before its sums are added into f32
/// registers: 64 k-tiles of 128, a K of 8192, over which fp8 kernels passed
/// their checks without it (the random-problem runs of
/// docs/log/2026-11-28-random-22k.md). H200, 4096 x 2048 x 7168: a chain
/// every 32 k-tiles ran 10 % slower than one chain; 8192³ within the run's
/// noise.
static constexpr int64_t kFP8PromoteKTiles = 64;

/// Replaces the f32 `tanh` by PTX's tanh.approx.f32 (sm_75 and later);
/// returns `result`, or the new value if it was the tanh's.
static Value replaceWithFastTanh(math::TanhOp tanh, Value result) {
  OpBuilder b(tanh);
  auto fast = LLVM::InlineAsmOp::create(
      b, tanh.getLoc(), b.getF32Type(), ValueRange{tanh.getOperand()},
      "tanh.approx.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  Value old = tanh.getResult();
  old.replaceAllUsesWith(fast.getResult(0));
  tanh.erase();
  return result == old ? fast.getResult(0) : result;
}

namespace {

struct BuildKernelPass final
    : impl::TCGenSM90BuildKernelPassBase<BuildKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops =
        getOpsForBackend(getOperation(), "sm90");
    // The first product of an add(gemm, gemm) is built with the second.
    // So is a dual GEMM's second product with the first.
    llvm::SmallPtrSet<Operation *, 4> builtWithAnother;
    for (linalg::LinalgOp op : ops) {
      if (linalg::LinalgOp first = findFirstProduct(op))
        builtWithAnother.insert(first);
      if (linalg::LinalgOp second = findDualSecond(op))
        builtWithAnother.insert(second);
    }
    for (linalg::LinalgOp op : ops)
      if (!builtWithAnother.contains(op) && failed(build(op)))
        return signalPassFailure();
  }

  /// A dual GEMM's second product, when `op` is its first.
  static linalg::LinalgOp findDualSecond(linalg::LinalgOp op) {
    FailureOr<ContractionInfo> info = analyzeContraction(op);
    if (failed(info))
      return {};
    std::string whyNot;
    std::optional<EpilogueInfo> epilogue =
        findEpilogue(*info, whyNot, /*allowDualProduct=*/true);
    return epilogue ? epilogue->dualProduct : linalg::LinalgOp();
  }

  /// A dual GEMM (two products sharing A, combined in the epilogue): what
  /// the kernel does not support with it yet, as an error at `op`.
  static LogicalResult checkDual(linalg::LinalgOp op,
                                 const sm90::KernelParams &p, bool swap,
                                 bool prologue) {
    // (`prologue`: a fused prologue or an add(gemm, gemm) first product.)
    std::string whyNot;
    if (swap)
      whyNot = "no swap (swap = false)";
    else if (p.inType != "f16" && p.inType != "bf16")
      whyNot = "f16 or bf16 operands";
    else if (prologue)
      whyNot = "no fused prologue and no add(gemm, gemm)";
    else if (p.streamK || p.clusterSize() > 1)
      whyNot = "no stream-K and no cluster";
    else if (p.blockN < 128 || p.blockN % (p.bKMajor ? 16 : 128) != 0)
      whyNot = std::string("a block tile N of 128 or more (a store chunk of "
                           "output columns per product) that is a multiple "
                           "of ") +
               (p.bKMajor ? "16" : "128 (B stored [k][n] is loaded in "
                                   "64-wide boxes, B's and B2's halves)");
    if (whyNot.empty())
      return success();
    return op.emitOpError("a dual GEMM (two products of one A combined in "
                          "the epilogue) in one sm90 kernel needs ")
           << whyNot;
  }

  /// add(gemm, gemm): the first product, when it is configured for sm90.
  static linalg::LinalgOp findFirstProduct(linalg::LinalgOp op) {
    linalg::LinalgOp first = tcgen::findFirstProduct(op);
    auto config =
        first ? first->getAttrOfType<ConfigAttr>(kConfigAttrName) : nullptr;
    return config && config.getBackend() == "sm90" ? first
                                                   : linalg::LinalgOp();
  }

  /// The second product of add(gemm, gemm) must share the first's
  /// element types and stored layouts (one ring, one wgmma form) and not
  /// be batched or column-major.
  static LogicalResult checkSecondProduct(linalg::LinalgOp op,
                                          const ContractionInfo &first,
                                          const ContractionInfo &second) {
    auto refuse = [&](const Twine &why) {
      return op.emitOpError("add(gemm, gemm) in one sm90 kernel needs ")
             << why;
    };
    if (first.aType != second.aType || first.bType != second.bType)
      return refuse("both products in one input dtype, got ")
             << first.aType << " x " << first.bType << " and "
             << second.aType << " x " << second.bType;
    if (first.aTransposed != second.aTransposed ||
        first.bTransposed != second.bTransposed ||
        (first.aTransposed && (first.k == 1) != (second.k == 1)) ||
        (first.bTransposed && (first.k == 1) != (second.k == 1)))
      return refuse("A and A2, and B and B2, stored and read in one layout");
    if ((first.batched && first.batch > 1) ||
        (second.batched && second.batch > 1))
      return refuse("unbatched products (a batch is not supported yet)");
    if (first.batchReduce || second.batchReduce)
      return refuse("products over one K dimension each (a sum over two K "
                    "dimensions is not supported there yet)");
    if (first.cTransposed || second.cTransposed)
      return refuse("a row-major C (a column-major one is not supported yet)");
    return success();
  }

  /// C += A*B on a batch: the epilogue adds C's old value, read through a
  /// plain pointer as a dense [batch..., m, n] array (the kernel's view of
  /// a matrix operand of a batch; C is contiguous, tagOperandArgument).
  /// Emits an error at `op` unless C is stored with its batch dimensions
  /// outermost, in their order.
  LogicalResult checkAccumulatedBatch(linalg::LinalgOp op,
                                      const ContractionInfo &info) {
    // (A column-major C is C^T's row-major [n][m] in the kernel's terms.)
    bool cOutermost = !info.cBatchMiddle;
    for (auto [i, pos] : llvm::enumerate(info.cBatchPos))
      cOutermost &= pos == int64_t(i);
    if (!cOutermost)
      return op.emitOpError(
          "C += A*B on a batch reads C's old value as one dense matrix per "
          "batch entry: the sm90 back end needs C stored with its batch "
          "dimensions outermost, in their order (zero-fill C first to "
          "compute C = A*B)");
    return success();
  }

  /// The prologues a kernel fuses: A's, or else B's (one per kernel).
  struct ChosenPrologues {
    std::optional<PrologueInfo> a, b;
  };

  /// Finds the producers of A and B that can be fused as prologues and
  /// remarks at `op` why the others are not.
  ChosenPrologues choosePrologues(linalg::LinalgOp op,
                                  const ContractionInfo &pa,
                                  bool secondProduct) {
    auto choose = [&](Value operand, StringRef name, bool taken) {
      std::string whyNot;
      std::optional<PrologueInfo> found = findPrologue(pa, operand, whyNot);
      if (found && !fuseEpilogue)
        whyNot = "fusion is off (fuse-epilogue=false)";
      else if (found && secondProduct)
        // The transform would reach A2's or B2's tiles too (one ring).
        whyNot = "prologues with a second product (add(gemm, gemm)) are not "
                 "supported by the sm90 back end yet";
      else if (found && taken)
        whyNot = "a kernel fuses one prologue, and A's is fused";
      if (!whyNot.empty()) {
        found.reset();
        op.emitRemark("the producer of ")
            << name << " is not fused into the kernel: " << whyNot;
      }
      return found;
    };
    ChosenPrologues chosen;
    chosen.a = choose(pa.a, "A", /*taken=*/false);
    chosen.b = choose(pa.b, "B", /*taken=*/chosen.a.has_value());
    return chosen;
  }

  LogicalResult build(linalg::LinalgOp op) {
    auto config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
    // The config's decisions ("auto": this pass takes them below).
    const StringRef pack = config.getPack();
    const StringRef prologueMode = config.getPrologue();
    const StringRef epilogueLoads = config.getEpilogueLoads();
    const bool epilogueInHalf = config.getEpilogueInHalf();
    FailureOr<ContractionInfo> info = analyzeContraction(op);
    if (failed(info))
      return failure();
    // swap: the kernel computes C^T = B^T A^T (its A is the op's B, its M
    // the op's N) and writes C transposed (KernelParams::cColumnMajor);
    // the epilogue is found on the op's own terms (C's stored shape) and
    // its row and column operands trade places.
    const ContractionInfo unswapped = *info;
    const bool swap = config.getSwap();
    if (swap) {
      if (tcgen::findFirstProduct(op))
        return op.emitOpError("swap (C^T = B^T A^T) does not take add(gemm, "
                              "gemm) yet");
      *info = swapRoles(*info);
    }
    // add(gemm, gemm): `first` computes A B into C from zero, `op` adds
    // A2 B2; the kernel's A and B are the first product's (`pa`), A2 and
    // B2 op's. Otherwise pa is op's own.
    linalg::LinalgOp firstOp = findFirstProduct(op);
    std::optional<ContractionInfo> first;
    if (firstOp) {
      FailureOr<ContractionInfo> f = analyzeContraction(firstOp);
      if (failed(f))
        return failure();
      first = *f;
      if (failed(checkSecondProduct(op, *first, *info)))
        return failure();
    }
    const ContractionInfo &pa = first ? *first : *info;
    auto func = op->getParentOfType<func::FuncOp>();
    // Sizes known at run time only: no prologue yet, so A and B are the
    // caller's; C is, or the intermediate of a fused epilogue.
    auto refuseDynamic = [&](StringRef what) {
      return op.emitOpError("with sizes known only at run time (M, N or K is "
                            "`?`) the sm90 back end takes ")
             << what;
    };
    if (info->isDynamic())
      for (auto [name, v] : {std::pair<StringRef, Value>{"A", info->a},
                             {"B", info->b}})
        if (!isa<BlockArgument>(v))
          return refuseDynamic("A and B as function arguments only (no "
                               "fused prologue) yet, but ")
                 << name << " is not one";
    // A pointwise consumer of the result is computed in the epilogue; the
    // kernel then writes the consumer's output instead.
    std::string whyNot;
    std::optional<EpilogueInfo> epilogue = findEpilogue(
        swap ? unswapped : *info, whyNot, /*allowDualProduct=*/true);
    linalg::LinalgOp dualOp = epilogue ? epilogue->dualProduct : nullptr;
    if (epilogue && swap)
      for (EpilogueOperand &e : epilogue->operands)
        e.kind = e.kind == EpilogueOperandKind::Row   ? EpilogueOperandKind::Col
                 : e.kind == EpilogueOperandKind::Col ? EpilogueOperandKind::Row
                                                      : e.kind;
    if (epilogue && !fuseEpilogue) {
      epilogue.reset();
      whyNot = "fusion is off (fuse-epilogue=false)";
    }
    if (info->isDynamic() && !epilogue && !isa<BlockArgument>(info->c))
      return refuseDynamic("C as a function argument, or as the "
                           "intermediate of a fused epilogue, but C is "
                           "neither (")
             << whyNot << ")";
    // A matrix operand's rows are a run-time stride apart (a parameter);
    // one per batch entry or stored [n][m] is not planned yet.
    if (info->isDynamic() && epilogue &&
        (info->batched || info->cTransposed))
      for (const EpilogueOperand &e : epilogue->operands)
        if (e.kind == EpilogueOperandKind::Matrix)
          return refuseDynamic("matrix operands of a fused epilogue only "
                               "without a batch and with a row-major C");
    if (!whyNot.empty())
      op.emitRemark("the consumer of the result is not fused into the "
                    "kernel: ")
          << whyNot;
    Value out = epilogue ? epilogue->out : info->c;
    // A pointwise producer of A (or else of B) is applied to the operand's
    // tiles (a prologue); the kernel then reads the producer's input.
    ChosenPrologues chosen = choosePrologues(op, pa, first.has_value());
    if (swap && (chosen.a || chosen.b))
      return op.emitOpError("swap (C^T = B^T A^T) does not fuse a prologue "
                            "yet");
    std::optional<PrologueInfo> &prologue = chosen.a;
    std::optional<PrologueInfo> &prologueB = chosen.b;
    Value aArg = prologue ? prologue->source : pa.a;
    Value bArg = prologueB ? prologueB->source : pa.b;
    // Block-scaled fp8: the scales are kernel operands SA and SB.
    if (pa.blockScales) {
      if (first || chosen.a || chosen.b)
        return op.emitOpError("block-scaled fp8 takes no prologue and no "
                              "second product yet");
      if (failed(tagOperandArgument(func, op, pa.blockScales->a, "SA")) ||
          failed(tagOperandArgument(func, op, pa.blockScales->b, "SB")))
        return failure();
    }
    if (first && (failed(tagOperandArgument(func, op, info->a, "A2")) ||
                  failed(tagOperandArgument(func, op, info->b, "B2"))))
      return failure();
    if (dualOp && failed(tagOperandArgument(
                      func, op, linalg::LinalgOp(dualOp).getDpsInputs()[1],
                      "B2")))
      return failure();
    if (failed(tagOperandArgument(func, op, aArg, "A")) ||
        failed(tagOperandArgument(func, op, bArg, "B")) ||
        failed(tagOperandArgument(func, op, out, "C")))
      return failure();
    if (epilogue && failed(tagEpilogueOperands(func, *epilogue)))
      return failure();
    // With the zero fill of C in front the kernel writes C = A*B; without
    // it, C += A*B: the epilogue adds C's old value, read through a second
    // plain pointer to C, to the f32 accumulators before C is written.
    linalg::FillOp fill = getZeroFillOfOutput(pa);
    bool accumulate = !fill;
    if (accumulate && pa.blockScales)
      return op.emitOpError("block-scaled fp8 computes C = A B from a zero "
                            "fill of C (C += A B is not supported yet)");
    if (accumulate && epilogue)
      return op.emitOpError("C += A*B with a fused pointwise consumer is not "
                            "supported by the sm90 back end yet (zero-fill C "
                            "first, or compute the sum in the consumer)");
    // On a batch, C's old value is read like a matrix operand of a fused
    // epilogue: one dense [m][n] matrix per batch entry, outermost.
    if (accumulate && info->batched && info->batch > 1 &&
        failed(checkAccumulatedBatch(op, *info)))
      return failure();
    // Sizes known at run time only: the kernel of verifySM90ConfigFits
    // (tensor maps in and out, persistent, data-parallel), C = A*B alone.
    const bool dynamicShape = info->isDynamic() || pa.isDynamic();
    if (dynamicShape) {
      auto refuse = [&](StringRef what) {
        return op.emitOpError("with sizes known only at run time (M, N or K "
                              "is `?`) the sm90 back end does not support ")
               << what << " yet";
      };
      if (first)
        return refuse("add(gemm, gemm)");
      if (accumulate && (info->batched || info->cTransposed))
        return refuse("C += A*B on a batch or a column-major C (zero-fill C "
                      "first)");
      if (pa.aType.isF32() && (pa.aTransposed || !pa.bTransposed))
        return refuse("tf32 with A stored [k][m] or B stored [k][n] (tf32 "
                      "wgmma reads both K-major, and the transposing copies "
                      "are sized at compile time)");
    }

    sm90::KernelParams p;
    p.name = (func.getSymName() + "_kernel").str();
    p.dynamicShape = dynamicShape;
    p.m = dynamicShape ? 0 : pa.m;
    p.n = dynamicShape ? 0 : pa.n;
    p.k = dynamicShape ? 0 : pa.k;
    p.k2 = first ? info->k : 0;
    // A batch of one is a plain matmul.
    p.batched = info->batched && info->batch > 1;
    p.batch = info->batch;
    // A summed batch (two K dimensions): every tile's K loop walks the
    // k-tiles of every matrix of the batch.
    // A batch of one is a plain matmul here too.
    p.batchReduce = info->batchReduce && info->batch > 1;
    if (info->batchReduce && info->isDynamic())
      return op.emitOpError("a sum over two K dimensions (read as a summed "
                            "batch) needs static sizes");
    // A batch between an operand's matrix dimensions ([m][b][k], say): its
    // tensor map's dimensions are (inner, batch, outer). With an outer
    // extent of 1 the runtime keeps that dimension in its place and the
    // map comes out batch-outermost, which is the same memory: read it so.
    auto middle = [&](Value v, bool stored) {
      auto type = dyn_cast<ShapedType>(v.getType());
      return p.operandsBatched() && stored && type && type.getRank() == 3 &&
             type.getDimSize(0) != 1;
    };
    if (p.batched && info->anyBatchMiddle()) {
      if (info->isDynamic())
        return op.emitOpError("a batch stored between the matrix dimensions "
                              "needs static sizes");
      if (info->cTransposed)
        return op.emitOpError("a batch stored between the matrix dimensions "
                              "needs a row-major C");
    }
    p.aBatchMiddle = middle(info->a, info->aBatchMiddle);
    p.bBatchMiddle = middle(info->b, info->bBatchMiddle);
    p.cBatchMiddle = middle(info->c, info->cBatchMiddle);
    // Two batch dimensions: each operand's tensor map has four dimensions,
    // in the order the runtime builds it from the manifest (tensorMapDims).
    if (info->multiBatch() && info->batch > 1) {
      auto refuse = [&](StringRef what) {
        return op.emitOpError("batch dimensions that do not collapse "
                              "into one are not supported by the sm90 back "
                              "end ")
               << what;
      };
      if (info->isDynamic())
        return refuse("with sizes known only at run time");
      if (info->cTransposed)
        return refuse("with a column-major C");
      if (config.getStore() != "tma")
        return refuse("with C stored other than by TMA stores (C's rows "
                      "must be a multiple of 16 bytes apart)");
      if (readsAMNMajor(*info) != info->aTransposed ||
          readsBKMajor(*info) != info->bTransposed)
        return refuse("with an operand of extent 1 stored transposed");
      // TMA reads every dimension but the innermost in 16-byte steps; no
      // copies are made.
      for (auto [name, v] : {std::pair<StringRef, Value>{"A", info->a},
                             {"B", info->b},
                             {"C", info->c}}) {
        auto type = cast<MemRefType>(v.getType());
        int64_t bytes = type.getElementTypeBitWidth() / 8;
        for (int64_t d = type.getRank() - 1, stride = 1; d > 0;
             stride *= type.getDimSize(d), --d)
          if (type.getDimSize(d - 1) != 1 &&
              stride * type.getDimSize(d) * bytes % 16 != 0)
            return op.emitOpError("several batch dimensions: the sm90 kernel "
                                  "reads ")
                   << name << " through TMA only, whose steps must be "
                   << "multiples of 16 bytes, but its dimension " << d - 1
                   << " steps " << stride * type.getDimSize(d) * bytes
                   << " bytes";
      }
      p.batchShape.assign(info->batchShape.begin(), info->batchShape.end());
      p.aMapDims =
          sm90::tensorMapDims(info->a, info->aBatchPos, info->aTransposed);
      p.bMapDims =
          sm90::tensorMapDims(info->b, info->bBatchPos, info->bTransposed);
      p.cMapDims = sm90::tensorMapDims(info->c, info->cBatchPos, false);
    }
    p.blockM = config.getBlockTile()[0];
    p.blockN = config.getBlockTile()[1];
    p.blockK = config.getBlockTile()[2];
    p.stages = config.getStages();
    p.groupM = config.getRaster();
    p.streamK = config.getStreamK();
    p.clusterM = config.getCluster()[0];
    p.clusterN = config.getCluster()[1];
    p.tmaStore = config.getStore() == "tma";
    // A broadcast batch dimension that A lacks laid side by side in N (the
    // heads of an input projection): one tile spans several matrices. Its
    // 64-wide boxes of an N-major B and its store chunks stay within one
    // matrix where the block width is a multiple of 64; a K-major B tile
    // loads whole matrices' rows per box, so its rows (half of them in a
    // 2x1 cluster) and the matrix width must divide one another.
    if (int64_t fold = batchFoldedIntoN(*info, epilogue ? &*epilogue : nullptr);
        fold >= 0 && p.multiBatch() && !first && p.blockN % 64 == 0) {
      int64_t rows = p.blockN / p.clusterM;
      if (!readsBKMajor(*info) || rows % info->n == 0 || info->n % rows == 0) {
        p.foldDim = int(fold);
        p.foldN = info->n;
        p.n = info->n * info->batchShape[fold];
        p.batch = info->batch / info->batchShape[fold];
      }
    }
    // Where the prologue runs: on A in registers (below, once the layouts
    // are known), on every tile in shared memory, or once in a pack kernel
    // that writes the transformed copy the kernel reads. In shared memory
    // each element is transformed once per output tile that reads it
    // (N / blockN times for A, M / blockM for B), and the extra
    // shared-memory traffic slows the main loop (docs/log/NOTES.md): past 8
    // readers per tile the pack is cheaper (measured on H100).
    bool prologuePack = false;
    if (prologue || prologueB) {
      int64_t readers = prologue ? sm90::ceilDiv(p.n, p.blockN)
                                 : sm90::ceilDiv(p.m, p.blockM);
      // A prologue on B in shared memory takes whole 64-wide boxes.
      bool wholeBoxes = !prologueB || p.blockN % 64 == 0;
      prologuePack = pack != "never" &&
                     (prologueMode == "pack" ||
                      (prologueMode == "auto" && (readers > 8 || !wholeBoxes)));
    }
    if ((prologue || prologueB) && p.batched && info->anyBatchMiddle())
      return op.emitOpError("a prologue on a batch stored between the "
                            "matrix dimensions is not supported");
    if ((prologue || prologueB) && (p.batchReduce || p.multiBatch()))
      return op.emitOpError("a prologue on a contraction over two K "
                            "dimensions is not supported");
    if (prologueMode == "regs" && prologueB)
      return op.emitOpError("prologue = regs applies to A only (wgmma reads "
                            "B from shared memory)");
    p.prologueA = prologue.has_value() && !prologuePack;
    p.prologueB = prologueB.has_value() && !prologuePack;
    // The B prologue splits B's tile over the consumer threads in whole
    // 64-wide boxes.
    if (p.prologueB && p.blockN % 64 != 0)
      return op.emitOpError("a prologue on B in shared memory needs a block "
                            "tile N that is a multiple of 64, not ")
             << p.blockN << " (prologue = pack transforms B once instead)";
    p.stagedStore = config.getStore() == "staged";
    p.inType = pa.aType.isBF16()                    ? "bf16"
               : pa.aType.isF32()                   ? "tf32"
               : isa<Float8E4M3FNType>(pa.aType)    ? "e4m3"
               : isa<Float8E5M2Type>(pa.aType)      ? "e5m2"
                                                    : "f16";
    // A stored [k][1] is the same memory as [1][k]: with M = 1 the kernel
    // reads A K-major either way, and with N = 1 B N-major; with K = 1 the
    // same holds for both (A stored [1][m] is A [m][1] K-major, B stored
    // [n][1] is B [1][n] N-major). (The runtime orders a tensor map's
    // dimensions by stride, and an extent-1 dimension's stride says
    // nothing: it keeps its logical place, which makes K, or N, the
    // innermost; docs/BUNDLE.md.) Not with a batch between the two: A
    // stored [k][b][1] is read M-major as stored (its batch entries are one
    // element apart, which addPack refuses below), not as [1][b][k].
    p.aMNMajor = readsAMNMajor(pa);
    p.bKMajor = readsBKMajor(pa);
    // A prologue on A in registers (wgmma's register-A form) reads A's
    // tile once and writes nothing back: the default wherever it applies.
    if (prologue && (prologueMode == "regs" || prologueMode == "auto")) {
      // (16-bit k-tiles are 64 elements, one 128-byte row: the config
      // verifier sees to that.)
      StringRef whyNot;
      if (p.inType != "f16" && p.inType != "bf16")
        whyNot = "f16 or bf16 operands";
      if (!whyNot.empty() && prologueMode == "regs")
        return op.emitOpError("prologue = regs needs ") << whyNot;
      // Stream-K consumers carry the schedule through the main loop, and
      // the fragments' 32 registers made ptxas spill (8 bytes at 128x256,
      // 16 at 128x128 with A [k][m]): auto leaves stream-K to shared
      // memory.
      if (whyNot.empty() && (prologueMode == "regs" || !p.streamK)) {
        p.prologueA = true;
        p.prologueInRegisters = true;
        prologuePack = false;
      }
    }
    // Element types are f16, bf16 or f32 here (analyzeContraction,
    // findEpilogue).
    p.outType = typeName(info->cType);
    p.cColumnMajor = swap;
    if (pa.blockScales) {
      p.blockScaled = true;
      p.scaleKBlocks = pa.blockScales->kBlocks;
    }
    // fp8 over more than kFP8PromoteKTiles k-tiles (or a K known at launch
    // only): the sums leave wgmma's accumulator every kFP8PromoteKTiles
    // k-tiles (KernelParams::promoteKTiles).
    // (A summed batch walks K once per batch matrix.)
    const int64_t chainK = p.k * (p.batchReduce ? p.batch : 1);
    if (p.isFP8() && !p.blockScaled &&
        (dynamicShape || chainK > kFP8PromoteKTiles * p.blockK))
      p.promoteKTiles = kFP8PromoteKTiles;
    if (accumulate) {
      p.fusedEpilogue = true;
      p.matmulType = "f32";
      p.epilogueOperands.push_back({"matrix", typeName(info->cType)});
    }
    if (epilogue) {
      p.fusedEpilogue = true;
      p.matmulType = typeName(info->cType);
      p.outType = typeName(epilogue->outType);
      for (const EpilogueOperand &e : epilogue->operands)
        if (e.kind != EpilogueOperandKind::Product)
          p.epilogueOperands.push_back(
              {stringifyEpilogueOperandKind(e.kind).str(),
               typeName(e.elementType)});
      p.dual = bool(dualOp);
      // Pairs in f16x2 / bf16x2 where that gives the same bits and the
      // operands' pairs are loaded as vectors (not element by element).
      p.epilogueInHalf =
          epilogueInHalf && isExactInHalf(*epilogue) && !p.elementwiseC();
    }

    // Operands whose rows TMA cannot read (or reads slowly) are copied into
    // padded buffers first. Rows of the stored layout: A [m][k] or [k][m],
    // B [k][n] or [n][k].
    // "async": rows TMA reads slowly (16-byte but not 128-byte multiples
    // apart) are copied by the producer warpgroup with cp.async instead
    // (KernelParams::aAsync), where the kernel's form allows it; rows TMA
    // cannot read at all are packed.
    const bool asyncForm = !first && p.clusterSize() == 1 &&
                           !p.batchReduce && !p.multiBatch() &&
                           (p.inType == "f16" || p.inType == "bf16");
    // swap with a block tile N below 64: B (the op's A, [m][k]) is read
    // K-major in tiles of N rows, which the producer copies with cp.async
    // (a tensor map of an M = 1 operand would be N-major, and TMA boxes of
    // a few rows gain nothing).
    const bool narrowB = sm90::swapCopiesB(swap, p.blockN);
    // A copy of `operand` stored [rows][cols] (a batch: `p.batch` such
    // matrices stacked), `cols` elements apart at the source.
    auto newPack = [&](StringRef operand, int64_t rows, int64_t cols) {
      sm90::PackParams pp;
      pp.name = p.name + "_pack_" + operand.str();
      pp.operand = operand.str();
      pp.rows = p.batch * rows;
      pp.matrixRows = rows;
      pp.cols = cols;
      pp.srcStride = cols;
      return pp;
    };
    auto addPack = [&](StringRef operand, int64_t rows, int64_t cols,
                       bool transform) -> LogicalResult {
      int64_t rowBytes = cols * 2;
      if (operand == "B" && narrowB) {
        if (rowBytes % 16 != 0)
          return op.emitOpError("swap with a block tile N below 64 copies A "
                                "in 16-byte pieces: its rows must be a "
                                "multiple of 16 bytes apart, not ")
                 << rowBytes << " (K = " << p.k << ")";
        p.bKMajor = true;
        p.bAsync = true;
        p.bRows = p.n;
        p.bCols = p.k;
        return success();
      }
      // A batch is packed as one stack of batch x rows rows (the matrices
      // are contiguous, one after the other).
      int64_t allRows = p.batch * rows;
      // "a" / "b": that operand (and A2 / B2) always where its rows are
      // not 128-byte multiples, the other only where TMA cannot read it.
      StringRef mode = pack;
      if (pack == "a" || pack == "b")
        mode = operand.starts_with_insensitive(pack) || rowBytes % 16 != 0
                   ? "always"
                   : "never";
      // The packs copy a batch as one stack of matrices: an operand whose
      // batch sits between its matrix dimensions is read as it is.
      bool batchMiddle = (operand == "A" && info->aBatchMiddle) ||
                         (operand == "B" && info->bBatchMiddle);
      if (batchMiddle || p.batchReduce || p.multiBatch()) {
        if (transform || rowBytes % 16 != 0)
          return op.emitOpError()
                 << operand
                 << (p.batchReduce    ? " holds a summed batch (a second K "
                                        "dimension)"
                     : p.multiBatch() ? " holds batch dimensions that do "
                                        "not collapse into one or that an "
                                        "input lacks"
                                      : " stores its batch between its matrix "
                                        "dimensions")
                 << ", which the sm90 kernel reads through TMA only (no "
                    "copies, no prologue): its rows must be a multiple of "
                    "16 bytes apart, not "
                 << rowBytes;
        return success();
      }
      // Rows 16 bytes apart but not 128 (TMA reads them slowly), or 4 or 8
      // bytes apart (TMA cannot read them): cp.async pieces of 16, 8 or 4
      // bytes.
      const int64_t asyncVec = rowBytes % 16 == 0  ? 16
                               : rowBytes % 8 == 0 ? 8
                               : rowBytes % 4 == 0 ? 4
                                                   : 0;
      // pack = auto: a small operand whose rows TMA cannot read (4 or 8
      // bytes apart, not 16) is copied by the producer too: a pack kernel
      // would cost a launch of 2-4 us (H200, every dimension <= 256:
      // 0.58-0.75 of cuBLAS with the pack, 0.93-1.13 without;
      // docs/log/2026-11-28-new-kernels-gpu.md).
      const bool smallUnreadable = pack == "auto" && rowBytes % 16 != 0 &&
                                   allRows * rowBytes <= kSmallAsyncBytes;
      // (A dual GEMM's B2 has no cp.async path: B and B2 are packed alike.)
      if ((pack == "async" || smallUnreadable) && !transform && asyncVec &&
          rowBytes % 128 != 0 && asyncForm &&
          (operand == "A" || !p.dual)) {
        bool isA = operand == "A";
        (isA ? p.aAsync : p.bAsync) = true;
        (isA ? p.aRows : p.bRows) = rows;
        (isA ? p.aCols : p.bCols) = cols;
        (isA ? p.aAsyncVec : p.bAsyncVec) = asyncVec;
        return success();
      }
      if (pack == "async")
        mode = "auto";
      if (!transform &&
          !sm90::shouldPack(rowBytes, allRows * rowBytes, mode)) {
        if (rowBytes % 16 != 0)
          return op.emitOpError()
                 << "the rows of " << operand << " are " << rowBytes
                 << " bytes apart, not a multiple of 16, which TMA needs; "
                    "pack = never forbids copying them";
        return success();
      }
      sm90::PackParams pp = newPack(operand, rows, cols);
      pp.dstStride = sm90::paddedRowStride(cols, 2);
      pp.type = p.inType;
      pp.transform = transform;
      p.packs.push_back(pp);
      return success();
    };
    // tf32: wgmma reads both operands K-major only, and the packs copy
    // 16-bit elements.
    if (p.isFP8()) {
      // fp8 wgmma reads both operands K-major, as cuBLASLt's fp8 kernels
      // do ("TN"); no transposing or padding copies of 8-bit elements yet.
      if (p.aMNMajor || !p.bKMajor)
        return op.emitOpError("fp8 (e4m3, e5m2) operands are read K-major "
                              "only: A stored [m][k] and B stored [n][k] "
                              "(with M, N and K above 1); transposing copies "
                              "of 8-bit elements are not supported yet");
      if (prologue || prologueB || first)
        return op.emitOpError("fp8 kernels take no prologue and no second "
                              "product yet");
      if (!dynamicShape && p.k % 16 != 0)
        return op.emitOpError("fp8 operands are read by TMA, whose rows must "
                              "be a multiple of 16 bytes apart: K = ")
               << p.k << " 8-bit elements is not a multiple of 16";
    } else if (dynamicShape) {
      // tf32 wgmma reads both operands K-major. The stored layouts were
      // checked above; a K of 1 (or an M or N of 1) makes the kernel read
      // an operand the other way, and there are no transposing copies here.
      if (p.inType == "tf32" && (p.aMNMajor || !p.bKMajor))
        return op.emitOpError("with sizes known only at run time the sm90 "
                              "kernel reads ")
               << (p.aMNMajor ? "A" : "B")
               << " MN-major here (a dimension of extent 1 stored "
                  "innermost), which tf32 wgmma cannot; give the sizes at "
                  "compile time or use f16/bf16 operands";
      // No packs: the runtime encodes the tensor maps over the caller's
      // strides at launch; a stride known here that TMA cannot take would
      // refuse every launch. (C's rows: TMA stores, checked with them.)
      if (failed(sm90::checkDynamicTensorMapStrides(op, "A", aArg)) ||
          failed(sm90::checkDynamicTensorMapStrides(op, "B", bArg)))
        return failure();
    } else if (p.inType == "tf32") {
      if (pa.bTransposed && !p.bKMajor)
        return op.emitOpError("tf32 with N = 1 (or K = 1) is not supported: "
                              "the kernel reads such a B N-major, which tf32 "
                              "wgmma cannot");
      if (prologue || prologueB || first)
        return op.emitOpError("tf32 kernels take no prologue and no second "
                              "product yet");
      // tf32 wgmma reads both operands K-major: an MN-major operand (A
      // stored [k][m], B stored [k][n]) is transposed by a pack kernel
      // into a K-major copy with 128-byte rows, which the kernel reads.
      auto addTranspose = [&](StringRef operand, int64_t cols) {
        sm90::PackParams pp = newPack(operand, p.k, cols);
        pp.dstStride = sm90::paddedRowStride(p.k, 4);
        pp.type = "f32";
        pp.transpose = true;
        p.packs.push_back(pp);
      };
      bool transposeA = p.aMNMajor, transposeB = !p.bKMajor;
      if ((transposeA || transposeB) && p.operandsBatched())
        return op.emitOpError("tf32 on a batch reads A [m][k] and B [n][k] "
                              "only (transposing packs are per matrix)");
      if (transposeA) {
        addTranspose("A", p.m);
        p.aMNMajor = false;
      }
      if (transposeB) {
        addTranspose("B", p.n);
        p.bKMajor = true;
      }
      if ((!transposeA || !transposeB) && p.k % 4 != 0)
        return op.emitOpError("tf32 operands are read by TMA, whose rows must "
                              "be a multiple of 16 bytes apart: K = ")
               << p.k << " f32 elements is not a multiple of 4";
    } else if (failed(addPack("A", p.aMNMajor ? p.k : p.m,
                              p.aMNMajor ? p.m : p.k,
                              prologuePack && prologue)) ||
        failed(addPack("B", p.bKMajor || narrowB ? p.n : p.k,
                       p.bKMajor || narrowB ? p.k : p.n,
                       prologuePack && prologueB)))
      return failure();
    // A dual GEMM's B2 is packed where B is (same rows, same rules).
    if (p.dual && !p.isFP8() && p.inType != "tf32" &&
        failed(addPack("B2", p.bKMajor ? p.n : p.k, p.bKMajor ? p.k : p.n,
                       /*transform=*/false)))
      return failure();
    // The second product's operands are packed by the same rules.
    if (first && !dynamicShape &&
        (failed(addPack("A2", p.aMNMajor ? p.k2 : p.m, p.aMNMajor ? p.m : p.k2,
                        /*transform=*/false)) ||
         failed(addPack("B2", p.bKMajor ? p.n : p.k2, p.bKMajor ? p.k2 : p.n,
                        /*transform=*/false))))
      return failure();

    auto module = getOperation();
    sm90::EpilogueBodyBuilder body;
    // A 16-bit output keeps fewer bits than tanh.approx.f32 gets right
    // (about 2^-11 relative): there the epilogue's f32 tanh is the
    // hardware instruction instead of libdevice's polynomial (GELU's tanh
    // form cost 8 % over the plain kernel at 4096^3 with it).
    bool fastTanh = epilogue && !epilogue->outType.isF32();
    if (accumulate)
      body = [&](OpBuilder &builder, Value acc, ValueRange operands) {
        // acc (f32) + C's old element, rounded once to C's type.
        Location loc = op.getLoc();
        Value old = operands[0];
        Type f32 = builder.getF32Type();
        if (old.getType() != f32)
          old = arith::ExtFOp::create(builder, loc, f32, old);
        Value sum = arith::AddFOp::create(builder, loc, acc, old);
        if (info->cType != f32)
          sum = arith::TruncFOp::create(builder, loc, info->cType, sum);
        return sum;
      };
    if (epilogue && p.epilogueInHalf)
      body = [&](OpBuilder &builder, Value acc, ValueRange operands) {
        return emitEpilogueBodyInHalf(builder, *epilogue, acc, operands);
      };
    else if (epilogue)
      body = [&](OpBuilder &builder, Value acc, ValueRange operands) {
        Block *block = builder.getInsertionBlock();
        Block::iterator at = builder.getInsertionPoint();
        Operation *last = at == block->begin() ? nullptr : &*std::prev(at);
        Value result = emitEpilogueBody(builder, *epilogue, acc, operands);
        if (fastTanh) {
          Operation *first = last ? last->getNextNode() : &block->front();
          SmallVector<math::TanhOp> tanhs;
          for (Operation *o = first; o && o != &*builder.getInsertionPoint();
               o = o->getNextNode())
            if (auto t = dyn_cast<math::TanhOp>(o); t && t.getType().isF32())
              tanhs.push_back(t);
          for (math::TanhOp t : tanhs)
            result = replaceWithFastTanh(t, result);
        }
        return result;
      };
    // A consumer warpgroup of several 64-row blocks (config warp tile M).
    p.rowBlocks = config.getWarpTile()[0] / 64;
    if (p.rowBlocks > 1) {
      std::string whyNot;
      if (p.streamK || p.clusterSize() > 1)
        whyNot = "no stream-K and no cluster";
      else if (p.hasPrologue())
        whyNot = "no prologue fused into the kernel (prologue = pack computes "
                 "it in a pack kernel)";
      else if (p.rowBlocks * p.accRegs() > sm90::kMaxRowBlockAccRegs)
        whyNot = "at most " + std::to_string(sm90::kMaxRowBlockAccRegs) +
                 " accumulator registers a thread (row blocks x N / 2 = " +
                 std::to_string(p.rowBlocks * p.accRegs()) + ")";
      if (!whyNot.empty())
        return op.emitOpError("a consumer warpgroup of ")
               << p.rowBlocks << " row blocks (warp tile M "
               << config.getWarpTile()[0] << ") needs " << whyNot;
    }
    // A matrix epilogue operand read with TMA through the store chunks.
    if (epilogueLoads != "fragments") {
      for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
        if (!accumulate && e.kind == "matrix" && e.type == p.outType) {
          p.tmaEpilogueOperand = int64_t(k);
          break;
        }
      StringRef whyNot;
      if (p.tmaEpilogueOperand < 0)
        whyNot = "a fused epilogue with a matrix operand of C's dtype";
      else if (!p.tmaStore || p.elementwiseC() || p.cColumnMajor)
        whyNot = "TMA stores of a row-major C";
      else if (p.blockN % p.storeChunkCols() != 0)
        whyNot = "a block tile N that is a multiple of the store chunk";
      else if (p.batched || p.streamK || p.clusterSize() > 1 ||
               p.dynamicShape || p.rowBlocks > 1)
        whyNot = "no batch, stream-K, cluster, run-time sizes or consumer "
                 "row blocks";
      // auto: TMA where it applies (measured as fast or faster), else the
      // fragment loads.
      if (!whyNot.empty() && epilogueLoads == "auto")
        p.tmaEpilogueOperand = -1;
      else if (!whyNot.empty())
        return op.emitOpError("epilogue-loads = tma needs ") << whyNot;
    }
    // A swapped kernel's TMA stores write C transposed from 8x8 blocks of
    // 16-bit pairs, in 64-column chunks of the kernel, to rows of C TMA can
    // address.
    if (p.transposedStore()) {
      std::string whyNot;
      if (p.outType == "f32")
        whyNot = "a 16-bit C (f32 C is stored from registers)";
      else if (p.blockN < 64)
        whyNot = "a block tile N of 64 or more (one store chunk)";
      else if (p.dynamicShape || p.m % 8 != 0)
        whyNot = "C's rows 16-byte multiples apart (N a multiple of 8)";
      if (!whyNot.empty())
        return op.emitOpError("swap with store = tma needs ") << whyNot;
    }
    if (p.dual && failed(checkDual(op, p, swap,
                                   prologue || prologueB || first)))
      return failure();
    sm90::PrologueBodyBuilder prologueBody;
    const std::optional<PrologueInfo> &fusedPrologue =
        prologue ? prologue : prologueB;
    if (fusedPrologue)
      prologueBody = [&](OpBuilder &builder, Value element) {
        return emitEpilogueBody(builder, fusedPrologue->body, element, {});
      };
    FailureOr<Operation *> kernelModule =
        sm90::buildKernelModule(module, p, op.getLoc(), body, prologueBody);
    if (failed(kernelModule))
      return failure();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    auto kernel =
        *cast<gpu::GPUModuleOp>(*kernelModule).getOps<gpu::GPUFuncOp>().begin();

    // The ABI, read by `tcgen compile` for the manifest.
    Builder b(&getContext());
    // With TMA stores C is a tensor map too: boxes of one store chunk
    // (128 bytes of columns by the 64 rows of a consumer warpgroup).
    // Operands copied with cp.async are plain pointers.
    SmallVector<std::string> params = {
        p.aAsync ? "ptr:A" : "tensormap:A", p.bAsync ? "ptr:B" : "tensormap:B"};
    if (first) {
      params.push_back("tensormap:A2");
      params.push_back("tensormap:B2");
    }
    if (p.dual)
      params.push_back("tensormap:B2");
    params.push_back(p.tmaStore ? "tensormap:C" : "ptr:C");
    if (p.blockScaled)
      params.append({"ptr:SA", "ptr:SB"});
    for (size_t k = 0; k < p.epilogueOperands.size(); ++k)
      params.push_back(accumulate ? "ptr:C"
                       : int64_t(k) == p.tmaEpilogueOperand
                           ? "tensormap:E" + std::to_string(k)
                           : "ptr:E" + std::to_string(k));
    if (p.streamK)
      params.push_back("workspace:" +
                       std::to_string(p.workspaceBytesPerBlock()));
    if (dynamicShape) {
      params.append({"size:m", "size:n", "size:k"});
      // The row stride of each matrix epilogue operand (C's own under
      // C += A*B): "stride:<operand>:<dim>".
      for (auto [k, e] : llvm::enumerate(p.epilogueOperands))
        if (e.kind == "matrix")
          params.push_back(accumulate ? "stride:C:0"
                                      : "stride:E" + std::to_string(k) + ":0");
    }
    kernel->setAttr("tcgen.params",
                    b.getStrArrayAttr(SmallVector<StringRef>(params.begin(),
                                                             params.end())));
    // Boxes innermost first; a batch adds an outermost extent of 1.
    // A summed batch: A's and B's boxes only.
    auto box = [&](int64_t inner, int64_t outer, bool middle, bool batched) {
      SmallVector<int64_t> dims = {inner, outer};
      if (batched)
        dims.insert(middle ? dims.begin() + 1 : dims.end(), 1);
      return b.getDenseI64ArrayAttr(dims);
    };
    // 128 bytes of the inner dimension: 64 16-bit or 32 tf32 elements.
    // A2 and B2 are read like A and B.
    const int64_t inner = 128 / p.elementBytes();
    // Two batch dimensions: the box in the tensor map's order.
    auto boxOf = [&](const std::vector<int> &dims, int64_t cols,
                     int64_t rows) {
      SmallVector<int64_t> extents;
      for (int d : dims)
        extents.push_back(d == sm90::KernelParams::kMapInner   ? cols
                          : d == sm90::KernelParams::kMapOuter ? rows
                                                               : 1);
      return b.getDenseI64ArrayAttr(extents);
    };
    int64_t aRows = p.aMNMajor ? 64 : p.blockM / p.clusterN;
    int64_t bRows = p.bKMajor ? sm90::bBoxRows(p) : 64;
    DenseI64ArrayAttr aBox =
        p.multiBatch() ? boxOf(p.aMapDims, inner, aRows)
                       : box(inner, aRows, p.aBatchMiddle, p.operandsBatched());
    DenseI64ArrayAttr bBox =
        p.multiBatch() ? boxOf(p.bMapDims, inner, bRows)
                       : box(inner, bRows, p.bBatchMiddle, p.operandsBatched());
    SmallVector<NamedAttribute> boxes = {b.getNamedAttr("A", aBox),
                                         b.getNamedAttr("B", bBox)};
    if (first) {
      boxes.push_back(b.getNamedAttr("A2", aBox));
      boxes.push_back(b.getNamedAttr("B2", bBox));
    }
    if (p.dual)
      boxes.push_back(b.getNamedAttr("B2", bBox));
    if (p.tmaStore) {
      DenseI64ArrayAttr cBox =
          p.multiBatch()
              ? boxOf(p.cMapDims, p.storeChunkCols(), 64)
              : box(p.storeChunkCols(), 64, p.cBatchMiddle, p.batched);
      boxes.push_back(b.getNamedAttr("C", cBox));
      if (p.tmaEpilogueOperand >= 0)
        boxes.push_back(b.getNamedAttr(
            "E" + std::to_string(p.tmaEpilogueOperand), cBox));
    }
    kernel->setAttr("tcgen.tensormap_boxes", b.getDictionaryAttr(boxes));
    // The packs, in the stored layout's terms (strides of the stored
    // [rows][cols] copy); `tcgen compile` writes them to the manifest.
    SmallVector<Attribute> packs;
    for (const sm90::PackParams &pp : p.packs)
      packs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("operand", b.getStringAttr(pp.operand)),
           b.getNamedAttr("entry", b.getStringAttr(pp.name)),
           b.getNamedAttr(
               "strides",
               p.batched ? b.getDenseI64ArrayAttr(
                               {pp.matrixRows * pp.dstStride, pp.dstStride, 1})
                         : b.getDenseI64ArrayAttr({pp.dstStride, 1})),
           b.getNamedAttr("grid",
                          b.getDenseI64ArrayAttr({pp.blocks(), 1, 1})),
           b.getNamedAttr("block", b.getDenseI64ArrayAttr(
                                       {sm90::PackParams::kThreads, 1, 1}))}));
    if (!packs.empty())
      kernel->setAttr("tcgen.packs", b.getArrayAttr(packs));
    // Operands stored transposed (A[k,m], B[n,k]): the manifest describes
    // them by their logical [m,k] / [k,n] shape with swapped strides.
    // On the kernel: how it reads them (and how the packs store them); on
    // the function: how the arguments are stored (these differ where M or
    // N is 1).
    kernel->setAttr("tcgen.transposed",
                    b.getDenseBoolArrayAttr({p.aMNMajor, p.bKMajor}));
    func->setAttr("tcgen.transposed",
                  b.getDenseBoolArrayAttr({pa.aTransposed, pa.bTransposed}));
    // Operands stored with their batch between the matrix dimensions: the
    // manifest describes them batch-first, with their strides.
    if ((info->batched || info->batchReduce) && info->anyBatchMiddle())
      func->setAttr("tcgen.batch_middle",
                    b.getDenseBoolArrayAttr({info->aBatchMiddle,
                                             info->bBatchMiddle,
                                             info->cBatchMiddle}));
    // Several batch dimensions, or one an input lacks: where each sits in
    // A, B and C as stored (-1: absent; the manifest describes the operands
    // batch-first, an absent dimension with C's extent and stride 0).
    // (Also for a batch of one, whose dimensions the manifest then drops.)
    if (info->multiBatch())
      func->setAttr(
          "tcgen.batch_positions",
          b.getDictionaryAttr(
              {b.getNamedAttr("A", b.getDenseI64ArrayAttr(info->aBatchPos)),
               b.getNamedAttr("B", b.getDenseI64ArrayAttr(info->bBatchPos)),
               b.getNamedAttr("C", b.getDenseI64ArrayAttr(info->cBatchPos))}));
    // swap: the manifest describes C (and matrix operands of the epilogue)
    // in the kernel's terms, [m][n] of C^T, with swapped strides.
    if (swap)
      func->setAttr("tcgen.swapped", b.getUnitAttr());
    // A summed batch: the manifest's op.batch_reduce.
    if (p.batchReduce)
      func->setAttr("tcgen.batch_reduce", b.getUnitAttr());
    // Block-scaled fp8: the manifest's op.block_scales.
    if (p.blockScaled)
      func->setAttr("tcgen.block_scales", b.getUnitAttr());
    // A dual GEMM: the manifest's op.dual.
    if (p.dual)
      func->setAttr("tcgen.dual", b.getUnitAttr());
    // grid x = the number of tiles; persistent (1): the runtime launches at
    // most one block per SM and the blocks stride over the tiles; stream-K
    // (2): exactly one block per SM, which share the k-tiles.
    int64_t schedule = p.streamK ? 2 : config.getPersistent() ? 1 : 0;
    // Stream-K over few tiles: fewer blocks than SMs (streamKBlocks; the
    // launch's stream_k_blocks, 0 for one per SM).
    int64_t sms = getTypicalSMCount(getTargetOrDefault(func));
    int64_t streamKBlocks =
        p.streamK && !dynamicShape ? sm90::streamKBlocks(p.tiles(), sms, swap)
                                   : sms;
    if (streamKBlocks == sms)
      streamKBlocks = 0;
    // Sizes known at run time only: grid x = -1, one block per SM.
    int64_t gridX = dynamicShape ? -1 : p.tiles();
    SmallVector<int64_t, 9> launch = {
        gridX, 1, 1, p.threads(), 1, 1, p.smemBytes(), schedule};
    if (streamKBlocks > 0)
      launch.push_back(streamKBlocks);
    kernel->setAttr("tcgen.launch", b.getDenseI64ArrayAttr(launch));
    // Blocks per cluster (x: the grid is one-dimensional).
    kernel->setAttr("tcgen.cluster",
                    b.getDenseI64ArrayAttr({p.clusterSize(), 1, 1}));
    // The register split setmaxnreg asks for; `tcgen compile` checks it
    // against what ptxas allocated (asking for more than the block owns
    // hangs the consumers).
    kernel->setAttr(
        "tcgen.setmaxnreg",
        b.getDenseI64ArrayAttr({p.producerRegisters(),
                                p.consumerRegisters(), p.consumers()}));
    kernel->setAttr(kConfigAttrName, config);
    func->setAttr(kConfigAttrName, config);
    if (!accumulate)
      func->setAttr(kOverwriteAttrName, b.getUnitAttr());
    func->setAttr("tcgen.kernel", FlatSymbolRefAttr::get(kernel.getNameAttr()));
    if (fusedPrologue) {
      // The manifest's op.prologue: the producer's body on the elements of
      // the kernel's A or B.
      func->setAttr(kFusedPrologueAttrName,
                    describeEpilogue(fusedPrologue->body));
      func->setAttr(kFusedPrologueOperandAttrName,
                    b.getStringAttr(prologue ? "A" : "B"));
      fusedPrologue->body.op->erase();
    }
    // The transformed operand's local buffer goes with the contraction.
    Value aBuffer = prologue ? pa.a : prologueB ? pa.b : Value();
    auto eraseBuffer = [](Value buffer) {
      auto alloc = buffer ? buffer.getDefiningOp<memref::AllocOp>()
                          : memref::AllocOp();
      if (!alloc)
        return;
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      if (alloc->use_empty())
        alloc->erase();
    };
    SmallVector<Operation *> others;
    if (firstOp)
      others.push_back(firstOp);
    // A dual GEMM's second product, its fill and its buffer go too.
    Value dualBuffer;
    if (dualOp) {
      dualBuffer = linalg::LinalgOp(dualOp).getDpsInits()[0];
      FailureOr<ContractionInfo> second = analyzeContraction(dualOp);
      if (succeeded(second))
        if (linalg::FillOp dualFill = getZeroFillOfOutput(*second))
          others.push_back(dualFill);
      others.push_back(dualOp);
    }
    if (failed(eraseComputedContraction(func, op, fill,
                                        epilogue ? &*epilogue : nullptr,
                                        others)))
      return failure();
    eraseBuffer(aBuffer);
    eraseBuffer(dualBuffer);
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
