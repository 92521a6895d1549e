//===- Validate.h - Launch-argument validation ------------------*- C++ -*-===//
//
// This file declares validateLaunch(), the pure check the runtime runs before
// every launch: do the caller's tensors and the device match what the
// manifest says the kernel was compiled for? No CUDA: the caller describes
// the device in a DeviceInfo, so the check is unit-testable anywhere. Also
// the launch geometry the runtime derives from the manifest (launchedGrid(),
// workspaceBytes()), for the same reason.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_VALIDATE_H
#define TCGEN_RUNTIME_VALIDATE_H

#include "tcgen/Runtime/Manifest.h"

#include <array>
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
  int smCount = 0; // streaming multiprocessors
};

/// Returns "" if `device` can run the manifest's kernel: compute capability
/// at least target.min_cc, and exactly XX for an "sm_XXa" arch. Otherwise a
/// message naming the device, what it has and what the kernel needs.
std::string validateDevice(const Manifest &manifest, const DeviceInfo &device);

/// The layout arguments cuTensorMapEncodeTiled takes for a "tensormap"
/// param, every array innermost dimension first. No CUDA types, so that it
/// is unit-testable; the runtime converts them.
struct TensorMapLayout {
  uintptr_t globalAddress = 0;
  std::vector<uint64_t> globalDim;      // elements, one per dimension
  std::vector<uint64_t> globalStrides;  // bytes, of dimensions 1..rank-1
  std::vector<uint32_t> boxDim;         // the param's box
  std::vector<uint32_t> elementStrides; // all 1
};

/// Computes the tensor-map layout of `param` (kind "tensormap") over
/// `operand` at device address `address`. The dimensions are ordered by
/// increasing stride; the smallest stride must be 1 and becomes dimension 0
/// (for row-major strides [s, 1]: globalDim {shape[1], shape[0]},
/// globalStrides {s * dtype size}; for a batched A [b, m, k] with strides
/// [m*k, k, 1]: {k, m, b}, and transposed, strides [m*k, 1, m]: {m, k, b}).
/// A dimension of extent 1 or of stride 0 (a broadcast) keeps its place in
/// the manifest's order (slot rank-1-d, innermost first) whatever its
/// stride: [b, 1, k] with strides [k, k, 1] or [k, 1, 1] gives {k, 1, b},
/// [b, m, k] with strides [0, k, 1] gives {k, m, b}. An extent-1
/// dimension's stride is never used: its global stride is 0. Equal strides
/// of other dimensions (overlapping elements) order the later one first.
/// With `packCopy` (the operand is a pack's copy, packedOperand(): strides
/// the compiler wrote for every dimension) only stride-0 dimensions keep
/// their place: [k, 1] with strides [1, k] gives {k, 1}.
/// Returns "" or a message naming the operand, e.g. "operand 'A': TMA
/// needs a 16-byte aligned global address, got 0x10002": the address is
/// not 16-byte aligned, the innermost dimension does not have stride 1 (nor
/// extent 1), or is a batch dimension (of rank 3 or more, one before the
/// last two, which kernels never read contiguously), a stride is negative, a
/// byte stride is not a multiple of 16 or not below 2^40, an extent exceeds
/// 2^32, or the box does not have one entry per dimension.
std::string tensorMapLayout(const Param &param, const Operand &operand,
                            uintptr_t address, TensorMapLayout &out,
                            bool packCopy = false);

/// Returns the grid the runtime launches for `launch` on a device with
/// `smCount` SMs. The manifest's grid as is, except along x: a persistent
/// kernel gets min(grid[0], smCount) blocks and a stream-K kernel smCount
/// blocks (even with fewer tiles), in both cases rounded down to a multiple
/// of cluster[0] (but at least one cluster) so that the launch stays valid.
/// An unknown SM count (smCount <= 0) leaves the grid as is.
std::array<int64_t, 3> launchedGrid(const Launch &launch, int smCount);

/// Returns the size in bytes of the workspace buffer the manifest's kernel
/// needs on a device with `smCount` SMs: its workspace param's
/// bytes_per_block times the blocks of launchedGrid(). 0 if it has no
/// workspace param, -1 if the size does not fit in int64_t.
int64_t workspaceBytes(const Manifest &manifest, int smCount);

/// Returns the operand as its pack's copy describes it: the same shape and
/// dtype with the pack's strides.
Operand packedOperand(const Operand &operand, const Pack &pack);

/// Returns the bytes of the buffer holding the pack of `operand` (its last
/// element's offset plus one, in bytes, rounded up to 256), or -1 if that
/// does not fit in int64_t.
int64_t packBytes(const Operand &operand, const Pack &pack);

/// Returns "" if a launch of the manifest's kernel with `args` on `device`
/// is valid; otherwise one message naming the first problem, e.g.
/// "operand 'A': dtype mismatch: kernel expects f16, got f32". Checks, in
/// order: the device (validateDevice), compute capability 9.0 if a param is
/// a tensormap, dynamic + static shared memory against the device limit, the
/// argument count (one tensor per operand, the epilogue inputs of role "in"
/// included; a workspace param takes none),
/// then per argument (in operand order): name, dtype, shape, strides,
/// non-null address, alignment, and the TMA rules of tensorMapLayout() for
/// each tensormap param of the operand (of its pack's copy, with the pack's
/// strides, if the operand is packed).
std::string validateLaunch(const Manifest &manifest,
                           const std::vector<TensorArg> &args,
                           const DeviceInfo &device);

/// Binds the sizes a dynamic-shape manifest leaves to the launch (-1 in
/// op.m, op.n, op.k, shapes and strides) to the tensors passed: m and k from
/// the lhs operand's shape, n from the rhs's, every stride of -1 from the
/// matching tensor's. `out` is the manifest with those values, which
/// validateLaunch() then checks the tensors against (a static manifest is
/// copied as is). Returns "" or a message for a size below 1; arguments
/// that do not match the manifest's operands or ranks are left for
/// validateLaunch() to name.
std::string bindSizes(const Manifest &manifest,
                      const std::vector<TensorArg> &args, Manifest &out);

/// Binds a dynamic-shape manifest to the sizes m, n and k (those fixed at
/// launch must be >= 1; the others are ignored) with dense strides: the
/// dimension of stride 1 innermost, then the others from the last to the
/// first. For tools that allocate the tensors of one launch. Returns "" or
/// a message naming a missing size or an operand whose dense strides do not
/// fit in 64 bits.
std::string specializeManifest(const Manifest &manifest, int64_t m, int64_t n,
                               int64_t k, Manifest &out);

/// Returns "" if validateLaunch() accepts a launch of `manifest` with
/// tensors exactly as it describes them, as far as that can be told
/// without a device: on a nominal device of the manifest's min_cc (XX for
/// an arch sm_XXa) with
/// `maxSharedBytes` of shared memory per block, each operand a tensor of
/// its shape and strides at an address aligned to 256 bytes (sizes fixed
/// at launch taken as 128, with dense strides: specializeManifest).
/// Otherwise validateLaunch()'s message: a manifest that no launch can
/// satisfy (a tensor map over rows that are not 16-byte multiples apart,
/// say). `tcgen compile` runs it on every manifest before writing it.
std::string validateLaunchable(const Manifest &manifest,
                               int64_t maxSharedBytes);

} // namespace tcgen

#endif // TCGEN_RUNTIME_VALIDATE_H
