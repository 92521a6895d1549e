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

/// Whether an sm90 block tile of `rows` x `cols` has consumer warpgroups
/// that fit: one per 64 rows, up to three; three (512 threads, 152
/// registers per consumer after setmaxnreg) hold accumulators of at most
/// 192 columns. The column rules of the wgmma are checked apart.
inline bool sm90RowsFit(int64_t rows, int64_t cols) {
  return rows % 64 == 0 && rows >= 64 &&
         (rows <= 128 || (rows == 192 && cols <= 192));
}
} // namespace mlir::tcgen

#endif // TCGEN_IR_TCGENDIALECT_H
