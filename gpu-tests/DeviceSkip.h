//===- DeviceSkip.h - Skip a GPU test where no device is usable -*- C++ -*-===//
//
// Shared by the tcgen-gpu-tests sources: whether a CUDA device can be used
// (asked once) and the macro that skips a test when it cannot.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_GPU_TESTS_DEVICESKIP_H
#define TCGEN_GPU_TESTS_DEVICESKIP_H

#include "CudaUtil.h"
#include "tcgen/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tcgen::bench {

/// "" when a CUDA device can be used, else why not. Computed once.
inline const std::string &gpuUnavailable() {
  static const std::string reason = [] {
    int count = 0;
    if (tcgen_rt_device_count(&count) != TCGEN_OK)
      return std::string("no CUDA device: ") + tcgen_rt_last_error();
    if (count == 0)
      return std::string("no CUDA device found");
    std::string error = initDevice();
    return error.empty() ? error : "no CUDA device: " + error;
  }();
  return reason;
}

/// Where the hand-made reference bundles are: $TCGEN_REF_BUNDLES, else the
/// build's.
inline std::string refBundlesDir() {
  const char *env = std::getenv("TCGEN_REF_BUNDLES");
  return env && *env ? env : TCGEN_REF_BUNDLES_DEFAULT;
}

} // namespace tcgen::bench

#define SKIP_WITHOUT_GPU()                                                     \
  do {                                                                         \
    if (!::tcgen::bench::gpuUnavailable().empty())                             \
      GTEST_SKIP() << ::tcgen::bench::gpuUnavailable();                        \
  } while (0)

#endif // TCGEN_GPU_TESTS_DEVICESKIP_H
