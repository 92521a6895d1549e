//===- Bundle.h - Kernel bundles from compiled modules ----------*- C++ -*-===//
//
// Reads the kernels out of a module that went through tcgen-pipeline (the
// gpu.launch_func ops and their functions) and writes kernel bundles.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_DRIVER_BUNDLE_H
#define TCGEN_DRIVER_BUNDLE_H

#include "tcgen/Runtime/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>

namespace mlir::tcgen {

/// One kernel: its manifest (without files and resources yet) and the
/// gpu.module holding it.
struct KernelRecord {
  ::tcgen::Manifest manifest;
  std::string gpuModule;
  /// sm90 kernels: producer registers, consumer registers, consumer
  /// warpgroups after setmaxnreg (empty otherwise).
  SmallVector<int64_t> setmaxnreg;
};

/// Describes every gpu.launch_func in `module` (after tcgen-pipeline, before
/// NVVM lowering). Emits an error and fails when a launch does not follow
/// tcgen's ABI (operands that are not tagged function arguments, dynamic
/// launch sizes).
FailureOr<std::vector<KernelRecord>> collectKernels(ModuleOp module,
                                                    StringRef arch);

/// Returns the PTX of each gpu.binary in `module` (after
/// gpu-module-to-binary{format=isa}) by binary name.
FailureOr<std::map<std::string, std::string>> collectPTX(ModuleOp module);

} // namespace mlir::tcgen

#endif // TCGEN_DRIVER_BUNDLE_H
