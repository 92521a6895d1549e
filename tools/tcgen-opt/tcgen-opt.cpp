//===- tcgen-opt.cpp - mlir-opt with tcgen's passes -------------*- C++ -*-===//
//
// This file implements tcgen-opt: MlirOptMain with every upstream dialect and
// pass plus tcgen's dialect, passes and pipelines. Lit tests drive it.
//
//===----------------------------------------------------------------------===//

#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Reschedule/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tcgen::registerAllTCGenPasses();
  mlir::tcgen::registerTCGenReschedulePasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  registry.insert<mlir::tcgen::TCGenDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tcgen optimizer driver\n", registry));
}
