//===- RescheduleBundle.cpp - tcgen reschedule's raw bundles --------------===//
//
// This file implements the last step of `tcgen reschedule`: the raised
// kernel (rescheduled or not) moved into a gpu.module, lowered with the
// project's NVVM pipeline to PTX, assembled by ptxas, and described by a
// raw-kernel manifest.
//
//===----------------------------------------------------------------------===//

#include "RescheduleBundle.h"

#include "tcgen/Driver/Bundle.h"
#include "tcgen/Driver/Ptxas.h"
#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Reschedule/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tcgen;

/// Writes `text` to DIR/NAME; failure (with an error at `loc`).
static LogicalResult writeText(Location loc, StringRef dir, StringRef name,
                               StringRef text) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  std::string err;
  auto file = openOutputFile(path, &err);
  if (!file)
    return emitError(loc) << err;
  file->os() << text;
  file->keep();
  return success();
}

/// The lowest compute capability a cubin of `arch` runs on.
static int minComputeCapability(StringRef arch) {
  int cc = 0;
  StringRef digits = arch.drop_front(3).take_while(
      [](char c) { return c >= '0' && c <= '9'; });
  if (!arch.starts_with("sm_") || digits.getAsInteger(10, cc))
    return 0;
  return cc;
}

LogicalResult mlir::tcgen::writeRawBundle(ModuleOp module, StringRef variant,
                                          int64_t stageBytes,
                                          const RawBundleOptions &options) {
  Location loc = module.getLoc();
  OwningOpRef<ModuleOp> copy(module.clone());
  func::FuncOp fn;
  for (auto f : copy->getOps<func::FuncOp>())
    if (f->hasAttr("tcgen.kernel"))
      fn = f;
  if (!fn)
    return emitError(loc) << "no raised kernel to compile";
  ::tcgen::RawKernel manifest;
  manifest.entry = fn.getSymName().str();
  FailureOr<std::vector<::tcgen::RawParam>> params = describeKernelParams(fn);
  if (failed(params))
    return failure();
  manifest.params = *params;
  if (!options.args.empty()) {
    std::string err = ::tcgen::applyRawArgs(options.args, manifest);
    if (!err.empty())
      return emitError(loc) << err;
  }
  if (auto stages = fn->getAttrOfType<IntegerAttr>("tcgen.stages")) {
    manifest.stages = stages.getInt();
    manifest.stageBytes = stageBytes;
  }

  PassManager pm(copy->getContext());
  pm.addPass(createTCGenRescheduleToGPUModulePass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  TCGenNVVMOptions nvvm;
  nvvm.chip = options.arch;
  buildTCGenLowerToNVVM(pm, nvvm);
  std::string pipelineError;
  llvm::raw_string_ostream pipelineErrors(pipelineError);
  if (failed(parsePassPipeline("gpu-module-to-binary{format=isa}", pm,
                               pipelineErrors)))
    return emitError(loc) << pipelineError;
  if (failed(pm.run(*copy)))
    return failure();
  FailureOr<std::map<std::string, std::string>> ptx = collectPTX(*copy);
  if (failed(ptx) || ptx->size() != 1)
    return emitError(loc) << "expected the PTX of one gpu.module";
  std::string base = variant.str();
  manifest.ptx = base + ".ptx";
  if (failed(writeText(loc, options.dir, manifest.ptx, ptx->begin()->second)))
    return failure();
  if (!options.ptxas.empty()) {
    SmallString<256> ptxPath(options.dir), cubinPath(options.dir);
    llvm::sys::path::append(ptxPath, manifest.ptx);
    llvm::sys::path::append(cubinPath, base + ".cubin");
    PtxasReport report;
    std::string err =
        runPtxas(options.ptxas, options.arch, ptxPath, cubinPath, report);
    if (!err.empty())
      return emitError(loc) << err;
    manifest.cubin = base + ".cubin";
    manifest.registers = report.resources.registers;
    manifest.spillBytes = report.resources.spillBytes;
    manifest.staticSmemBytes = report.resources.staticSmemBytes;
  }
  manifest.arch = options.arch;
  manifest.minCC = minComputeCapability(options.arch);
  manifest.variant = base;
  manifest.source = llvm::sys::path::filename(options.source).str();
  manifest.kernel = options.kernelName;
  manifest.grid = options.launch.grid;
  manifest.block = options.launch.block;
  manifest.dynamicSmemBytes = options.launch.smem;
  return writeText(loc, options.dir, base + ".json",
                   ::tcgen::writeRawKernel(manifest));
}
