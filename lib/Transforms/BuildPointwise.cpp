//===- BuildPointwise.cpp - Standalone pointwise kernels --------*- C++ -*-===//
//
// This file implements tcgen-build-pointwise: a 2-d elementwise op left in
// a host function (a consumer that could not be fused) becomes a kernel of
// its own, so that nothing of the computation is dropped.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Transforms/GridStride.h"
#include "tcgen/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENBUILDPOINTWISEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
constexpr int64_t kThreads = 256;
/// At most eight blocks per SM of a 132-SM H100 (grid-stride beyond).
constexpr int64_t kMaxBlocks = 8 * 132;

/// Elements per thread and step: the largest of 8, 4, 2 and 1 that divides
/// n (rows then start at multiples of it: aligned vector accesses).
int64_t vectorWidth(int64_t n) {
  for (int64_t w : {8, 4, 2})
    if (n % w == 0)
      return w;
  return 1;
}

/// Bytes a vector of `w` elements of `t` may assume aligned: the base is
/// 16-byte aligned (the runtime checks it) and each access starts at a
/// multiple of w elements.
int64_t alignment(int64_t w, Type t) {
  return std::min<int64_t>(16, w * (t.getIntOrFloatBitWidth() / 8));
}

/// Blocks of the launch: enough for every W-element step of the matrix,
/// at most kMaxBlocks (the threads stride over the rest).
int64_t gridBlocks(const PointwiseInfo &pw) {
  int64_t units = pw.m * pw.n / vectorWidth(pw.n);
  return std::clamp<int64_t>((units + kThreads - 1) / kThreads, 1, kMaxBlocks);
}

/// Index arithmetic and global-memory accesses of the kernel.
struct PointwiseEmitter {
  OpBuilder &b;
  Location loc;
  Type global; ///< !llvm.ptr<1>

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value toI64(Value x) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), x);
  }
  /// Element `index` (i64) of `ptr`, of type `t`.
  Value at(Value ptr, Value index, Type t) {
    return LLVM::GEPOp::create(b, loc, global, t, ptr, ValueRange{index});
  }
  /// A vector of `w` elements of `t` at element `index` of `ptr`.
  Value vecLoad(Value ptr, Value index, Type t, int64_t w) {
    return LLVM::LoadOp::create(b, loc, VectorType::get({w}, t),
                                at(ptr, index, t), alignment(w, t));
  }
};

/// One step of the kernel's loop at unit `u`: loads W elements of X (and
/// of row and matrix operands, one of a column operand; `scalars` holds
/// the scalars, loaded once), emits the body per element and stores W
/// elements of Y. Fails where the body does not yield Y's type.
LogicalResult buildStep(PointwiseEmitter &e, const PointwiseInfo &pw, Value u,
                        Value cPerRow, Value cW, Value cN, Value gX, Value gY,
                        ArrayRef<Value> gE, ArrayRef<Value> scalars,
                        Operation *op) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const EpilogueInfo &info = pw.body;
  const int64_t w = vectorWidth(pw.n);
  Value r = arith::DivUIOp::create(b, loc, u, cPerRow);
  Value q = arith::RemUIOp::create(b, loc, u, cPerRow);
  Value c = arith::MulIOp::create(b, loc, q, cW);
  Value rowAt = arith::MulIOp::create(b, loc, r, cN);
  Value atIdx = arith::AddIOp::create(b, loc, rowAt, c);
  Value atI = e.toI64(atIdx);
  Value cI = e.toI64(c);
  Value rI = e.toI64(r);
  Value vX = e.vecLoad(gX, atI, info.matmulType, w);
  SmallVector<Value> vE(info.operands.size());
  for (auto [k, operand] : llvm::enumerate(info.operands)) {
    if (operand.kind == EpilogueOperandKind::Row)
      vE[k] = e.vecLoad(gE[k], cI, operand.elementType, w);
    else if (operand.kind == EpilogueOperandKind::Matrix)
      vE[k] = e.vecLoad(gE[k], atI, operand.elementType, w);
    else if (operand.kind == EpilogueOperandKind::Col)
      vE[k] = LLVM::LoadOp::create(b, loc, operand.elementType,
                                   e.at(gE[k], rI, operand.elementType));
  }
  SmallVector<Value> results;
  for (int64_t x = 0; x < w; ++x) {
    Value xv = vector::ExtractOp::create(b, loc, vX, x);
    SmallVector<Value> args;
    for (auto [k, operand] : llvm::enumerate(info.operands)) {
      switch (operand.kind) {
      case EpilogueOperandKind::Scalar:
        args.push_back(scalars[k]);
        break;
      case EpilogueOperandKind::Col:
        args.push_back(vE[k]);
        break;
      default:
        args.push_back(vector::ExtractOp::create(b, loc, vE[k], x));
      }
    }
    Value y = emitEpilogueBody(b, info, xv, args);
    if (!y || y.getType() != info.outType)
      return op->emitOpError("internal error: the pointwise body yields ")
             << (y ? y.getType() : Type()) << ", not " << info.outType
             << " (a tcgen bug)";
    results.push_back(y);
  }
  Value vY = vector::FromElementsOp::create(
      b, loc, VectorType::get({w}, info.outType), results);
  LLVM::StoreOp::create(b, loc, vY, e.at(gY, atI, info.outType),
                        alignment(w, info.outType));
  return success();
}

/// The kernel, in a gpu.module of its own named `name`: parameters X, E0,
/// E1, ..., Y (all !llvm.ptr); per step a thread loads W elements of X
/// (and of row and matrix operands, one of a column operand; scalars once),
/// applies the op's body per element and stores W elements of Y.
FailureOr<gpu::GPUModuleOp> buildKernel(Operation *op, StringRef name,
                                        const PointwiseInfo &pw) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  const EpilogueInfo &info = pw.body;
  const int64_t w = vectorWidth(pw.n);
  OpBuilder b(ctx);
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, name);
  b.setInsertionPointToStart(gpuModule.getBody());
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Type> params(info.operands.size() + 2, ptr);
  auto kernel =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(params, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel->setAttr("nvvm.maxntid",
                  b.getDenseI32ArrayAttr({int32_t(kThreads), 1, 1}));
  b.setInsertionPointToStart(&kernel.front());
  PointwiseEmitter e{b, loc, LLVM::LLVMPointerType::get(ctx, 1)};
  Value cThreads = e.cst(kThreads);
  Value cUnits = e.cst(pw.m * pw.n / w);
  Value cPerRow = e.cst(pw.n / w);
  Value cW = e.cst(w);
  Value cN = e.cst(pw.n);
  GridStrideIndices grid = buildGridStrideIndices(b, loc, cThreads);
  Value gX =
      LLVM::AddrSpaceCastOp::create(b, loc, e.global, kernel.getArgument(0));
  Value gY = LLVM::AddrSpaceCastOp::create(b, loc, e.global,
                                           kernel.getArguments().back());
  SmallVector<Value> gE, scalars;
  for (auto [k, operand] : llvm::enumerate(info.operands)) {
    gE.push_back(LLVM::AddrSpaceCastOp::create(b, loc, e.global,
                                               kernel.getArgument(k + 1)));
    scalars.push_back(
        operand.kind == EpilogueOperandKind::Scalar
            ? LLVM::LoadOp::create(b, loc, operand.elementType, gE.back())
                  .getResult()
            : Value());
  }
  LogicalResult built = success();
  scf::ForOp::create(b, loc, grid.first, cUnits, grid.step, ValueRange(),
                     [&](OpBuilder &, Location, Value u, ValueRange) {
                       built = buildStep(e, pw, u, cPerRow, cW, cN, gX, gY, gE,
                                         scalars, op);
                       scf::YieldOp::create(b, loc);
                     });
  gpu::ReturnOp::create(b, loc);
  if (failed(built)) {
    gpuModule.erase();
    return failure();
  }
  return gpuModule;
}

struct BuildPointwisePass final
    : impl::TCGenBuildPointwisePassBase<BuildPointwisePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      SmallVector<linalg::LinalgOp> ops;
      func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
      int64_t index = 0;
      for (linalg::LinalgOp op : ops) {
        std::string whyNot;
        std::optional<PointwiseInfo> pw = findStandalonePointwise(op, whyNot);
        if (!pw)
          continue; // tcgen-verify-lowered names it, with the reason.
        std::string name =
            (func.getSymName() + "_pointwise" + Twine(index++)).str();
        if (failed(build(module, func, op, *pw, name)))
          return signalPassFailure();
      }
    }
  }

  LogicalResult build(ModuleOp module, func::FuncOp func, linalg::LinalgOp op,
                      const PointwiseInfo &pw, StringRef name) {
    FailureOr<gpu::GPUModuleOp> built = buildKernel(op, name, pw);
    if (failed(built))
      return failure();
    gpu::GPUModuleOp gpuModule = *built;

    // The ABI, read by `tcgen compile` for the bundle.
    Builder b(module.getContext());
    auto kernel = *gpuModule.getOps<gpu::GPUFuncOp>().begin();
    SmallVector<StringRef> params = {"ptr:X"};
    SmallVector<std::string> names;
    SmallVector<int64_t> args;
    auto argOf = [](Value v) {
      return int64_t(cast<BlockArgument>(v).getArgNumber());
    };
    args.push_back(argOf(pw.x));
    for (size_t k = 0; k < pw.body.operands.size(); ++k) {
      names.push_back("ptr:E" + std::to_string(k));
      args.push_back(argOf(pw.body.operands[k].memref));
    }
    for (const std::string &n : names)
      params.push_back(n);
    params.push_back("ptr:Y");
    args.push_back(argOf(pw.body.out));
    int64_t blocks = gridBlocks(pw);
    kernel->setAttr("tcgen.params", b.getStrArrayAttr(params));
    kernel->setAttr("tcgen.operand_args", b.getDenseI64ArrayAttr(args));
    kernel->setAttr("tcgen.launch", b.getDenseI64ArrayAttr(
                                        {blocks, 1, 1, kThreads, 1, 1, 0, 0}));
    kernel->setAttr("tcgen.pointwise", describeEpilogue(pw.body));
    kernel->setAttr("tcgen.host",
                    FlatSymbolRefAttr::get(func.getSymNameAttr()));

    SymbolTable(module).insert(gpuModule);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    op.emitRemark("compiled as a separate pointwise kernel @")
        << gpuModule.getName();
    op->erase();
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
