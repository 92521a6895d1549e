//===- Passes.h - tcgen sm80 target passes ----------------------*- C++ -*-===//

#ifndef TCGEN_TARGETS_SM80_PASSES_H
#define TCGEN_TARGETS_SM80_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcgen {
#define GEN_PASS_DECL
#include "tcgen/Targets/SM80/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tcgen/Targets/SM80/Passes.h.inc"
} // namespace mlir::tcgen

#endif // TCGEN_TARGETS_SM80_PASSES_H
