//===- Manifest.h - The kernel-bundle manifest ------------------*- C++ -*-===//
//
// This file declares tcgen::Manifest, the in-memory form of a kernel bundle's
// JSON manifest (docs/BUNDLE.md, version 1), with its parser and writer. The
// compiler writes manifests with writeManifest(); the runtime and the GPU
// tools read them with parseManifest()/loadManifest(). No CUDA, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_MANIFEST_H
#define TCGEN_RUNTIME_MANIFEST_H

#include "tcgen/Runtime/Json.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcgen {

/// Element types. The numeric values match tcgen_dtype in tcgen_rt.h.
enum class DType { F16 = 0, BF16 = 1, F32 = 2, F64 = 3, I8 = 4, I32 = 5 };

/// Returns the manifest spelling of `dtype` ("f16", "bf16", ...).
const char *dtypeName(DType dtype);
/// Parses a manifest dtype name; std::nullopt if unknown.
std::optional<DType> parseDType(std::string_view name);
/// Returns the size of one element in bytes.
int64_t dtypeSize(DType dtype);

/// How a kernel uses an operand.
enum class OperandRole { Lhs, Rhs, Out, InOut };

/// Returns the manifest spelling of `role` ("lhs", "rhs", "out", "inout").
const char *roleName(OperandRole role);
/// Parses a manifest role name; std::nullopt if unknown.
std::optional<OperandRole> parseRole(std::string_view name);

/// `target`: what the cubin was built for.
struct Target {
  std::string arch;    // e.g. "sm_90a"
  std::string backend; // e.g. "wmma", "sm80", "sm90"
  int minCC = 0;       // lowest compute capability, major*10+minor
};

/// `op`: the computation. For kind "matmul": C[m,n] (+)= A[m,k] B[k,n].
struct OpInfo {
  std::string kind;
  int64_t batch = 1;
  int64_t m = 0, n = 0, k = 0;
  bool accumulate = false;
  /// The type the kernel accumulates the k-sum in (`op.accumulator`): F32,
  /// or F16 for the f16.f16 tensor-core MMA.
  DType accumulator = DType::F32;
};

/// One entry of `operands`.
struct Operand {
  std::string name;
  OperandRole role = OperandRole::Lhs;
  DType dtype = DType::F16;
  std::vector<int64_t> shape;   // elements, outermost first
  std::vector<int64_t> strides; // elements, outermost first
  int64_t alignBytes = 1;
};

/// One entry of `params`, in kernel-parameter order. Kinds: "ptr" (the
/// operand's device address) and "tensormap" (a TMA descriptor of the
/// operand, a 128-byte CUtensorMap passed by value), which need `operand`,
/// and "workspace" (the device address of a scratch buffer the runtime owns,
/// `bytesPerBlock` bytes per launched block), which takes no operand and no
/// tensor argument. Other kinds are kept as parsed so that the runtime can
/// name them in its error.
struct Param {
  std::string kind;
  std::string operand; // empty if absent
  std::string value;   // empty if absent (scalar params name a size)

  // Kind "tensormap" only; other kinds keep the defaults.
  /// The TMA box in elements, innermost (contiguous) dimension first, as
  /// cuTensorMapEncodeTiled takes it: [64, 128] is 64 contiguous elements by
  /// 128 rows. One entry per operand dimension.
  std::vector<int64_t> box;
  std::string swizzle = "none";     // "none", "32B", "64B", "128B"
  std::string l2Promotion = "none"; // "none", "64B", "128B", "256B"
  std::string oobFill = "zero";     // "zero", "nan"

  // Kind "workspace" only; other kinds keep the default.
  /// Scratch bytes per launched block, > 0 and a multiple of 16 (so that
  /// every block's slice stays 16-byte aligned).
  int64_t bytesPerBlock = 0;
};

/// The swizzle span in bytes of a `swizzle` value ("128B" -> 128, "none" ->
/// 0), or -1 if it is not one.
int64_t swizzleBytes(std::string_view swizzle);

/// `launch`: the launch geometry for the sizes in `op`.
struct Launch {
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t dynamicSmemBytes = 0;
  std::vector<std::string> gridFormula;
  /// Persistent kernels loop over grid[0] work tiles; the runtime launches
  /// min(grid[0], number of SMs) blocks along x (launchedGrid() in
  /// Validate.h).
  bool persistent = false;
  /// Stream-K kernels (persistent ones) split the k-loop iterations of all
  /// grid[0] tiles evenly over the blocks they get; the runtime launches
  /// one block per SM along x, even when there are fewer tiles.
  bool streamK = false;
};

/// `resources`: what ptxas reported (informational).
struct Resources {
  int64_t registers = 0;
  int64_t spillBytes = 0;
  int64_t staticSmemBytes = 0;
};

/// A whole manifest. `config` is kept as an opaque JSON object.
struct Manifest {
  std::string format = "tcgen.bundle";
  int64_t version = 1;
  std::string entry;
  std::string cubin; // file name relative to the manifest; may be empty
  std::string ptx;   // file name relative to the manifest; may be empty
  Target target;
  OpInfo op;
  std::vector<Operand> operands;
  std::vector<Param> params;
  Launch launch;
  Resources resources;
  json::Value config = json::Value::object();

  /// Returns the operand named `name`, or nullptr.
  const Operand *findOperand(std::string_view name) const;
  /// Returns the first operand with role `role`, or nullptr.
  const Operand *findRole(OperandRole role) const;
};

bool operator==(const Operand &a, const Operand &b);
bool operator==(const Param &a, const Param &b);
bool operator==(const Manifest &a, const Manifest &b);
inline bool operator!=(const Manifest &a, const Manifest &b) {
  return !(a == b);
}

/// Parses manifest JSON text. On success stores the manifest in `out` and
/// returns ""; otherwise returns a message naming the missing or bad field
/// (e.g. "missing required field 'operands[1].dtype'"), or "LINE:COL: ..."
/// for malformed JSON.
///
/// Required: format ("tcgen.bundle"), version (1), entry, cubin or ptx (at
/// least one), target.{arch,min_cc}, op.{kind,m,n,k}, operands (each with
/// name, role, dtype, shape, strides, align_bytes), params (each with kind;
/// a "ptr" or "tensormap" also needs an existing operand; a "tensormap" also
/// needs box and swizzle and is checked against its operand: box rank ==
/// operand rank, box entries in [1, 256], box[0] * dtype size a multiple of
/// 16 bytes and at most the swizzle span; a "workspace" needs
/// bytes_per_block > 0, a multiple of 16, takes no operand, and there is at
/// most one), launch.{grid,block,dynamic_smem_bytes}. Defaults:
/// target.backend "", op.batch 1, op.accumulate false, op.accumulator
/// "f32", params[i].l2_promotion "none", params[i].oob_fill "zero",
/// launch.cluster [1,1,1], launch.persistent and launch.stream_k false
/// (stream_k needs persistent), resources 0, config {}. op.accumulator must
/// be a dtype name.
/// Unknown fields are ignored. For op.kind "matmul" the lhs/rhs/out shapes
/// must be [m,k], [k,n], [m,n] and the C operand's role must be "inout" iff
/// op.accumulate.
std::string parseManifest(std::string_view text, Manifest &out);

/// Reads and parses the manifest file at `path`; errors are prefixed with
/// the path.
std::string loadManifest(const std::string &path, Manifest &out);

/// Resolves a bundle path: a .json file, or a directory holding exactly one
/// .json file. On success stores the manifest path in `manifestPath` and
/// returns ""; otherwise returns why (not found, no or several manifests).
std::string findManifest(const std::string &path, std::string &manifestPath);

/// Converts a manifest to JSON, in the field order of docs/BUNDLE.md.
json::Value manifestToJson(const Manifest &manifest);

/// Returns the manifest as pretty-printed JSON text (stable field order,
/// trailing newline).
std::string writeManifest(const Manifest &manifest);

} // namespace tcgen

#endif // TCGEN_RUNTIME_MANIFEST_H
