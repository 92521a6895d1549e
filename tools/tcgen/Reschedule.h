//===- Reschedule.h - tcgen reschedule subcommand ---------------*- C++ -*-===//
//
// This file declares the `tcgen reschedule` subcommand: raise a CUDA
// kernel into MLIR (lib/Reschedule).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TOOLS_RESCHEDULE_H
#define TCGEN_TOOLS_RESCHEDULE_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::tcgen {
/// The subcommand (its options are declared with it).
llvm::cl::SubCommand &rescheduleSubCommand();
/// Runs `tcgen reschedule` with the parsed options; the exit status.
int runReschedule(MLIRContext &ctx);
} // namespace mlir::tcgen

#endif // TCGEN_TOOLS_RESCHEDULE_H
