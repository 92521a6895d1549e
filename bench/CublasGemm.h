//===- CublasGemm.h - cuBLAS and cuBLASLt on strided operands ---*- C++ -*-===//
//
// This file declares how tcgen-gpu maps a matmul on strided matrices (the
// manifest's row- or column-major layouts) onto column-major cuBLAS: for a
// row-major C it computes C^T = B^T A^T with the operands swapped. It runs
// cublasGemmEx (reference and benchmark) and cublasLtMatmul (benchmark).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_CUBLASGEMM_H
#define TCGEN_BENCH_CUBLASGEMM_H

#include "tcgen/Runtime/Manifest.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <string>

namespace tcgen::bench {

/// A logical rows x cols matrix: element (i, j) at i*stride0 + j*stride1.
struct MatrixLayout {
  int64_t rows = 0, cols = 0, stride0 = 0, stride1 = 0;
};

/// A column-major cuBLAS call computing C[m,n] = A[m,k] B[k,n].
struct CublasPlan {
  cublasOperation_t opA = CUBLAS_OP_N, opB = CUBLAS_OP_N;
  int m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  bool swapped = false; // cuBLAS's A is our B (C^T = B^T A^T)
};

/// Plans C = A B for the given layouts. Returns "" or why cuBLAS cannot
/// express it (neither stride of an operand is 1, or sizes overflow int).
std::string planCublas(const MatrixLayout &a, const MatrixLayout &b,
                       const MatrixLayout &c, CublasPlan &plan);

/// cuBLAS's data type for a float dtype.
cudaDataType_t cudaTypeOf(DType dtype);

/// Runs C = A B + beta C with cublasGemmEx (alpha = 1, f32 scalars).
std::string runGemmEx(cublasHandle_t handle, const CublasPlan &plan,
                      const void *a, const void *b, void *c, DType abType,
                      DType cType, float beta, cublasComputeType_t compute);

/// cublasLtMatmul with the heuristic's top algorithm, set up once.
class LtGemm {
public:
  LtGemm() = default;
  ~LtGemm();
  LtGemm(const LtGemm &) = delete;
  LtGemm &operator=(const LtGemm &) = delete;

  /// Creates the descriptors and picks an algorithm. Returns "" or why not.
  std::string init(const CublasPlan &plan, DType abType, DType cType,
                   float beta);
  /// Runs D = C = A B + beta C on `stream`.
  std::string run(const void *a, const void *b, void *c, cudaStream_t stream);

private:
  cublasLtHandle_t handle = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t layoutA = nullptr, layoutB = nullptr,
                         layoutC = nullptr;
  cublasLtMatmulAlgo_t algo = {};
  void *workspace = nullptr;
  size_t workspaceBytes = 0;
  bool swapped = false;
  float alpha = 1.0f, betaValue = 0.0f;
};

} // namespace tcgen::bench

#endif // TCGEN_BENCH_CUBLASGEMM_H
