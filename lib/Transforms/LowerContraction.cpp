//===- LowerContraction.cpp - Contraction to tagged affine nest -*- C++ -*-===//
//
// This file implements tcgen-lower-contraction: a configured linalg.matmul
// becomes the canonical (m, n, k) affine nest, its operands become tagged
// kernel arguments, and a zero fill of the output folds into the nest.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Config/Backend.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENLOWERCONTRACTIONPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

struct LowerContractionPass final
    : impl::TCGenLowerContractionPassBase<LowerContractionPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kConfigAttrName))
        ops.push_back(op);
    });
    if (ops.size() > 1) {
      ops[1]->emitOpError("is the second contraction in function '")
          << func.getSymName()
          << "': tcgen compiles one contraction per function";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops)
      if (failed(lower(func, op, rewriter)))
        return signalPassFailure();
    // Fold the index computations the lowering emits into the accesses.
    RewritePatternSet patterns(&getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineLoadOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineStoreOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)applyPatternsGreedily(func, std::move(patterns));
  }

  /// Retypes the bf16 memref argument `arg` of `func` (read only by
  /// affine.load, whose values only feed arith.extf) to f16.
  static void carryAsF16(func::FuncOp func, BlockArgument arg) {
    auto type = cast<MemRefType>(arg.getType());
    Type f16 = Float16Type::get(func.getContext());
    arg.setType(MemRefType::get(type.getShape(), f16, type.getLayout(),
                                type.getMemorySpace()));
    for (Operation *user : arg.getUsers())
      if (auto load = dyn_cast<affine::AffineLoadOp>(user))
        load.getResult().setType(f16);
    func.setType(FunctionType::get(func.getContext(),
                                   func.getBody().front().getArgumentTypes(),
                                   func.getFunctionType().getResults()));
  }

  /// The back end whose bf16 operands travel as f16 bits (sm80).
  static StringRef bf16AsF16Backend() {
    for (const TargetBackend *backend : getTargetBackends())
      if (backend->carriesBF16AsF16())
        return backend->getName();
    return "";
  }

  /// Picks the producer of A (or else of B) to fuse as a prologue, remarks
  /// why the other is not, and makes the contraction read its source.
  static LogicalResult choosePrologue(func::FuncOp func, linalg::LinalgOp op,
                                      ContractionInfo &info) {
    std::optional<PrologueInfo> chosen;
    StringRef chosenName;
    for (auto [operand, name] :
         {std::pair<Value, StringRef>{info.a, "A"}, {info.b, "B"}}) {
      std::string whyNot;
      std::optional<PrologueInfo> found = findPrologue(info, operand, whyNot);
      if (found && chosen)
        whyNot = "a kernel fuses one prologue, and A's is fused";
      else if (found && info.aType.isBF16())
        whyNot = ("the " + bf16AsF16Backend() +
                  " back end carries bf16 operands as f16 bits: no bf16 "
                  "prologues")
                     .str();
      if (!whyNot.empty()) {
        op.emitRemark("the producer of ")
            << name << " is not fused into the kernel: " << whyNot;
        continue;
      }
      if (found) {
        chosen = found;
        chosenName = name;
      }
    }
    if (!chosen)
      return success();
    Value buffer = chosenName == "A" ? info.a : info.b;
    op->replaceUsesOfWith(buffer, chosen->source);
    (chosenName == "A" ? info.a : info.b) = chosen->source;
    Builder b(func.getContext());
    func->setAttr(kFusedPrologueAttrName, describeEpilogue(chosen->body));
    func->setAttr(kFusedPrologueOperandAttrName, b.getStringAttr(chosenName));
    chosen->body.op->setAttr(kPrologueSourcesAttrName,
                             b.getDenseI64ArrayAttr(chosen->body.argSource));
    return success();
  }

  LogicalResult lower(func::FuncOp func, linalg::LinalgOp op,
                      IRRewriter &rewriter) {
    FailureOr<ContractionInfo> info = analyzeContraction(op);
    if (failed(info))
      return failure();
    auto cfg = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
    std::string whyNot;
    std::optional<EpilogueInfo> epilogue = findEpilogue(*info, whyNot);
    // sm80 and wmma compute a pointwise consumer while their staged
    // epilogue copies C out (tcgen-stage-epilogue).
    bool fuse = epilogue && cfg.getStore() == "staged" &&
                getZeroFillOfOutput(*info);
    if (!fuse && (epilogue || !whyNot.empty())) {
      InFlightDiagnostic remark =
          op.emitRemark("the consumer of the result is not fused into the "
                        "kernel: ");
      if (!whyNot.empty())
        remark << whyNot;
      else if (cfg.getStore() != "staged")
        remark << "the " << cfg.getBackend()
               << " back end fuses epilogues into its staged epilogue only "
                  "(store = \"staged\")";
      else
        remark << "the " << cfg.getBackend()
               << " back end fuses epilogues of C = A*B only (a zero fill of "
                  "C)";
    }
    // sm80, and wmma with cp.async stages: a pointwise producer of A (or
    // else B) is applied by each thread to the chunks it copied into shared
    // memory (tcgen-apply-prologue); the kernel reads the producer's input.
    const TargetBackend &backend = getTargetBackend(cfg.getBackend());
    bool prologues = backend.alwaysAsyncCopies() ||
                     (backend.asyncCopiesOnRequest() && asyncCopies);
    if (prologues && failed(choosePrologue(func, op, *info)))
      return failure();
    if (backend.asyncCopiesOnRequest() && !asyncCopies)
      for (auto [operand, name] :
           {std::pair<Value, StringRef>{info->a, "A"}, {info->b, "B"}}) {
        std::string whyNot;
        if (findPrologue(*info, operand, whyNot))
          op.emitRemark("the producer of ")
              << name << " is not fused into the kernel: the "
              << backend.getName()
              << " back end applies "
                 "prologues in its cp.async K loop only (--async-copies)";
      }
    if (failed(tagOperandArgument(func, op, info->a, "A")) ||
        failed(tagOperandArgument(func, op, info->b, "B")))
      return failure();
    if (fuse) {
      // The intermediate C stays a local buffer until tcgen-stage-epilogue
      // writes the consumer's output instead; the consumer waits there.
      info->c.getDefiningOp()->setAttr(kOperandAttrName,
                                       rewriter.getStringAttr("C"));
      if (failed(tagEpilogueOperands(func, *epilogue)))
        return failure();
      func->setAttr(kFusedEpilogueAttrName, describeEpilogue(*epilogue));
      SmallVector<int64_t> kinds;
      for (const EpilogueOperand &e : epilogue->operands)
        kinds.push_back(int64_t(e.kind));
      epilogue->op->setAttr(kEpilogueSourcesAttrName,
                            rewriter.getDenseI64ArrayAttr(epilogue->argSource));
      epilogue->op->setAttr(kEpilogueKindsAttrName,
                            rewriter.getDenseI64ArrayAttr(kinds));
    } else if (failed(tagOperandArgument(func, op, info->c, "C"))) {
      return failure();
    }

    // linalg.fill(0) into C right before the matmul: C = A*B, C never read.
    bool overwrite = false;
    if (linalg::FillOp fill = getZeroFillOfOutput(*info)) {
      rewriter.eraseOp(fill);
      overwrite = true;
    }

    // How A and B are stored, for the manifest (A [k][m], B [n][k]).
    if (info->aTransposed || info->bTransposed)
      func->setAttr("tcgen.transposed",
                    rewriter.getDenseBoolArrayAttr(
                        {info->aTransposed, info->bTransposed}));
    Attribute config = op->getAttr(kConfigAttrName);
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToAffineLoops(rewriter, op);
    if (failed(loops) || loops->size() != 3)
      return op.emitOpError("could not be lowered to an affine loop nest");
    // A column-major C[n, m] is the row-major C^T = B^T A^T: the op's n
    // loop walks the rows of the kernel's C (its "m"), the op's B is the
    // kernel's A (ContractionInfo swapped them already).
    StringRef mRole = info->cTransposed ? "n" : "m";
    StringRef nRole = info->cTransposed ? "m" : "n";
    for (auto [d, loop] : llvm::enumerate(*loops)) {
      StringRef role = d == dims->m[0] ? mRole : d == dims->n[0] ? nRole : "k";
      setLoopRole(loop, role);
    }
    // sm80 with bf16 inputs: gpu.subgroup_mma (the fragments the shared
    // passes use) has no bf16, so A and B travel as f16 bit patterns
    // (copies and fragment loads only move bits) and tcgen-sm80-lower-mma
    // multiplies them as bf16 again; the manifest keeps bf16.
    if (getTargetBackend(cast<ConfigAttr>(config).getBackend())
            .carriesBF16AsF16() &&
        info->aType.isBF16()) {
      for (Value operand : {info->a, info->b})
        carryAsF16(func, cast<BlockArgument>(operand));
      func->setAttr(kBF16OperandsAttrName, rewriter.getUnitAttr());
    }
    // Tiling wants the (m, n, k) order: a column-major C's loops come as
    // (n, m, k) in the kernel's terms, so the outer two are interchanged.
    Operation *outer = loops->front();
    if (info->cTransposed) {
      auto first = cast<affine::AffineForOp>(loops->front());
      auto second = cast<affine::AffineForOp>((*loops)[1]);
      affine::interchangeLoops(first, second);
      outer = second;
    }
    outer->setAttr(kConfigAttrName, config);
    if (overwrite)
      outer->setAttr(kOverwriteAttrName, rewriter.getUnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
