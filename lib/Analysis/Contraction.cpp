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
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
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

FailureOr<ContractionInfo>
mlir::tcgen::analyzeContraction(linalg::LinalgOp op) {
  if (failed(verifyNoEmptyDimension(op)))
    return failure();
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
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  AffineExpr m, n, k;
  // The batch dimensions (one summed one, or up to three kept ones).
  SmallVector<AffineExpr> bs;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // The position of each batch dimension in `map`'s results, -1 where
  // absent.
  auto batchPositions = [&](AffineMap map) {
    SmallVector<int64_t> pos;
    for (AffineExpr b : bs) {
      pos.push_back(-1);
      for (unsigned r = 0; r < map.getNumResults(); ++r)
        if (map.getResult(r) == b)
          pos.back() = r;
    }
    return pos;
  };
  // Whether `map` reads [r0][r1], with the batch dimensions it holds where
  // `withBatch` (none otherwise): anywhere but innermost (TMA reads the
  // innermost dimension contiguously), the matrix dimensions in this order
  // around them.
  auto is = [&](AffineMap map, AffineExpr r0, AffineExpr r1, bool withBatch) {
    SmallVector<AffineExpr> matrix;
    for (AffineExpr e : map.getResults())
      if (!withBatch || !llvm::is_contained(bs, e))
        matrix.push_back(e);
    if (matrix.size() != 2 ||
        map.getResult(map.getNumResults() - 1) != matrix[1])
      return false;
    return matrix[0] == r0 && matrix[1] == r1;
  };
  // A and B carry the batch (a summed one too), C only a kept one.
  auto matches = [&] {
    bool ab = batched || reduce;
    return (is(maps[0], m, k, ab) || is(maps[0], k, m, ab)) &&
           (is(maps[1], k, n, ab) || is(maps[1], n, k, ab)) &&
           (is(maps[2], m, n, batched) || is(maps[2], n, m, batched));
  };
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
    m = getAffineDimExpr(mDim, ctx);
    n = getAffineDimExpr(nDim, ctx);
    bs.clear();
    for (AffineExpr e : maps[2].getResults())
      if (e != m && e != n)
        bs.push_back(e);
    return matches();
  };
  bool found = false;
  if (!reduce) {
    k = getAffineDimExpr(dims->k[0], ctx);
    for (unsigned mDim : bySize(dims->m))
      for (unsigned nDim : bySize(dims->n))
        found = found || tryMatrix(mDim, nDim);
  } else {
    // Either K dimension may be the summed batch; the other is the one the
    // tiles walk (innermost in A or B where those are K-major).
    m = getAffineDimExpr(dims->m[0], ctx);
    n = getAffineDimExpr(dims->n[0], ctx);
    for (unsigned outer : {0u, 1u}) {
      bs.assign({getAffineDimExpr(dims->k[outer], ctx)});
      k = getAffineDimExpr(dims->k[1 - outer], ctx);
      if ((found = matches()))
        break;
    }
  }
  if (!found) {
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

  auto rangeOf = [&](AffineExpr e) {
    return ranges[cast<AffineDimExpr>(e).getPosition()];
  };
  ContractionInfo info;
  info.op = op;
  info.c = op.getDpsInitOperand(0)->get();
  bool ab = batched || reduce;
  info.cTransposed = is(maps[2], n, m, batched);
  if (!info.cTransposed) {
    info.aTransposed = is(maps[0], k, m, ab);
    info.bTransposed = is(maps[1], n, k, ab);
    info.a = op.getDpsInputOperand(0)->get();
    info.b = op.getDpsInputOperand(1)->get();
    info.m = rangeOf(m);
    info.n = rangeOf(n);
  } else {
    // C[n,m] = sum_k B^T[n,k] A^T[k,m]: the row-major product of B^T and
    // A^T. B^T is stored [k][n] (transposed) where B is [k][n], and A^T
    // [m][k] (K-major) where A is [m][k].
    info.aTransposed = is(maps[1], k, n, ab);
    info.bTransposed = is(maps[0], m, k, ab);
    info.a = op.getDpsInputOperand(1)->get();
    info.b = op.getDpsInputOperand(0)->get();
    info.m = rangeOf(n);
    info.n = rangeOf(m);
  }
  info.k = rangeOf(k);
  info.batched = batched;
  info.batchReduce = reduce;
  if (ab) {
    // The op's A, B and C maps are 0, 1, 2; with a column-major C the
    // kernel's A is the op's B.
    SmallVector<int64_t> pos[3] = {batchPositions(maps[0]),
                                   batchPositions(maps[1]),
                                   batchPositions(maps[2])};
    unsigned ia = info.cTransposed ? 1 : 0, ib = info.cTransposed ? 0 : 1;
    // A batch dimension that one input lacks goes the way of several.
    if (bs.size() == 1 && broadcasts == 0) {
      info.aBatchMiddle = pos[ia][0] == 1;
      info.bBatchMiddle = pos[ib][0] == 1;
      info.cBatchMiddle = batched && pos[2][0] == 1;
    } else {
      for (AffineExpr b : bs)
        info.batchShape.push_back(rangeOf(b));
      info.aBatchPos = pos[ia];
      info.bBatchPos = pos[ib];
      info.cBatchPos = pos[2];
    }
  }
  // M, N and K may be known only at run time (the back ends say whether
  // they compile that); the batch must be static.
  info.batch = 1;
  for (AffineExpr b : bs) {
    if (ShapedType::isDynamic(rangeOf(b)))
      return op.emitOpError("a dynamic batch size is not supported yet (M, N "
                            "and K may be dynamic, the batch must be static)");
    info.batch *= rangeOf(b);
  }
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
