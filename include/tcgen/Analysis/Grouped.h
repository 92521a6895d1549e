//===- Grouped.h - Grouped products (mixtures of experts) -------*- C++ -*-===//
//
// Target-neutral recognition of a grouped product: G matmuls that share N
// and K, whose rows are consecutive slices of one A [T, K] and one C
// [T, N] given by a device tensor of G + 1 row offsets (the "contiguous"
// layout of mixtures of experts: tokens sorted by expert). The linalg form
// is one linalg.generic over (t, n, k, g) that masks each product to the
// rows of its group (docs/USER-GUIDE.md, "Grouped products"):
//
//   %starts = memref.subview %offsets[0] [G] [1]
//   %ends = memref.subview %offsets[1] [G] [1]
//   linalg.generic {(t, n, k, g) -> (t, k), (g, n, k), (g), (g), (t, n)}
//       ins(%a, %b, %starts, %ends) outs(%c) {
//   ^bb0(%x, %w, %lo, %hi, %s):
//     %t = linalg.index 0 ; %ti = arith.index_cast %t
//     %in = arith.andi (arith.cmpi sge %ti, %lo), (arith.cmpi slt %ti, %hi)
//     linalg.yield arith.select %in, %s + ext(%x) * ext(%w), %s
//   }
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_ANALYSIS_GROUPED_H
#define TCGEN_ANALYSIS_GROUPED_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tcgen {

/// What tcgen needs to know about a grouped product.
struct GroupedInfo {
  linalg::GenericOp op;
  /// The function arguments A [t, k], B [g, n, k] or [g, k, n] and the
  /// offsets [G + 1]; `c` is the op's output (C, or the local accumulator
  /// buffer an elementwise epilogue reads).
  Value a, b, offsets, c;
  /// T (ShapedType::kDynamic where known at launch), G, N, K.
  int64_t rows = 0, groups = 0, n = 0, k = 0;
  /// B is stored [g][n][k] (K contiguous) instead of [g][k][n].
  bool bKMajor = true;
  Type aType, accType, offsetsType;
};

/// Whether `op` looks like a grouped product (a linalg.generic with four
/// inputs, two of them integer vectors, and one output): the ops that
/// analyzeGroupedContraction is asked about, and that the ordinary
/// contraction path would not take.
bool isGroupedCandidate(Operation *op);

/// Analyzes a grouped candidate. On a form that is not the grouped product
/// above (maps, iterators, the offsets' slices, the body) or that the
/// kernels do not take yet (dtypes, sizes known at launch other than T)
/// emits an error at `op` saying what differs and fails.
FailureOr<GroupedInfo> analyzeGroupedContraction(linalg::GenericOp op);

/// The tile of a grouped product a linear tile index names: group `group`,
/// its row tile `rowTile` (rows offsets[group] + rowTile * blockM ...) and
/// column tile `colTile`. The kernel's scheduler computes the same walk
/// (sm90 Schedule.cpp): the groups in order, each contributing
/// ceil(rows / blockM) x tilesN tiles, a group's tiles row tile first
/// within a column tile.
struct GroupedTile {
  int64_t group = 0, rowTile = 0, colTile = 0;
};

/// The number of tiles of a grouped product with these row offsets.
int64_t groupedTileCount(ArrayRef<int64_t> offsets, int64_t blockM,
                         int64_t tilesN);

/// Maps linear tile `t` (below groupedTileCount) to its tile; std::nullopt
/// for a `t` past the last tile.
std::optional<GroupedTile> mapGroupedTile(ArrayRef<int64_t> offsets,
                                          int64_t blockM, int64_t tilesN,
                                          int64_t t);

} // namespace mlir::tcgen

#endif // TCGEN_ANALYSIS_GROUPED_H
