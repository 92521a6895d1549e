//===- CublasGemm.h - cuBLAS and cuBLASLt on strided operands ---*- C++ -*-===//
//
// This file declares how tcgen-gpu maps a matmul on strided matrices (the
// manifest's row- or column-major layouts) onto column-major cuBLAS: for a
// row-major C it computes C^T = B^T A^T with the operands swapped. It runs
// cublasGemmEx, or cublasGemmStridedBatchedEx for a batch of matmuls
// (reference and benchmark), and cublasLtMatmul (benchmark),
// with the alpha/beta scalar type that the compute type needs (__half for
// CUBLAS_COMPUTE_16F*, float otherwise), optionally with a fused cuBLASLt
// bias / ReLU / GELU epilogue (the fusion baselines).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_CUBLASGEMM_H
#define TCGEN_BENCH_CUBLASGEMM_H

#include "tcgen/Runtime/Manifest.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <string>
#include <vector>

namespace tcgen::bench {

/// A logical rows x cols matrix: element (i, j) at i*stride0 + j*stride1;
/// in a batch of them, matrix b starts batchStride elements after matrix
/// b-1 (unused for a single matrix).
struct MatrixLayout {
  int64_t rows = 0, cols = 0, stride0 = 0, stride1 = 0;
  int64_t batchStride = 0;
  /// Several batch dimensions (HostMatrix's batchDims): their extents and
  /// strides, outermost first. cuBLAS's strided batches take one stride:
  /// planCublas refuses these.
  std::vector<int64_t> batchDims, batchDimStrides;
  bool multiBatch() const { return !batchDims.empty(); }
};

/// A column-major cuBLAS call computing C[m,n] = A[m,k] B[k,n], or for
/// batch > 1 that for each of `batch` matrices, cuBLAS's A, B and C of
/// matrix b at b*strideA, b*strideB, b*strideC elements.
struct CublasPlan {
  cublasOperation_t opA = CUBLAS_OP_N, opB = CUBLAS_OP_N;
  int m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  bool swapped = false; // cuBLAS's A is our B (C^T = B^T A^T)
  int batch = 1;
  int64_t strideA = 0, strideB = 0, strideC = 0; // cuBLAS's operands
};

/// The matmul a caller would give cuBLAS for a batch whose inputs each lack
/// some of its dimensions (a broadcast: stride 0 in `a` or `b`, as for
/// C[b,h,s,e] = X[b,s,d] W[d,h,e]): one matmul over the flattened
/// dimensions, M' = m times the extents of the batch dimensions B lacks, N'
/// = n times those A lacks, batched over those both hold, every operand
/// read row-major and batch-contiguous from its bytes (C's elements are the
/// caller's C permuted). `batch` is the number of matrices when `a` and `b`
/// have one batch stride. Returns false (and leaves the outputs alone)
/// where neither input has a broadcast dimension or an operand's bytes
/// would not hold the flattened matrices.
bool flattenBroadcast(const MatrixLayout &a, const MatrixLayout &b,
                      const MatrixLayout &c, int64_t batch, MatrixLayout &fa,
                      MatrixLayout &fb, MatrixLayout &fc, int64_t &fbatch);

/// Plans C = A B for the given layouts, for `batch` matrices (> 1: with
/// each layout's batchStride). Returns "" or why cuBLAS cannot express it
/// (neither stride of an operand is 1, or sizes overflow int).
std::string planCublas(const MatrixLayout &a, const MatrixLayout &b,
                       const MatrixLayout &c, CublasPlan &plan,
                       int64_t batch = 1);

/// The cuBLAS function runGemmEx() calls for `plan`: "cublasGemmEx", or
/// "cublasGemmStridedBatchedEx" for a batch.
const char *gemmExName(const CublasPlan &plan);

/// cuBLAS's data type for a float dtype.
cudaDataType_t cudaTypeOf(DType dtype);

/// The cuBLAS compute type that accumulates like a kernel whose manifest
/// says op.accumulator = `accumulator`: CUBLAS_COMPUTE_16F for f16,
/// CUBLAS_COMPUTE_32F otherwise.
cublasComputeType_t computeTypeFor(DType accumulator);

/// Returns "" if cuBLAS can run A (abType) x B (abType) -> C (cType) with
/// `compute`, else why not (CUBLAS_COMPUTE_16F needs f16 A, B and C).
std::string checkComputeType(cublasComputeType_t compute, DType abType,
                             DType cType);

/// Whether `compute` takes __half alpha/beta (and cuBLASLt scale type
/// CUDA_R_16F): CUBLAS_COMPUTE_16F and CUBLAS_COMPUTE_16F_PEDANTIC.
bool isHalfCompute(cublasComputeType_t compute);

/// The enumerator's name, e.g. "CUBLAS_COMPUTE_32F".
const char *computeTypeName(cublasComputeType_t compute);

/// Runs C = A B + beta C with cublasGemmEx, or for plan.batch > 1 every
/// matrix of the batch with cublasGemmStridedBatchedEx (alpha = 1; the
/// scalars are passed as __half for CUBLAS_COMPUTE_16F*, as float
/// otherwise). The pointers address matrix 0.
std::string runGemmEx(cublasHandle_t handle, const CublasPlan &plan,
                      const void *a, const void *b, void *c, DType abType,
                      DType cType, float beta, cublasComputeType_t compute);

/// A cuBLASLt epilogue fused into the matmul, applied to A B + beta C:
/// None; Bias (+ bias); ReluBias (relu(. + bias),
/// CUBLASLT_EPILOGUE_RELU_BIAS); GeluBias (gelu(. + bias), the tanh form,
/// CUBLASLT_EPILOGUE_GELU_BIAS). The bias vector is indexed by the row of
/// cuBLAS's column-major D, i.e. by its M: for a swapped plan (row-major C)
/// that is our column j, a vector of length n; otherwise our row i.
enum class LtEpilogue { None, Bias, ReluBias, GeluBias };

/// The most algorithms LtGemm asks cuBLASLt's heuristic for.
constexpr int kMaxLtAlgos = 32;

/// The cuBLASLt enumerator's name, e.g. "CUBLASLT_EPILOGUE_RELU_BIAS".
const char *ltEpilogueName(LtEpilogue epilogue);

/// cublasLtMatmul with the heuristic's top algorithm, or the fastest of
/// its first few (keepFastest()), set up once.
class LtGemm {
public:
  LtGemm() = default;
  ~LtGemm();
  LtGemm(const LtGemm &) = delete;
  LtGemm &operator=(const LtGemm &) = delete;

  /// Creates the descriptors for `compute` (scale type CUDA_R_16F for
  /// CUBLAS_COMPUTE_16F*, CUDA_R_32F otherwise) and picks an algorithm.
  /// A batched plan (plan.batch > 1) sets CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT
  /// and CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET on every layout; it
  /// takes no bias epilogue.
  /// With a bias epilogue, `bias` is a device vector (see LtEpilogue) of
  /// cType: CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE is set to the output's
  /// type, which is what cuBLASLt takes for f16/bf16/f32 outputs (other
  /// bias types are for fp8 and int8 matmuls only); the heuristic sees its
  /// alignment. The heuristic is asked for `algoCount` algorithms (at
  /// least 1, at most kMaxLtAlgos); run() uses its first until
  /// keepFastest() picks another. Returns "" or why not.
  std::string init(const CublasPlan &plan, DType abType, DType cType,
                   float beta, cublasComputeType_t compute,
                   LtEpilogue epilogue = LtEpilogue::None,
                   const void *bias = nullptr, int algoCount = 1);
  /// Times each algorithm the heuristic returned on a, b, c (`reps` runs
  /// each, every run between its own CUDA events on `stream`, after one
  /// untimed run) and keeps the one of the smallest median; an algorithm
  /// that fails to run is passed over. Returns "" or why none ran;
  /// `summary` says which was kept, e.g. "fastest of 8 heuristic
  /// algorithms: #3".
  std::string keepFastest(const void *a, const void *b, void *c,
                          cudaStream_t stream, int reps,
                          std::string &summary);
  /// How many algorithms the heuristic returned.
  size_t algorithmCount() const { return algos.size(); }
  /// Runs D = C = epilogue(A B + beta C) on `stream`; `bias` (if not null)
  /// replaces the bias vector from then on.
  std::string run(const void *a, const void *b, void *c, cudaStream_t stream,
                  const void *bias = nullptr);

private:
  cublasLtHandle_t handle = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t layoutA = nullptr, layoutB = nullptr,
                         layoutC = nullptr;
  cublasLtMatmulAlgo_t algo = {};
  std::vector<cublasLtMatmulAlgo_t> algos; // the heuristic's, best first
  void *workspace = nullptr;
  size_t workspaceBytes = 0;
  bool swapped = false;
  bool halfScalars = false; // scale type CUDA_R_16F
  const void *biasPtr = nullptr;
  float alpha = 1.0f, betaValue = 0.0f;
  __half alphaHalf = __float2half(1.0f), betaHalf = __float2half(0.0f);
};

} // namespace tcgen::bench

#endif // TCGEN_BENCH_CUBLASGEMM_H
