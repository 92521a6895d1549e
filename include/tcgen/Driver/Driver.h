//===- Driver.h - From a linalg module to a kernel bundle -------*- C++ -*-===//
//
// The compile driver: one library call takes a problem's linalg module to
// a bundle (tcgen-pipeline, NVVM lowering, PTX, ptxas, the spill and
// serialized-wgmma guards with the retry over the model's next candidates,
// the setmaxnreg check, the manifests). The CLI (`tcgen compile`,
// `tcgen explain`) is a thin wrapper around it; other front ends call it
// the same way. It never exits: errors go to the MLIR diagnostic engine
// (the pipeline's) or to `DriverOptions::errs`, and the call fails.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_DRIVER_DRIVER_H
#define TCGEN_DRIVER_DRIVER_H

#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Runtime/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir::tcgen {

/// What to compile for and how; the pipeline's options are the
/// configuration overrides of `tcgen compile`.
struct DriverOptions {
  std::string target = "sm_90a";
  /// "cubin" (PTX assembled by ptxas) or "ptx".
  std::string emit = "cubin";
  TCGenPipelineOptions pipeline;
  /// Whether the options fix part of the configuration: then a kernel that
  /// spills is an error rather than a reason to try the model's next
  /// candidate.
  bool configFixed = false;
  /// Write kernels that spill registers or serialize wgmma.
  bool allowSpills = false;
  /// `tcgen explain`: print the IR after every pass and each kernel's
  /// config to `outs`, and write nothing.
  bool explain = false;
  /// Called with explain before the pipeline runs, on the module with its
  /// target and the pipeline's options of the try (`tcgen explain` prints
  /// the model's ranking from it); a failure ends the compile.
  std::function<LogicalResult(ModuleOp, const TCGenPipelineOptions &)>
      beforePipeline;
  /// Print the IR after every pass to `outs`.
  bool printIRAfterAll = false;
  /// What the problem is called in errors ("the spec", a file name).
  std::string problemName = "the spec";
  /// Where the files written and explain's output go (null: stdout), and
  /// where errors and notes that have no IR location go (null: stderr).
  llvm::raw_ostream *outs = nullptr;
  llvm::raw_ostream *errs = nullptr;
};

/// A written bundle.
struct BundleResult {
  /// The manifest of each kernel, as written to `outDir` (NAME.json).
  std::vector<::tcgen::Manifest> kernels;
  /// The rank of the tile-size model's candidate that compiled (0: its
  /// first choice; more where earlier ones spilled).
  int64_t modelRank = 0;
};

/// Compiles `problem` (a linalg module without a target; it is not
/// modified: each try compiles a copy) into one bundle per kernel in
/// `outDir` (created if needed; unused with `explain`). Where a kernel of
/// the model's choice spills and the options fix no part of the
/// configuration, tries the model's next choices, up to eight.
FailureOr<BundleResult> compileToBundle(ModuleOp problem,
                                        const DriverOptions &options,
                                        StringRef outDir);

/// Attaches the target attribute for `target` (sm_90a, ...) to `module`;
/// emits an error ("invalid --target") if it is malformed.
LogicalResult attachTarget(ModuleOp module, StringRef target);

} // namespace mlir::tcgen

#endif // TCGEN_DRIVER_DRIVER_H
