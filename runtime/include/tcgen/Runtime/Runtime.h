//===- Runtime.h - C++ wrapper over the tcgen runtime -----------*- C++ -*-===//
//
// This file declares tcgen::rt::Kernel, an RAII owner of a tcgen_kernel
// handle (tcgen_rt.h) that launches with tcgen::TensorArg arguments and
// exposes the parsed manifest. Errors come back as strings, never thrown.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_RUNTIME_H
#define TCGEN_RUNTIME_RUNTIME_H

#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Validate.h"
#include "tcgen/tcgen_rt.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcgen::rt {

/// Returns the manifest a handle was loaded from (nullptr for null). Lives
/// as long as the handle.
const Manifest *getManifest(const tcgen_kernel *kernel);

/// Owns a loaded kernel; unloads it on destruction. Movable, not copyable.
class Kernel {
public:
  Kernel() = default;
  ~Kernel() { tcgen_rt_unload(handle); }
  Kernel(Kernel &&other) noexcept
      : handle(std::exchange(other.handle, nullptr)),
        bound(std::move(other.bound)) {}
  Kernel &operator=(Kernel &&other) noexcept {
    if (this != &other) {
      tcgen_rt_unload(handle);
      handle = std::exchange(other.handle, nullptr);
      bound = std::move(other.bound);
    }
    return *this;
  }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  /// Loads the bundle at `path` (replacing any kernel held). Returns "" or
  /// the runtime's message; status() tells the kind of failure.
  std::string load(const std::string &path) {
    tcgen_rt_unload(handle);
    handle = nullptr;
    bound.reset();
    lastStatus = tcgen_rt_load(path.c_str(), &handle);
    return lastStatus == TCGEN_OK ? std::string() : tcgen_rt_last_error();
  }

  /// Validates and launches on `stream`. Returns "" or the runtime's message.
  std::string launch(const std::vector<TensorArg> &args,
                     CUstream stream = nullptr) {
    std::vector<tcgen_tensor_arg> cArgs(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const TensorArg &a = args[i];
      cArgs[i] = {a.name.c_str(),
                  static_cast<tcgen_dtype>(a.dtype),
                  static_cast<int>(a.shape.size()),
                  a.shape.data(),
                  a.strides.data(),
                  static_cast<CUdeviceptr>(a.address)};
    }
    lastStatus = tcgen_rt_launch(handle, cArgs.data(),
                                 static_cast<int>(cArgs.size()), stream);
    return lastStatus == TCGEN_OK ? std::string() : tcgen_rt_last_error();
  }

  bool isLoaded() const { return handle != nullptr; }
  tcgen_status status() const { return lastStatus; }
  tcgen_kernel *get() const { return handle; }
  /// Requires isLoaded(). After bindSizes(), the bound manifest.
  const Manifest &manifest() const {
    return bound ? *bound : *getManifest(handle);
  }
  /// Requires isLoaded(). For a kernel whose sizes are fixed at launch:
  /// manifest() describes the launch of sizes m, n and k from now on
  /// (specializeManifest: dense strides), for callers that allocate its
  /// tensors. Launches still bind each to its own tensors. Returns "" or
  /// why not (a size fixed at launch and not given).
  std::string bindSizes(int64_t m, int64_t n, int64_t k) {
    Manifest out;
    std::string error =
        specializeManifest(*getManifest(handle), m, n, k, out);
    if (error.empty())
      bound = std::move(out);
    return error;
  }
  /// Whether the loaded kernel leaves sizes to the launch.
  bool isDynamic() const { return getManifest(handle)->isDynamic(); }
  const char *binaryKind() const { return tcgen_rt_binary_kind(handle); }
  /// Why the manifest's cubin was not used ("" if it was, or if none).
  const char *loadNote() const { return tcgen_rt_load_note(handle); }
  const char *deviceName() const { return tcgen_rt_device_name(handle); }

private:
  tcgen_kernel *handle = nullptr;
  std::optional<Manifest> bound;
  tcgen_status lastStatus = TCGEN_OK;
};

} // namespace tcgen::rt

#endif // TCGEN_RUNTIME_RUNTIME_H
