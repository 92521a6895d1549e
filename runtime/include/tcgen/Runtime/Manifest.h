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
/// Element types. E4M3 and E5M2 are the 8-bit floats of sm_89 and later
/// (OCP FP8: e4m3 without infinities, largest finite 448; e5m2 IEEE-like).
enum class DType {
  F16 = 0,
  BF16 = 1,
  F32 = 2,
  F64 = 3,
  I8 = 4,
  I32 = 5,
  E4M3 = 6,
  E5M2 = 7,
  I64 = 8
};

/// Returns the manifest spelling of `dtype` ("f16", "bf16", ...).
const char *dtypeName(DType dtype);
/// Parses a manifest dtype name; std::nullopt if unknown.
std::optional<DType> parseDType(std::string_view name);
/// Returns the size of one element in bytes.
int64_t dtypeSize(DType dtype);

/// How a kernel uses an operand. In: an extra read-only input of the fused
/// epilogue (op.epilogue.inputs).
/// Lhs2 and Rhs2 are the second product's operands of a kernel that
/// computes C = A B + A2 B2 (add(gemm, gemm); op.k2). A dual GEMM (op.dual)
/// has an Rhs2 and no Lhs2: its second product A B2 shares A. ScaleA and ScaleB
/// are the f32 block scales of a block-scaled fp8 matmul (op.block_scales);
/// Offsets the row offsets of a grouped product (op.groups).
enum class OperandRole {
  Lhs,
  Rhs,
  Out,
  InOut,
  In,
  Lhs2,
  Rhs2,
  Offsets,
  ScaleA,
  ScaleB
};

/// Returns the manifest spelling of `role` ("lhs", "rhs", "out", "inout",
/// "in", "lhs2", "rhs2", "offsets", "scale_a", "scale_b").
const char *roleName(OperandRole role);
/// Parses a manifest role name; std::nullopt if unknown.
std::optional<OperandRole> parseRole(std::string_view name);

/// `target`: what the cubin was built for.
struct Target {
  std::string arch;    // e.g. "sm_90a"
  std::string backend; // e.g. "wmma", "sm80", "sm90"
  int minCC = 0;       // lowest compute capability, major*10+minor
};

/// How an epilogue input is indexed for output element (i, j): a rank-0
/// scalar (x[]), a row vector [n] (x[j], broadcast over the rows: a bias
/// along N), a column vector [m] (x[i]) or a full matrix [m, n] (x[i, j]).
/// Product: not a tensor read but the second product of a dual GEMM
/// (op.dual), sum_k A[i,k] B2[k,j] for the rhs2 operand B2 it names,
/// summed like the matmul value and rounded to Epilogue::matmulDType.
enum class EpilogueInputKind { Scalar, Row, Col, Matrix, Product };

/// Returns the manifest spelling of `kind` ("scalar", "row", "col",
/// "matrix", "product").
const char *epilogueInputKindName(EpilogueInputKind kind);
/// Parses a manifest input kind; std::nullopt if unknown.
std::optional<EpilogueInputKind> parseEpilogueInputKind(std::string_view name);

/// One extra input of the fused epilogue: an operand of role "in", or for
/// kind Product the operand of role "rhs2".
struct EpilogueInput {
  std::string operand;
  EpilogueInputKind kind = EpilogueInputKind::Matrix;
};

/// One pointwise step of the epilogue. Its operands are value numbers: 0 is
/// the matmul result (the k-sum rounded to `Epilogue::matmulDType`), 1..k
/// the inputs in order (in their dtypes; a product input in
/// `Epilogue::matmulDType`), k+1.. the results of the earlier
/// steps in order. `op` is the arith/math op name without the dialect:
/// binary addf subf mulf divf maximumf minimumf maxnumf minnumf powf;
/// unary negf absf exp exp2 log tanh erf sqrt rsqrt; "constant" (no args,
/// `value`); "cmpf" (2 args, `predicate`: false oeq ogt oge olt ole one ord
/// ueq ugt uge ult ule une uno true; its dtype is "i1");
/// "select" (cond, a, b); casts "extf" and "truncf" (1 arg, to `dtype`).
/// `dtype` is the step's result type ("f16", "bf16", "f32", "f64"; "i1" for
/// cmpf, and for a select of i1 values). As in arith, the float ops take
/// and yield one dtype.
struct EpilogueStep {
  std::string op;
  std::vector<int64_t> args;
  std::string dtype = "f32";
  double value = 0;      // "constant" only; may be infinite or NaN
  std::string predicate; // "cmpf" only
};

/// Returns the number of args the step op `op` takes (0 for "constant", 1,
/// 2 or 3 for "select"), or -1 if it is not an epilogue op.
int epilogueOpArity(std::string_view op);
/// True if `predicate` is an arith.cmpf predicate name ("oeq", "ult", ...).
bool isCmpFPredicate(std::string_view predicate);

/// `op.epilogue`: a pointwise function applied to every element of the
/// matmul result before it is stored once, in the out operand's dtype.
struct Epilogue {
  /// The element type of the matmul's own result (what the unfused program
  /// would have stored): the f32 k-sum is rounded to it first.
  DType matmulDType = DType::F32;
  std::vector<EpilogueInput> inputs;
  std::vector<EpilogueStep> steps;
  /// The value number stored (converted to the out operand's dtype).
  int64_t result = 0;

  /// The number of values: the matmul result, the inputs and the steps.
  int64_t numValues() const {
    return 1 + static_cast<int64_t>(inputs.size() + steps.size());
  }
};

/// `op.prologue`: a pointwise function applied to every element of one
/// input operand (`operand`, role lhs or rhs) before the products, as
/// if the caller had transformed the operand first. The steps are
/// epilogue steps (EpilogueStep); value 0 is the operand's element, there
/// are no inputs, and the result has the operand's dtype. In the JSON:
/// { "operand": "A", "dtype": "f16", "ops": [...], "result": N }.
struct Prologue {
  std::string operand;
  /// The function: matmulDType is the operand's dtype (`dtype`), no inputs.
  Epilogue body;
};

bool operator==(const EpilogueInput &a, const EpilogueInput &b);
/// Constants compare equal when both are NaN.
bool operator==(const EpilogueStep &a, const EpilogueStep &b);
bool operator==(const Epilogue &a, const Epilogue &b);
bool operator==(const Prologue &a, const Prologue &b);

/// `op.block_scales`: a block-scaled fp8 matmul (DeepSeek-V3's recipe),
/// C[m,n] = sum_kb SA[m/a0][kb] SB[n/b0][kb] sum_{k in block kb} A[m,k]
/// B[k,n]: the block shapes of the scales, A's in (m, k) and B's in (n, k)
/// (the only ones supported: [1, 128] and [128, 128]). The operands of
/// roles scale_a ([ceil(m/a0), k/128]) and scale_b ([ceil(n/b0), k/128])
/// are f32.
struct BlockScaleInfo {
  std::vector<int64_t> a = {1, 128}, b = {128, 128};
};
bool operator==(const BlockScaleInfo &a, const BlockScaleInfo &b);

/// `op`: the computation. For kind "matmul": C[m,n] (+)= A[m,k] B[k,n],
/// or with batch > 1, for every b < batch, C[b,m,n] (+)= A[b,m,k] B[b,k,n],
/// or with batch_reduce, C[m,n] (+)= sum_b A[b,m,k] B[b,k,n].
struct OpInfo {
  std::string kind;
  /// The number of independent matmuls; > 1 makes the lhs, rhs and result
  /// operands rank 3 with the batch outermost.
  int64_t batch = 1;
  /// The sizes; kDynamicSize (-1) for one fixed at launch (a dynamic-shape
  /// kernel takes it as a "size" param and reads it from the tensors).
  int64_t m = 0, n = 0, k = 0;
  bool accumulate = false;
  /// The type the kernel accumulates the k-sum in (`op.accumulator`): F32,
  /// or F16 for the f16.f16 tensor-core MMA.
  DType accumulator = DType::F32;
  /// A fused pointwise epilogue, if any (`op.epilogue`).
  std::optional<Epilogue> epilogue;
  /// A fused pointwise prologue on an input, if any (`op.prologue`).
  std::optional<Prologue> prologue;
  /// With k2 > 0 the kernel adds a second product of the same shape:
  /// C (+)= A B + A2 B2, A2 [m, k2] (role lhs2) and B2 [k2, n] (rhs2).
  int64_t k2 = 0;
  /// A dual GEMM (`op.dual`, a gated MLP): the kernel also computes A B2
  /// for B2 of role rhs2 (B's shape and dtype) and its epilogue combines
  /// the two products, reading A B2 as its one input of kind "product"
  /// (e.g. C = silu(A B) * A B2). k2 stays 0 and there is no lhs2.
  bool dual = false;
  /// f32 A and B that the tensor cores read as tf32 (10-bit mantissas),
  /// summed in f32 (`op.tf32`).
  bool tf32 = false;
  /// The batch's products are summed into one C (`op.batch_reduce`): lhs
  /// and rhs are rank 3, the result rank 2 (a contraction over two K
  /// dimensions, one of them read as a batch). Needs batch >= 2.
  bool batchReduce = false;
  /// Two batch dimensions (`op.batch_shape`): their extents, outermost
  /// first, whose product is `batch`; the lhs, rhs and result operands then
  /// have rank 4, [b0, b1, rows, cols]. Empty: one batch dimension (or
  /// none).
  std::vector<int64_t> batchShape;
  /// A grouped product (`op.groups`, mixtures of experts): `groups` > 0
  /// matmuls sharing n and k whose rows are consecutive slices of the lhs
  /// [m, k] and the result [m, n]; the rhs is [groups, k, n], and an
  /// operand of role "offsets" holds the groups' row offsets (groups + 1
  /// i32 or i64 values on the device). 0: not grouped.
  int64_t groups = 0;
  /// A block-scaled fp8 matmul (`op.block_scales`), if any.
  std::optional<BlockScaleInfo> blockScales;
};

/// One entry of `operands`.
struct Operand {
  std::string name;
  OperandRole role = OperandRole::Lhs;
  DType dtype = DType::F16;
  /// Elements, outermost first; empty (rank 0) for a scalar epilogue input.
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; // elements, outermost first
  int64_t alignBytes = 1;
};

/// One entry of `params`, in kernel-parameter order. Kinds: "ptr" (the
/// operand's device address) and "tensormap" (a TMA descriptor of the
/// operand, a 128-byte CUtensorMap passed by value), which need `operand`,
/// "workspace" (the device address of a scratch buffer the runtime owns,
/// `bytesPerBlock` bytes per launched block), which takes no operand and no
/// tensor argument, and "size" (`value` "m", "n" or "k": that size of the
/// launch, a 64-bit integer), which takes neither. Other kinds are kept as parsed so that the runtime can
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

  // Kind "stride" only: the stride (in elements) of the operand's dimension
  // `dim` at launch, passed as a 64-bit integer (a kernel of sizes fixed at
  // launch reads a matrix operand's rows that far apart).
  int64_t dim = -1;
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
  /// Stream-K: the blocks to launch, at most one per SM (`stream_k_blocks`;
  /// 0: one per SM). Few tiles over a long K take fewer blocks than SMs, so
  /// that each tile's k-tiles spread over a few blocks only, whose partial
  /// sums the tile's last block adds one after the other.
  int64_t streamKBlocks = 0;
};

/// `resources`: what ptxas reported (informational).
struct Resources {
  int64_t registers = 0;
  int64_t spillBytes = 0;
  int64_t staticSmemBytes = 0;
};

/// A whole manifest. `config` is kept as an opaque JSON object.
/// A copy of a read-only operand into a buffer the runtime owns, with
/// other strides (rows padded to a multiple of 128 bytes, which TMA reads
/// at full speed and which it may need: TMA takes only byte strides that
/// are multiples of 16). Before each launch of the main kernel, the runtime
/// launches `entry` (a kernel of the same module taking the operand's
/// address and the buffer's) with `grid` and `block`, on the same stream;
/// the tensormap params of the operand then describe the copy.
struct Pack {
  std::string operand;
  std::string entry;
  std::vector<int64_t> strides; // of the copy, elements, outermost first
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
};

/// A size, extent or stride fixed at launch rather than at compile time.
constexpr int64_t kDynamicSize = -1;

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
  std::vector<Pack> packs; // at most one per operand
  Launch launch;
  Resources resources;
  json::Value config = json::Value::object();

  /// Returns the operand named `name`, or nullptr.
  const Operand *findOperand(std::string_view name) const;
  /// Returns the pack of the operand named `name`, or nullptr.
  const Pack *findPack(std::string_view name) const;
  /// Returns the first operand with role `role`, or nullptr.
  const Operand *findRole(OperandRole role) const;
  /// Returns the operand the kernel stores its result in (role "out" or
  /// "inout"), or nullptr.
  const Operand *findResult() const;
  /// Whether some of op.m, op.n and op.k are fixed at launch (kDynamicSize).
  bool isDynamic() const {
    return op.m == kDynamicSize || op.n == kDynamicSize ||
           op.k == kDynamicSize;
  }
};

/// Returns the dtype name of value number `value` of op.epilogue: the
/// matmul dtype for 0 and for a product input, the input operand's dtype
/// for the other inputs 1..k, the step's dtype
/// after that. "" if there is no epilogue, the number is out of range or an
/// input names no operand.
std::string epilogueValueDType(const Manifest &manifest, int64_t value);

/// Matches the operands of `b` to those of `a` that address the same
/// elements: the same dtype and the same (extent, stride) pairs in any
/// order (a swapped kernel's manifest describes A as its B^T, a view of
/// the same memory), preferring the operand of the same name. Returns, for
/// every operand of `b`, the index of its operand in `a`; nullopt if some
/// operand has none or the counts differ.
std::optional<std::vector<size_t>> matchOperandViews(const Manifest &a,
                                                     const Manifest &b);

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
/// most one), launch.{grid,block,dynamic_smem_bytes}. `packs` (optional)
/// lists Pack entries, each with operand (an existing operand of role lhs,
/// rhs or in, at most one pack each), entry, strides (the operand's rank,
/// each >= 1, one of them 1) and grid and block. Defaults:
/// target.backend "", op.batch 1, op.accumulate false, op.accumulator
/// "f32", params[i].l2_promotion "none", params[i].oob_fill "zero",
/// launch.cluster [1,1,1], launch.persistent and launch.stream_k false
/// (stream_k needs persistent), resources 0, config {}. op.accumulator must
/// be a dtype name.
/// Unknown fields are ignored. For op.kind "matmul" the lhs/rhs/out shapes
/// must be [m,k], [k,n], [m,n], or with op.batch > 1 [batch,m,k],
/// [batch,k,n], [batch,m,n] (rank 3, the batch outermost; strides free),
/// and the C operand's role must be "inout" iff op.accumulate.
///
/// op.epilogue (optional) needs matmul_dtype (a float dtype), inputs (each
/// with operand and kind), ops (each with op and dtype; args, default [];
/// value for "constant": a number or "inf", "-inf", "nan"; predicate for
/// "cmpf") and result. It is checked like arith: known ops with their
/// arity, args that name values defined before the step, one float dtype
/// per float op (cmpf compares two values of one float dtype and yields
/// i1, select's condition is i1, extf widens, truncf narrows), a result
/// that is a float value of the out operand's dtype. Its inputs are the
/// operands of role "in", each exactly once, of a float dtype, with shape
/// [] (scalar), [n] (row), [m] (col) or [m, n] (matrix). Operands of role
/// "in" need an epilogue; they alone may have rank 0 (shape and strides
/// []). A batched op (op.batch > 1) has no epilogue yet.
///
/// op.dual (optional, default false) needs a matmul with one operand of
/// role rhs2 of B's shape and dtype (strides free), no lhs2, op.k2 0, and
/// an op.epilogue with exactly one input of kind "product", which names
/// that operand (the product's value has matmul_dtype); it is refused with
/// op.batch > 1, batch_reduce, batch_shape, groups, accumulate,
/// block_scales, a prologue, tf32, 8-bit float A or B, and sizes fixed at
/// launch. A product input without op.dual is an error.
std::string parseManifest(std::string_view text, Manifest &out);

/// Reads and parses the manifest file at `path`; errors are prefixed with
/// the path.
std::string loadManifest(const std::string &path, Manifest &out);

/// The manifests of a bundle path: the path itself if it is a file, else
/// every .json file of the directory, sorted (a bundle of several kernels
/// has one each). Returns "" or why not (not found, no manifest).
std::string listManifests(const std::string &path,
                          std::vector<std::string> &manifests);

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
