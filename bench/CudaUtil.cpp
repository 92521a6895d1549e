//===- CudaUtil.cpp - CUDA runtime and cuBLAS helpers ---------------------===//
//
// This file implements the error formatting, device check and DeviceBuffer
// of CudaUtil.h.
//
//===----------------------------------------------------------------------===//

#include "CudaUtil.h"

using namespace tcgen::bench;

std::string tcgen::bench::formatCuda(const char *call, cudaError_t result) {
  if (result == cudaSuccess)
    return "";
  return std::string(call) + ": " + cudaGetErrorName(result) + " (" +
         cudaGetErrorString(result) + ")";
}

std::string tcgen::bench::formatCublas(const char *call,
                                       cublasStatus_t result) {
  if (result == CUBLAS_STATUS_SUCCESS)
    return "";
  return std::string(call) + ": " + cublasGetStatusName(result) + " (" +
         cublasGetStatusString(result) + ")";
}

std::string tcgen::bench::initDevice() {
  int count = 0;
  cudaError_t r = cudaGetDeviceCount(&count);
  if (r != cudaSuccess)
    return std::string("no CUDA device found (") + cudaGetErrorName(r) + ": " +
           cudaGetErrorString(r) + ")";
  if (count == 0)
    return "no CUDA device found";
  std::string error = formatCuda("cudaSetDevice", cudaSetDevice(0));
  if (error.empty()) // Makes the primary context current for the runtime.
    error = formatCuda("cudaFree", cudaFree(nullptr));
  return error;
}

std::string tcgen::bench::getDeviceProps(DeviceProps &props) {
  int device = 0;
  std::string error = formatCuda("cudaGetDevice", cudaGetDevice(&device));
  if (!error.empty())
    return error;
  cudaDeviceProp p;
  error = formatCuda("cudaGetDeviceProperties",
                     cudaGetDeviceProperties(&p, device));
  if (!error.empty())
    return error;
  props.name = p.name;
  props.ccMajor = p.major;
  props.ccMinor = p.minor;
  props.smCount = p.multiProcessorCount;
  props.l2Bytes = p.l2CacheSize;
  return "";
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    reset();
    ptr = o.ptr;
    size = o.size;
    o.ptr = nullptr;
    o.size = 0;
  }
  return *this;
}

std::string DeviceBuffer::allocate(size_t bytes) {
  reset();
  size_t rounded = (bytes + 255) / 256 * 256;
  std::string error =
      formatCuda("cudaMalloc", cudaMalloc(&ptr, rounded ? rounded : 256));
  if (!error.empty()) {
    ptr = nullptr;
    return error + " (" + std::to_string(rounded) + " bytes)";
  }
  size = bytes;
  return "";
}

std::string DeviceBuffer::upload(const void *host, size_t bytes) {
  return formatCuda("cudaMemcpy(H2D)",
                    cudaMemcpy(ptr, host, bytes, cudaMemcpyHostToDevice));
}

std::string DeviceBuffer::download(void *host, size_t bytes) const {
  return formatCuda("cudaMemcpy(D2H)",
                    cudaMemcpy(host, ptr, bytes, cudaMemcpyDeviceToHost));
}

void DeviceBuffer::reset() {
  if (ptr)
    cudaFree(ptr);
  ptr = nullptr;
  size = 0;
}
