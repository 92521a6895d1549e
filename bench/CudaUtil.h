//===- CudaUtil.h - CUDA runtime and cuBLAS helpers -------------*- C++ -*-===//
//
// This file declares small helpers for the GPU tools: error strings for
// cudart and cuBLAS calls, an RAII device buffer, and the device check every
// tool runs first.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_CUDAUTIL_H
#define TCGEN_BENCH_CUDAUTIL_H

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace tcgen::bench {

/// "call: cudaErrorX (description)", or "" for cudaSuccess.
std::string formatCuda(const char *call, cudaError_t result);
/// "call: CUBLAS_STATUS_X (description)", or "" for success.
std::string formatCublas(const char *call, cublasStatus_t result);

/// Returns "" and selects device 0 (creating its primary context) if a CUDA
/// device is present; else "no CUDA device found (reason)".
std::string initDevice();

/// Name, compute capability and L2 size of the current device.
struct DeviceProps {
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int64_t l2Bytes = 0;
};
std::string getDeviceProps(DeviceProps &props);

/// A device allocation, freed on destruction. Movable.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer &&o) noexcept : ptr(o.ptr), size(o.size) {
    o.ptr = nullptr;
    o.size = 0;
  }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// Allocates `bytes` (256-byte aligned); returns "" or the CUDA error.
  std::string allocate(size_t bytes);
  /// Copies host bytes in / out; returns "" or the CUDA error.
  std::string upload(const void *host, size_t bytes);
  std::string download(void *host, size_t bytes) const;
  void reset();

  void *get() const { return ptr; }
  size_t bytes() const { return size; }

private:
  void *ptr = nullptr;
  size_t size = 0;
};

} // namespace tcgen::bench

#endif // TCGEN_BENCH_CUDAUTIL_H
