//===- LowerMMA.cpp - WMMA fragments to ldmatrix and mma.sync ---*- C++ -*-===//
//
// This file implements tcgen-sm80-lower-mma: the 16x16x16 gpu.subgroup_mma
// fragments of an sm80 kernel become nvgpu.ldmatrix loads, pairs of
// m16n8k16 nvgpu.mma.sync and per-lane vector loads and stores of C, in the
// register layouts PTX defines for mma.sync.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM80/Passes.h"

#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSM80LOWERMMAPASS
#include "tcgen/Targets/SM80/Passes.h.inc"

namespace {

/// The fragment shape this lowering takes: one 16x16 tile of A, B or C,
/// which is one ldmatrix of four 8x8 matrices and two m16n8k16 mma.sync.
constexpr int64_t kFrag = 16;

/// A fragment's registers: four pairs of elements per lane.
static VectorType fragmentVectorType(gpu::MMAMatrixType type) {
  return VectorType::get({4, 2}, type.getElementType());
}

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The lane's (row, column) offsets, in the buffer's order, inside an A or
/// B fragment for ldmatrix.x4. Lane l addresses row l % 8 of 8x8 matrix
/// l / 8; the four matrices must come out as m16n8k16's a0..a3 (A: m 0-7,
/// m 8-15 at k 0-7, then the same at k 8-15) and as b0, b1 of the two n8
/// halves (B: k 0-7, k 8-15 at n 0-7, then the same at n 8-15). The first
/// index pair to step is the first of the operand's pair (m for A, k for
/// B), so:
/// - A [m][k] or B [k][n] (`firstAlongRows`: that index runs along the
///   buffer's rows): row l % 16, column 8 (l / 16);
/// - A [k][m] or B [n][k] (it runs along the columns): row
///   l % 8 + 8 (l / 16), column 8 ((l / 8) % 2).
static std::pair<Value, Value> ldmatrixOffsets(OpBuilder &b, Location loc,
                                               bool firstAlongRows) {
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  if (firstAlongRows) {
    Value row = arith::RemUIOp::create(b, loc, lane, constIndex(b, loc, 16));
    Value half = arith::DivUIOp::create(b, loc, lane, constIndex(b, loc, 16));
    Value col = arith::MulIOp::create(b, loc, half, constIndex(b, loc, 8));
    return {row, col};
  }
  Value inMatrix = arith::RemUIOp::create(b, loc, lane, constIndex(b, loc, 8));
  Value rowHalf = arith::DivUIOp::create(b, loc, lane, constIndex(b, loc, 16));
  Value row = arith::AddIOp::create(
      b, loc, inMatrix,
      arith::MulIOp::create(b, loc, rowHalf, constIndex(b, loc, 8)));
  Value colHalf = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, lane, constIndex(b, loc, 8)),
      constIndex(b, loc, 2));
  Value col = arith::MulIOp::create(b, loc, colHalf, constIndex(b, loc, 8));
  return {row, col};
}

/// The (row, column) of the first element of accumulator pair (half h,
/// row half r) for this lane: rows l / 4 (+ 8), columns 8h + 2 (l % 4).
struct AccumulatorLanes {
  Value group;  // l / 4
  Value column; // 2 (l % 4)
};

static AccumulatorLanes accumulatorLanes(OpBuilder &b, Location loc) {
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  Value group = arith::DivUIOp::create(b, loc, lane, constIndex(b, loc, 4));
  Value quad = arith::RemUIOp::create(b, loc, lane, constIndex(b, loc, 4));
  Value column = arith::MulIOp::create(b, loc, quad, constIndex(b, loc, 2));
  return {group, column};
}

/// Calls `fn(pairIndex, row, col)` for the four accumulator pairs of a C
/// fragment at (row0, col0).
template <typename Fn>
static void forEachAccumulatorPair(OpBuilder &b, Location loc, Value row0,
                                   Value col0, Fn fn) {
  AccumulatorLanes lanes = accumulatorLanes(b, loc);
  for (int64_t h = 0; h < 2; ++h) {
    Value col = arith::AddIOp::create(b, loc, col0, lanes.column);
    if (h)
      col = arith::AddIOp::create(b, loc, col, constIndex(b, loc, 8));
    for (int64_t r = 0; r < 2; ++r) {
      Value row = arith::AddIOp::create(b, loc, row0, lanes.group);
      if (r)
        row = arith::AddIOp::create(b, loc, row, constIndex(b, loc, 8));
      fn(2 * h + r, row, col);
    }
  }
}

struct LoadLowering final
    : OpConversionPattern<gpu::SubgroupMmaLoadMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaLoadMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<gpu::MMAMatrixType>(op.getType());
    VectorType vecType = fragmentVectorType(type);
    Value memref = adaptor.getSrcMemref();
    ValueRange idx = adaptor.getIndices();
    if (type.getOperand() != "COp") {
      // Each lane needs the k pairs of its m row (A) or n column (B): rows
      // of k in the buffer ([k][n] B, [k][m] A) are transposed per 8x8
      // matrix, rows of m or n are not.
      bool isA = type.getOperand() == "AOp";
      bool stored = op.getTranspose().has_value();
      bool kRows = isA ? stored : !stored;
      auto [row, col] =
          ldmatrixOffsets(rewriter, loc, /*firstAlongRows=*/!stored);
      Value r = arith::AddIOp::create(rewriter, loc, idx[0], row);
      Value c = arith::AddIOp::create(rewriter, loc, idx[1], col);
      rewriter.replaceOpWithNewOp<nvgpu::LdMatrixOp>(
          op, vecType, memref, ValueRange{r, c}, /*transpose=*/kRows,
          /*numTiles=*/4);
      return success();
    }
    Value acc = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getZeroAttr(vecType));
    auto pairType = VectorType::get({2}, type.getElementType());
    forEachAccumulatorPair(
        rewriter, loc, idx[0], idx[1], [&](int64_t i, Value row, Value col) {
          Value pair = vector::LoadOp::create(rewriter, loc, pairType, memref,
                                              ValueRange{row, col});
          acc = vector::InsertOp::create(rewriter, loc, pair, acc,
                                         ArrayRef<int64_t>{i});
        });
    rewriter.replaceOp(op, acc);
    return success();
  }
};

struct StoreLowering final
    : OpConversionPattern<gpu::SubgroupMmaStoreMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaStoreMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value acc = adaptor.getSrc();
    ValueRange idx = adaptor.getIndices();
    forEachAccumulatorPair(
        rewriter, loc, idx[0], idx[1], [&](int64_t i, Value row, Value col) {
          Value pair = vector::ExtractOp::create(rewriter, loc, acc,
                                                 ArrayRef<int64_t>{i});
          vector::StoreOp::create(rewriter, loc, pair, adaptor.getDstMemref(),
                                  ValueRange{row, col});
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct ComputeLowering final
    : OpConversionPattern<gpu::SubgroupMmaComputeOp> {
  /// `bf16`: A and B hold bf16 bit patterns in f16 fragments
  /// (kBF16OperandsAttrName); they are reinterpreted before the mma.sync.
  ComputeLowering(const TypeConverter &converter, MLIRContext *ctx, bool bf16)
      : OpConversionPattern(converter, ctx), bf16(bf16) {}

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getOpA();
    Value b = adaptor.getOpB();
    Value c = adaptor.getOpC();
    if (bf16) {
      rewriter.replaceOp(op, bf16Products(rewriter, loc, a, b, c));
      return success();
    }
    Value result = c;
    // One m16n8k16 per n8 half: B's and C's rows 2h, 2h + 1.
    for (int64_t h = 0; h < 2; ++h) {
      SmallVector<int64_t> offsets = {2 * h, 0}, sizes = {2, 2},
                           strides = {1, 1};
      Value bh = vector::ExtractStridedSliceOp::create(rewriter, loc, b,
                                                       offsets, sizes, strides);
      Value ch = vector::ExtractStridedSliceOp::create(rewriter, loc, c,
                                                       offsets, sizes, strides);
      Value dh = nvgpu::MmaSyncOp::create(rewriter, loc, a, bh, ch,
                                          ArrayRef<int64_t>{16, 8, 16});
      result = vector::InsertStridedSliceOp::create(rewriter, loc, dh, result,
                                                    offsets, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The two m16n8k16 products with bf16 A and B as nvvm.mma.sync on the
  /// packed 32-bit registers (nvgpu.mma.sync's lowering deduces no PTX type
  /// for bf16 vectors): a0..a3 and each half's b0, b1 are the fragments'
  /// element pairs reinterpreted as i32; C's pairs go in as four f32.
  static Value bf16Products(OpBuilder &b, Location loc, Value a, Value bv,
                            Value c) {
    MLIRContext *ctx = b.getContext();
    Type i32 = b.getI32Type(), f32 = b.getF32Type();
    auto regs = [&](Value v, int64_t first, int64_t count) {
      Value packed = vector::BitCastOp::create(
          b, loc, VectorType::get({4, 1}, i32), v);
      SmallVector<Value> out;
      for (int64_t r = first; r < first + count; ++r)
        out.push_back(vector::ExtractOp::create(b, loc, packed,
                                                ArrayRef<int64_t>{r, 0}));
      return out;
    };
    SmallVector<Value> aRegs = regs(a, 0, 4);
    auto accType =
        LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    Value result = c;
    for (int64_t h = 0; h < 2; ++h) {
      SmallVector<Value> bRegs = regs(bv, 2 * h, 2);
      SmallVector<Value> cRegs;
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e)
          cRegs.push_back(vector::ExtractOp::create(
              b, loc, c, ArrayRef<int64_t>{2 * h + r, e}));
      Value d = NVVM::MmaOp::create(
          b, loc, accType, aRegs, bRegs, cRegs, ArrayRef<int64_t>{16, 8, 16},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                        NVVM::MMATypes::bf16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e) {
          Value x = LLVM::ExtractValueOp::create(b, loc, d,
                                                 ArrayRef<int64_t>{2 * r + e});
          result = vector::InsertOp::create(b, loc, x, result,
                                            ArrayRef<int64_t>{2 * h + r, e});
        }
    }
    return result;
  }

  bool bf16;
};

struct ConstantLowering final
    : OpConversionPattern<gpu::SubgroupMmaConstantMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaConstantMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = fragmentVectorType(cast<gpu::MMAMatrixType>(op.getType()));
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getValue());
    return success();
  }
};

/// The split-K reduction's sum of two fragments: the same layout, so an
/// elementwise add of the registers.
struct AddLowering final
    : OpConversionPattern<gpu::SubgroupMmaElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getOpType() != gpu::MMAElementwiseOp::ADDF)
      return failure();
    ValueRange args = adaptor.getArgs();
    rewriter.replaceOpWithNewOp<arith::AddFOp>(op, args[0], args[1]);
    return success();
  }
};

/// Why `op` cannot be lowered, or an empty string.
static std::string unsupportedReason(Operation *op) {
  auto isFragment = [](Type t) {
    auto m = dyn_cast<gpu::MMAMatrixType>(t);
    return m && m.getShape()[0] == kFrag && m.getShape()[1] == kFrag &&
           (m.getElementType().isF16() || m.getElementType().isF32());
  };
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (isa<gpu::MMAMatrixType>(t) && !isFragment(t))
      return "takes 16x16 f16 or f32 fragments only";
  if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op)) {
    auto type = cast<gpu::MMAMatrixType>(load.getType());
    if (load.getTranspose() && type.getOperand() == "COp")
      return "cannot load transposed C fragments";
    auto memref = cast<MemRefType>(load.getSrcMemref().getType());
    if (type.getOperand() != "COp" &&
        !nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(memref))
      return "reads A and B fragments from shared memory only (ldmatrix); "
             "run tcgen-promote-operands";
  }
  if (auto compute = dyn_cast<gpu::SubgroupMmaComputeOp>(op))
    if (compute.getATranspose() || compute.getBTranspose())
      return "cannot multiply transposed fragments";
  if (auto ew = dyn_cast<gpu::SubgroupMmaElementwiseOp>(op))
    if (ew.getOpType() != gpu::MMAElementwiseOp::ADDF)
      return "has no elementwise fragment ops but addf";
  return "";
}

struct LowerMMAPass final : impl::TCGenSM80LowerMMAPassBase<LowerMMAPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto config = func->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (!config || config.getBackend() != "sm80")
      return;
    WalkResult check = func.walk([&](Operation *op) {
      if (op->getDialect() != op->getContext()->getLoadedDialect("gpu") ||
          !op->getName().getStringRef().starts_with("gpu.subgroup_mma"))
        return WalkResult::advance();
      std::string reason = unsupportedReason(op);
      if (reason.empty())
        return WalkResult::advance();
      op->emitOpError("sm80 lowering ") << reason;
      return WalkResult::interrupt();
    });
    if (check.wasInterrupted())
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type t) { return t; });
    converter.addConversion([](gpu::MMAMatrixType t) -> Type {
      return fragmentVectorType(t);
    });
    ConversionTarget target(*ctx);
    target.addIllegalOp<gpu::SubgroupMmaLoadMatrixOp,
                        gpu::SubgroupMmaStoreMatrixOp,
                        gpu::SubgroupMmaComputeOp,
                        gpu::SubgroupMmaConstantMatrixOp,
                        gpu::SubgroupMmaElementwiseOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    patterns.add<LoadLowering, StoreLowering, ConstantLowering, AddLowering>(
        converter, ctx);
    patterns.add<ComputeLowering>(converter, ctx,
                                  func->hasAttr(kBF16OperandsAttrName));
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tcgen
