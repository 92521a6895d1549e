//===- CudaDriver.h - The CUDA driver API, opened at run time ---*- C++ -*-===//
//
// This file declares tcgen::rt::Driver, a table of the CUDA driver entry
// points the runtime uses, resolved from libcuda.so.1 with dlopen and
// cuGetProcAddress. Binaries linking the runtime therefore start on machines
// with no NVIDIA driver and report that cleanly. Internal to libtcgen_rt.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_LIB_CUDADRIVER_H
#define TCGEN_RUNTIME_LIB_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace tcgen::rt {

/// Driver entry points. Types come from cuda.h's prototypes (including their
/// _v2 remappings), so they match the ABI of the headers we compile against.
struct Driver {
#define TCGEN_DRIVER_FUNCTIONS(X)                                              \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceGetName)                                                           \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuLaunchKernelEx)
#define TCGEN_DECLARE_FN(name) decltype(&::name) name##Fn = nullptr;
  TCGEN_DRIVER_FUNCTIONS(TCGEN_DECLARE_FN)
#undef TCGEN_DECLARE_FN
};

/// Returns the driver table, loading libcuda.so.1 and calling cuInit(0) on
/// the first call (thread-safe). On failure returns nullptr and stores the
/// reason in `error`; `noDriver` tells a missing library (true) from a
/// failing cuInit (false).
const Driver *getDriver(std::string &error, bool &noDriver);

/// Formats a failed driver call: "cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE
/// (device kernel image is invalid)".
std::string formatCudaError(const Driver &driver, const char *call,
                            CUresult result);

} // namespace tcgen::rt

#endif // TCGEN_RUNTIME_LIB_CUDADRIVER_H
