//===- Passes.h - tcgen configuration passes --------------------*- C++ -*-===//

#ifndef TCGEN_CONFIG_PASSES_H
#define TCGEN_CONFIG_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "tcgen/IR/TCGenDialect.h"

namespace mlir::tcgen {
#define GEN_PASS_DECL
#include "tcgen/Config/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tcgen/Config/Passes.h.inc"
} // namespace mlir::tcgen

#endif // TCGEN_CONFIG_PASSES_H
