//===- Validate.h - Launch-argument validation ------------------*- C++ -*-===//
//
// This file declares validateLaunch(), the pure check the runtime runs before
// every launch: do the caller's tensors and the device match what the
// manifest says the kernel was compiled for? No CUDA: the caller describes
// the device in a DeviceInfo, so the check is unit-testable anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_VALIDATE_H
#define TCGEN_RUNTIME_VALIDATE_H

#include "tcgen/Runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcgen {

/// One tensor argument as the caller passes it.
struct TensorArg {
  std::string name;
  DType dtype = DType::F16;
  std::vector<int64_t> shape;   // elements, outermost first
  std::vector<int64_t> strides; // elements, outermost first
  uintptr_t address = 0;        // device address of element 0
};

/// What the runtime knows about the device it launches on.
struct DeviceInfo {
  int ccMajor = 0;
  int ccMinor = 0;
  int64_t maxDynamicSmemBytes = 0; // opt-in limit per block
  std::string name;
};

/// Returns "" if `device` can run the manifest's kernel: compute capability
/// at least target.min_cc, and exactly XX for an "sm_XXa" arch. Otherwise a
/// message naming the device, what it has and what the kernel needs.
std::string validateDevice(const Manifest &manifest, const DeviceInfo &device);

/// Returns "" if a launch of the manifest's kernel with `args` on `device`
/// is valid; otherwise one message naming the first problem, e.g.
/// "operand 'A': dtype mismatch: kernel expects f16, got f32". Checks, in
/// order: the device (validateDevice), dynamic + static shared memory
/// against the device limit, the argument count, then per argument (in
/// operand order): name, dtype, shape, strides, non-null address, alignment.
std::string validateLaunch(const Manifest &manifest,
                           const std::vector<TensorArg> &args,
                           const DeviceInfo &device);

} // namespace tcgen

#endif // TCGEN_RUNTIME_VALIDATE_H
