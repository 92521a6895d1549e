//===- RawKernel.h - The manifest of a raw (rescheduled) kernel -*- C++ -*-===//
//
// This file declares the "raw kernel" manifest (docs/BUNDLE.md, Raw
// kernels): a kernel with the parameters its source gave it (pointers and
// scalars) and a fixed launch configuration, as `tcgen reschedule` writes
// it for a CUDA kernel it compiled, rescheduled or not. The compiler writes
// it with writeRawKernel(); the GPU tools read it with loadRawKernel().
// No CUDA, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_RAWKERNEL_H
#define TCGEN_RUNTIME_RAWKERNEL_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcgen {

/// One kernel parameter.
struct RawParam {
  /// "ptr" (a device address, 8 bytes) or a scalar: "i32", "i64", "f32",
  /// "f64".
  std::string kind;
  /// ptr: the element type, one of "f32", "f64", "i32", "i64".
  std::string dtype;
  /// ptr: "read", "write" or "readwrite" (what the kernel does with it).
  std::string access;
  /// ptr: the buffer's elements when the manifest gives them.
  std::optional<int64_t> elements;
  /// Scalar: its value when the manifest gives it.
  std::optional<double> value;
};

/// A raw kernel's manifest.
struct RawKernel {
  std::string entry;
  std::string cubin; ///< relative to the manifest; may be empty
  std::string ptx;   ///< relative to the manifest; may be empty
  std::string arch;  ///< e.g. "sm_90a"
  int minCC = 0;
  /// "original" (compiled as written) or "rescheduled".
  std::string variant;
  /// The source file and the kernel's name in it (informative).
  std::string source, kernel;
  std::vector<RawParam> params;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t dynamicSmemBytes = 0;
  /// rescheduled: the pipeline's stages and the bytes of one stage.
  int64_t stages = 0, stageBytes = 0;
  /// What ptxas reported (0 when unknown).
  int64_t registers = 0, spillBytes = 0, staticSmemBytes = 0;
};

/// Parses a raw-kernel manifest. Returns "" or an error naming the field.
std::string parseRawKernel(std::string_view text, RawKernel &out);

/// Reads and parses the manifest at `path`.
std::string loadRawKernel(const std::string &path, RawKernel &out);

/// Prints `kernel` as a manifest parseRawKernel() reads back.
std::string writeRawKernel(const RawKernel &kernel);

/// Sets the parameters' sizes and values from `text`, one entry per
/// parameter separated by commas: a pointer's element count (a positive
/// integer), a scalar's value (an integer for i32/i64). Returns "" or an
/// error naming the entry.
std::string applyRawArgs(std::string_view text, RawKernel &kernel);

/// The bytes of a parameter of kind or dtype `type` (0 if unknown).
int64_t rawTypeBytes(std::string_view type);

} // namespace tcgen

#endif // TCGEN_RUNTIME_RAWKERNEL_H
