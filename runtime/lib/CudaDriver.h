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
#include <cudaTypedefs.h>

#include <string>

namespace tcgen::rt {

/// Driver entry points. Each is resolved for the CUDA version given beside
/// it, and typed with cudaTypedefs.h's PFN for that version, so the ABI we
/// call matches the ABI we get (cuCtxGetDevice, say, changed in 13.0).
struct Driver {
#define TCGEN_DRIVER_FUNCTIONS(X)                                              \
  X(cuInit, 2000)                                                              \
  X(cuGetErrorName, 6000)                                                      \
  X(cuGetErrorString, 6000)                                                    \
  X(cuDeviceGetCount, 2000)                                                    \
  X(cuDeviceGet, 2000)                                                         \
  X(cuDeviceGetAttribute, 2000)                                                \
  X(cuDeviceGetName, 2000)                                                     \
  X(cuCtxGetCurrent, 4000)                                                     \
  X(cuCtxSetCurrent, 4000)                                                     \
  X(cuCtxGetDevice, 2000)                                                      \
  X(cuCtxPushCurrent, 4000)                                                    \
  X(cuCtxPopCurrent, 4000)                                                     \
  X(cuDevicePrimaryCtxRetain, 7000)                                            \
  X(cuDevicePrimaryCtxRelease, 11000)                                          \
  X(cuModuleLoadData, 2000)                                                    \
  X(cuModuleLoadDataEx, 2010)                                                  \
  X(cuModuleUnload, 2000)                                                      \
  X(cuModuleGetFunction, 2000)                                                 \
  X(cuFuncSetAttribute, 9000)                                                  \
  X(cuMemAlloc, 3020)                                                          \
  X(cuMemFree, 3020)                                                           \
  X(cuMemsetD8Async, 3020)                                                     \
  X(cuLaunchKernel, 4000)                                                      \
  X(cuLaunchKernelEx, 11060)                                                   \
  X(cuOccupancyMaxActiveClusters, 11070)                                       \
  X(cuTensorMapEncodeTiled, 12000)                                             \
  X(cuTensorMapReplaceAddress, 12000)                                          \
  X(cuStreamSynchronize, 2000)                                                 \
  X(cuStreamIsCapturing, 10000)                                                \
  X(cuGraphCreate, 10000)                                                      \
  X(cuGraphDestroy, 10000)                                                     \
  X(cuGraphAddKernelNode, 12000)                                               \
  X(cuGraphKernelNodeSetAttribute, 11000)                                      \
  X(cuGraphInstantiateWithFlags, 11040)                                        \
  X(cuGraphExecDestroy, 10000)                                                 \
  X(cuGraphExecKernelNodeSetParams, 12000)                                     \
  X(cuGraphLaunch, 10000)
#define TCGEN_DECLARE_FN(name, version)                                        \
  PFN_##name##_v##version name##Fn = nullptr;
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
