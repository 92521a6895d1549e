//===- Reschedule.cpp - tcgen reschedule subcommand -----------------------===//
//
// This file implements `tcgen reschedule KERNEL.cu --kernel NAME -o DIR`:
// clang compiles the device code, MLIR imports it, and the raising
// pipeline (lib/Reschedule) rewrites the kernel into
// func/arith/memref/gpu/scf/affine. What it writes is chosen by --emit;
// --explain prints the raised kernel's buffers, loops and barriers.
//
//===----------------------------------------------------------------------===//

#include "Reschedule.h"
#include "RescheduleBundle.h"

#include "tcgen/Driver/Ptxas.h"
#include "tcgen/Reschedule/Passes.h"
#include "tcgen/Reschedule/Pipeline.h"
#include "tcgen/Reschedule/Reschedule.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tcgen;
namespace cl = llvm::cl;

static cl::SubCommand
    rescheduleCmd("reschedule",
                  "Raise a SIMT CUDA kernel into MLIR (scf, memref, gpu, "
                  "affine)");

static cl::opt<std::string> input(cl::Positional,
                                  cl::desc("<kernel.cu | kernel.ll>"),
                                  cl::Required, cl::sub(rescheduleCmd));
static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("The kernel: its name (MatrixMulCUDA), with "
                        "template arguments (MatrixMulCUDA<16>) or its "
                        "mangled symbol"),
               cl::value_desc("NAME"), cl::Required, cl::sub(rescheduleCmd));
static cl::opt<std::string>
    launch("launch",
           cl::desc("The launch configuration, recorded on the kernel: "
                    "\"grid=X,Y,Z block=X,Y,Z smem=B\""),
           cl::value_desc("config"), cl::sub(rescheduleCmd));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to write: llvm (clang's LLVM IR and its LLVM-dialect "
                  "import), raised (and the raised kernel), rescheduled (and "
                  "the pipelined kernel) or bundle (and the original and "
                  "rescheduled kernels' PTX, cubins and manifests; default)"),
         cl::init("bundle"), cl::sub(rescheduleCmd));
static cl::opt<int64_t>
    stages("stages",
           cl::desc("Pipeline stages (default 0: the most that fit the "
                    "shared-memory budget, at most 4 and at most the trip "
                    "count)"),
           cl::init(0), cl::sub(rescheduleCmd));
static cl::opt<std::string> arch("arch",
                                 cl::desc("The target of the bundle's PTX "
                                          "and cubins"),
                                 cl::init("sm_90a"), cl::sub(rescheduleCmd));
static cl::opt<std::string>
    kernelArgs("args",
               cl::desc("The kernel's arguments, recorded in the manifests: "
                        "one entry per parameter, a pointer's element count "
                        "or a scalar's value, separated by commas"),
               cl::value_desc("list"), cl::sub(rescheduleCmd));
static cl::opt<bool>
    noPtxas("no-ptxas",
            cl::desc("Write the bundle's PTX but no cubins (no ptxas run)"),
            cl::sub(rescheduleCmd));
static cl::opt<std::string> outDir("o", cl::desc("Output directory"),
                                   cl::value_desc("dir"),
                                   cl::sub(rescheduleCmd));
static cl::opt<bool>
    explain("explain",
            cl::desc("Print the raised kernel, its shared buffers, loops "
                     "and barriers"),
            cl::sub(rescheduleCmd));
static cl::opt<bool>
    lineInfo("line-info",
             cl::desc("Compile with line tables so that errors name the "
                      "source line"),
             cl::sub(rescheduleCmd));
static cl::opt<std::string> clangPath("clang", cl::desc("The clang to run"),
                                      cl::init("clang-22"),
                                      cl::sub(rescheduleCmd));
static cl::opt<std::string>
    cudaPath("cuda-path", cl::desc("The CUDA installation clang uses"),
             cl::init("/usr/local/cuda"), cl::sub(rescheduleCmd));
static cl::list<std::string>
    clangArgs("Xclang-arg", cl::desc("An extra argument for clang (-D...)"),
              cl::sub(rescheduleCmd));

cl::SubCommand &mlir::tcgen::rescheduleSubCommand() { return rescheduleCmd; }

/// Writes `text` to DIR/NAME; false (with a message) on failure.
static bool writeFile(StringRef dir, StringRef name, StringRef text) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  std::string err;
  auto file = openOutputFile(path, &err);
  if (!file) {
    llvm::errs() << "tcgen: error: " << err << "\n";
    return false;
  }
  file->os() << text;
  file->keep();
  return true;
}

static std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// The user's source position in `loc`: for code inlined from a header,
/// the call site in the kernel's file (the outermost caller).
static std::optional<FileLineColLoc> userPosition(Location loc) {
  if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    if (auto caller = userPosition(site.getCaller()))
      return caller;
    return userPosition(site.getCallee());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      if (auto position = userPosition(part))
        return position;
    return std::nullopt;
  }
  if (auto name = dyn_cast<NameLoc>(loc))
    return userPosition(name.getChildLoc());
  if (auto flc = dyn_cast<FileLineColLoc>(loc))
    return flc;
  return std::nullopt;
}

/// "file:line:col: " for `loc`, or "" when it has no source position.
static std::string sourcePosition(Location loc) {
  std::optional<FileLineColLoc> flc = userPosition(loc);
  if (!flc)
    return "";
  return (flc->getFilename().getValue() + ":" + Twine(flc->getLine()) + ":" +
          Twine(flc->getColumn()) + ": ")
      .str();
}

static void printDiagnostic(Diagnostic &d) {
  StringRef severity = d.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : d.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "note";
  llvm::errs() << sourcePosition(d.getLocation()) << severity << ": " << d
               << "\n";
  for (Diagnostic &note : d.getNotes())
    printDiagnostic(note);
}

/// Compiles (or reads) the input and imports it; selects the kernel and
/// records the launch. Null on failure (reported).
static OwningOpRef<ModuleOp> importKernel(MLIRContext &ctx,
                                          std::optional<LaunchConfig> config,
                                          std::string &irText) {
  // A .ll input skips clang (the checked-in inputs of the tests).
  std::string err;
  if (StringRef(input).ends_with(".ll")) {
    auto buffer = llvm::MemoryBuffer::getFile(input);
    if (!buffer) {
      llvm::errs() << "tcgen: error: cannot read " << input << "\n";
      return nullptr;
    }
    FailureOr<std::string> cleaned =
        cleanupLLVMIR((*buffer)->getBuffer(), input, err);
    if (failed(cleaned)) {
      llvm::errs() << "tcgen: error: " << err << "\n";
      return nullptr;
    }
    irText = *cleaned;
  } else {
    ClangOptions options;
    options.clang = clangPath;
    options.cudaPath = cudaPath;
    options.lineInfo = lineInfo;
    options.extraArgs.assign(clangArgs.begin(), clangArgs.end());
    FailureOr<std::string> ir = compileCudaToLLVMIR(options, input, err);
    if (failed(ir)) {
      llvm::errs() << "tcgen: error: " << err << "\n";
      return nullptr;
    }
    irText = *ir;
  }
  OwningOpRef<ModuleOp> module = importLLVMIR(irText, input, ctx);
  if (!module || failed(selectKernel(*module, kernelName)))
    return nullptr;
  if (config && failed(attachLaunchConfig(*module, *config)))
    return nullptr;
  return module;
}

/// The raised kernel of `module`.
static func::FuncOp kernelOf(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("tcgen.kernel"))
      return fn;
  return {};
}

/// Analyzes and pipelines the raised `module`; with -o, writes the
/// rescheduled kernel and (--emit=bundle) both kernels' bundles. The exit
/// status.
static int reschedule(ModuleOp module, const LaunchConfig &config) {
  func::FuncOp fn = kernelOf(module);
  FailureOr<PipelinePlan> plan = analyzePipeline(fn);
  if (failed(plan))
    return 1;
  int64_t stageBytes = plan->stageBytes(), otherBytes = plan->otherSharedBytes;
  if (explain)
    llvm::outs() << "\npipeline analysis:\n" << explainPipeline(*plan);
  OwningOpRef<ModuleOp> original(module.clone());
  PassManager pm(module.getContext());
  TCGenReschedulePipelinePassOptions options;
  options.stages = stages;
  pm.addNestedPass<func::FuncOp>(createTCGenReschedulePipelinePass(options));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  if (failed(pm.run(module)))
    return 1;
  int64_t chosen =
      kernelOf(module)->getAttrOfType<IntegerAttr>("tcgen.stages").getInt();
  if (explain)
    llvm::outs() << "\nschedule: " << chosen << " stages"
                 << (stages ? " (--stages)"
                            : " (the most that fit the budget, at most 4 and "
                              "at most the trip count)")
                 << "; shared memory " << chosen << " x " << stageBytes << " + "
                 << otherBytes << " = " << chosen * stageBytes + otherBytes
                 << " of " << kStaticSharedBudget << " bytes\n"
                 << "  prologue: copies of iterations 0.." << chosen - 2
                 << ", one cp.async group each\n"
                 << "  steady state: wait (" << chosen - 2
                 << " groups pending), barrier, copy of iteration k+"
                 << chosen - 1 << " into stage (k+" << chosen - 1 << ") mod "
                 << chosen << ", commit, compute on stage k mod " << chosen
                 << "\n  drain: the last " << chosen - 1
                 << " iterations without copies\n"
                 << "\nrescheduled module:\n"
                 << printModule(module);
  if (outDir.empty())
    return 0;
  if (!writeFile(outDir, "kernel.rescheduled.mlir", printModule(module)))
    return 1;
  if (emit != "bundle")
    return 0;
  RawBundleOptions bundle;
  bundle.dir = outDir;
  bundle.arch = arch;
  bundle.launch = config;
  bundle.source = input;
  bundle.kernelName = kernelName;
  bundle.args = kernelArgs;
  if (!noPtxas) {
    bundle.ptxas = findPtxas();
    if (bundle.ptxas.empty()) {
      llvm::errs() << "tcgen: error: ptxas not found (set CUDA_HOME, or "
                      "pass --no-ptxas for PTX only)\n";
      return 1;
    }
  }
  if (failed(writeRawBundle(*original, "original", 0, bundle)) ||
      failed(writeRawBundle(module, "rescheduled", stageBytes, bundle)))
    return 1;
  return 0;
}

int mlir::tcgen::runReschedule(MLIRContext &ctx) {
  // Without line tables an error's location is unknown: the operation it
  // names (the LLVM value) is printed with it. With them, the source
  // position is printed, not the whole debug-info location.
  ctx.printOpOnDiagnostic(!lineInfo);
  ScopedDiagnosticHandler handler(&ctx, [](Diagnostic &d) {
    printDiagnostic(d);
    return success();
  });
  if (emit != "llvm" && emit != "raised" && emit != "rescheduled" &&
      emit != "bundle") {
    llvm::errs() << "tcgen: error: --emit takes llvm, raised, rescheduled "
                    "or bundle, not '"
                 << emit << "'\n";
    return 1;
  }
  if (outDir.empty() && !explain) {
    llvm::errs() << "tcgen: error: reschedule needs -o DIR (or --explain)\n";
    return 1;
  }
  std::optional<LaunchConfig> config;
  if (!launch.empty()) {
    std::string err;
    FailureOr<LaunchConfig> parsed = parseLaunchConfig(launch, err);
    if (failed(parsed)) {
      llvm::errs() << "tcgen: error: " << err << "\n";
      return 1;
    }
    config = *parsed;
  }
  if (emit == "bundle" && !outDir.empty() && !config) {
    llvm::errs() << "tcgen: error: a bundle needs the launch configuration: "
                    "--launch \"grid=X,Y,Z block=X,Y,Z\" (or --emit=raised "
                    "or rescheduled)\n";
    return 1;
  }
  std::string irText;
  OwningOpRef<ModuleOp> module = importKernel(ctx, config, irText);
  if (!module)
    return 1;
  if (!outDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
      llvm::errs() << "tcgen: error: cannot create " << outDir << ": "
                   << ec.message() << "\n";
      return 1;
    }
    if (!writeFile(outDir, "kernel.ll", irText) ||
        !writeFile(outDir, "kernel.llvm.mlir", printModule(*module)))
      return 1;
    if (emit == "llvm" && !explain)
      return 0;
  }
  PassManager pm(&ctx);
  buildRaisePipeline(pm);
  if (failed(pm.run(*module)))
    return 1;
  if (!outDir.empty() &&
      !writeFile(outDir, "kernel.raised.mlir", printModule(*module)))
    return 1;
  if (explain)
    llvm::outs() << explainRaised(*module) << "\nraised module:\n"
                 << printModule(*module);
  if (emit == "llvm" || emit == "raised")
    return 0;
  return reschedule(*module, config.value_or(LaunchConfig()));
}
