//===- PointwiseStub.cpp - Pointwise launchers without nvcc ---------------===//
//
// This file implements the launchers of Pointwise.h for a build that found
// the CUDA toolkit's libraries but no CUDA compiler: each one says so.
//
//===----------------------------------------------------------------------===//

#include "Pointwise.h"

using namespace tcgen;
using namespace tcgen::bench;

namespace {
std::string notBuilt(const char *kernel) {
  return std::string(kernel) +
         ": tcgen-gpu was built without a CUDA compiler (nvcc), so it has no "
         "pointwise kernels";
}
} // namespace

std::string tcgen::bench::addRelu(const PwInput &, const PwInput &,
                                  const PwOutput &, int64_t, int64_t,
                                  cudaStream_t) {
  return notBuilt("addRelu");
}

std::string tcgen::bench::addScalar(const PwInput &, float, const PwOutput &,
                                    int64_t, int64_t, cudaStream_t) {
  return notBuilt("addScalar");
}

std::string tcgen::bench::biasGeluResidual(const PwInput &, const void *, DType,
                                           const PwInput &, const PwOutput &,
                                           int64_t, int64_t, cudaStream_t) {
  return notBuilt("biasGeluResidual");
}

std::string tcgen::bench::relu(const PwInput &, const PwOutput &, int64_t,
                               int64_t, cudaStream_t) {
  return notBuilt("relu");
}

std::string tcgen::bench::reluInplace(const PwOutput &, int64_t, int64_t,
                                      cudaStream_t) {
  return notBuilt("reluInplace");
}

std::string tcgen::bench::add(const PwInput &, const PwInput &,
                              const PwOutput &, int64_t, int64_t,
                              cudaStream_t) {
  return notBuilt("add");
}

std::string tcgen::bench::copyMatrices(const void *, int64_t, int64_t, void *,
                                       int64_t, int64_t, int64_t, int64_t,
                                       int64_t, int64_t, cudaStream_t) {
  return notBuilt("copyMatrices");
}
