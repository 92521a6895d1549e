//===- CublasGemm.cpp - cuBLAS and cuBLASLt on strided operands -----------===//
//
// This file implements the layout planning and the cublasGemmEx,
// cublasGemmStridedBatchedEx and cublasLtMatmul calls of CublasGemm.h.
//
//===----------------------------------------------------------------------===//

#include "CublasGemm.h"

#include "CudaUtil.h"

#include <algorithm>
#include <climits>
#include <limits>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr size_t kLtWorkspaceBytes = 32u << 20; // cuBLASLt's advice for Hopper

/// Maps a logical matrix to a column-major cuBLAS operand: op N with
/// ld = stride1 when stride0 is 1, op T with ld = stride0 when stride1 is 1.
bool mapOperand(const MatrixLayout &l, cublasOperation_t &op, int64_t &ld) {
  if (l.stride0 == 1 && (l.stride1 >= l.rows || l.cols == 1)) {
    op = CUBLAS_OP_N;
    ld = std::max(l.stride1, l.rows);
    return true;
  }
  if (l.stride1 == 1 && (l.stride0 >= l.cols || l.rows == 1)) {
    op = CUBLAS_OP_T;
    ld = std::max(l.stride0, l.cols);
    return true;
  }
  return false;
}

MatrixLayout transpose(const MatrixLayout &l) {
  return {l.cols, l.rows, l.stride1, l.stride0, l.batchStride};
}

/// The batch dimensions of `l` (extents and strides, outermost first): its
/// own several, or the one of `batch` matrices.
void batchDimsOf(const MatrixLayout &l, int64_t batch,
                 std::vector<int64_t> &extents, std::vector<int64_t> &strides) {
  if (l.multiBatch()) {
    extents = l.batchDims;
    strides = l.batchDimStrides;
  } else if (batch > 1) {
    extents = {batch};
    strides = {l.batchStride};
  } else {
    extents.clear();
    strides.clear();
  }
}

/// One more than the largest element offset of `l` over its batch.
int64_t spanOf(const MatrixLayout &l, int64_t batch) {
  std::vector<int64_t> extents, strides;
  batchDimsOf(l, batch, extents, strides);
  int64_t last = (l.rows - 1) * l.stride0 + (l.cols - 1) * l.stride1;
  for (size_t d = 0; d < extents.size(); ++d)
    last += (extents[d] - 1) * strides[d];
  return last + 1;
}
} // namespace

bool tcgen::bench::flattenBroadcast(const MatrixLayout &a,
                                    const MatrixLayout &b,
                                    const MatrixLayout &c, int64_t batch,
                                    MatrixLayout &fa, MatrixLayout &fb,
                                    MatrixLayout &fc, int64_t &fbatch) {
  std::vector<int64_t> extents, aStrides, bStrides, unused;
  batchDimsOf(a, batch, extents, aStrides);
  batchDimsOf(b, batch, unused, bStrides);
  if (unused.size() != extents.size())
    return false;
  int64_t onlyA = 1, onlyB = 1, both = 1;
  for (size_t d = 0; d < extents.size(); ++d) {
    if (extents[d] == 1)
      continue;
    if (aStrides[d] != 0 && bStrides[d] == 0)
      onlyA *= extents[d];
    else if (aStrides[d] == 0 && bStrides[d] != 0)
      onlyB *= extents[d];
    else
      both *= extents[d];
  }
  if (onlyA == 1 && onlyB == 1)
    return false;
  int64_t m = a.rows * onlyA, n = b.cols * onlyB, k = a.cols;
  MatrixLayout x{m, k, k, 1, m * k}, y{k, n, n, 1, k * n}, z{m, n, n, 1, m * n};
  if (spanOf(a, batch) < both * m * k || spanOf(b, batch) < both * k * n ||
      spanOf(c, batch) < both * m * n)
    return false;
  fa = x;
  fb = y;
  fc = z;
  fbatch = both;
  return true;
}

std::string tcgen::bench::planCublas(const MatrixLayout &a,
                                     const MatrixLayout &b,
                                     const MatrixLayout &c, CublasPlan &plan,
                                     int64_t batch) {
  if (a.multiBatch() || b.multiBatch() || c.multiBatch())
    return "cuBLAS's strided batches take one batch stride per operand, "
           "not several batch dimensions";
  MatrixLayout x = a, y = b, z = c;
  plan.swapped = false;
  // C must be column-major for cuBLAS; a row-major C is a column-major C^T.
  if (!(c.stride0 == 1 && (c.stride1 >= c.rows || c.cols == 1))) {
    x = transpose(b);
    y = transpose(a);
    z = transpose(c);
    plan.swapped = true;
  }
  cublasOperation_t opC;
  if (!mapOperand(z, opC, plan.ldc) || opC != CUBLAS_OP_N)
    return "cuBLAS cannot write C with strides [" + std::to_string(c.stride0) +
           ", " + std::to_string(c.stride1) + "] (one stride must be 1)";
  if (!mapOperand(x, plan.opA, plan.lda) || !mapOperand(y, plan.opB, plan.ldb))
    return "cuBLAS cannot read an operand with neither stride 1";
  for (int64_t v :
       {z.rows, z.cols, x.cols, plan.lda, plan.ldb, plan.ldc, batch})
    if (v > INT_MAX)
      return "matrix too large for cuBLAS's 32-bit sizes";
  if (batch < 1)
    return "a batch of " + std::to_string(batch) + " matrices";
  plan.m = static_cast<int>(z.rows);
  plan.n = static_cast<int>(z.cols);
  plan.k = static_cast<int>(x.cols);
  // Swapped or not, cuBLAS's A, B and C are x, y and z.
  plan.batch = static_cast<int>(batch);
  bool batched = batch > 1;
  plan.strideA = batched ? x.batchStride : 0;
  plan.strideB = batched ? y.batchStride : 0;
  plan.strideC = batched ? z.batchStride : 0;
  return "";
}

const char *tcgen::bench::gemmExName(const CublasPlan &plan) {
  return plan.batch > 1 ? "cublasGemmStridedBatchedEx" : "cublasGemmEx";
}

cudaDataType_t tcgen::bench::cudaTypeOf(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return CUDA_R_16F;
  case DType::BF16:
    return CUDA_R_16BF;
  case DType::E4M3:
    return CUDA_R_8F_E4M3;
  case DType::E5M2:
    return CUDA_R_8F_E5M2;
  default:
    return CUDA_R_32F;
  }
}

cublasComputeType_t tcgen::bench::computeTypeFor(DType accumulator) {
  return accumulator == DType::F16 ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_32F;
}

bool tcgen::bench::isHalfCompute(cublasComputeType_t compute) {
  return compute == CUBLAS_COMPUTE_16F ||
         compute == CUBLAS_COMPUTE_16F_PEDANTIC;
}

std::string tcgen::bench::checkComputeType(cublasComputeType_t compute,
                                           DType abType, DType cType) {
  if (isHalfCompute(compute) && (abType != DType::F16 || cType != DType::F16))
    return std::string(computeTypeName(compute)) +
           " (f16 accumulation) needs f16 A, B and C, got " +
           dtypeName(abType) + " -> " + dtypeName(cType);
  return "";
}

const char *tcgen::bench::computeTypeName(cublasComputeType_t compute) {
  switch (compute) {
  case CUBLAS_COMPUTE_16F:
    return "CUBLAS_COMPUTE_16F";
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    return "CUBLAS_COMPUTE_16F_PEDANTIC";
  case CUBLAS_COMPUTE_32F:
    return "CUBLAS_COMPUTE_32F";
  case CUBLAS_COMPUTE_32F_PEDANTIC:
    return "CUBLAS_COMPUTE_32F_PEDANTIC";
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    return "CUBLAS_COMPUTE_32F_FAST_TF32";
  default:
    return "CUBLAS_COMPUTE_?";
  }
}

std::string tcgen::bench::runGemmEx(cublasHandle_t handle,
                                    const CublasPlan &plan, const void *a,
                                    const void *b, void *c, DType abType,
                                    DType cType, float beta,
                                    cublasComputeType_t compute) {
  // The scalars' type follows the compute type: __half for 16F, else float.
  float alpha = 1.0f;
  __half alphaHalf = __float2half(alpha), betaHalf = __float2half(beta);
  bool half = isHalfCompute(compute);
  const void *alphaPtr = half ? static_cast<const void *>(&alphaHalf)
                              : static_cast<const void *>(&alpha);
  const void *betaPtr = half ? static_cast<const void *>(&betaHalf)
                             : static_cast<const void *>(&beta);
  const void *first = plan.swapped ? b : a;
  const void *second = plan.swapped ? a : b;
  cudaDataType_t ab = cudaTypeOf(abType);
  if (plan.batch > 1)
    return formatCublas(
        "cublasGemmStridedBatchedEx",
        cublasGemmStridedBatchedEx(
            handle, plan.opA, plan.opB, plan.m, plan.n, plan.k, alphaPtr, first,
            ab, static_cast<int>(plan.lda), plan.strideA, second, ab,
            static_cast<int>(plan.ldb), plan.strideB, betaPtr, c,
            cudaTypeOf(cType), static_cast<int>(plan.ldc), plan.strideC,
            plan.batch, compute, CUBLAS_GEMM_DEFAULT));
  return formatCublas(
      "cublasGemmEx",
      cublasGemmEx(handle, plan.opA, plan.opB, plan.m, plan.n, plan.k, alphaPtr,
                   first, ab, static_cast<int>(plan.lda), second, ab,
                   static_cast<int>(plan.ldb), betaPtr, c, cudaTypeOf(cType),
                   static_cast<int>(plan.ldc), compute, CUBLAS_GEMM_DEFAULT));
}

LtGemm::~LtGemm() {
  if (layoutA)
    cublasLtMatrixLayoutDestroy(layoutA);
  if (layoutB)
    cublasLtMatrixLayoutDestroy(layoutB);
  if (layoutC)
    cublasLtMatrixLayoutDestroy(layoutC);
  if (desc)
    cublasLtMatmulDescDestroy(desc);
  if (handle)
    cublasLtDestroy(handle);
  if (workspace)
    cudaFree(workspace);
}

const char *tcgen::bench::ltEpilogueName(LtEpilogue epilogue) {
  switch (epilogue) {
  case LtEpilogue::None:
    return "CUBLASLT_EPILOGUE_DEFAULT";
  case LtEpilogue::Bias:
    return "CUBLASLT_EPILOGUE_BIAS";
  case LtEpilogue::ReluBias:
    return "CUBLASLT_EPILOGUE_RELU_BIAS";
  case LtEpilogue::GeluBias:
    return "CUBLASLT_EPILOGUE_GELU_BIAS";
  }
  return "CUBLASLT_EPILOGUE_?";
}

namespace {
cublasLtEpilogue_t ltEpilogueOf(LtEpilogue epilogue) {
  switch (epilogue) {
  case LtEpilogue::Bias:
    return CUBLASLT_EPILOGUE_BIAS;
  case LtEpilogue::ReluBias:
    return CUBLASLT_EPILOGUE_RELU_BIAS;
  case LtEpilogue::GeluBias:
    return CUBLASLT_EPILOGUE_GELU_BIAS;
  default:
    return CUBLASLT_EPILOGUE_DEFAULT;
  }
}
} // namespace

std::string LtGemm::init(const CublasPlan &plan, DType abType, DType cType,
                         float beta, cublasComputeType_t compute,
                         LtEpilogue epilogue, const void *bias,
                         int algoCount) {
  swapped = plan.swapped;
  betaValue = beta;
  // The scale type (alpha, beta) follows the compute type.
  halfScalars = isHalfCompute(compute);
  alphaHalf = __float2half(alpha);
  betaHalf = __float2half(beta);
  std::string e = formatCublas("cublasLtCreate", cublasLtCreate(&handle));
  if (!e.empty())
    return e;
  e = formatCublas("cublasLtMatmulDescCreate",
                   cublasLtMatmulDescCreate(
                       &desc, compute, halfScalars ? CUDA_R_16F : CUDA_R_32F));
  if (!e.empty())
    return e;
  cublasOperation_t opA = plan.opA, opB = plan.opB;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opA,
                                 sizeof(opA));
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opB,
                                 sizeof(opB));
  if (epilogue != LtEpilogue::None) {
    // One bias vector would serve every matrix of a batch; no baseline
    // needs that.
    if (plan.batch > 1)
      return std::string(ltEpilogueName(epilogue)) +
             " is not set up for a batched matmul";
    if (!bias)
      return std::string(ltEpilogueName(epilogue)) + " needs a bias vector";
    cublasLtEpilogue_t epi = ltEpilogueOf(epilogue);
    // The bias has D's type (cuBLASLt's rule outside fp8 and int8).
    int32_t biasType = cudaTypeOf(cType);
    biasPtr = bias;
    if (!(e = formatCublas(
              "cublasLtMatmulDescSetAttribute(EPILOGUE)",
              cublasLtMatmulDescSetAttribute(
                  desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi))))
             .empty() ||
        !(e = formatCublas("cublasLtMatmulDescSetAttribute(BIAS_DATA_TYPE)",
                           cublasLtMatmulDescSetAttribute(
                               desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                               &biasType, sizeof(biasType))))
             .empty() ||
        !(e = formatCublas("cublasLtMatmulDescSetAttribute(BIAS_POINTER)",
                           cublasLtMatmulDescSetAttribute(
                               desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                               &biasPtr, sizeof(biasPtr))))
             .empty())
      return e;
  }
  // Stored (column-major) shapes: op T stores the transpose.
  uint64_t aRows = opA == CUBLAS_OP_N ? plan.m : plan.k;
  uint64_t aCols = opA == CUBLAS_OP_N ? plan.k : plan.m;
  uint64_t bRows = opB == CUBLAS_OP_N ? plan.k : plan.n;
  uint64_t bCols = opB == CUBLAS_OP_N ? plan.n : plan.k;
  cudaDataType_t ab = cudaTypeOf(abType);
  if (!(e = formatCublas(
            "cublasLtMatrixLayoutCreate(A)",
            cublasLtMatrixLayoutCreate(&layoutA, ab, aRows, aCols, plan.lda)))
           .empty() ||
      !(e = formatCublas(
            "cublasLtMatrixLayoutCreate(B)",
            cublasLtMatrixLayoutCreate(&layoutB, ab, bRows, bCols, plan.ldb)))
           .empty() ||
      !(e = formatCublas("cublasLtMatrixLayoutCreate(C)",
                         cublasLtMatrixLayoutCreate(&layoutC, cudaTypeOf(cType),
                                                    plan.m, plan.n, plan.ldc)))
           .empty())
    return e;
  if (plan.batch > 1) {
    // The same strided batch as cublasGemmStridedBatchedEx.
    struct {
      cublasLtMatrixLayout_t layout;
      int64_t stride;
      const char *name;
    } batched[] = {{layoutA, plan.strideA, "A"},
                   {layoutB, plan.strideB, "B"},
                   {layoutC, plan.strideC, "C"}};
    int32_t count = plan.batch;
    for (const auto &l : batched) {
      std::string what =
          std::string("cublasLtMatrixLayoutSetAttribute(") + l.name + ", ";
      if (!(e = formatCublas((what + "BATCH_COUNT)").c_str(),
                             cublasLtMatrixLayoutSetAttribute(
                                 l.layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                 &count, sizeof(count))))
               .empty() ||
          !(e = formatCublas((what + "STRIDED_BATCH_OFFSET)").c_str(),
                             cublasLtMatrixLayoutSetAttribute(
                                 l.layout,
                                 CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                 &l.stride, sizeof(l.stride))))
               .empty())
        return e;
    }
  }
  e = formatCuda("cudaMalloc", cudaMalloc(&workspace, kLtWorkspaceBytes));
  if (!e.empty())
    return e;
  workspaceBytes = kLtWorkspaceBytes;
  cublasLtMatmulPreference_t pref = nullptr;
  e = formatCublas("cublasLtMatmulPreferenceCreate",
                   cublasLtMatmulPreferenceCreate(&pref));
  if (!e.empty())
    return e;
  cublasLtMatmulPreferenceSetAttribute(pref,
                                       CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                       &workspaceBytes, sizeof(workspaceBytes));
  cublasLtMatmulHeuristicResult_t results[kMaxLtAlgos] = {};
  int requested = std::clamp(algoCount, 1, kMaxLtAlgos);
  int found = 0;
  e = formatCublas("cublasLtMatmulAlgoGetHeuristic",
                   cublasLtMatmulAlgoGetHeuristic(
                       handle, desc, layoutA, layoutB, layoutC, layoutC, pref,
                       requested, results, &found));
  cublasLtMatmulPreferenceDestroy(pref);
  if (!e.empty())
    return e;
  algos.clear();
  for (int i = 0; i < found; ++i)
    if (results[i].state == CUBLAS_STATUS_SUCCESS)
      algos.push_back(results[i].algo);
  if (algos.empty())
    return "cublasLtMatmulAlgoGetHeuristic: no algorithm for this problem";
  algo = algos.front();
  return "";
}

std::string LtGemm::keepFastest(const void *a, const void *b, void *c,
                                cudaStream_t stream, int reps,
                                std::string &summary) {
  if (algos.empty())
    return "no cuBLASLt algorithm to choose from";
  std::vector<cudaEvent_t> events(2 * size_t(std::max(reps, 1)));
  std::string e;
  for (cudaEvent_t &ev : events)
    if (e.empty())
      e = formatCuda("cudaEventCreate", cudaEventCreate(&ev));
  double bestMs = std::numeric_limits<double>::infinity();
  size_t best = algos.size();
  for (size_t i = 0; i < algos.size() && e.empty(); ++i) {
    algo = algos[i];
    // An algorithm that does not run here is passed over; a fault that
    // leaves the context unusable shows in the synchronization.
    if (!run(a, b, c, stream).empty())
      continue;
    std::string failed;
    for (int r = 0; r < reps && failed.empty(); ++r) {
      cudaEventRecord(events[2 * r], stream);
      failed = run(a, b, c, stream);
      cudaEventRecord(events[2 * r + 1], stream);
    }
    if (!(e = formatCuda("cudaStreamSynchronize",
                         cudaStreamSynchronize(stream)))
             .empty() ||
        !failed.empty())
      continue;
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      float t = 0;
      cudaEventElapsedTime(&t, events[2 * r], events[2 * r + 1]);
      ms.push_back(t);
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    if (ms[ms.size() / 2] < bestMs)
      bestMs = ms[ms.size() / 2], best = i;
  }
  for (cudaEvent_t ev : events)
    if (ev)
      cudaEventDestroy(ev);
  if (!e.empty())
    return e;
  if (best == algos.size())
    return "none of cuBLASLt's " + std::to_string(algos.size()) +
           " heuristic algorithms ran";
  algo = algos[best];
  summary = "fastest of " + std::to_string(algos.size()) +
            " heuristic algorithms: #" + std::to_string(best + 1);
  return "";
}

std::string LtGemm::run(const void *a, const void *b, void *c,
                        cudaStream_t stream, const void *bias) {
  if (bias && bias != biasPtr) {
    biasPtr = bias;
    std::string e = formatCublas(
        "cublasLtMatmulDescSetAttribute(BIAS_POINTER)",
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                       &biasPtr, sizeof(biasPtr)));
    if (!e.empty())
      return e;
  }
  const void *first = swapped ? b : a;
  const void *second = swapped ? a : b;
  const void *alphaPtr = halfScalars ? static_cast<const void *>(&alphaHalf)
                                     : static_cast<const void *>(&alpha);
  const void *betaPtr = halfScalars ? static_cast<const void *>(&betaHalf)
                                    : static_cast<const void *>(&betaValue);
  return formatCublas("cublasLtMatmul",
                      cublasLtMatmul(handle, desc, alphaPtr, first, layoutA,
                                     second, layoutB, betaPtr, c, layoutC, c,
                                     layoutC, &algo, workspace, workspaceBytes,
                                     stream));
}
