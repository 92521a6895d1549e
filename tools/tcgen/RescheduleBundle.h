//===- RescheduleBundle.h - tcgen reschedule's raw bundles ------*- C++ -*-===//
//
// This file declares how `tcgen reschedule` compiles a raised kernel (as
// written, or rescheduled) to PTX and a cubin and writes its raw-kernel
// manifest (docs/BUNDLE.md, Raw kernels).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TOOLS_RESCHEDULEBUNDLE_H
#define TCGEN_TOOLS_RESCHEDULEBUNDLE_H

#include "tcgen/Reschedule/Reschedule.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::tcgen {

/// What a raw bundle is compiled with.
struct RawBundleOptions {
  std::string dir;
  std::string arch = "sm_90a";
  /// ptxas; empty: write the PTX only.
  std::string ptxas;
  LaunchConfig launch;
  std::string source, kernelName;
  /// `--args`, or empty.
  std::string args;
};

/// Compiles the kernel of `module` (raised; for "rescheduled", after
/// tcgen-reschedule-pipeline) to DIR/<variant>.ptx (and .cubin with
/// ptxas) and writes DIR/<variant>.json. `stageBytes` is the bytes of one
/// stage (rescheduled only). Errors go to the context's handler.
LogicalResult writeRawBundle(ModuleOp module, StringRef variant,
                             int64_t stageBytes,
                             const RawBundleOptions &options);

} // namespace mlir::tcgen

#endif // TCGEN_TOOLS_RESCHEDULEBUNDLE_H
