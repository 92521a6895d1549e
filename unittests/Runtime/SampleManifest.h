//===- SampleManifest.h - The manifest of docs/BUNDLE.md ------*- C++ -*-===//
//
// This file implements a helper for the runtime unit tests: the example
// manifest of docs/BUNDLE.md as text, and edits of it.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_UNITTESTS_RUNTIME_SAMPLEMANIFEST_H
#define TCGEN_UNITTESTS_RUNTIME_SAMPLEMANIFEST_H

#include <string>

namespace tcgen::testing {

/// Returns the example manifest of docs/BUNDLE.md, verbatim.
inline std::string sampleManifestText() {
  return R"json({
  "format": "tcgen.bundle",
  "version": 1,
  "entry": "matmul_kernel",
  "cubin": "matmul_kernel.cubin",
  "ptx": "matmul_kernel.ptx",
  "target": { "arch": "sm_90a", "backend": "wmma", "min_cc": 80 },
  "op": { "kind": "matmul", "batch": 1, "m": 1024, "n": 1024, "k": 1024,
          "accumulate": false, "accumulator": "f32" },
  "operands": [
    { "name": "A", "role": "lhs", "dtype": "f16", "shape": [1024, 1024],
      "strides": [1024, 1], "align_bytes": 16 },
    { "name": "B", "role": "rhs", "dtype": "f16", "shape": [1024, 1024],
      "strides": [1024, 1], "align_bytes": 16 },
    { "name": "C", "role": "out", "dtype": "f32", "shape": [1024, 1024],
      "strides": [1024, 1], "align_bytes": 16 }
  ],
  "params": [ { "kind": "ptr", "operand": "A" },
              { "kind": "ptr", "operand": "B" },
              { "kind": "ptr", "operand": "C" } ],
  "launch": { "grid": [8, 16, 1], "block": [256, 1, 1], "cluster": [1, 1, 1],
              "dynamic_smem_bytes": 0,
              "grid_formula": ["ceildiv(n, 128)", "ceildiv(m, 64)", "batch"] },
  "resources": { "registers": 96, "spill_bytes": 0, "static_smem_bytes": 27648 },
  "config": { "block_tile": [64, 128, 32], "warp_tile": [32, 64, 32], "mma": [16, 16, 16],
              "stages": 1, "padding": 8 }
}
)json";
}

/// Returns `text` with the first occurrence of `from` replaced by `to`.
inline std::string replaceFirst(std::string text, const std::string &from,
                                const std::string &to) {
  size_t pos = text.find(from);
  if (pos != std::string::npos)
    text.replace(pos, from.size(), to);
  return text;
}

/// Returns the example manifest with tensormap params for A (every field
/// given) and B (optional fields left out); C stays a ptr.
inline std::string tensorMapManifestText() {
  std::string text =
      replaceFirst(sampleManifestText(), R"({ "kind": "ptr", "operand": "A" })",
                   R"({ "kind": "tensormap", "operand": "A", "box": [64, 128],
                "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero" })");
  return replaceFirst(text, R"({ "kind": "ptr", "operand": "B" })",
                      R"({ "kind": "tensormap", "operand": "B", "box": [64, 32],
                "swizzle": "128B" })");
}

/// Returns the example manifest as a stream-K kernel: a workspace param
/// after C's ptr, and launch.persistent and launch.stream_k set.
inline std::string streamKManifestText() {
  std::string text =
      replaceFirst(sampleManifestText(), R"({ "kind": "ptr", "operand": "C" })",
                   R"({ "kind": "ptr", "operand": "C" },
              { "kind": "workspace", "bytes_per_block": 131584 })");
  return replaceFirst(text, R"("dynamic_smem_bytes": 0,)",
                      R"("dynamic_smem_bytes": 0, "persistent": true,
              "stream_k": true,)");
}

} // namespace tcgen::testing

#endif // TCGEN_UNITTESTS_RUNTIME_SAMPLEMANIFEST_H
