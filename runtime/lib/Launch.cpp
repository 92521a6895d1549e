//===- Launch.cpp - Launch plans and launches -----------------------------===//
//
// This file implements the launch half of the C ABI of tcgen_rt.h: building
// a launch plan (validation, tensor-map encoding, packs and workspace),
// re-pointing a plan at new addresses by address only, and launching it;
// tcgen_rt_launch over a small cache of recent plans, and the caller-owned
// plans of tcgen_rt_plan_*.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace tcgen;
using namespace tcgen::rt;

namespace {
constexpr int kMaxRank = 16;            // Sanity bound on user input.
constexpr size_t kMaxTensorMapRank = 5; // cuTensorMapEncodeTiled's limit.
constexpr uintptr_t kTensorMapAddressAlign = 16; // TMA's global address.
constexpr size_t kRecentPlans = 4; // tcgen_rt_launch's plans, by shapes.

CUtensorMapDataType tensorMapDataType(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::I8:
  case DType::E4M3: // TMA moves 8-bit floats as bytes.
  case DType::E5M2:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case DType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle tensorMapSwizzle(const std::string &swizzle) {
  switch (swizzleBytes(swizzle)) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

CUtensorMapL2promotion tensorMapL2Promotion(const std::string &promotion) {
  if (promotion == "64B")
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  if (promotion == "128B")
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  if (promotion == "256B")
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  return CU_TENSOR_MAP_L2_PROMOTION_NONE;
}

CUtensorMapFloatOOBfill tensorMapOobFill(const std::string &fill) {
  // "zero": FILL_NONE fills out-of-bounds elements with zeros.
  return fill == "nan" ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
}

template <typename T> std::string formatList(const std::vector<T> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

/// Encodes the TMA descriptor of params[index] (a tensormap) for `arg`, the
/// tensor of its operand, into `map`. Needs the kernel's context current.
tcgen_status encodeTensorMap(const tcgen_kernel &k, size_t index,
                             const Operand &operand, uintptr_t address,
                             CUtensorMap &map, bool packCopy = false) {
  const Param &p = k.manifest.params[index];
  std::string where = "kernel '" + k.manifest.entry + "': params[" +
                      std::to_string(index) + "] (tensormap of operand '" +
                      operand.name + "'): ";
  TensorMapLayout layout;
  std::string error = tensorMapLayout(p, operand, address, layout, packCopy);
  if (!error.empty()) // validateLaunch has checked this already.
    return fail(TCGEN_ERROR_VALIDATION, where + error);
  size_t rank = layout.globalDim.size();
  if (rank < 1 || rank > kMaxTensorMapRank)
    return fail(TCGEN_ERROR_UNSUPPORTED,
                where + "rank " + std::to_string(rank) +
                    " is outside what TMA supports (1 to 5)");
  cuuint64_t globalDim[kMaxTensorMapRank] = {};
  cuuint64_t globalStrides[kMaxTensorMapRank] = {};
  cuuint32_t boxDim[kMaxTensorMapRank] = {};
  cuuint32_t elementStrides[kMaxTensorMapRank] = {};
  for (size_t i = 0; i < rank; ++i) {
    globalDim[i] = layout.globalDim[i];
    boxDim[i] = layout.boxDim[i];
    elementStrides[i] = layout.elementStrides[i];
    if (i + 1 < rank)
      globalStrides[i] = layout.globalStrides[i];
  }
  const Driver &d = *k.driver;
  CUresult r = d.cuTensorMapEncodeTiledFn(
      &map, tensorMapDataType(operand.dtype), static_cast<cuuint32_t>(rank),
      reinterpret_cast<void *>(layout.globalAddress), globalDim, globalStrides,
      boxDim, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      tensorMapSwizzle(p.swizzle), tensorMapL2Promotion(p.l2Promotion),
      tensorMapOobFill(p.oobFill));
  if (r != CUDA_SUCCESS) {
    char address[32];
    std::snprintf(address, sizeof(address), "0x%llx",
                  static_cast<unsigned long long>(layout.globalAddress));
    return fail(TCGEN_ERROR_CUDA,
                where + rt::formatCudaError(d, "cuTensorMapEncodeTiled", r) +
                    "; " + dtypeName(operand.dtype) + ", address " + address +
                    ", dims " + formatList(layout.globalDim) + ", strides " +
                    formatList(layout.globalStrides) + " B, box " +
                    formatList(layout.boxDim) + ", swizzle " + p.swizzle +
                    ", l2_promotion " + p.l2Promotion + ", oob_fill " +
                    p.oobFill + " (innermost first)");
  }
  return TCGEN_OK;
}


} // namespace

tcgen_status tcgen::rt::convertArgs(const tcgen_tensor_arg *args, int nargs,
                         std::vector<TensorArg> &out) {
  if (nargs < 0 || (nargs > 0 && !args))
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_launch: args is null or nargs is negative");
  out.resize(nargs);
  for (int i = 0; i < nargs; ++i) {
    const tcgen_tensor_arg &a = args[i];
    std::string prefix = "argument " + std::to_string(i) + ": ";
    if (!a.name)
      return fail(TCGEN_ERROR_VALIDATION, prefix + "name is null");
    if (a.rank < 0 || a.rank > kMaxRank)
      return fail(TCGEN_ERROR_VALIDATION,
                  prefix + "invalid rank " + std::to_string(a.rank));
    if (a.rank > 0 && (!a.shape || !a.strides))
      return fail(TCGEN_ERROR_VALIDATION, prefix + "shape or strides is null");
    if (a.dtype < TCGEN_DTYPE_F16 || a.dtype > TCGEN_DTYPE_I64)
      return fail(TCGEN_ERROR_VALIDATION,
                  prefix + "unknown dtype value " +
                      std::to_string(static_cast<int>(a.dtype)));
    out[i].name = a.name;
    out[i].dtype = static_cast<DType>(a.dtype);
    out[i].shape.assign(a.shape, a.shape + a.rank);
    out[i].strides.assign(a.strides, a.strides + a.rank);
    out[i].address = static_cast<uintptr_t>(a.data);
  }
  return TCGEN_OK;
}

namespace {
/// Allocates the pack buffers on the first launch of a kernel with packs.
/// Needs the kernel's context current.
tcgen_status ensurePackBuffers(tcgen_kernel &k) {
  std::lock_guard<std::mutex> lock(k.workspaceMutex);
  if (k.packBuffers.size() == k.manifest.packs.size())
    return TCGEN_OK;
  const Driver &d = *k.driver;
  std::vector<CUdeviceptr> buffers;
  for (const Pack &pack : k.manifest.packs) {
    int64_t bytes = packBytes(*k.manifest.findOperand(pack.operand), pack);
    std::string where = "kernel '" + k.manifest.entry + "': pack of operand '" +
                        pack.operand + "': ";
    CUresult r = CUDA_SUCCESS;
    CUdeviceptr buffer = 0;
    if (bytes < 0 ||
        (r = d.cuMemAllocFn(&buffer, static_cast<size_t>(std::max<int64_t>(
                                         bytes, 256)))) != CUDA_SUCCESS) {
      for (CUdeviceptr b : buffers)
        d.cuMemFreeFn(b);
      return fail(bytes < 0 ? TCGEN_ERROR_UNSUPPORTED : TCGEN_ERROR_CUDA,
                  where + (bytes < 0 ? std::string("its size overflows")
                                     : std::to_string(bytes) + " bytes: " +
                                           rt::formatCudaError(d, "cuMemAlloc",
                                                               r)));
    }
    buffers.push_back(buffer);
  }
  k.packBuffers = std::move(buffers);
  return TCGEN_OK;
}

/// Launches the pack kernels: each copies its operand from the caller's
/// tensor into its buffer.
tcgen_status launchPacks(tcgen_kernel &k, const std::vector<TensorArg> &tensors,
                         CUstream stream) {
  const Driver &d = *k.driver;
  auto u = [](int64_t v) { return static_cast<unsigned>(v); };
  for (size_t i = 0; i < k.manifest.packs.size(); ++i) {
    const Pack &pack = k.manifest.packs[i];
    const Operand *operand = k.manifest.findOperand(pack.operand);
    CUdeviceptr src =
        static_cast<CUdeviceptr>(tensors[operand - k.manifest.operands.data()]
                                     .address);
    CUdeviceptr dst = k.packBuffers[i];
    void *params[] = {&src, &dst};
    CUresult r = d.cuLaunchKernelFn(
        k.packFunctions[i], u(pack.grid[0]), u(pack.grid[1]), u(pack.grid[2]),
        u(pack.block[0]), u(pack.block[1]), u(pack.block[2]), 0, stream,
        params, nullptr);
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA, "kernel '" + k.manifest.entry +
                                        "': pack '" + pack.entry + "': " +
                                        rt::formatCudaError(d, "cuLaunchKernel",
                                                            r));
  }
  return TCGEN_OK;
}

/// Allocates and zeroes the workspace on the first launch that needs one:
/// on `stream`, or with `synchronous` on the legacy default stream and then
/// waits for it. Needs the kernel's context current.
tcgen_status ensureWorkspace(tcgen_kernel &k, CUstream stream,
                             bool synchronous) {
  std::lock_guard<std::mutex> lock(k.workspaceMutex);
  if (k.workspace)
    return TCGEN_OK;
  int64_t bytes = workspaceBytes(k.manifest, k.persistentSlots);
  if (bytes == 0)
    return TCGEN_OK;
  std::string where = "kernel '" + k.manifest.entry + "': workspace of ";
  if (bytes < 0)
    return fail(TCGEN_ERROR_UNSUPPORTED,
                where + "bytes_per_block times the launched blocks overflows");
  std::string size = std::to_string(bytes) + " bytes";
  const Driver &d = *k.driver;
  CUdeviceptr buffer = 0;
  CUresult r = d.cuMemAllocFn(&buffer, static_cast<size_t>(bytes));
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA,
                where + size + ": " + rt::formatCudaError(d, "cuMemAlloc", r));
  // Zeroed once: the kernel leaves any flags it keeps there zero at exit.
  // On the launch stream, so that the kernel sees the zeros even on a
  // stream that does not synchronize with the legacy default stream; a
  // plan, made before its streams are known, waits for the zeros instead.
  const char *call = "cuMemsetD8Async";
  r = d.cuMemsetD8AsyncFn(buffer, 0, static_cast<size_t>(bytes),
                          synchronous ? nullptr : stream);
  if (r == CUDA_SUCCESS && synchronous) {
    call = "cuStreamSynchronize";
    r = d.cuStreamSynchronizeFn(nullptr);
  }
  if (r != CUDA_SUCCESS) {
    d.cuMemFreeFn(buffer);
    return fail(TCGEN_ERROR_CUDA,
                where + size + ": " + rt::formatCudaError(d, call, r));
  }
  k.workspace = buffer;
  return TCGEN_OK;
}


CUresult launchKernel(const tcgen_kernel &k, const LaunchPlan &plan,
                      CUstream stream) {
  const Driver &d = *k.driver;
  void **params = plan.params.empty()
                      ? nullptr
                      : const_cast<void **>(plan.params.data());
  const auto &g = plan.grid, &b = plan.block, &c = plan.cluster;
  if (c[0] * c[1] * c[2] == 1)
    return d.cuLaunchKernelFn(k.function, g[0], g[1], g[2], b[0], b[1], b[2],
                              plan.dynamicSmemBytes, stream, params, nullptr);
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = c[0];
  attribute.value.clusterDim.y = c[1];
  attribute.value.clusterDim.z = c[2];
  CUlaunchConfig config = {};
  config.gridDimX = g[0];
  config.gridDimY = g[1];
  config.gridDimZ = g[2];
  config.blockDimX = b[0];
  config.blockDimY = b[1];
  config.blockDimZ = b[2];
  config.sharedMemBytes = plan.dynamicSmemBytes;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return d.cuLaunchKernelExFn(&config, k.function, params, nullptr);
}

/// Fills the launch geometry of `plan` from the manifest: the grid the
/// workspace is sized for (launchedGrid()).
void planGeometry(const tcgen_kernel &k, LaunchPlan &plan) {
  const Launch &l = k.manifest.launch;
  std::array<int64_t, 3> grid = launchedGrid(l, k.persistentSlots);
  for (int i = 0; i < 3; ++i) {
    plan.grid[i] = static_cast<unsigned>(grid[i]);
    plan.block[i] = static_cast<unsigned>(l.block[i]);
    plan.cluster[i] = static_cast<unsigned>(l.cluster[i]);
  }
  plan.dynamicSmemBytes = static_cast<unsigned>(l.dynamicSmemBytes);
}

/// Whether `args` are the tensors of `plan` but for their addresses: the
/// same names, dtypes, shapes and strides (then the validation's verdict
/// and the encoded tensor maps hold once re-pointed).
bool sameButAddresses(const LaunchPlan &plan, const tcgen_tensor_arg *args,
                      int nargs) {
  if (plan.tensors.size() != static_cast<size_t>(nargs))
    return false;
  for (int i = 0; i < nargs; ++i) {
    const TensorArg &t = plan.tensors[i];
    const tcgen_tensor_arg &a = args[i];
    size_t rank = t.shape.size();
    if (!a.name || t.name != a.name ||
        static_cast<int>(t.dtype) != static_cast<int>(a.dtype) ||
        a.rank != static_cast<int>(rank))
      return false;
    if (rank > 0 && (!a.shape || !a.strides ||
                     !std::equal(t.shape.begin(), t.shape.end(), a.shape) ||
                     !std::equal(t.strides.begin(), t.strides.end(),
                                 a.strides)))
      return false;
  }
  return true;
}

/// Returns the plan of `k`'s recent plans that `args` match but for their
/// addresses, moved to the front; nullptr if none does. Needs planMutex.
LaunchPlan *findRecentPlan(tcgen_kernel &k, const tcgen_tensor_arg *args,
                           int nargs) {
  auto &plans = k.recentPlans;
  for (size_t i = 0; i < plans.size(); ++i) {
    if (!sameButAddresses(*plans[i], args, nargs))
      continue;
    std::rotate(plans.begin(), plans.begin() + i, plans.begin() + i + 1);
    return plans.front().get();
  }
  return nullptr;
}

/// The message of a failed kernel launch.
tcgen_status failLaunch(const tcgen_kernel &k, const LaunchPlan &plan,
                        CUresult r) {
  bool cluster = plan.cluster[0] * plan.cluster[1] * plan.cluster[2] != 1;
  return fail(TCGEN_ERROR_CUDA,
              "kernel '" + k.manifest.entry + "': " +
                  formatCudaError(*k.driver,
                                  cluster ? "cuLaunchKernelEx"
                                          : "cuLaunchKernel",
                                  r));
}

tcgen_status launchImpl(tcgen_kernel *k, const tcgen_tensor_arg *args,
                        int nargs, CUstream stream) {
  if (!k)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_launch: kernel is null");
  if (nargs < 0 || (nargs > 0 && !args))
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_launch: args is null or nargs is negative");
  const Driver &d = *k->driver;
  ScopedContext scope(d);
  const char *call = nullptr;
  CUresult r = scope.enter(k->context, call);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, formatCudaError(d, call, r));
  std::lock_guard<std::mutex> guard(k->planMutex);
  tcgen_status status;
  LaunchPlan *plan = findRecentPlan(*k, args, nargs);
  if (plan) {
    for (int i = 0; i < nargs; ++i)
      if ((status = rebindAddress(*k, *plan, i, args[i].data)) != TCGEN_OK)
        return status;
  } else {
    std::vector<TensorArg> tensors;
    std::unique_ptr<LaunchPlan> built;
    if ((status = convertArgs(args, nargs, tensors)) != TCGEN_OK ||
        (status = buildPlan(*k, tensors, built)) != TCGEN_OK)
      return status;
    auto &plans = k->recentPlans;
    plans.insert(plans.begin(), std::move(built));
    if (plans.size() > kRecentPlans)
      plans.pop_back();
    plan = plans.front().get();
  }
  if ((status = ensurePlanWorkspace(*k, *plan, stream,
                                    /*synchronous=*/false)) != TCGEN_OK)
    return status;
  return launchPlan(*k, *plan, stream);
}
} // namespace

tcgen_status tcgen::rt::buildPlan(tcgen_kernel &k,
                                  const std::vector<TensorArg> &tensors,
                                  std::unique_ptr<LaunchPlan> &out) {
  // A dynamic-shape kernel's sizes and strides come from the tensors.
  Manifest bound;
  std::string error = bindSizes(k.manifest, tensors, bound);
  if (error.empty())
    error = validateLaunch(bound, tensors, k.device);
  if (!error.empty())
    return fail(TCGEN_ERROR_VALIDATION,
                "kernel '" + k.manifest.entry + "': " + error);

  auto plan = std::make_unique<LaunchPlan>();
  plan->driver = k.driver;
  plan->tensors = tensors;
  size_t numParams = k.paramPlans.size(), numOperands = tensors.size();
  size_t numMaps = 0;
  for (const ParamPlan &p : k.paramPlans)
    numMaps += p.kind == ParamPlan::TensorMap;
  plan->pointers.resize(numParams);
  plan->sizes.resize(numParams);
  plan->maps.resize(numMaps);
  plan->params.resize(numParams);
  plan->pointerSlots.resize(numOperands);
  plan->mapSlots.resize(numOperands);
  plan->addressAlign.resize(numOperands);
  for (size_t i = 0; i < numOperands; ++i)
    plan->addressAlign[i] = static_cast<uintptr_t>(
        std::max<int64_t>(1, bound.operands[i].alignBytes));
  planGeometry(k, *plan);

  tcgen_status status;
  // Pack buffers first: the tensor maps of packed operands address them.
  if (!k.manifest.packs.empty() && (status = ensurePackBuffers(k)) != TCGEN_OK)
    return status;
  for (size_t i = 0, map = 0; i < numParams; ++i) {
    const ParamPlan &pp = k.paramPlans[i];
    switch (pp.kind) {
    case ParamPlan::Workspace:
      plan->workspaceParam = static_cast<int64_t>(i);
      plan->params[i] = &plan->pointers[i]; // ensurePlanWorkspace sets it.
      continue;
    case ParamPlan::Size:
      plan->sizes[i] = pp.size == 'm'   ? bound.op.m
                       : pp.size == 'n' ? bound.op.n
                                        : bound.op.k;
      plan->params[i] = &plan->sizes[i];
      continue;
    case ParamPlan::Stride:
      // The launch's stride (bindSizes took it from the tensor).
      plan->sizes[i] = bound.operands[pp.operand].strides[pp.dim];
      plan->params[i] = &plan->sizes[i];
      continue;
    case ParamPlan::Ptr:
      plan->pointers[i] = static_cast<CUdeviceptr>(tensors[pp.operand].address);
      plan->params[i] = &plan->pointers[i];
      plan->pointerSlots[pp.operand].push_back(i);
      continue;
    case ParamPlan::TensorMap:
      break;
    }
    size_t slotIndex = map++;
    CUtensorMap &slot = plan->maps[slotIndex].map;
    const Operand &operand = bound.operands[pp.operand];
    const Pack *pack = k.manifest.findPack(operand.name);
    if (pack) {
      status = encodeTensorMap(
          k, i, packedOperand(operand, *pack),
          static_cast<uintptr_t>(k.packBuffers[pack - k.manifest.packs.data()]),
          slot, /*packCopy=*/true);
    } else {
      status = encodeTensorMap(k, i, operand, tensors[pp.operand].address, slot);
      plan->mapSlots[pp.operand].push_back(slotIndex);
      plan->addressAlign[pp.operand] =
          std::max(plan->addressAlign[pp.operand], kTensorMapAddressAlign);
    }
    if (status != TCGEN_OK)
      return status;
    plan->params[i] = &slot;
  }
  out = std::move(plan);
  return TCGEN_OK;
}

tcgen_status tcgen::rt::ensurePlanWorkspace(tcgen_kernel &k, LaunchPlan &plan,
                                            CUstream stream,
                                            bool synchronous) {
  if (plan.workspaceParam < 0)
    return TCGEN_OK;
  // The kernel's workspace, once allocated, stays for the handle's life:
  // a plan that has its address needs nothing more.
  size_t i = static_cast<size_t>(plan.workspaceParam);
  if (plan.pointers[i] != 0)
    return TCGEN_OK;
  tcgen_status status = ensureWorkspace(k, stream, synchronous);
  if (status != TCGEN_OK)
    return status;
  plan.pointers[i] = k.workspace;
  return TCGEN_OK;
}

tcgen_status tcgen::rt::rebindAddress(const tcgen_kernel &k, LaunchPlan &plan,
                                      size_t operand, CUdeviceptr address) {
  TensorArg &tensor = plan.tensors[operand];
  if (tensor.address == static_cast<uintptr_t>(address))
    return TCGEN_OK;
  auto where = [&] {
    return "kernel '" + k.manifest.entry + "': operand '" + tensor.name +
           "': ";
  };
  if (address == 0)
    return fail(TCGEN_ERROR_VALIDATION, where() + "null device pointer");
  uintptr_t align = plan.addressAlign[operand];
  if (static_cast<uintptr_t>(address) % align != 0) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%llx",
                  static_cast<unsigned long long>(address));
    return fail(TCGEN_ERROR_VALIDATION,
                where() + "misaligned pointer: kernel expects " +
                    std::to_string(align) + "-byte alignment, got " + text);
  }
  for (size_t p : plan.pointerSlots[operand])
    plan.pointers[p] = address;
  for (size_t m : plan.mapSlots[operand]) {
    CUresult r = k.driver->cuTensorMapReplaceAddressFn(
        &plan.maps[m].map, reinterpret_cast<void *>(address));
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA,
                  where() + formatCudaError(*k.driver,
                                            "cuTensorMapReplaceAddress", r));
  }
  tensor.address = static_cast<uintptr_t>(address);
  plan.graphStale = true;
  return TCGEN_OK;
}

tcgen_status tcgen::rt::launchPlan(tcgen_kernel &k, const LaunchPlan &plan,
                                   CUstream stream) {
  tcgen_status status = launchPacks(k, plan.tensors, stream);
  if (status != TCGEN_OK)
    return status;
  CUresult r = launchKernel(k, plan, stream);
  if (r != CUDA_SUCCESS)
    return failLaunch(k, plan, r);
  return succeed();
}

tcgen::rt::LaunchPlan::~LaunchPlan() {
  if (graphExec)
    driver->cuGraphExecDestroyFn(graphExec);
  if (graph)
    driver->cuGraphDestroyFn(graph);
}

namespace {
/// The kernel node of `plan`: its function, geometry and parameters.
CUDA_KERNEL_NODE_PARAMS kernelNodeParams(const tcgen_kernel &k,
                                         const LaunchPlan &plan) {
  CUDA_KERNEL_NODE_PARAMS p = {};
  p.func = k.function;
  p.gridDimX = plan.grid[0];
  p.gridDimY = plan.grid[1];
  p.gridDimZ = plan.grid[2];
  p.blockDimX = plan.block[0];
  p.blockDimY = plan.block[1];
  p.blockDimZ = plan.block[2];
  p.sharedMemBytes = plan.dynamicSmemBytes;
  p.kernelParams = plan.params.empty()
                       ? nullptr
                       : const_cast<void **>(plan.params.data());
  return p;
}

/// The node of pack `i` of `plan`, its source address refreshed from the
/// plan's tensors.
CUDA_KERNEL_NODE_PARAMS packNodeParams(const tcgen_kernel &k, LaunchPlan &plan,
                                       size_t i) {
  const Pack &pack = k.manifest.packs[i];
  const Operand *operand = k.manifest.findOperand(pack.operand);
  plan.packAddresses[i] = {
      static_cast<CUdeviceptr>(
          plan.tensors[operand - k.manifest.operands.data()].address),
      k.packBuffers[i]};
  plan.packParams[i] = {&plan.packAddresses[i][0], &plan.packAddresses[i][1]};
  CUDA_KERNEL_NODE_PARAMS p = {};
  p.func = k.packFunctions[i];
  p.gridDimX = static_cast<unsigned>(pack.grid[0]);
  p.gridDimY = static_cast<unsigned>(pack.grid[1]);
  p.gridDimZ = static_cast<unsigned>(pack.grid[2]);
  p.blockDimX = static_cast<unsigned>(pack.block[0]);
  p.blockDimY = static_cast<unsigned>(pack.block[1]);
  p.blockDimZ = static_cast<unsigned>(pack.block[2]);
  p.kernelParams = plan.packParams[i].data();
  return p;
}
} // namespace

tcgen_status tcgen::rt::buildPlanGraph(const tcgen_kernel &k,
                                       LaunchPlan &plan) {
  const Driver &d = *k.driver;
  const char *call = "cuGraphCreate";
  CUresult r = d.cuGraphCreateFn(&plan.graph, 0);
  size_t numPacks = k.manifest.packs.size();
  plan.packNodes.assign(numPacks, nullptr);
  plan.packAddresses.resize(numPacks);
  plan.packParams.resize(numPacks);
  for (size_t i = 0; i < numPacks && r == CUDA_SUCCESS; ++i) {
    CUDA_KERNEL_NODE_PARAMS p = packNodeParams(k, plan, i);
    call = "cuGraphAddKernelNode";
    r = d.cuGraphAddKernelNodeFn(&plan.packNodes[i], plan.graph, nullptr, 0,
                                 &p);
  }
  if (r == CUDA_SUCCESS) {
    CUDA_KERNEL_NODE_PARAMS p = kernelNodeParams(k, plan);
    r = d.cuGraphAddKernelNodeFn(&plan.kernelNode, plan.graph,
                                 plan.packNodes.data(), numPacks, &p);
  }
  if (r == CUDA_SUCCESS &&
      plan.cluster[0] * plan.cluster[1] * plan.cluster[2] != 1) {
    CUkernelNodeAttrValue value = {};
    value.clusterDim.x = plan.cluster[0];
    value.clusterDim.y = plan.cluster[1];
    value.clusterDim.z = plan.cluster[2];
    call = "cuGraphKernelNodeSetAttribute";
    r = d.cuGraphKernelNodeSetAttributeFn(
        plan.kernelNode, CU_KERNEL_NODE_ATTRIBUTE_CLUSTER_DIMENSION, &value);
  }
  if (r == CUDA_SUCCESS) {
    call = "cuGraphInstantiateWithFlags";
    r = d.cuGraphInstantiateWithFlagsFn(&plan.graphExec, plan.graph, 0);
  }
  if (r != CUDA_SUCCESS) {
    if (plan.graph)
      d.cuGraphDestroyFn(plan.graph);
    plan.graph = nullptr;
    plan.graphExec = nullptr;
    return fail(TCGEN_ERROR_CUDA, "kernel '" + k.manifest.entry +
                                      "': " + formatCudaError(d, call, r));
  }
  plan.graphStale = false;
  return TCGEN_OK;
}

tcgen_status tcgen::rt::launchPlanGraph(tcgen_kernel &k, LaunchPlan &plan,
                                        CUstream stream) {
  const Driver &d = *k.driver;
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  // A stream being captured records plain launches (a graph launched into
  // it would nest).
  if (!plan.graphExec ||
      d.cuStreamIsCapturingFn(stream, &capture) != CUDA_SUCCESS ||
      capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return launchPlan(k, plan, stream);
  CUresult r = CUDA_SUCCESS;
  const char *call = "cuGraphExecKernelNodeSetParams";
  if (plan.graphStale) {
    for (size_t i = 0; i < plan.packNodes.size() && r == CUDA_SUCCESS; ++i) {
      CUDA_KERNEL_NODE_PARAMS p = packNodeParams(k, plan, i);
      r = d.cuGraphExecKernelNodeSetParamsFn(plan.graphExec, plan.packNodes[i],
                                             &p);
    }
    if (r == CUDA_SUCCESS) {
      CUDA_KERNEL_NODE_PARAMS p = kernelNodeParams(k, plan);
      r = d.cuGraphExecKernelNodeSetParamsFn(plan.graphExec, plan.kernelNode,
                                             &p);
    }
    plan.graphStale = r != CUDA_SUCCESS;
  }
  if (r == CUDA_SUCCESS) {
    call = "cuGraphLaunch";
    r = d.cuGraphLaunchFn(plan.graphExec, stream);
  }
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA,
                "kernel '" + k.manifest.entry + "': " +
                    formatCudaError(d, call, r));
  return succeed();
}

//===----------------------------------------------------------------------===//
// C ABI: launches and plans
//===----------------------------------------------------------------------===//

extern "C" {

tcgen_status tcgen_rt_launch(tcgen_kernel *kernel, const tcgen_tensor_arg *args,
                             int nargs, CUstream stream) {
  return launchImpl(kernel, args, nargs, stream);
}

tcgen_status tcgen_rt_plan_create(tcgen_kernel *kernel,
                                  const tcgen_tensor_arg *args, int nargs,
                                  tcgen_plan **out) {
  if (!out)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_plan_create: out is null");
  *out = nullptr;
  if (!kernel)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_plan_create: kernel is null");
  std::vector<TensorArg> tensors;
  tcgen_status status = convertArgs(args, nargs, tensors);
  if (status != TCGEN_OK)
    return status;
  const Driver &d = *kernel->driver;
  ScopedContext scope(d);
  const char *call = nullptr;
  CUresult r = scope.enter(kernel->context, call);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, formatCudaError(d, call, r));
  auto plan = std::make_unique<tcgen_plan>();
  plan->kernel = kernel;
  if ((status = buildPlan(*kernel, tensors, plan->plan)) != TCGEN_OK ||
      (status = ensurePlanWorkspace(*kernel, *plan->plan, nullptr,
                                    /*synchronous=*/true)) != TCGEN_OK)
    return status;
  // Without its graph (where the driver refuses one), a plan launches
  // kernel by kernel: slower on the host, the same on the GPU.
  buildPlanGraph(*kernel, *plan->plan);
  *out = plan.release();
  return succeed();
}

tcgen_status tcgen_rt_plan_set_address(tcgen_plan *plan, int index,
                                       CUdeviceptr data) {
  if (!plan || index < 0 ||
      static_cast<size_t>(index) >= plan->plan->tensors.size())
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_plan_set_address: null plan or index out of range");
  tcgen_status status =
      rebindAddress(*plan->kernel, *plan->plan, static_cast<size_t>(index),
                    data);
  return status == TCGEN_OK ? succeed() : status;
}

tcgen_status tcgen_rt_plan_launch(tcgen_plan *plan, CUstream stream) {
  if (!plan)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_plan_launch: plan is null");
  tcgen_kernel &k = *plan->kernel;
  ScopedContext scope(*k.driver);
  const char *call = nullptr;
  CUresult r = scope.enter(k.context, call);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, formatCudaError(*k.driver, call, r));
  return launchPlanGraph(k, *plan->plan, stream);
}

tcgen_status tcgen_rt_plan_launch_with(tcgen_plan *plan,
                                       const CUdeviceptr *data, int ndata,
                                       CUstream stream) {
  if (!plan || (ndata > 0 && !data) ||
      static_cast<size_t>(std::max(ndata, 0)) != plan->plan->tensors.size())
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_plan_launch_with: null plan or data, or ndata is "
                "not the number of operands");
  for (int i = 0; i < ndata; ++i) {
    tcgen_status status =
        rebindAddress(*plan->kernel, *plan->plan, static_cast<size_t>(i),
                      data[i]);
    if (status != TCGEN_OK)
      return status;
  }
  return tcgen_rt_plan_launch(plan, stream);
}

void tcgen_rt_plan_destroy(tcgen_plan *plan) { delete plan; }

} // extern "C"
