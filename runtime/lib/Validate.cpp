//===- Validate.cpp - Launch-argument validation --------------------------===//
//
// This file implements validateDevice() and validateLaunch().
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Validate.h"

#include <cstdio>

using namespace tcgen;

namespace {
std::string formatDims(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string formatAddress(uintptr_t address) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx",
                static_cast<unsigned long long>(address));
  return buf;
}

std::string describeDevice(const DeviceInfo &device) {
  return "device '" + device.name + "' (compute capability " +
         std::to_string(device.ccMajor) + "." + std::to_string(device.ccMinor) +
         ")";
}

/// Returns XX for an arch "sm_XXa" (architecture-specific features), or -1.
int archSpecificCC(const std::string &arch) {
  if (arch.size() < 5 || arch.compare(0, 3, "sm_") != 0 || arch.back() != 'a')
    return -1;
  int cc = 0;
  for (size_t i = 3; i + 1 < arch.size(); ++i) {
    if (arch[i] < '0' || arch[i] > '9')
      return -1;
    cc = cc * 10 + (arch[i] - '0');
    if (cc > 100000)
      return -1;
  }
  return cc;
}

std::string listNames(const Manifest &manifest) {
  std::string s;
  for (size_t i = 0; i < manifest.operands.size(); ++i)
    s += (i ? ", " : "") + manifest.operands[i].name;
  return s;
}

std::string checkArg(const Operand &operand, const TensorArg &arg) {
  std::string prefix = "operand '" + operand.name + "': ";
  if (arg.dtype != operand.dtype)
    return prefix + "dtype mismatch: kernel expects " +
           dtypeName(operand.dtype) + ", got " + dtypeName(arg.dtype);
  if (arg.shape != operand.shape)
    return prefix + "shape mismatch: kernel expects " +
           formatDims(operand.shape) + ", got " + formatDims(arg.shape);
  if (arg.strides != operand.strides)
    return prefix + "strides mismatch: kernel expects " +
           formatDims(operand.strides) + ", got " + formatDims(arg.strides);
  if (arg.address == 0)
    return prefix + "null device pointer";
  if (arg.address % static_cast<uintptr_t>(operand.alignBytes) != 0)
    return prefix + "misaligned pointer: kernel expects " +
           std::to_string(operand.alignBytes) + "-byte alignment, got " +
           formatAddress(arg.address);
  return "";
}
} // namespace

std::string tcgen::validateDevice(const Manifest &manifest,
                                  const DeviceInfo &device) {
  int cc = device.ccMajor * 10 + device.ccMinor;
  if (cc < manifest.target.minCC)
    return describeDevice(device) + " is below the kernel's min_cc " +
           std::to_string(manifest.target.minCC) + " (target " +
           manifest.target.arch + ")";
  int exact = archSpecificCC(manifest.target.arch);
  if (exact >= 0 && cc != exact)
    return describeDevice(device) + " cannot run a kernel built for " +
           manifest.target.arch + ": it runs on compute capability " +
           std::to_string(exact / 10) + "." + std::to_string(exact % 10) +
           " only";
  return "";
}

std::string tcgen::validateLaunch(const Manifest &manifest,
                                  const std::vector<TensorArg> &args,
                                  const DeviceInfo &device) {
  std::string error = validateDevice(manifest, device);
  if (!error.empty())
    return error;
  int64_t smem =
      manifest.launch.dynamicSmemBytes + manifest.resources.staticSmemBytes;
  if (smem > device.maxDynamicSmemBytes)
    return "launch: shared memory " +
           std::to_string(manifest.launch.dynamicSmemBytes) + " B dynamic + " +
           std::to_string(manifest.resources.staticSmemBytes) +
           " B static exceeds the limit of " +
           std::to_string(device.maxDynamicSmemBytes) + " B per block on " +
           describeDevice(device);
  if (args.size() != manifest.operands.size())
    return "argument count mismatch: kernel expects " +
           std::to_string(manifest.operands.size()) + " tensors (" +
           listNames(manifest) + "), got " + std::to_string(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Operand &operand = manifest.operands[i];
    if (args[i].name != operand.name)
      return "argument " + std::to_string(i) +
             ": name mismatch: kernel expects operand '" + operand.name +
             "', got '" + args[i].name +
             "' (pass tensors in order: " + listNames(manifest) + ")";
    error = checkArg(operand, args[i]);
    if (!error.empty())
      return error;
  }
  return "";
}
