//===- BuildPointwise.cpp - Standalone pointwise kernels --------*- C++ -*-===//
//
// This file implements tcgen-build-pointwise: a 2-d elementwise op left in
// a host function (a consumer that could not be fused) becomes a kernel of
// its own, so that nothing of the computation is dropped.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Transforms/Passes.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENBUILDPOINTWISEPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
constexpr int64_t kThreads = 256;
/// At most eight blocks per SM of a 132-SM H100 (grid-stride beyond).
constexpr int64_t kMaxBlocks = 8 * 132;
constexpr StringLiteral kBodyFunc = "tcgen_pointwise_body";

std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

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
  return std::clamp<int64_t>((units + kThreads - 1) / kThreads, 1,
                             kMaxBlocks);
}

/// The kernel: parameters X, E0, E1, ..., Y (all !llvm.ptr); per step a
/// thread loads W elements of X (and of row and matrix operands, one of a
/// column operand; scalars once), calls @tcgen_pointwise_body per element
/// and stores W elements of Y.
std::string renderKernel(StringRef name, const PointwiseInfo &pw) {
  const EpilogueInfo &info = pw.body;
  int64_t w = vectorWidth(pw.n);
  int64_t units = pw.m * pw.n / w;
  std::string xT = typeText(info.matmulType), yT = typeText(info.outType);
  std::string params = "%pX: !llvm.ptr";
  std::string bodyArgs = xT;
  for (auto [k, e] : llvm::enumerate(info.operands)) {
    params += llvm::formatv(", %pE{0}: !llvm.ptr", k).str();
    bodyArgs += ", " + typeText(e.elementType);
  }
  params += ", %pY: !llvm.ptr";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv(R"(
gpu.module @{0} {{
  func.func private @{1}({2}) -> {3}
  gpu.func @{0}({4}) kernel attributes {{nvvm.maxntid = array<i32: {5}, 1, 1>} {{
    %cThreads = arith.constant {5} : index
    %cUnits = arith.constant {6} : index
    %cPerRow = arith.constant {7} : index
    %cW = arith.constant {8} : index
    %cN = arith.constant {9} : index
)",
                      name, kBodyFunc, bodyArgs, yT, params, kThreads, units,
                      pw.n / w, w, pw.n);
  os << kGridStrideIndicesText << R"(
    %gX = llvm.addrspacecast %pX : !llvm.ptr to !llvm.ptr<1>
    %gY = llvm.addrspacecast %pY : !llvm.ptr to !llvm.ptr<1>
)";
  for (auto [k, e] : llvm::enumerate(info.operands)) {
    os << llvm::formatv(
        "    %gE{0} = llvm.addrspacecast %pE{0} : !llvm.ptr to !llvm.ptr<1>\n",
        k);
    if (e.kind == EpilogueOperandKind::Scalar)
      os << llvm::formatv("    %sE{0} = llvm.load %gE{0} : !llvm.ptr<1> -> "
                          "{1}\n",
                          k, typeText(e.elementType));
  }
  os << R"(
    scf.for %u = %first to %cUnits step %step {
      %r = arith.divui %u, %cPerRow : index
      %q = arith.remui %u, %cPerRow : index
      %c = arith.muli %q, %cW : index
      %rowAt = arith.muli %r, %cN : index
      %at = arith.addi %rowAt, %c : index
      %atI = arith.index_cast %at : index to i64
      %cI = arith.index_cast %c : index to i64
      %rI = arith.index_cast %r : index to i64
)";
  // A vector of W elements of `t` at element `index` of `ptr`.
  auto vecLoad = [&](StringRef result, StringRef ptr, StringRef index,
                     Type t) {
    std::string ts = typeText(t);
    os << llvm::formatv(R"(
      {0}p = llvm.getelementptr {1}[{2}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {3}
      {0} = llvm.load {0}p {{alignment = {4} : i64} : !llvm.ptr<1> -> vector<{5}x{3}>
)",
                        result, ptr, index, ts, alignment(w, t), w);
  };
  vecLoad("%vX", "%gX", "%atI", info.matmulType);
  for (auto [k, e] : llvm::enumerate(info.operands)) {
    std::string v = llvm::formatv("%vE{0}", k).str();
    std::string g = llvm::formatv("%gE{0}", k).str();
    if (e.kind == EpilogueOperandKind::Row)
      vecLoad(v, g, "%cI", e.elementType);
    else if (e.kind == EpilogueOperandKind::Matrix)
      vecLoad(v, g, "%atI", e.elementType);
    else if (e.kind == EpilogueOperandKind::Col)
      os << llvm::formatv(R"(
      {0}p = llvm.getelementptr {1}[%rI] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {2}
      {0}c = llvm.load {0}p : !llvm.ptr<1> -> {2}
)",
                          v, g, typeText(e.elementType));
  }
  std::string results;
  for (int64_t x = 0; x < w; ++x) {
    std::string args = llvm::formatv("%x{0}", x).str();
    std::string types = xT;
    os << llvm::formatv(
        "      %x{0} = vector.extract %vX[{0}] : {1} from vector<{2}x{1}>\n", x,
        xT, w);
    for (auto [k, e] : llvm::enumerate(info.operands)) {
      std::string et = typeText(e.elementType);
      types += ", " + et;
      switch (e.kind) {
      case EpilogueOperandKind::Scalar:
        args += llvm::formatv(", %sE{0}", k).str();
        break;
      case EpilogueOperandKind::Col:
        args += llvm::formatv(", %vE{0}c", k).str();
        break;
      default:
        os << llvm::formatv("      %e{0}_{1} = vector.extract %vE{0}[{1}] : "
                            "{2} from vector<{3}x{2}>\n",
                            k, x, et, w);
        args += llvm::formatv(", %e{0}_{1}", k, x).str();
      }
    }
    os << llvm::formatv(
        "      %y{0} = func.call @{1}({2}) : ({3}) -> {4}\n", x, kBodyFunc,
        args, types, yT);
    results += llvm::formatv("{0}%y{1}", x ? ", " : "", x).str();
  }
  os << llvm::formatv(R"(
      %vY = vector.from_elements {0} : vector<{1}x{2}>
      %pYAt = llvm.getelementptr %gY[%atI] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, {2}
      llvm.store %vY, %pYAt {{alignment = {3} : i64} : vector<{1}x{2}>, !llvm.ptr<1>
    }
    gpu.return
  }
}
)",
                      results, w, yT, alignment(w, info.outType));
  return s;
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
    ParserConfig config(module.getContext());
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(renderKernel(name, pw), config);
    if (!parsed)
      return op.emitOpError("internal error: the pointwise kernel template "
                            "did not parse (a tcgen bug)");
    auto gpuModule = *parsed->getOps<gpu::GPUModuleOp>().begin();
    // The op's body in place of every call.
    SmallVector<func::CallOp> calls;
    gpuModule.walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      OpBuilder builder(call);
      Value result = emitEpilogueBody(builder, pw.body, call.getOperand(0),
                                      call.getOperands().drop_front());
      if (!result || result.getType() != call.getResult(0).getType())
        return op.emitOpError("internal error: the pointwise body yields ")
               << (result ? result.getType() : Type()) << ", not "
               << call.getResult(0).getType() << " (a tcgen bug)";
      call.getResult(0).replaceAllUsesWith(result);
      call.erase();
    }
    gpuModule.lookupSymbol<func::FuncOp>(kBodyFunc).erase();

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
    kernel->setAttr("tcgen.launch",
                    b.getDenseI64ArrayAttr({blocks, 1, 1, kThreads, 1, 1, 0,
                                            0}));
    kernel->setAttr("tcgen.pointwise", describeEpilogue(pw.body));
    kernel->setAttr("tcgen.host", FlatSymbolRefAttr::get(func.getSymNameAttr()));

    gpuModule->remove();
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
