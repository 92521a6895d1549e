//===- KernelBuilder.cpp - Hopper warp-specialized GEMM kernels -*- C++ -*-===//
//
// This file implements buildKernelModule: the typed generator (Kernel.cpp)
// builds the kernel's gpu.module, and the calls of the fused epilogue and
// prologue functions in it are replaced by the bodies the caller emits.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "Kernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;

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

FailureOr<Operation *>
mlir::tcgen::sm90::buildKernelModule(ModuleOp module,
                                     const KernelParams &params, Location loc,
                                     const EpilogueBodyBuilder &epilogueBody,
                                     const PrologueBodyBuilder &prologueBody) {
  OwningOpRef<ModuleOp> holder = ModuleOp::create(loc);
  FailureOr<gpu::GPUModuleOp> gpuModule =
      buildTypedKernel(*holder, params, loc);
  if (failed(gpuModule))
    return failure();
  if (failed(applyBodies(*gpuModule, params, loc, epilogueBody, prologueBody)))
    return failure();
  (*gpuModule)->remove();
  SymbolTable(module).insert(*gpuModule);
  return gpuModule->getOperation();
}
