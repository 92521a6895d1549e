//===- CudaDriver.cpp - The CUDA driver API, opened at run time -----------===//
//
// This file implements getDriver(): dlopen libcuda.so.1, resolve every entry
// point through cuGetProcAddress at the CUDA version its prototype has, and
// call cuInit once.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

using namespace tcgen::rt;

namespace {
using GetProcAddressFn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                      CUdriverProcAddressQueryResult *);

struct DriverState {
  Driver driver;
  std::string error;
  bool noDriver = false;
  bool ok = false;
};

void loadDriver(DriverState &state) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    state.noDriver = true;
    state.error = std::string("cannot load the CUDA driver (libcuda.so.1): ") +
                  (why ? why : "unknown error");
    return;
  }
  auto getProc =
      reinterpret_cast<GetProcAddressFn>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc) {
    state.noDriver = true;
    state.error = "the CUDA driver is too old: libcuda.so.1 has no "
                  "cuGetProcAddress_v2 (a CUDA 12 or newer driver is needed)";
    return;
  }
  Driver &d = state.driver;
#define TCGEN_RESOLVE_FN(name, version)                                        \
  {                                                                            \
    void *fn = nullptr;                                                        \
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;        \
    if (getProc(#name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &found) !=   \
            CUDA_SUCCESS ||                                                    \
        !fn) {                                                                 \
      state.noDriver = true;                                                   \
      state.error = "the CUDA driver lacks " #name " (CUDA " +                 \
                    std::to_string(version / 1000) + "." +                     \
                    std::to_string(version % 1000 / 10) + " ABI)";             \
      return;                                                                  \
    }                                                                          \
    d.name##Fn = reinterpret_cast<decltype(d.name##Fn)>(fn);                   \
  }
  TCGEN_DRIVER_FUNCTIONS(TCGEN_RESOLVE_FN)
#undef TCGEN_RESOLVE_FN
  CUresult result = d.cuInitFn(0);
  if (result != CUDA_SUCCESS) {
    state.error = formatCudaError(d, "cuInit", result);
    return;
  }
  state.ok = true;
}
} // namespace

const Driver *tcgen::rt::getDriver(std::string &error, bool &noDriver) {
  static DriverState state;
  static std::once_flag once;
  std::call_once(once, [] { loadDriver(state); });
  if (!state.ok) {
    error = state.error;
    noDriver = state.noDriver;
    return nullptr;
  }
  return &state.driver;
}

std::string tcgen::rt::formatCudaError(const Driver &driver, const char *call,
                                       CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (driver.cuGetErrorNameFn)
    driver.cuGetErrorNameFn(result, &name);
  if (driver.cuGetErrorStringFn)
    driver.cuGetErrorStringFn(result, &text);
  std::string s = std::string(call) + ": " +
                  (name ? name : "CUDA error " + std::to_string(result));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}
