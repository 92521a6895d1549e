//===- Contraction.cpp - Recognize matmul-like contractions ----*- C++ -*-===//
//
// This file implements the recognition of contractions: M/N/K dimensions,
// static sizes, layouts and element types.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Contraction.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tcgen;

bool mlir::tcgen::isContractionCandidate(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && (linalg::isaContractionOpInterface(linalgOp) ||
                      isBlockScaledCandidate(op));
}

bool mlir::tcgen::isFP8Type(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

std::string mlir::tcgen::typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

linalg::FillOp mlir::tcgen::getZeroFillOfOutput(const ContractionInfo &info) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(info.op->getPrevNode());
  if (!fill || fill.getDpsInitOperand(0)->get() != info.c)
    return {};
  if (!matchPattern(fill.value(), m_AnyZeroFloat()) &&
      !matchPattern(fill.value(), m_Zero()))
    return {};
  return fill;
}

linalg::LinalgOp mlir::tcgen::findFirstProduct(linalg::LinalgOp op) {
  auto first = dyn_cast_or_null<linalg::LinalgOp>(op->getPrevNode());
  if (!first || !isContractionCandidate(first) ||
      first.getNumDpsInits() != 1 || op.getNumDpsInits() != 1)
    return {};
  Value c = op.getDpsInitOperand(0)->get();
  auto fill = dyn_cast_or_null<linalg::FillOp>(first->getPrevNode());
  if (first.getDpsInitOperand(0)->get() != c || !fill ||
      fill.getDpsInitOperand(0)->get() != c ||
      !(matchPattern(fill.value(), m_AnyZeroFloat()) ||
        matchPattern(fill.value(), m_Zero())))
    return {};
  return first;
}

/// Several dimensions of one role reach the analysis only where
/// tcgen-collapse-dims could not fold them into one.
static constexpr const char *kNotCollapsed =
    "contractions with several batch, M, N or K dimensions are supported "
    "where they collapse into one each (tcgen-collapse-dims: a role's "
    "dimensions next to each other, in one order, in every operand, each a "
    "contiguous function argument used by no other op than a linalg.fill); "
    "other forms are not supported yet";

LogicalResult mlir::tcgen::verifyNoEmptyDimension(linalg::LinalgOp op) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  // What loop dimension `d` is to the contraction.
  auto role = [&](unsigned d) -> std::string {
    if (failed(dims))
      return "";
    for (auto [name, list] :
         {std::pair<StringRef, ArrayRef<unsigned>>{"a batch", dims->batch},
          {"M", dims->m},
          {"N", dims->n},
          {"K", dims->k}})
      if (llvm::is_contained(list, d))
        return (", the contraction's " + name + " dimension,").str();
    return "";
  };
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type)
      continue;
    for (auto [i, extent] : llvm::enumerate(type.getShape())) {
      if (extent != 0)
        continue;
      unsigned number = operand.getOperandNumber();
      // A, B and C where the op has two inputs and one output.
      std::string name = "#" + std::to_string(number);
      if (op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1)
        name = std::string(1, "ABC"[number]) + " (" + name + ")";
      std::string what;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (auto d = dyn_cast<AffineDimExpr>(map.getResult(i)))
        what = role(d.getPosition());
      return op.emitOpError("operand ")
             << name << " of type " << typeName(type) << " is empty: its dimension " << i
             << what
             << " has extent 0 (tcgen compiles contractions whose extents "
                "are all at least 1)";
    }
  }
  return success();
}

namespace {
/// The loop dimensions that play the matrix's roles: M, N and K, and the
/// batch dimensions (up to three kept ones in C's order, or one summed).
struct MatrixRoles {
  AffineExpr m, n, k;
  SmallVector<AffineExpr> batch;
};
} // namespace

/// The position of each of `batch` in `map`'s results, -1 where absent.
static SmallVector<int64_t> batchPositions(AffineMap map,
                                           ArrayRef<AffineExpr> batch) {
  SmallVector<int64_t> pos;
  for (AffineExpr b : batch) {
    pos.push_back(-1);
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      if (map.getResult(r) == b)
        pos.back() = r;
  }
  return pos;
}

/// Whether `map` reads [r0][r1] with the dimensions of `batch` it holds
/// (an empty `batch`: none) anywhere but innermost (TMA reads the
/// innermost dimension contiguously), the matrix dimensions in this order
/// around them.
static bool readsAs(AffineMap map, AffineExpr r0, AffineExpr r1,
                    ArrayRef<AffineExpr> batch) {
  SmallVector<AffineExpr> matrix;
  for (AffineExpr e : map.getResults())
    if (!llvm::is_contained(batch, e))
      matrix.push_back(e);
  if (matrix.size() != 2 || map.getResult(map.getNumResults() - 1) != matrix[1])
    return false;
  return matrix[0] == r0 && matrix[1] == r1;
}

/// The batch dimensions A and B carry (a summed one too), and C (a kept
/// one only): empty where the operand has none.
static ArrayRef<AffineExpr> inputBatch(const MatrixRoles &r, bool batched,
                                       bool reduce) {
  return batched || reduce ? ArrayRef<AffineExpr>(r.batch)
                           : ArrayRef<AffineExpr>();
}
static ArrayRef<AffineExpr> outputBatch(const MatrixRoles &r, bool batched) {
  return batched ? ArrayRef<AffineExpr>(r.batch) : ArrayRef<AffineExpr>();
}

/// Whether the op's maps read A[m,k] or A[k,m], B[k,n] or B[n,k] and
/// C[m,n] or C[n,m] under the roles `r`.
static bool matchesRoles(ArrayRef<AffineMap> maps, const MatrixRoles &r,
                         bool batched, bool reduce) {
  ArrayRef<AffineExpr> ab = inputBatch(r, batched, reduce);
  ArrayRef<AffineExpr> c = outputBatch(r, batched);
  return (readsAs(maps[0], r.m, r.k, ab) || readsAs(maps[0], r.k, r.m, ab)) &&
         (readsAs(maps[1], r.k, r.n, ab) || readsAs(maps[1], r.n, r.k, ab)) &&
         (readsAs(maps[2], r.m, r.n, c) || readsAs(maps[2], r.n, r.m, c));
}

/// Finds the loop dimensions of the matrix's M, N and K among `dims` (the
/// largest M and N candidates first) and the batch dimensions around them,
/// such that A, B and C are each a matrix with its batch dimensions
/// anywhere but innermost. `reduce`: two K dimensions, one summed like a
/// batch. Fails with an error naming the accepted forms.
static FailureOr<MatrixRoles>
findMatrixRoles(linalg::LinalgOp op, const linalg::ContractionDimensions &dims,
                bool batched, bool reduce, size_t broadcasts) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MatrixRoles r;
  // Candidates for the matrix's M (N) dimension, the largest first.
  auto bySize = [&](ArrayRef<unsigned> ds) {
    SmallVector<unsigned> sorted(ds);
    llvm::stable_sort(
        sorted, [&](unsigned x, unsigned y) { return ranges[x] > ranges[y]; });
    return sorted;
  };
  // The matrix's M and N; every other dimension of C is a kept batch
  // dimension, in C's order (outermost first).
  auto tryMatrix = [&](unsigned mDim, unsigned nDim) {
    r.m = getAffineDimExpr(mDim, ctx);
    r.n = getAffineDimExpr(nDim, ctx);
    r.batch.clear();
    for (AffineExpr e : maps[2].getResults())
      if (e != r.m && e != r.n)
        r.batch.push_back(e);
    return matchesRoles(maps, r, batched, reduce);
  };
  bool found = false;
  if (!reduce) {
    r.k = getAffineDimExpr(dims.k[0], ctx);
    for (unsigned mDim : bySize(dims.m))
      for (unsigned nDim : bySize(dims.n))
        found = found || tryMatrix(mDim, nDim);
  } else {
    // Either K dimension may be the summed batch; the other is the one the
    // tiles walk (innermost in A or B where those are K-major).
    r.m = getAffineDimExpr(dims.m[0], ctx);
    r.n = getAffineDimExpr(dims.n[0], ctx);
    for (unsigned outer : {0u, 1u}) {
      r.batch.assign({getAffineDimExpr(dims.k[outer], ctx)});
      r.k = getAffineDimExpr(dims.k[1 - outer], ctx);
      if ((found = matchesRoles(maps, r, batched, reduce)))
        break;
    }
  }
  if (found)
    return r;
  if (reduce)
    return op.emitOpError(
        "a contraction over two K dimensions that do not collapse into "
        "one needs each of A and B stored as a matrix of one K dimension "
        "and M (or N) with the other K dimension outermost or between "
        "them, never innermost (C[i,j] += A[i,k,l] B[l,k,j], say), and C "
        "stored [m,n] or [n,m]");
  if (broadcasts > 0)
    return op.emitOpError(
        "several M or N dimensions that do not collapse into one are read "
        "as batch dimensions that the other input lacks (C[b,h,s,e] += "
        "X[b,s,d] W[d,h,e]: s and e are the matrix's, b and h batch "
        "dimensions); that needs one M and one N dimension innermost or "
        "next to innermost in C, A and B, each with its K dimension, and "
        "every other dimension outermost or between those two, never "
        "innermost");
  return op.emitOpError(batched
                            ? "batched operands must be A[b,m,k] or "
                              "A[b,k,m], B[b,k,n] or B[b,n,k], and C[b,m,n] "
                              "or C[b,n,m], each batch dimension outermost "
                              "or between the two others (A[m,b,k], "
                              "A[b1,m,b2,k], ...), never innermost"
                            : "operands must be A[m,k] or A[k,m], B[k,n] or "
                              "B[n,k], and C[m,n] or C[n,m]");
}

/// Fills `info`'s operands, sizes, layouts and batch placement from the
/// roles `r` that findMatrixRoles() found for `op` (with a column-major C
/// the kernel's A is the op's B). Fails where a batch size is dynamic.
static LogicalResult describeRoles(linalg::LinalgOp op, const MatrixRoles &r,
                                   bool batched, bool reduce, size_t broadcasts,
                                   ContractionInfo &info) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto rangeOf = [&](AffineExpr e) {
    return ranges[cast<AffineDimExpr>(e).getPosition()];
  };
  ArrayRef<AffineExpr> ab = inputBatch(r, batched, reduce);
  info.op = op;
  info.c = op.getDpsInitOperand(0)->get();
  info.cTransposed = readsAs(maps[2], r.n, r.m, outputBatch(r, batched));
  if (!info.cTransposed) {
    info.aTransposed = readsAs(maps[0], r.k, r.m, ab);
    info.bTransposed = readsAs(maps[1], r.n, r.k, ab);
    info.a = op.getDpsInputOperand(0)->get();
    info.b = op.getDpsInputOperand(1)->get();
    info.m = rangeOf(r.m);
    info.n = rangeOf(r.n);
  } else {
    // C[n,m] = sum_k B^T[n,k] A^T[k,m]: the row-major product of B^T and
    // A^T. B^T is stored [k][n] (transposed) where B is [k][n], and A^T
    // [m][k] (K-major) where A is [m][k].
    info.aTransposed = readsAs(maps[1], r.k, r.n, ab);
    info.bTransposed = readsAs(maps[0], r.m, r.k, ab);
    info.a = op.getDpsInputOperand(1)->get();
    info.b = op.getDpsInputOperand(0)->get();
    info.m = rangeOf(r.n);
    info.n = rangeOf(r.m);
  }
  info.k = rangeOf(r.k);
  info.batched = batched;
  info.batchReduce = reduce;
  if (batched || reduce) {
    // The op's A, B and C maps are 0, 1, 2.
    SmallVector<int64_t> pos[3] = {batchPositions(maps[0], r.batch),
                                   batchPositions(maps[1], r.batch),
                                   batchPositions(maps[2], r.batch)};
    unsigned ia = info.cTransposed ? 1 : 0, ib = info.cTransposed ? 0 : 1;
    // A batch dimension that one input lacks goes the way of several.
    if (r.batch.size() == 1 && broadcasts == 0) {
      info.aBatchMiddle = pos[ia][0] == 1;
      info.bBatchMiddle = pos[ib][0] == 1;
      info.cBatchMiddle = batched && pos[2][0] == 1;
    } else {
      for (AffineExpr b : r.batch)
        info.batchShape.push_back(rangeOf(b));
      info.aBatchPos = pos[ia];
      info.bBatchPos = pos[ib];
      info.cBatchPos = pos[2];
    }
  }
  // M, N and K may be known only at run time (the back ends say whether
  // they compile that); the batch must be static.
  info.batch = 1;
  for (AffineExpr b : r.batch) {
    if (ShapedType::isDynamic(rangeOf(b)))
      return op.emitOpError("a dynamic batch size is not supported yet (M, N "
                            "and K may be dynamic, the batch must be static)");
    info.batch *= rangeOf(b);
  }
  return success();
}

/// Sets `info`'s element types and fails unless they are a supported
/// combination and every memref operand is a plain row-major buffer.
static LogicalResult checkTypesAndLayouts(linalg::LinalgOp op,
                                          ContractionInfo &info) {
  info.aType = getElementTypeOrSelf(info.a.getType());
  info.bType = getElementTypeOrSelf(info.b.getType());
  info.cType = getElementTypeOrSelf(info.c.getType());

  bool inputsOk = (info.aType.isF16() || info.aType.isBF16() ||
                   info.aType.isF32() || isFP8Type(info.aType)) &&
                  info.aType == info.bType;
  bool outputOk =
      info.cType.isF16() || info.cType.isBF16() || info.cType.isF32();
  if (!inputsOk || !outputOk)
    return op.emitOpError("unsupported element types ")
           << typeName(info.aType) << " x " << typeName(info.bType) << " -> "
           << typeName(info.cType)
           << " (supported: f16 x f16 or bf16 x bf16 -> f16, bf16 or f32, "
              "f32 x f32 -> f32 (CUDA cores, or tf32 on sm90), and f8E4M3FN x f8E4M3FN or "
              "f8E5M2 x f8E5M2 -> f16, bf16 or f32 on sm90)";

  // Memref operands must be plain row-major buffers (identity layout).
  for (auto [name, v] : {std::pair<const char *, Value>{"A", info.a},
                         {"B", info.b},
                         {"C", info.c}}) {
    auto memref = dyn_cast<MemRefType>(v.getType());
    if (memref && !memref.getLayout().isIdentity())
      return op.emitOpError("operand ")
             << name << " has a non-identity layout " << memref.getLayout()
             << " (only contiguous row-major buffers are supported yet)";
  }
  return success();
}

FailureOr<ContractionInfo>
mlir::tcgen::analyzeContraction(linalg::LinalgOp op) {
  if (failed(verifyNoEmptyDimension(op)))
    return failure();
  if (isBlockScaledCandidate(op))
    return analyzeBlockScaled(op);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return op.emitOpError("is not a contraction of two inputs into one output");
  if (dims->m.empty() || dims->n.empty())
    return op.emitOpError(kNotCollapsed);
  // Several M (or N) dimensions that tcgen-collapse-dims could not fold
  // into one: one of them is the matrix's M and the others are read as
  // batch dimensions that B (or A) does not have, a broadcast batch
  // (C[b,h,s,e] += X[b,s,d] W[d,h,e]: s and e the matrix's, b and h the
  // batch's, X read once per h and W once per b).
  size_t broadcasts = dims->m.size() - 1 + dims->n.size() - 1;
  size_t kept = dims->batch.size() + broadcasts;
  // Up to three batch dimensions: with C's two matrix dimensions, the five
  // a tensor map holds.
  if (kept > 3)
    return op.emitOpError("has ")
           << kept
           << " batch dimensions that do not collapse into fewer (counting "
              "each M or N dimension beyond the first as one); at most "
              "three are supported (with the two matrix dimensions, the five "
              "of a TMA tensor map)";
  // Two K dimensions that tcgen-collapse-dims could not fold into one
  // (C[i,j] += A[i,k,l] B[l,k,j]: A and B order them differently) are
  // summed like a batch: one of them is read as A's and B's batch
  // dimension and walked in the K loop (batchReduce).
  bool batched = kept > 0;
  bool reduce = !batched && dims->k.size() == 2;
  if (batched && dims->k.size() == 2)
    return op.emitOpError(
               "a sum over two K dimensions that do not collapse into one is "
               "supported without batch dimensions only, not with ")
           << kept
           << " (kept batch dimensions, or M or N dimensions beyond the "
              "first: the attention output projection O[b,s,f] = sum_{h,e} "
              "A[b,h,s,e] W[h,e,f] from a head-first A, say); store A as "
              "[b,s,h,e] so that h and e collapse into one K dimension";
  if (!reduce && dims->k.size() != 1)
    return op.emitOpError(kNotCollapsed);

  // A[m,k] or A[k,m], B[k,n] or B[n,k], C[m,n]; a batch dimension comes
  // first in all three, or between the other two.
  FailureOr<MatrixRoles> roles =
      findMatrixRoles(op, *dims, batched, reduce, broadcasts);
  if (failed(roles))
    return failure();
  ContractionInfo info;
  if (failed(describeRoles(op, *roles, batched, reduce, broadcasts, info)) ||
      failed(checkTypesAndLayouts(op, info)))
    return failure();
  return info;
}

ContractionInfo mlir::tcgen::swapRoles(const ContractionInfo &info) {
  ContractionInfo s = info;
  std::swap(s.a, s.b);
  std::swap(s.aType, s.bType);
  std::swap(s.m, s.n);
  s.aTransposed = !info.bTransposed;
  s.bTransposed = !info.aTransposed;
  std::swap(s.aBatchMiddle, s.bBatchMiddle);
  std::swap(s.aBatchPos, s.bBatchPos);
  s.swapped = !info.swapped;
  return s;
}
