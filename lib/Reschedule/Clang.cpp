//===- Clang.cpp - CUDA device code to LLVM IR and the LLVM dialect -------===//
//
// This file implements the first steps of `tcgen reschedule`: clang
// compiles the kernel's device side to unoptimized LLVM IR, a short LLVM
// pass list promotes locals to SSA values without touching the loops, and
// MLIR imports the result into the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Reschedule.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMIRToLLVMTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/LLVMIRToNVVMTranslation.h"
#include "mlir/Target/LLVMIR/Import.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcgen;

std::vector<std::string> mlir::tcgen::clangCommand(const ClangOptions &options,
                                                   StringRef input,
                                                   StringRef output) {
  // -O1 with -disable-llvm-passes: clang's front end emits the IR it would
  // optimize at -O1 (no optnone, TBAA), but no LLVM pass runs, so loops
  // keep the shape the source gave them (cleanupPipeline() follows).
  std::vector<std::string> cmd = {options.clang,
                                  "-x",
                                  "cuda",
                                  "--cuda-device-only",
                                  "--cuda-gpu-arch=" + options.arch,
                                  "--cuda-path=" + options.cudaPath,
                                  "-O1",
                                  "-Xclang",
                                  "-disable-llvm-passes",
                                  "-Wno-unknown-cuda-version",
                                  "-S",
                                  "-emit-llvm"};
  if (options.lineInfo)
    cmd.push_back("-gline-tables-only");
  cmd.insert(cmd.end(), options.extraArgs.begin(), options.extraArgs.end());
  cmd.push_back(input.str());
  cmd.push_back("-o");
  cmd.push_back(output.str());
  return cmd;
}

StringRef mlir::tcgen::cleanupPipeline() {
  // always-inline and inline: the threadIdx/blockIdx accessors, the CUDA
  // headers' device functions (atomicAdd, ...) and the kernel's own; sroa:
  // locals to SSA values (phis at loop headers); early-cse and instsimplify:
  // the redundant loads of parameters; simplifycfg: the cleanup blocks. None of
  // them rotates, unrolls, vectorizes or strength-reduces a loop.
  return "always-inline,cgscc(inline),"
         "function(sroa,early-cse,instsimplify,simplifycfg)";
}

FailureOr<std::string> mlir::tcgen::cleanupLLVMIR(StringRef irText,
                                                  StringRef name,
                                                  std::string &error) {
  llvm::LLVMContext llvmCtx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module =
      llvm::parseIR(llvm::MemoryBufferRef(irText, name), diag, llvmCtx);
  if (!module) {
    llvm::raw_string_ostream os(error);
    diag.print("tcgen", os, /*ShowColors=*/false);
    return failure();
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (llvm::Error err = pb.parsePassPipeline(mpm, cleanupPipeline())) {
    error = llvm::toString(std::move(err));
    return failure();
  }
  mpm.run(*module, mam);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  return text;
}

FailureOr<std::string>
mlir::tcgen::compileCudaToLLVMIR(const ClangOptions &options,
                                 StringRef cudaFile, std::string &error) {
  llvm::ErrorOr<std::string> clang =
      llvm::sys::findProgramByName(options.clang);
  if (!clang) {
    error = "cannot find " + options.clang +
            " (tcgen reschedule compiles "
            "device code with clang 22; --clang=PATH names another)";
    return failure();
  }
  SmallString<128> irPath, logPath;
  if (llvm::sys::fs::createTemporaryFile("tcgen-reschedule", "ll", irPath) ||
      llvm::sys::fs::createTemporaryFile("tcgen-reschedule", "log", logPath)) {
    error = "cannot create a temporary file for clang's output";
    return failure();
  }
  llvm::FileRemover removeIR(irPath), removeLog(logPath);
  std::vector<std::string> cmd = clangCommand(options, cudaFile, irPath);
  cmd[0] = *clang;
  SmallVector<StringRef> args(cmd.begin(), cmd.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*clang, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError);
  auto log = llvm::MemoryBuffer::getFile(logPath);
  if (rc != 0) {
    error = "clang failed (exit status " + std::to_string(rc) + ")";
    if (!execError.empty())
      error += ": " + execError;
    if (log && !(*log)->getBuffer().trim().empty())
      error += ":\n" + (*log)->getBuffer().trim().str();
    return failure();
  }
  auto ir = llvm::MemoryBuffer::getFile(irPath);
  if (!ir) {
    error = "clang wrote no LLVM IR";
    return failure();
  }
  return cleanupLLVMIR((*ir)->getBuffer(), cudaFile, error);
}

OwningOpRef<ModuleOp>
mlir::tcgen::importLLVMIR(StringRef irText, StringRef name, MLIRContext &ctx) {
  DialectRegistry registry;
  registerLLVMDialectImport(registry);
  registerNVVMDialectImport(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadDialect<LLVM::LLVMDialect, NVVM::NVVMDialect, DLTIDialect>();

  llvm::LLVMContext llvmCtx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module =
      llvm::parseIR(llvm::MemoryBufferRef(irText, name), diag, llvmCtx);
  if (!module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print("tcgen", os, /*ShowColors=*/false);
    emitError(UnknownLoc::get(&ctx)) << "cannot read LLVM IR: " << text;
    return nullptr;
  }
  // The importer warns about data layout tokens and module flags that do
  // not matter to the raising; keep only its errors.
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &d) {
    return success(d.getSeverity() == DiagnosticSeverity::Warning ||
                   d.getSeverity() == DiagnosticSeverity::Remark);
  });
  return translateLLVMIRToModule(std::move(module), &ctx);
}
