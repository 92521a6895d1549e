//===- TCGenDialect.h - tcgen dialect and attributes ------------*- C++ -*-===//
//
// Declares the tcgen dialect (attributes only) and its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_IR_TCGENDIALECT_H
#define TCGEN_IR_TCGENDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "tcgen/IR/TCGenDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tcgen/IR/TCGenAttrs.h.inc"

namespace mlir::tcgen {
/// Attribute names tcgen passes communicate through.
constexpr llvm::StringLiteral kTargetAttrName = "tcgen.target";
constexpr llvm::StringLiteral kConfigAttrName = "tcgen.config";
} // namespace mlir::tcgen

#endif // TCGEN_IR_TCGENDIALECT_H
