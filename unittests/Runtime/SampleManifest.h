//===- SampleManifest.h - The manifest of docs/BUNDLE.md ------*- C++ -*-===//
//
// This file implements a helper for the runtime unit tests: the example
// manifest of docs/BUNDLE.md as text, edits of it, and parsing with the
// test's expectations.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_UNITTESTS_RUNTIME_SAMPLEMANIFEST_H
#define TCGEN_UNITTESTS_RUNTIME_SAMPLEMANIFEST_H

#include "tcgen/Runtime/Manifest.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace tcgen::testing {

/// Parses `text`, expecting no error.
inline Manifest parseOk(const std::string &text) {
  Manifest m;
  std::string error = parseManifest(text, m);
  EXPECT_EQ(error, "");
  return m;
}

/// The parser's error for `text` ("" if it parses).
inline std::string parseError(const std::string &text) {
  Manifest m;
  return parseManifest(text, m);
}

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

/// One edit of the manifest text and the parse error it must give (the
/// parameterized refusal tests; `name` is the test name's suffix).
struct ErrorCase {
  const char *name;
  const char *from;
  const char *to;
  const char *expected;
};

inline void PrintTo(const ErrorCase &c, std::ostream *os) { *os << c.name; }

/// Returns `text` with the first occurrence of `from` replaced by `to`,
/// expecting `from` to occur.
inline std::string replaceFirst(std::string text, const std::string &from,
                                const std::string &to) {
  size_t pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
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

/// Returns a dynamic-shape manifest: m and k fixed at launch (-1), n = 512,
/// A stored [k][m] (transposed), TMA for A, B and C, two size params, and
/// the persistent one-block-per-SM grid.
inline std::string dynamicManifestText() {
  return R"json({
  "format": "tcgen.bundle", "version": 1, "entry": "dyn_kernel",
  "cubin": "dyn_kernel.cubin",
  "target": { "arch": "sm_90a", "backend": "sm90", "min_cc": 90 },
  "op": { "kind": "matmul", "m": -1, "n": 512, "k": -1 },
  "operands": [
    { "name": "A", "role": "lhs", "dtype": "f16", "shape": [-1, -1],
      "strides": [1, -1], "align_bytes": 16 },
    { "name": "B", "role": "rhs", "dtype": "f16", "shape": [-1, 512],
      "strides": [512, 1], "align_bytes": 16 },
    { "name": "C", "role": "out", "dtype": "f32", "shape": [-1, 512],
      "strides": [-1, 1], "align_bytes": 16 }
  ],
  "params": [ { "kind": "tensormap", "operand": "A", "box": [64, 64], "swizzle": "128B" },
              { "kind": "tensormap", "operand": "B", "box": [64, 64], "swizzle": "128B" },
              { "kind": "tensormap", "operand": "C", "box": [32, 64], "swizzle": "128B" },
              { "kind": "size", "value": "m" },
              { "kind": "size", "value": "k" } ],
  "launch": { "grid": [-1, 1, 1], "block": [384, 1, 1], "cluster": [1, 1, 1],
              "dynamic_smem_bytes": 200000, "persistent": true }
}
)json";
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

/// Returns the example manifest with the fused epilogue of docs/BUNDLE.md:
/// C = truncf(leaky_relu(extf(A*B + E0[j] + E1[i, j]), slope E2)) in f16,
/// with a row bias E0, a residual matrix E1 and a scalar slope E2.
inline std::string epilogueManifestText() {
  std::string text = replaceFirst(
      sampleManifestText(), R"("accumulate": false, "accumulator": "f32" },)",
      R"("accumulate": false, "accumulator": "f32",
          "epilogue": {
            "matmul_dtype": "f16",
            "inputs": [ { "operand": "E0", "kind": "row" },
                        { "operand": "E1", "kind": "matrix" },
                        { "operand": "E2", "kind": "scalar" } ],
            "ops": [
              { "op": "addf", "args": [0, 1], "dtype": "f16" },
              { "op": "addf", "args": [4, 2], "dtype": "f16" },
              { "op": "extf", "args": [5], "dtype": "f32" },
              { "op": "constant", "args": [], "dtype": "f32", "value": 0.0 },
              { "op": "cmpf", "args": [6, 7], "dtype": "i1", "predicate": "ogt" },
              { "op": "mulf", "args": [6, 3], "dtype": "f32" },
              { "op": "select", "args": [8, 6, 9], "dtype": "f32" },
              { "op": "truncf", "args": [10], "dtype": "f16" } ],
            "result": 11 } },)");
  text = replaceFirst(text, R"({ "name": "C", "role": "out", "dtype": "f32",)",
                      R"({ "name": "C", "role": "out", "dtype": "f16",)");
  text = replaceFirst(text, R"("strides": [1024, 1], "align_bytes": 16 }
  ],)",
                      R"("strides": [1024, 1], "align_bytes": 16 },
    { "name": "E0", "role": "in", "dtype": "f16", "shape": [1024],
      "strides": [1], "align_bytes": 16 },
    { "name": "E1", "role": "in", "dtype": "f16", "shape": [1024, 1024],
      "strides": [1024, 1], "align_bytes": 16 },
    { "name": "E2", "role": "in", "dtype": "f32", "shape": [],
      "strides": [], "align_bytes": 4 }
  ],)");
  return replaceFirst(text, R"({ "kind": "ptr", "operand": "C" } ],)",
                      R"({ "kind": "ptr", "operand": "C" },
              { "kind": "ptr", "operand": "E0" },
              { "kind": "ptr", "operand": "E1" },
              { "kind": "ptr", "operand": "E2" } ],)");
}

/// The tensormap sample with B's rows 1028 f16 apart (2056 bytes, which
/// TMA cannot take) and a pack copying B into rows of 1088 elements.
inline std::string packManifestText() {
  std::string text = tensorMapManifestText();
  text = replaceFirst(text, R"("shape": [1024, 1024],
      "strides": [1024, 1], "align_bytes": 16 },
    { "name": "C")",
                      R"("shape": [1024, 1024],
      "strides": [1028, 1], "align_bytes": 16 },
    { "name": "C")");
  return replaceFirst(
      text, R"("launch": {)",
      R"("packs": [ { "operand": "B", "entry": "matmul_kernel_pack_B",
              "strides": [1088, 1], "grid": [132, 1, 1],
              "block": [256, 1, 1] } ],
  "launch": {)");
}

/// Returns the example manifest as a batched matmul: op.batch 3 with
/// m = 64, n = 128, k = 32, A [3, 64, 32] transposed (strides [2048, 1,
/// 64]), B [3, 32, 128] and C [3, 64, 128] row-major and contiguous, and
/// tensormap params of A and B with three box entries.
inline std::string batchedManifestText() {
  std::string text =
      replaceFirst(tensorMapManifestText(),
                   R"("batch": 1, "m": 1024, "n": 1024, "k": 1024,)",
                   R"("batch": 3, "m": 64, "n": 128, "k": 32,)");
  text = replaceFirst(text, R"("shape": [1024, 1024],
      "strides": [1024, 1],)",
                      R"("shape": [3, 64, 32],
      "strides": [2048, 1, 64],)");
  text = replaceFirst(text, R"("shape": [1024, 1024],
      "strides": [1024, 1],)",
                      R"("shape": [3, 32, 128],
      "strides": [4096, 128, 1],)");
  text = replaceFirst(text, R"("shape": [1024, 1024],
      "strides": [1024, 1],)",
                      R"("shape": [3, 64, 128],
      "strides": [8192, 128, 1],)");
  text = replaceFirst(text, R"("box": [64, 128],)", R"("box": [64, 32, 1],)");
  text = replaceFirst(text, R"("box": [64, 32],)", R"("box": [64, 32, 1],)");
  return replaceFirst(text, R"("grid": [8, 16, 1])", R"("grid": [1, 1, 3])");
}

} // namespace tcgen::testing

#endif // TCGEN_UNITTESTS_RUNTIME_SAMPLEMANIFEST_H
