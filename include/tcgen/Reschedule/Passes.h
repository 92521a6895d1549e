//===- Passes.h - tcgen reschedule: raising SIMT kernels --------*- C++ -*-===//
//
// This file declares the raising passes of `tcgen reschedule`
// (Passes.td describes each).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RESCHEDULE_PASSES_H
#define TCGEN_RESCHEDULE_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcgen {
#define GEN_PASS_DECL
#include "tcgen/Reschedule/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

#endif // TCGEN_RESCHEDULE_PASSES_H
