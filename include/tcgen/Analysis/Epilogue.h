//===- Epilogue.h - Pointwise consumers fused into a kernel -----*- C++ -*-===//
//
// Target-neutral analysis of the epilogue of a contraction: the elementwise
// linalg.generic that consumes the contraction's result, the extra operands
// it reads (scalars, row or column vectors, matrices) and whether it can be
// computed on the accumulators in registers (seed 001 section 6's legality:
// identity access of the result, contiguous fastest-varying dimension, same
// or broadcast shapes, an unobservable intermediate).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_ANALYSIS_EPILOGUE_H
#define TCGEN_ANALYSIS_EPILOGUE_H

#include "tcgen/Analysis/Contraction.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::tcgen {

/// How an extra epilogue operand is indexed for output element (i, j).
enum class EpilogueOperandKind {
  Scalar, ///< rank 0: x[]
  Row,    ///< [n]: x[j], broadcast over the rows (a bias along N)
  Col,    ///< [m]: x[i], broadcast over the columns
  Matrix, ///< [m, n]: x[i, j]
  /// [m, n]: element (i, j) of a second contraction's result that shares
  /// A with this one (a dual GEMM, EpilogueInfo::dualProduct); the kernel
  /// computes it, rounded to the matmul type, beside its own.
  Product,
};

/// Returns "scalar", "row", "col", "matrix" or "product".
StringRef stringifyEpilogueOperandKind(EpilogueOperandKind kind);

/// One extra operand of the epilogue: a memref function argument.
struct EpilogueOperand {
  Value memref;
  EpilogueOperandKind kind = EpilogueOperandKind::Matrix;
  Type elementType;
};

/// What the kernel needs to compute the consumer of the contraction result.
struct EpilogueInfo {
  /// The consumer: a linalg.generic (or an elementwise named op).
  linalg::LinalgOp op;
  /// The memref the generic writes: the kernel's output.
  Value out;
  /// The element type of `out`.
  Type outType;
  /// The element type of the contraction's own result (what the unfused
  /// program stores before the generic reads it back).
  Type matmulType;
  /// The extra operands, in first-use order (one entry per distinct value),
  /// except that a Product operand comes last.
  SmallVector<EpilogueOperand> operands;
  /// A dual GEMM: the second contraction, which shares A, M, N, K, the
  /// element types and the layouts with this one, writes its result from
  /// zero into a local buffer that this consumer alone reads (the Product
  /// operand). Null otherwise.
  linalg::LinalgOp dualProduct;
  /// The index of the Product operand in `operands`, or -1.
  int64_t productOperand() const {
    for (auto [k, e] : llvm::enumerate(operands))
      if (e.kind == EpilogueOperandKind::Product)
        return int64_t(k);
    return -1;
  }
  /// The name of operand `k` in the kernel's ABI and the manifest: "B2" for
  /// the Product operand, else "E<k>".
  std::string operandName(int64_t k) const {
    return operands[k].kind == EpilogueOperandKind::Product
               ? std::string("B2")
               : "E" + std::to_string(k);
  }
  /// For each block argument of the generic's body: -1 for the contraction
  /// result, k >= 0 for operands[k], -2 for an unused output argument.
  SmallVector<int64_t> argSource;
};

/// Looks for the elementwise consumer of the contraction `info` describes.
/// Returns it when it can be fused into the kernel's epilogue. An operand of
/// the consumer that is the result of a later contraction sharing A (a
/// dual GEMM, findDualProduct) becomes a Product operand where
/// `allowDualProduct` (the back ends that compute both products). Returns
/// std::nullopt with `whyNot` empty when the result has no consumer, and
/// std::nullopt with `whyNot` set to the reason when a consumer exists but
/// cannot be fused.
std::optional<EpilogueInfo> findEpilogue(const ContractionInfo &info,
                                         std::string &whyNot,
                                         bool allowDualProduct = false);

/// The dual GEMM's second contraction: `v`, read by `consumer`, is a local
/// allocation that a zero fill and then a contraction after `info.op` in
/// the same block write, whose A is `info.a`, with `info`'s sizes, element
/// types and stored layouts, its B a function argument, and that no other
/// op reads. Returns that contraction, or null with `whyNot` set to what
/// differs (empty when `v` is not such a buffer at all).
linalg::LinalgOp findDualProduct(const ContractionInfo &info, Value v,
                                 Operation *consumer, std::string &whyNot);

/// A batch dimension that A lacks and B and C hold (a broadcast N
/// dimension beyond the first: the heads h of C[b,h,s,e] += X[b,s,d]
/// W[d,h,e]) whose matrices the sm90 kernel may lay side by side as one
/// wider N (n' = h e + e' over H x N columns): B's 64-wide boxes and C's
/// store chunks stay within one matrix where N is a multiple of 64, and
/// each tile takes its (h, e') from its columns (a row vector of the
/// epilogue is read at e'). Returns that dimension's index in
/// `info.batchShape` (the largest such, if several), or -1: none, N is not
/// a static multiple of 64, C is column-major, `epilogue` has a matrix
/// operand, or the contraction computes C += A*B (reading C's old value
/// like a matrix operand).
int64_t batchFoldedIntoN(const ContractionInfo &info,
                         const EpilogueInfo *epilogue);

/// A pointwise producer of a contraction operand, fused as a prologue: the
/// operand is a local allocation that a 2-d elementwise op writes from one
/// function argument of the same shape and dtype (`source`), element for
/// element. `body` describes that op as an epilogue with no extra operands
/// whose "contraction result" is the source's element (argSource -1), so
/// emitEpilogueBody and describeEpilogue serve it as they are.
struct PrologueInfo {
  EpilogueInfo body;
  /// The function argument the producer reads: what the kernel loads.
  Value source;
};

/// Looks for the producer of `operand` (info.a or info.b). Returns it when
/// it can be applied to the operand's tiles in the kernel. Returns
/// std::nullopt with `whyNot` empty when `operand` is a function argument
/// (nothing to fuse), and with the reason otherwise.
std::optional<PrologueInfo> findPrologue(const ContractionInfo &info,
                                         Value operand, std::string &whyNot);

/// A standalone pointwise op that tcgen compiles as its own kernel (a
/// consumer it could not fuse): a 2-d elementwise linalg op on memrefs that
/// are all function arguments, whose output is a contiguous [m, n] written
/// element for element, whose first [m, n] input read element for element
/// (`x`) plays the contraction result's part in the returned description
/// (argSource -1, matmulType its element type), and whose other inputs are
/// scalars, row vectors [n], column vectors [m] or [m, n] matrices (the
/// extra operands E0, E1, ...), with a body findEpilogue accepts. Returns
/// std::nullopt with `whyNot` set otherwise.
struct PointwiseInfo {
  EpilogueInfo body;
  Value x;
  int64_t m = 0, n = 0;
};
std::optional<PointwiseInfo> findStandalonePointwise(linalg::LinalgOp op,
                                                     std::string &whyNot);

/// Clones the generic's body at the builder's insertion point: `acc` (of
/// type `matmulType`) stands for the contraction result, `operands[k]` for
/// one element of extra operand k. Returns the value the body yields (of
/// type `outType`).
Value emitEpilogueBody(OpBuilder &builder, const EpilogueInfo &info,
                       Value acc, ValueRange operands);

/// Whether the body, applied to 16-bit values (the contraction result and
/// the operands all of `info.matmulType`, f16 or bf16, the output of that
/// type too), gives the same bits when computed in that type as written in
/// f32: its f32 ops are at most one add, sub or mul (one rounding: f32 has
/// at least 2 p + 2 bits of an f16's or bf16's p, so rounding to f32 and
/// then to the 16-bit type equals rounding once) followed by max / min /
/// neg (exact, monotonic and odd, so they commute with the final
/// rounding), on extended 16-bit values and constants the 16-bit type
/// holds exactly, and one truncf at the end. relu(C + D), relu(C + bias)
/// and C + 0.5 qualify; GELU does not.
bool isExactInHalf(const EpilogueInfo &info);

/// Emits the body of an epilogue that isExactInHalf on vectors of the
/// 16-bit type (a pair of elements at once, so that the ops become packed
/// f16x2 / bf16x2 instructions): `acc` and `operands[k]` are vector<N x T>
/// values of `info.matmulType`. Returns the vector<N x T> result.
Value emitEpilogueBodyInHalf(OpBuilder &builder, const EpilogueInfo &info,
                             Value acc, ValueRange operands);

/// The body as a list of steps for the kernel manifest (docs/BUNDLE.md,
/// op.epilogue): {matmul_dtype, inputs = [{operand, kind}], ops = [{op,
/// args, dtype, value?, predicate?}], result}. Operand names are E0, E1, ...
DictionaryAttr describeEpilogue(const EpilogueInfo &info);

} // namespace mlir::tcgen

#endif // TCGEN_ANALYSIS_EPILOGUE_H
