//===- Passes.h - tcgen sm90 target passes ----------------------*- C++ -*-===//

#ifndef TCGEN_TARGETS_SM90_PASSES_H
#define TCGEN_TARGETS_SM90_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcgen {
#define GEN_PASS_DECL
#include "tcgen/Targets/SM90/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tcgen/Targets/SM90/Passes.h.inc"
} // namespace mlir::tcgen

#endif // TCGEN_TARGETS_SM90_PASSES_H
