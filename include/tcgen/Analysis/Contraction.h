//===- Contraction.h - Recognize matmul-like contractions ------*- C++ -*-===//
//
// Target-neutral analysis: classifies the iteration dimensions of a linalg
// contraction into M, N and K, reads the operand layouts and element types,
// and says in a diagnostic why an op cannot be handled.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_ANALYSIS_CONTRACTION_H
#define TCGEN_ANALYSIS_CONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tcgen {

/// The f32 scale tensors of a block-scaled fp8 contraction (DeepSeek-V3's
/// recipe): C[m,n] = sum_kb SA[m,kb] SB[n/128,kb] sum_{k in block kb}
/// A[m,k] B[n,k], K a multiple of 128. SA scales 1 x 128 blocks of A
/// ([M][K/128]) and SB 128 x 128 blocks of B ([ceil(N/128)][K/128]).
struct BlockScales {
  Value a, b; ///< SA and SB (memrefs or tensors of f32)
  /// The blocks each scale covers: A's in (m, k), B's in (n, k).
  int64_t aBlockM = 1, aBlockK = 128;
  int64_t bBlockN = 128, bBlockK = 128;
  /// The number of K blocks (K / aBlockK): SA's and SB's row length.
  int64_t kBlocks = 0;
};

/// What tcgen needs to know about one contraction C[m,n] += A[m,k] * B[k,n],
/// a batch of them: C[b,m,n] += A[b,m,k] * B[b,k,n], or their sum:
/// C[m,n] += sum_b A[b,m,k] * B[b,k,n].
struct ContractionInfo {
  linalg::LinalgOp op;
  /// The sizes; ShapedType::kDynamic for one known only at run time (a `?`
  /// dimension: only the sm90 back end compiles those).
  int64_t m = 0, n = 0, k = 0;
  /// The operands have a leading batch dimension of `batch` matrices (one
  /// batch dimension, outermost in A, B and C; batch may be 1).
  bool batched = false;
  int64_t batch = 1;
  /// The contraction sums over two K dimensions that do not collapse into
  /// one (C[i,j] += A[i,k,l] B[l,k,j]): one of them is read as a batch
  /// dimension of A and B (outermost or between the matrix dimensions, as
  /// for a batch) of extent `batch`, and the products of the batch are
  /// summed into one C[m,n]: C += sum_b A[b] B[b]. `batched` is false and
  /// C has no batch dimension.
  bool batchReduce = false;
  /// Per operand (A, B, C as the fields below name them), whether the batch
  /// dimension sits between the matrix's two dimensions (A[m,b,k] and the
  /// like, as in [seq, batch, features] layouts) instead of outermost.
  bool aBatchMiddle = false, bBatchMiddle = false, cBatchMiddle = false;
  bool anyBatchMiddle() const {
    return aBatchMiddle || bBatchMiddle || cBatchMiddle;
  }
  /// Two or three batch dimensions that do not collapse into one
  /// (A[b,s,h,d] with C[b,h,s,t], the [batch, seq, heads, features]
  /// layouts), or any number up to three where an input lacks one (a
  /// broadcast batch: an M or N dimension beyond the first, as h in
  /// C[h,s,e] += X[s,d] W[d,h,e], which X lacks): their extents in C's
  /// order, outermost first (`batch` is their product; the batch index is
  /// row-major over them, b0 * batchShape[1] + b1 for two), and per operand
  /// (A, B, C as above) the position of each in the stored operand's
  /// dimensions, in the same order, -1 where the operand lacks it. Empty
  /// with one batch dimension that every operand has, or none (the flags
  /// above say where that one sits).
  SmallVector<int64_t> batchShape;
  SmallVector<int64_t> aBatchPos, bBatchPos, cBatchPos;
  bool multiBatch() const { return !batchShape.empty(); }
  Type aType, bType, cType; ///< element types
  Value a, b, c;            ///< the operands (memrefs or tensors)
  /// A is stored [k][m] (M contiguous) instead of [m][k].
  bool aTransposed = false;
  /// B is stored [n][k] (K contiguous) instead of [k][n].
  bool bTransposed = false;
  /// C is stored [n][m] (column-major). Then the fields above describe the
  /// row-major product C^T = B^T A^T that the kernel computes: `a` is the
  /// op's B operand and `b` its A, m and n are swapped, and aTransposed /
  /// bTransposed say how B^T and A^T are stored.
  bool cTransposed = false;

  /// The kernel computes the product transposed, C^T = B^T A^T, into a C
  /// stored [m][n] (config `swap`): the fields above describe that product
  /// (`a` is the op's B, m and n are swapped, as with cTransposed), and its
  /// C is stored [n][m] in these terms (column-major), which the kernel
  /// writes (swapRoles).
  bool swapped = false;

  /// A block-scaled fp8 contraction (a linalg.generic of four inputs,
  /// A, B, SA, SB: isBlockScaledCandidate): its scale operands.
  std::optional<BlockScales> blockScales;

  /// Whether M, N or K is known only at run time.
  bool isDynamic() const {
    return ShapedType::isDynamic(m) || ShapedType::isDynamic(n) ||
           ShapedType::isDynamic(k);
  }
};

/// The product of `info` (one with a row-major C, unbatched) computed
/// transposed: C^T[n][m] = B^T[n][k] A^T[k][m], with `swapped` set. B^T is
/// stored [k][n] (transposed, in its terms) where B is [k][n], and A^T
/// [n'][k] (K-major) where A is [m][k].
ContractionInfo swapRoles(const ContractionInfo &info);

/// Whether a size is 1 (a dynamic size is not: it may be anything).
inline bool isUnitSize(int64_t size) { return size == 1; }

/// Whether A is read M-major (stored [k][m]) and B K-major (stored [n][k]).
/// An operand with an extent of 1 is the same memory in either order and is
/// read in the other one: A stored [k][1] as [1][k], B stored [1][k] as
/// [k][1] (and both with K = 1). Not where the batch sits between the two:
/// A stored [k][b][1] is not [1][b][k] (its K rows are b elements apart and
/// its batch is the contiguous dimension), so it is read as stored, M-major,
/// and B stored [n][b][1] K-major; the sm90 back end then refuses the rows
/// (one element apart) that TMA cannot step. An extent of 1 outermost
/// ([1][b][k]) is the batch-outermost layout and keeps the rule.
inline bool readsAMNMajor(const ContractionInfo &info) {
  return info.aTransposed && !isUnitSize(info.k) &&
         (!isUnitSize(info.m) || info.aBatchMiddle);
}
inline bool readsBKMajor(const ContractionInfo &info) {
  return info.bTransposed && !isUnitSize(info.n) &&
         (!isUnitSize(info.k) || info.bBatchMiddle);
}

/// Whether `t` is one of the 8-bit floats tcgen multiplies (f8E4M3FN,
/// f8E5M2: the OCP FP8 formats of sm_89 and sm_90 tensor cores).
bool isFP8Type(Type t);

/// Whether `op` is a linalg.generic of four inputs and one output with a
/// reduction loop: the form of a block-scaled contraction (A, B, SA, SB ->
/// C), which analyzeContraction checks in full (analyzeBlockScaled).
bool isBlockScaledCandidate(Operation *op);

/// Analyzes a block-scaled candidate: A[m,k] and B[n,k] of one fp8 type,
/// SA[m, k floordiv 128] and SB[n floordiv 128, k floordiv 128] of f32,
/// C[m,n] of f32, static sizes, K a multiple of 128, and the body
/// acc + extf(a) * extf(b) * sa * sb (the products in any order). On
/// failure emits an error at `op` naming what differs and returns failure.
FailureOr<ContractionInfo> analyzeBlockScaled(linalg::LinalgOp op);

/// Returns the printed form of a type ("f16", "bf16", "f32", ...).
std::string typeName(Type t);

/// True if `op` is a contraction tcgen tries to compile (linalg.matmul, or a
/// linalg op implementing the contraction interface).
bool isContractionCandidate(Operation *op);

/// Returns the zero `linalg.fill` of the contraction's output directly in
/// front of it (so the contraction computes C = A*B and never reads C), or
/// null.
linalg::FillOp getZeroFillOfOutput(const ContractionInfo &info);

/// add(gemm, gemm) (tcgen-chain-contractions, or fill; matmul; matmul on one
/// C): the contraction right before `op` that writes op's output from a
/// zero fill, which `op` then accumulates into; null if none.
linalg::LinalgOp findFirstProduct(linalg::LinalgOp op);

/// Checks that no operand of the contraction `op` has a static extent of 0:
/// such a contraction computes nothing (or, over an empty K, a C of zeros
/// or of its old value), and canonicalization erases it, so that nothing
/// is left to compile. Emits an error at `op` naming the first empty
/// operand (A, B or C and its position), its type, the empty dimension and
/// which of M, N, K or a batch dimension that is, and fails.
LogicalResult verifyNoEmptyDimension(linalg::LinalgOp op);

/// Analyzes `op`. Several M (N) dimensions that did not collapse into one
/// become one matrix dimension (the largest that fits the layout) and
/// batch dimensions that B (A) lacks. On failure emits an error at `op`
/// naming the problem (an empty dimension: verifyNoEmptyDimension, a
/// dynamic batch, unsupported element types, forms
/// not supported yet: more than three batch dimensions, counting those,
/// more than two K dimensions or two with a batch, a batch dimension that
/// is innermost) and returns failure.
FailureOr<ContractionInfo> analyzeContraction(linalg::LinalgOp op);

} // namespace mlir::tcgen

#endif // TCGEN_ANALYSIS_CONTRACTION_H
