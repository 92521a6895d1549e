//===- Passes.h - tcgen SIMT (CUDA-core) target passes ----------*- C++ -*-===//

#ifndef TCGEN_TARGETS_SIMT_PASSES_H
#define TCGEN_TARGETS_SIMT_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcgen {
#define GEN_PASS_DECL
#include "tcgen/Targets/SIMT/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tcgen/Targets/SIMT/Passes.h.inc"
} // namespace mlir::tcgen

#endif // TCGEN_TARGETS_SIMT_PASSES_H
