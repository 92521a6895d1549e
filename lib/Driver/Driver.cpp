//===- Driver.cpp - From a linalg module to a kernel bundle -----*- C++ -*-===//
//
// This file implements the compile driver: the pipeline, NVVM lowering,
// PTX, ptxas and its guards, and the manifests of one problem, with the
// retry over the tile-size model's candidates when a kernel spills.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Driver/Driver.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Grouped.h"
#include "tcgen/Driver/Bundle.h"
#include "tcgen/Driver/Ptxas.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Runtime/Validate.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// The PTX features for `arch`: PTX 8.3 (CUDA 12.3+) serves sm_70 .. sm_90a.
std::string ptxFeatures() { return "+ptx83"; }

/// One compile of a problem with the model's candidate of one rank.
class CompileTry {
public:
  CompileTry(const DriverOptions &options, StringRef outDir)
      : options(options), outDir(outDir),
        outs(options.outs ? *options.outs : llvm::outs()),
        errs(options.errs ? *options.errs : llvm::errs()) {}

  /// Compiles `module` (with its target) with the candidate of rank
  /// `modelRank`. With `retrySpills`, a kernel that fails the spill guard
  /// is not reported: `spilled` says so, and the caller tries the next
  /// candidate.
  LogicalResult run(ModuleOp module, int64_t modelRank, bool retrySpills,
                    std::string &spilled, BundleResult &result);

private:
  LogicalResult writeFile(StringRef path, StringRef contents);
  /// Lowers the pipeline's output to PTX, one text per gpu.module.
  FailureOr<std::map<std::string, std::string>> lowerToPTX(ModuleOp module);
  /// Assembles one kernel's PTX and checks ptxas's report.
  LogicalResult assemble(KernelRecord &k, StringRef ptxas, StringRef ptxPath,
                         StringRef cubinPath, bool retrySpills,
                         std::string &spilled);
  LogicalResult writeBundles(std::vector<KernelRecord> &kernels,
                             const std::map<std::string, std::string> &ptx,
                             bool retrySpills, std::string &spilled,
                             BundleResult &result);
  void enablePrinting(PassManager &pm);

  const DriverOptions &options;
  StringRef outDir;
  llvm::raw_ostream &outs, &errs;
  MLIRContext *ctx = nullptr; // The module's, set by run().
  /// The location errors about the whole problem are reported at: its
  /// first contraction's (the module's if it has none). Set by run().
  std::optional<Location> problemLoc;
};

} // namespace

LogicalResult CompileTry::writeFile(StringRef path, StringRef contents) {
  std::string err;
  auto file = openOutputFile(path, &err);
  if (!file) {
    errs << "tcgen: " << err << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  return success();
}

void CompileTry::enablePrinting(PassManager &pm) {
  if (!options.printIRAfterAll && !options.explain)
    return;
  pm.enableIRPrinting(
      /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
      /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
      /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
      /*printAfterOnlyOnFailure=*/false, outs);
}

FailureOr<std::map<std::string, std::string>>
CompileTry::lowerToPTX(ModuleOp module) {
  PassManager lower(module->getContext());
  enablePrinting(lower);
  TCGenNVVMOptions nvvm;
  nvvm.chip = options.target;
  nvvm.features = ptxFeatures();
  buildTCGenLowerToNVVM(lower, nvvm);
  if (failed(
          parsePassPipeline("gpu-module-to-binary{format=isa}", lower, errs)) ||
      failed(lower.run(module)))
    return failure();
  return collectPTX(module);
}

LogicalResult CompileTry::assemble(KernelRecord &k, StringRef ptxas,
                                   StringRef ptxPath, StringRef cubinPath,
                                   bool retrySpills, std::string &spilled) {
  ::tcgen::Manifest &m = k.manifest;
  PtxasReport report;
  std::string err = runPtxas(ptxas, options.target, ptxPath, cubinPath, report);
  if (!err.empty()) {
    errs << "tcgen: " << err << "\n";
    return failure();
  }
  for (const std::string &w : report.warnings)
    errs << "tcgen: " << m.entry << ": ptxas " << w << "\n";
  // Build guard: a kernel that spills registers or whose wgmma chain ptxas
  // serialized is not shipped unless asked for.
  bool serialized = llvm::any_of(report.warnings, [](const std::string &w) {
    return StringRef(w).contains("(C75");
  });
  bool guarded =
      (report.resources.spillBytes != 0 || serialized) && !options.allowSpills;
  if (guarded && retrySpills) {
    spilled = llvm::formatv("{0} spills {1} bytes of registers{2}", m.entry,
                            report.resources.spillBytes,
                            serialized ? " / has serialized wgmma" : "")
                  .str();
    return failure();
  }
  if (guarded) {
    // At the problem's contraction: the configuration asked for does not
    // make a kernel worth shipping.
    emitError(*problemLoc)
        << m.entry << " spills " << report.resources.spillBytes
        << " bytes of registers"
        << (serialized ? " / has serialized wgmma (C75xx)" : "")
        << "; choose another configuration or pass --allow-spills";
    return failure();
  }
  m.cubin = m.entry + ".cubin";
  m.resources = report.resources;
  // setmaxnreg.inc waits until the block has the registers: the split must
  // fit in what ptxas allocated at entry, or the kernel hangs.
  if (k.setmaxnreg.size() == 3) {
    int64_t owned = m.launch.block[0] * m.resources.registers;
    int64_t wanted =
        128 * k.setmaxnreg[0] + 128 * k.setmaxnreg[1] * k.setmaxnreg[2];
    if (wanted > owned) {
      emitError(*problemLoc)
          << m.entry << ": setmaxnreg asks for " << wanted
          << " registers but the block owns " << owned << " ("
          << m.launch.block[0] << " threads x " << m.resources.registers
          << "); the consumers would wait forever";
      return failure();
    }
  }
  return success();
}

LogicalResult
CompileTry::writeBundles(std::vector<KernelRecord> &kernels,
                         const std::map<std::string, std::string> &ptx,
                         bool retrySpills, std::string &spilled,
                         BundleResult &result) {
  if (outDir.empty()) {
    errs << "tcgen: compile needs an output directory (-o DIR)\n";
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
    errs << "tcgen: cannot create " << outDir << ": " << ec.message() << "\n";
    return failure();
  }
  bool wantCubin = options.emit == "cubin";
  if (!wantCubin && options.emit != "ptx") {
    errs << "tcgen: --emit must be cubin, ptx or mlir, not '" << options.emit
         << "'\n";
    return failure();
  }
  std::string ptxas = wantCubin ? findPtxas() : "";
  if (wantCubin && ptxas.empty()) {
    errs << "tcgen: ptxas not found (set CUDA_ROOT or put the CUDA toolkit "
            "on PATH), or use --emit=ptx\n";
    return failure();
  }
  for (KernelRecord &k : kernels) {
    ::tcgen::Manifest &m = k.manifest;
    auto it = ptx.find(k.gpuModule);
    if (it == ptx.end()) {
      errs << "tcgen: no PTX for kernel " << m.entry << "\n";
      return failure();
    }
    llvm::SmallString<256> base(outDir);
    llvm::sys::path::append(base, m.entry);
    std::string ptxPath = (base + ".ptx").str();
    std::string cubinPath = (base + ".cubin").str();
    if (failed(writeFile(ptxPath, it->second)))
      return failure();
    m.ptx = m.entry + ".ptx";
    if (wantCubin &&
        failed(assemble(k, ptxas, ptxPath, cubinPath, retrySpills, spilled)))
      return failure();
    // What the runtime checks at every launch, checked once here: a rule
    // that chose a kernel no launch can satisfy is an error, not a bundle.
    // Reported at the problem's contraction, so that the user sees which
    // problem tcgen cannot compile yet. First what the runtime's loader
    // checks (the manifest read back), then what every launch checks.
    ::tcgen::Manifest readBack;
    std::string why =
        ::tcgen::parseManifest(::tcgen::writeManifest(m), readBack);
    if (!why.empty())
      why = "its manifest does not load: " + why;
    else
      why = ::tcgen::validateLaunchable(
          m, TargetAttr::get(ctx, options.target).getMaxSharedMemoryPerBlock());
    if (!why.empty()) {
      emitError(*problemLoc)
          << "tcgen cannot compile this problem yet: the runtime would refuse "
             "every load or launch of kernel '"
          << m.entry << "': " << why
          << " (a defect in tcgen's choice of kernel; no bundle is written)";
      llvm::sys::fs::remove(ptxPath);
      llvm::sys::fs::remove(cubinPath);
      return failure();
    }
    if (failed(writeFile((base + ".json").str(), ::tcgen::writeManifest(m))))
      return failure();
    outs << "tcgen: wrote " << base << ".{" << (wantCubin ? "cubin," : "")
         << "ptx,json} (grid ";
    if (m.launch.grid[0] == ::tcgen::kDynamicSize)
      outs << "one block per SM";
    else
      outs << m.launch.grid[0] << "x" << m.launch.grid[1];
    outs << ", block " << m.launch.block[0] << ", " << m.resources.registers
         << " registers, " << m.resources.staticSmemBytes << " B smem";
    if (m.launch.dynamicSmemBytes)
      outs << " + " << m.launch.dynamicSmemBytes << " B dynamic";
    outs << ")\n";
    result.kernels.push_back(m);
  }
  return success();
}

LogicalResult CompileTry::run(ModuleOp module, int64_t modelRank,
                              bool retrySpills, std::string &spilled,
                              BundleResult &result) {
  MLIRContext &ctx = *module->getContext();
  this->ctx = &ctx;
  problemLoc = module.getLoc();
  module->walk([&](Operation *op) {
    if (!isContractionCandidate(op))
      return WalkResult::advance();
    problemLoc = op->getLoc();
    return WalkResult::interrupt();
  });
  if (failed(attachTarget(module, options.target)))
    return failure();
  bool hasContraction = false;
  module->walk([&](Operation *op) {
    hasContraction |= isContractionCandidate(op) || isGroupedCandidate(op);
  });
  if (!hasContraction) {
    errs << "tcgen: no supported contraction (linalg.matmul) found in "
         << options.problemName << "\n";
    return failure();
  }

  TCGenPipelineOptions pipeline;
  pipeline.copyOptionValuesFrom(options.pipeline);
  pipeline.modelRank = modelRank;
  if (options.explain && options.beforePipeline &&
      failed(options.beforePipeline(module, pipeline)))
    return failure();

  PassManager pm(&ctx);
  if (options.printIRAfterAll || options.explain)
    ctx.disableMultithreading();
  enablePrinting(pm);
  buildTCGenPipeline(pm, pipeline);
  if (failed(pm.run(module)))
    return failure();

  FailureOr<std::vector<KernelRecord>> kernels =
      collectKernels(module, options.target);
  if (failed(kernels))
    return failure();
  if (kernels->empty()) {
    errs << "tcgen: the input produced no kernel\n";
    return failure();
  }
  FailureOr<std::map<std::string, std::string>> ptx = lowerToPTX(module);
  if (failed(ptx))
    return failure();

  if (options.explain) {
    for (KernelRecord &k : *kernels)
      outs << "// kernel " << k.manifest.entry << ": config "
           << ::tcgen::json::print(k.manifest.config, /*pretty=*/false) << "\n";
    return success();
  }
  result.modelRank = modelRank;
  return writeBundles(*kernels, *ptx, retrySpills, spilled, result);
}

LogicalResult mlir::tcgen::attachTarget(ModuleOp module, StringRef target) {
  MLIRContext *ctx = module->getContext();
  auto attr = TargetAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(ctx), "invalid --target: "); },
      ctx, target);
  if (!attr)
    return failure();
  module->setAttr(kTargetAttrName, attr);
  return success();
}

FailureOr<BundleResult>
mlir::tcgen::compileToBundle(ModuleOp problem, const DriverOptions &options,
                             StringRef outDir) {
  bool retry = !options.explain && !options.allowSpills && !options.configFixed;
  llvm::raw_ostream &errs = options.errs ? *options.errs : llvm::errs();
  // An empty contraction computes nothing, and the pipeline's
  // canonicalization would erase it without a word: say which operand is
  // empty here.
  WalkResult empty = problem->walk([](linalg::LinalgOp op) {
    return isContractionCandidate(op) && failed(verifyNoEmptyDimension(op))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (empty.wasInterrupted())
    return failure();
  constexpr int64_t kMaxTries = 8;
  for (int64_t rank = 0;; ++rank) {
    std::string spilled;
    bool last = rank + 1 == kMaxTries;
    OwningOpRef<ModuleOp> module = problem.clone();
    BundleResult result;
    CompileTry attempt(options, outDir);
    if (succeeded(attempt.run(*module, rank, retry && !last, spilled, result)))
      return result;
    if (spilled.empty())
      return failure();
    errs << "tcgen: note: " << spilled << " with the tile-size model's choice "
         << rank + 1 << "; trying its next\n";
  }
}
