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

#include "tcgen/Reschedule/Reschedule.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
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
                  "import) or raised (those and the raised kernel; default)"),
         cl::init("raised"), cl::sub(rescheduleCmd));
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

int mlir::tcgen::runReschedule(MLIRContext &ctx) {
  // Without line tables an error's location is unknown: the operation it
  // names (the LLVM value) is printed with it. With them, the source
  // position is printed, not the whole debug-info location.
  ctx.printOpOnDiagnostic(!lineInfo);
  ScopedDiagnosticHandler handler(&ctx, [](Diagnostic &d) {
    printDiagnostic(d);
    return success();
  });
  if (emit != "llvm" && emit != "raised") {
    llvm::errs() << "tcgen: error: --emit takes llvm or raised, not '" << emit
                 << "'\n";
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
  // A .ll input skips clang (the checked-in inputs of the tests).
  std::string irText, err;
  if (StringRef(input).ends_with(".ll")) {
    auto buffer = llvm::MemoryBuffer::getFile(input);
    if (!buffer) {
      llvm::errs() << "tcgen: error: cannot read " << input << "\n";
      return 1;
    }
    FailureOr<std::string> cleaned =
        cleanupLLVMIR((*buffer)->getBuffer(), input, err);
    if (failed(cleaned)) {
      llvm::errs() << "tcgen: error: " << err << "\n";
      return 1;
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
      return 1;
    }
    irText = *ir;
  }
  OwningOpRef<ModuleOp> module = importLLVMIR(irText, input, ctx);
  if (!module || failed(selectKernel(*module, kernelName)))
    return 1;
  if (config && failed(attachLaunchConfig(*module, *config)))
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
  return 0;
}
