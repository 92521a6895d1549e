//===- Reschedule.h - tcgen reschedule: the front half ----------*- C++ -*-===//
//
// This file declares the library behind `tcgen reschedule`: compiling a
// CUDA kernel with clang to LLVM IR, importing it into the LLVM dialect,
// choosing the kernel, raising it (Passes.td) and describing the result.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RESCHEDULE_RESCHEDULE_H
#define TCGEN_RESCHEDULE_RESCHEDULE_H

#include "tcgen/Runtime/RawKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::tcgen {

/// A kernel's launch configuration as `--launch` gives it.
struct LaunchConfig {
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Dynamic shared memory in bytes.
  int64_t smem = 0;
};

/// Parses `grid=X,Y,Z block=X,Y,Z smem=B` (keys in any order, separated by
/// spaces; missing trailing dimensions are 1, `smem` defaults to 0). On
/// failure returns failure and sets `error` to a sentence naming the fault.
FailureOr<LaunchConfig> parseLaunchConfig(StringRef text, std::string &error);

/// How clang compiles the device code.
struct ClangOptions {
  std::string clang = "clang-22";
  std::string cudaPath = "/usr/local/cuda";
  std::string arch = "sm_90a";
  /// Adds `-gline-tables-only` so that errors name source lines.
  bool lineInfo = false;
  std::vector<std::string> extraArgs;
};

/// The clang command line for `input` writing `output` (unoptimized IR;
/// cleanupPipeline() then runs). Exposed for tests and --explain.
std::vector<std::string> clangCommand(const ClangOptions &options,
                                      StringRef input, StringRef output);

/// The LLVM pass pipeline run on clang's unoptimized IR: it promotes
/// locals to SSA values and inlines the builtins' accessors, and runs no
/// pass that rotates, unrolls or vectorizes loops.
StringRef cleanupPipeline();

/// Compiles the device side of `cudaFile` with clang and runs
/// cleanupPipeline(); returns the LLVM IR as text. Errors name clang's
/// exit status and its diagnostics.
FailureOr<std::string> compileCudaToLLVMIR(const ClangOptions &options,
                                           StringRef cudaFile,
                                           std::string &error);

/// Runs cleanupPipeline() over LLVM IR text.
FailureOr<std::string> cleanupLLVMIR(StringRef irText, StringRef name,
                                     std::string &error);

/// Imports LLVM IR text into an LLVM-dialect module (diagnostics go to the
/// context's handler).
OwningOpRef<ModuleOp> importLLVMIR(StringRef irText, StringRef name,
                                   MLIRContext &ctx);

/// Whether the (mangled) kernel symbol `symbol` is the one `--kernel name`
/// asks for: the symbol itself, the demangled name with its template
/// arguments (`MatrixMulCUDA<16>`) or without them (`MatrixMulCUDA`).
bool kernelNameMatches(StringRef symbol, StringRef name);

/// Keeps the one kernel `name` names and erases every other kernel;
/// errors (listing the kernels found) if none or several match.
LogicalResult selectKernel(ModuleOp module, StringRef name);

/// Records `launch` on the kernel (`tcgen.launch`) and checks it: at most
/// 1024 threads a block, positive dimensions.
LogicalResult attachLaunchConfig(ModuleOp module, const LaunchConfig &launch);

/// Adds the raising passes in order: check-subset, raise-llvm-kernel,
/// raise-cf-to-scf, canonicalize, raise-to-affine.
void buildRaisePipeline(OpPassManager &pm);

/// The `--explain` text of a raised module: its kernel's signature, the
/// shared buffers with their shapes and bytes, the loops (scf or affine,
/// with their bounds), the barriers and the launch configuration.
std::string explainRaised(ModuleOp module);

/// The raw-kernel manifest's parameters of a raised kernel: a
/// `memref<?xT>` parameter is a pointer to T (f32, f64, i32 or i64) that the
/// kernel reads, writes, or both (its loads, stores and asynchronous
/// copies say which); an i32, i64, f32 or f64 parameter a scalar. Any
/// other parameter type is an error at the kernel.
FailureOr<std::vector<::tcgen::RawParam>> describeKernelParams(func::FuncOp fn);

} // namespace mlir::tcgen

#endif // TCGEN_RESCHEDULE_RESCHEDULE_H
