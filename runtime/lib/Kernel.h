//===- Kernel.h - The runtime's kernel handle and launch plans --*- C++ -*-===//
//
// This file declares, for the runtime's own sources, the loaded kernel behind
// a `tcgen_kernel *` and the launch plan: the kernel parameters of one set of
// tensors, built once (validation, tensor-map encoding) and then re-pointed
// at new addresses by address only. TcgenRt.cpp loads kernels; Launch.cpp
// builds plans and launches them (tcgen_rt_launch and the tcgen_rt_plan_*
// calls).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_LIB_KERNEL_H
#define TCGEN_RUNTIME_LIB_KERNEL_H

#include "CudaDriver.h"
#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Validate.h"
#include "tcgen/tcgen_rt.h"

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcgen::rt {

/// How one kernel parameter is built at launch.
struct ParamPlan {
  enum Kind { Ptr, TensorMap, Workspace, Size, Stride } kind = Ptr;
  size_t operand = 0; // index into manifest.operands; unused for Workspace
  char size = 0;      // Size: 'm', 'n' or 'k'
  size_t dim = 0;     // Stride: the operand's dimension
};

/// A CUtensorMap in storage aligned as cuTensorMapEncodeTiled requires (64
/// bytes). A tensormap parameter is a by-value struct: kernelParams points
/// at these 128 bytes and the driver copies them into the parameter space.
struct alignas(64) TensorMapSlot {
  CUtensorMap map;
};
static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");
static_assert(alignof(TensorMapSlot) >= 64, "tensor maps need 64-byte storage");

/// The kernel parameters of one set of tensors: kernelParams[i] (`params`)
/// points at the bytes of parameter i, which the driver copies at launch: a
/// ptr's or the workspace's 8-byte address (`pointers`), a size
/// (`sizes`), or a tensormap's 128-byte CUtensorMap (`maps`, a by-value
/// __grid_constant__ struct). The arrays are sized before any pointer into
/// them is taken, and a plan is never moved once built (it lives behind a
/// unique_ptr), so `params` stays valid.
struct LaunchPlan {
  std::vector<TensorArg> tensors; ///< the launch arguments it was built for
  std::vector<CUdeviceptr> pointers;
  std::vector<int64_t> sizes;
  std::vector<TensorMapSlot> maps;
  std::vector<void *> params;
  /// Per operand: the params that hold its address (a ptr's index into
  /// `pointers`, a tensormap's into `maps`; a packed operand's tensor maps
  /// address the pack's buffer and are not listed), and the alignment its
  /// address needs (the operand's align_bytes, 16 with a tensor map).
  std::vector<std::vector<size_t>> pointerSlots, mapSlots;
  std::vector<uintptr_t> addressAlign;
  /// The workspace param's index, or -1; its pointer is set once the
  /// kernel's workspace exists.
  int64_t workspaceParam = -1;
  /// The launch geometry (launchedGrid() of the manifest's launch).
  std::array<unsigned, 3> grid{}, block{}, cluster{};
  unsigned dynamicSmemBytes = 0;

  /// A caller-owned plan launches as a CUDA graph of its packs and kernel
  /// (buildPlanGraph()): a graph launch costs the host about half of a
  /// kernel launch. `graphStale` says an address changed since the nodes'
  /// parameters were last set; `packParams` hold the packs' source and
  /// destination addresses, which their nodes read.
  const Driver *driver = nullptr;
  CUgraph graph = nullptr;
  CUgraphExec graphExec = nullptr;
  CUgraphNode kernelNode = nullptr;
  std::vector<CUgraphNode> packNodes;
  std::vector<std::array<CUdeviceptr, 2>> packAddresses;
  std::vector<std::array<void *, 2>> packParams;
  bool graphStale = false;

  LaunchPlan() = default;
  LaunchPlan(const LaunchPlan &) = delete;
  LaunchPlan &operator=(const LaunchPlan &) = delete;
  ~LaunchPlan();
};

/// Makes `context` current for the lifetime of the guard, if it is not
/// already, and restores the previous one on destruction.
class ScopedContext {
public:
  explicit ScopedContext(const Driver &driver) : driver(driver) {}
  ~ScopedContext() {
    if (pushed) {
      CUcontext popped;
      driver.cuCtxPopCurrentFn(&popped);
    }
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  /// Returns the failing call's result, or CUDA_SUCCESS; sets `call` to the
  /// name of the call that failed.
  CUresult enter(CUcontext context, const char *&call) {
    CUcontext current = nullptr;
    CUresult r = driver.cuCtxGetCurrentFn(&current);
    if (r != CUDA_SUCCESS) {
      call = "cuCtxGetCurrent";
      return r;
    }
    if (current == context)
      return CUDA_SUCCESS;
    if ((r = driver.cuCtxPushCurrentFn(context)) != CUDA_SUCCESS) {
      call = "cuCtxPushCurrent";
      return r;
    }
    pushed = true;
    return CUDA_SUCCESS;
  }

private:
  const Driver &driver;
  bool pushed = false;
};

/// Records `message` as the calling thread's last error; returns `status`.
tcgen_status fail(tcgen_status status, std::string message);
/// Clears the calling thread's last error; returns TCGEN_OK.
tcgen_status succeed();
/// The calling thread's last error.
const std::string &lastErrorMessage();

} // namespace tcgen::rt

struct tcgen_kernel {
  const tcgen::rt::Driver *driver = nullptr;
  tcgen::Manifest manifest;
  std::string manifestPath;
  std::string binaryKind;
  /// Why the manifest's cubin was not used (empty if it was, or if there is
  /// none): tcgen_rt_load_note().
  std::string loadNote;
  tcgen::DeviceInfo device;
  CUcontext context = nullptr;
  CUdevice cuDevice = 0;
  bool retainedPrimary = false;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::vector<tcgen::rt::ParamPlan> paramPlans; // one per manifest param
  /// Blocks that can be resident at once, for the persistent grid: one per
  /// SM, or for cluster kernels the clusters the device can hold at once
  /// times their size (a cluster that has to wait for another to finish
  /// would double a persistent kernel's time).
  int persistentSlots = 0;
  /// The buffer of the manifest's workspace param, allocated and zeroed at
  /// the first launch (or plan) that needs it and shared by every launch of
  /// this handle (so its launches must be stream-ordered); 0 until then.
  CUdeviceptr workspace = 0;
  std::mutex workspaceMutex; // Guards the allocations, not the launches.
  /// The entries of the manifest's packs, and their buffers (allocated at
  /// the first launch, like the workspace, and shared by every launch).
  std::vector<CUfunction> packFunctions;
  std::vector<CUdeviceptr> packBuffers;
  /// The plans of tcgen_rt_launch's recent tensor shapes, most recent
  /// first. A launch whose tensors match one in everything but their
  /// addresses (the usual case: a training step, a framework passing
  /// fresh tensors each call) re-points that plan at the new addresses
  /// (tcgen::rt::rebindAddress) and skips validation and encoding.
  std::vector<std::unique_ptr<tcgen::rt::LaunchPlan>> recentPlans;
  std::mutex planMutex; // Guards recentPlans across threads.

  ~tcgen_kernel();
};

/// A plan the caller owns (tcgen_rt_plan_create).
struct tcgen_plan {
  tcgen_kernel *kernel = nullptr;
  std::unique_ptr<tcgen::rt::LaunchPlan> plan;
};

namespace tcgen::rt {

/// Validates `tensors` for `k` and builds their kernel parameters (packs'
/// buffers allocated on first use; the workspace param left for
/// ensurePlanWorkspace). Needs the kernel's context current.
tcgen_status buildPlan(tcgen_kernel &k, const std::vector<TensorArg> &tensors,
                       std::unique_ptr<LaunchPlan> &out);

/// Points the workspace param of `plan` at the kernel's workspace,
/// allocating and zeroing it first if needed: asynchronously on `stream`
/// when `synchronous` is false, else on the legacy default stream followed
/// by a synchronization. Needs the kernel's context current.
tcgen_status ensurePlanWorkspace(tcgen_kernel &k, LaunchPlan &plan,
                                 CUstream stream, bool synchronous);

/// Re-points operand `operand` of `plan` at `address`: checks it is non-null
/// and aligned as the operand needs, then updates its ptr params and, by
/// address only (cuTensorMapReplaceAddress), its tensor maps.
tcgen_status rebindAddress(const tcgen_kernel &k, LaunchPlan &plan,
                           size_t operand, CUdeviceptr address);

/// Launches the packs and the kernel of `plan` on `stream`. Needs the
/// kernel's context current.
tcgen_status launchPlan(tcgen_kernel &k, const LaunchPlan &plan,
                        CUstream stream);

/// Builds the CUDA graph of `plan` (its packs, then its kernel). Returns
/// TCGEN_OK or the failing call's error (the plan then launches without a
/// graph). Needs the kernel's context current.
tcgen_status buildPlanGraph(const tcgen_kernel &k, LaunchPlan &plan);

/// Launches `plan` as its graph, refreshing the nodes' parameters first if
/// an address changed; without a graph, or on a stream being captured, as
/// launchPlan() does. Needs the kernel's context current.
tcgen_status launchPlanGraph(tcgen_kernel &k, LaunchPlan &plan,
                             CUstream stream);

/// Converts the C arguments; reports malformed ones.
tcgen_status convertArgs(const tcgen_tensor_arg *args, int nargs,
                         std::vector<TensorArg> &out);

} // namespace tcgen::rt

#endif // TCGEN_RUNTIME_LIB_KERNEL_H
