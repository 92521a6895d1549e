//===- Reschedule.cpp - tcgen reschedule: kernel choice and explain -------===//
//
// This file implements the driver-side helpers of `tcgen reschedule`:
// parsing `--launch`, choosing the kernel `--kernel` names, the raising
// pipeline, and the `--explain` description of a raised kernel.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Reschedule.h"
#include "tcgen/Reschedule/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcgen;

/// Parses "X[,Y[,Z]]" into `dims` (missing ones stay 1).
static LogicalResult parseDims(StringRef key, StringRef text,
                               std::array<int64_t, 3> &dims,
                               std::string &error) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3) {
    error = key.str() + "= takes one to three sizes X,Y,Z, got '" + text.str() +
            "'";
    return failure();
  }
  dims = {1, 1, 1};
  for (auto [i, part] : llvm::enumerate(parts)) {
    int64_t v;
    if (part.trim().getAsInteger(10, v) || v <= 0) {
      error = key.str() + "= takes positive integers, got '" + part.str() + "'";
      return failure();
    }
    dims[i] = v;
  }
  return success();
}

FailureOr<LaunchConfig> mlir::tcgen::parseLaunchConfig(StringRef text,
                                                       std::string &error) {
  LaunchConfig config;
  SmallVector<StringRef> tokens;
  SplitString(text, tokens, " \t;");
  if (tokens.empty()) {
    error = "--launch expects grid=X,Y,Z block=X,Y,Z [smem=B]";
    return failure();
  }
  bool sawBlock = false;
  for (StringRef token : tokens) {
    auto [key, value] = token.split('=');
    if (!token.contains('=')) {
      error = "--launch expects key=value, got '" + token.str() + "'";
      return failure();
    }
    if (key == "grid") {
      if (failed(parseDims(key, value, config.grid, error)))
        return failure();
    } else if (key == "block") {
      if (failed(parseDims(key, value, config.block, error)))
        return failure();
      sawBlock = true;
    } else if (key == "smem") {
      if (value.getAsInteger(10, config.smem) || config.smem < 0) {
        error = "smem= takes a byte count, got '" + value.str() + "'";
        return failure();
      }
    } else {
      error = "--launch knows grid, block and smem, not '" + key.str() + "'";
      return failure();
    }
  }
  if (!sawBlock) {
    error = "--launch needs block=X,Y,Z";
    return failure();
  }
  int64_t threads = config.block[0] * config.block[1] * config.block[2];
  if (threads > 1024) {
    error = "block=" + std::to_string(config.block[0]) + "," +
            std::to_string(config.block[1]) + "," +
            std::to_string(config.block[2]) + " has " +
            std::to_string(threads) + " threads; a block has at most 1024";
    return failure();
  }
  return config;
}

bool mlir::tcgen::kernelNameMatches(StringRef symbol, StringRef name) {
  if (symbol == name)
    return true;
  std::string demangled = llvm::demangle(symbol.str());
  StringRef full(demangled);
  // "void MatrixMulCUDA<16>(float*, ...)": drop the return type and the
  // parameters.
  full = full.take_until([](char c) { return c == '('; });
  if (full.starts_with("void "))
    full = full.drop_front(5);
  if (full == name)
    return true;
  return full.take_until([](char c) { return c == '<'; }) == name;
}

/// The kernels (ptx_kernel functions with a body) of `module`.
static SmallVector<LLVM::LLVMFuncOp> kernelsOf(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
    if (!fn.isExternal() && fn.getCConv() == LLVM::CConv::PTX_Kernel)
      kernels.push_back(fn);
  return kernels;
}

LogicalResult mlir::tcgen::selectKernel(ModuleOp module, StringRef name) {
  SmallVector<LLVM::LLVMFuncOp> kernels = kernelsOf(module);
  SmallVector<LLVM::LLVMFuncOp> chosen;
  for (LLVM::LLVMFuncOp fn : kernels)
    if (kernelNameMatches(fn.getSymName(), name))
      chosen.push_back(fn);
  if (chosen.size() == 1) {
    for (LLVM::LLVMFuncOp fn : kernels)
      if (fn != chosen.front())
        fn.erase();
    return success();
  }
  std::string found;
  for (LLVM::LLVMFuncOp fn : kernels)
    found += "\n  " + fn.getSymName().str() + " (" +
             llvm::demangle(fn.getSymName().str()) + ")";
  InFlightDiagnostic diag = emitError(module.getLoc());
  if (chosen.empty())
    diag << "no kernel named '" << name << "'";
  else
    diag << "'" << name << "' names " << chosen.size()
         << " kernels; name one with its template arguments or its symbol";
  diag << "; the kernels found:" << (kernels.empty() ? " none" : found);
  return failure();
}

LogicalResult mlir::tcgen::attachLaunchConfig(ModuleOp module,
                                              const LaunchConfig &launch) {
  Builder b(module.getContext());
  for (Operation &op : module.getBody()->getOperations()) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (!fn || fn.isExternal() || fn.getCConv() != LLVM::CConv::PTX_Kernel)
      continue;
    fn->setAttr(
        "tcgen.launch",
        b.getDictionaryAttr({
            b.getNamedAttr("grid", b.getDenseI64ArrayAttr(launch.grid)),
            b.getNamedAttr("block", b.getDenseI64ArrayAttr(launch.block)),
            b.getNamedAttr("smem", b.getI64IntegerAttr(launch.smem)),
        }));
  }
  return success();
}

void mlir::tcgen::buildRaisePipeline(OpPassManager &pm) {
  pm.addPass(createTCGenRescheduleCheckSubsetPass());
  pm.addPass(createTCGenRaiseLLVMKernelPass());
  pm.addNestedPass<func::FuncOp>(createTCGenRaiseCFToSCFPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createTCGenRaiseToAffinePass());
  // raise-to-affine leaves the index forms it built for accesses that
  // stayed non-affine unused.
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
}

/// Prints `v` as the explain text names it: a constant's value, else the
/// op (or block argument) that defines it.
static std::string describe(Value v) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return std::to_string(c.getSExtValue());
  std::string s;
  llvm::raw_string_ostream os(s);
  v.printAsOperand(os, OpPrintingFlags());
  if (Operation *def = v.getDefiningOp())
    os << " (" << def->getName() << ")";
  return s;
}

std::string mlir::tcgen::explainRaised(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn->hasAttr("tcgen.kernel"))
      continue;
    os << "kernel @" << fn.getSymName() << " ("
       << llvm::demangle(fn.getSymName().str()) << ")\n  parameters:";
    for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
      os << (i ? ", " : " ") << t;
    os << "\n";
    if (auto launch = fn->getAttrOfType<DictionaryAttr>("tcgen.launch"))
      os << "  launch: " << launch << "\n";
    os << "  shared buffers:";
    int64_t sharedBytes = 0;
    unsigned buffers = 0;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType t = global.getType();
      int64_t bytes = t.getNumElements() * t.getElementTypeBitWidth() / 8;
      sharedBytes += bytes;
      os << "\n    @" << global.getSymName() << " : " << t << " (" << bytes
         << " bytes)";
      ++buffers;
    }
    os << (buffers ? "\n" : " none\n");
    os << "  static shared memory: " << sharedBytes << " bytes\n";
    os << "  loops, accesses and barriers (in program order):\n";
    fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      unsigned depth = 0;
      for (Operation *p = op->getParentOp(); p && p != fn; p = p->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp, scf::IfOp, affine::AffineForOp>(p))
          ++depth;
      std::string indent(4 + 2 * depth, ' ');
      if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
        os << indent << "affine.for " << describe(loop.getInductionVar())
           << " = " << loop.getLowerBoundMap() << " to "
           << loop.getUpperBoundMap() << " step " << loop.getStepAsInt()
           << "\n";
      } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
        os << indent << "scf.for from " << describe(loop.getLowerBound())
           << " to " << describe(loop.getUpperBound()) << " step "
           << describe(loop.getStep()) << " (not affine)\n";
      } else if (isa<scf::WhileOp>(op)) {
        os << indent << "scf.while (no induction variable found)\n";
      } else if (isa<scf::IfOp>(op)) {
        os << indent << "scf.if\n";
      } else if (isa<gpu::BarrierOp>(op)) {
        os << indent << "gpu.barrier\n";
      } else if (isa<affine::AffineLoadOp, affine::AffineStoreOp,
                     memref::LoadOp, memref::StoreOp>(op)) {
        Value mem = op->getOperand(
            isa<affine::AffineStoreOp, memref::StoreOp>(op) ? 1 : 0);
        std::string where = "parameter";
        if (auto get = mem.getDefiningOp<memref::GetGlobalOp>())
          where = "shared @" + get.getName().str();
        else if (auto arg = dyn_cast<BlockArgument>(mem))
          where = "parameter " + std::to_string(arg.getArgNumber());
        os << indent << op->getName() << " " << where << "\n";
      }
    });
  }
  return text;
}

/// The manifest's name of a parameter or element type, or "".
static std::string rawTypeName(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isInteger(32))
    return "i32";
  if (t.isInteger(64))
    return "i64";
  return "";
}

FailureOr<std::vector<::tcgen::RawParam>>
mlir::tcgen::describeKernelParams(func::FuncOp fn) {
  std::vector<::tcgen::RawParam> params;
  for (BlockArgument arg : fn.getArguments()) {
    ::tcgen::RawParam p;
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref) {
      p.kind = rawTypeName(arg.getType());
      if (p.kind.empty())
        return fn.emitError() << "parameter " << arg.getArgNumber()
                              << " has type " << arg.getType()
                              << "; a raw kernel takes pointers to and "
                                 "scalars of f32, f64, i32 and i64";
      params.push_back(p);
      continue;
    }
    p.kind = "ptr";
    p.dtype = rawTypeName(memref.getElementType());
    if (p.dtype.empty())
      return fn.emitError() << "parameter " << arg.getArgNumber()
                            << " points to " << memref.getElementType()
                            << "; a raw kernel takes pointers to f32, f64, "
                               "i32 and i64";
    bool reads = false, writes = false;
    for (Operation *user : arg.getUsers()) {
      if (isa<memref::StoreOp, affine::AffineStoreOp>(user))
        writes = true;
      else if (isa<memref::LoadOp, affine::AffineLoadOp,
                   nvgpu::DeviceAsyncCopyOp>(user))
        reads = true;
      else
        return user->emitError()
               << "parameter " << arg.getArgNumber() << " is used by '"
               << user->getName() << "', not only loaded or stored";
    }
    p.access = reads && writes ? "readwrite" : writes ? "write" : "read";
    params.push_back(p);
  }
  return params;
}
