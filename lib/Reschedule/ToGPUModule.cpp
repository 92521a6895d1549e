//===- ToGPUModule.cpp - The raised kernel as a gpu.module kernel ---------===//
//
// This file implements tcgen-reschedule-to-gpu-module: the raised (and
// possibly rescheduled) kernel function becomes a gpu.func kernel of a
// gpu.module, with its shared buffers, its pointer parameters statically
// shaped for the bare-pointer calling convention, and its block size known.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRESCHEDULETOGPUMODULEPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// The elements a pointer parameter's memref claims: more than any buffer
/// (the kernel's loads and stores never check it).
constexpr int64_t kPointerElements = int64_t(1) << 40;

struct ToGPUModulePass final
    : mlir::tcgen::impl::TCGenRescheduleToGPUModulePassBase<ToGPUModulePass> {
  void runOnOperation() override;
};

} // namespace

void ToGPUModulePass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<func::FuncOp> kernels;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("tcgen.kernel"))
      kernels.push_back(fn);
  if (kernels.size() != 1) {
    module.emitError() << "expected one tcgen.kernel function, found "
                       << kernels.size();
    return signalPassFailure();
  }
  func::FuncOp fn = kernels.front();
  SmallVector<Type> inputs;
  for (Type t : fn.getArgumentTypes()) {
    auto memref = dyn_cast<MemRefType>(t);
    if (memref && (memref.getRank() != 1 || !memref.getLayout().isIdentity() ||
                   memref.getMemorySpace())) {
      fn.emitError() << "a pointer parameter of type " << t
                     << "; expected memref<?xT>";
      return signalPassFailure();
    }
    inputs.push_back(
        memref ? MemRefType::get({kPointerElements}, memref.getElementType())
               : t);
  }
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  auto gpuModule = gpu::GPUModuleOp::create(b, fn.getLoc(), "tcgen_reschedule");
  OpBuilder gb = OpBuilder::atBlockBegin(gpuModule.getBody());
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>())) {
    global->remove();
    gb.insert(global);
  }
  auto kernel = gpu::GPUFuncOp::create(gb, fn.getLoc(), fn.getName(),
                                       b.getFunctionType(inputs, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  for (StringRef name : {"tcgen.launch", "tcgen.stages"})
    if (Attribute attr = fn->getAttr(name))
      kernel->setAttr(name, attr);
  if (auto launch = fn->getAttrOfType<DictionaryAttr>("tcgen.launch"))
    if (auto block = launch.getAs<DenseI64ArrayAttr>("block")) {
      SmallVector<int32_t> dims(block.asArrayRef().begin(),
                                block.asArrayRef().end());
      kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(dims));
    }
  kernel.getBody().takeBody(fn.getBody());
  for (auto [arg, t] : llvm::zip(kernel.getArguments(), inputs))
    arg.setType(t);
  kernel.walk([&](func::ReturnOp ret) {
    OpBuilder rb(ret);
    gpu::ReturnOp::create(rb, ret.getLoc());
    ret.erase();
  });
  fn.erase();
}
