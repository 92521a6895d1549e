//===- TcgenRt.cpp - tcgen kernel runtime, C ABI --------------------------===//
//
// This file implements the C ABI of tcgen_rt.h over the CUDA driver API:
// bundle loading (manifest, cubin or PTX, entry lookup), launch validation
// with validateLaunch() and kernel launch, with per-thread error messages.
//
//===----------------------------------------------------------------------===//

#include "tcgen/tcgen_rt.h"

#include "CudaDriver.h"
#include "tcgen/Runtime/Elf.h"
#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Runtime.h"
#include "tcgen/Runtime/Validate.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

using namespace tcgen;
using tcgen::rt::Driver;

namespace {
constexpr int64_t kDefaultDynamicSmemLimit = 48 * 1024; // Without opt-in.
constexpr int64_t kPortableClusterSize = 8;             // Larger needs opt-in.
constexpr int kMaxRank = 16; // Sanity bound on user input.
constexpr size_t kJitLogBytes = 16 * 1024;
constexpr size_t kMaxTensorMapRank = 5; // cuTensorMapEncodeTiled's limit.

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
};

/// Whether two launches pass the same tensors (names, dtypes, shapes,
/// strides and addresses): then the validation's verdict and the encoded
/// tensor maps of one hold for the other.
bool sameTensors(const std::vector<TensorArg> &a,
                 const std::vector<TensorArg> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].dtype != b[i].dtype ||
        a[i].shape != b[i].shape || a[i].strides != b[i].strides ||
        a[i].address != b[i].address)
      return false;
  return true;
}

thread_local std::string lastError;

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

tcgen_status fail(tcgen_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

tcgen_status succeed() {
  lastError.clear();
  return TCGEN_OK;
}

/// Returns the driver, or records why there is none.
const Driver *driverOrFail(tcgen_status &status) {
  std::string error;
  bool noDriver = false;
  const Driver *driver = rt::getDriver(error, noDriver);
  if (!driver)
    status = fail(noDriver ? TCGEN_ERROR_NO_DRIVER : TCGEN_ERROR_NO_DEVICE,
                  std::move(error));
  return driver;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return !in.bad();
}
} // namespace

struct tcgen_kernel {
  const Driver *driver = nullptr;
  Manifest manifest;
  std::string manifestPath;
  std::string binaryKind;
  /// Why the manifest's cubin was not used (empty if it was, or if there is
  /// none): tcgen_rt_load_note().
  std::string loadNote;
  DeviceInfo device;
  CUcontext context = nullptr;
  CUdevice cuDevice = 0;
  bool retainedPrimary = false;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::vector<ParamPlan> paramPlans; // one per manifest param
  /// Blocks that can be resident at once, for the persistent grid: one per
  /// SM, or for cluster kernels the clusters the device can hold at once
  /// times their size (a cluster that has to wait for another to finish
  /// would double a persistent kernel's time).
  int persistentSlots = 0;
  /// The buffer of the manifest's workspace param, allocated and zeroed at
  /// the first launch and shared by every launch of this handle (so its
  /// launches must be stream-ordered); 0 until then.
  CUdeviceptr workspace = 0;
  std::mutex workspaceMutex; // Guards the allocations, not the launches.
  /// The entries of the manifest's packs, and their buffers (allocated at
  /// the first launch, like the workspace, and shared by every launch).
  std::vector<CUfunction> packFunctions;
  std::vector<CUdeviceptr> packBuffers;
  /// The plan of the last successful launch. A launch over the same
  /// tensors (the usual case: a training step or a benchmark loop) reuses
  /// it and skips the validation and cuTensorMapEncodeTiled on the host.
  /// (tcgen-gpu bench queues its launches ahead of the GPU, which hides
  /// host time: its ratios did not change; docs/NOTES.md.)
  std::unique_ptr<LaunchPlan> lastPlan;
  std::mutex planMutex; // Guards lastPlan across threads.

  ~tcgen_kernel() {
    bool anyBuffer = workspace != 0;
    for (CUdeviceptr b : packBuffers)
      anyBuffer |= b != 0;
    if (anyBuffer) {
      // Freed in its own context, which need not be current here.
      ScopedContext scope(*driver);
      const char *call = nullptr;
      if (scope.enter(context, call) == CUDA_SUCCESS) {
        if (workspace)
          driver->cuMemFreeFn(workspace);
        for (CUdeviceptr b : packBuffers)
          if (b)
            driver->cuMemFreeFn(b);
      }
    }
    if (module)
      driver->cuModuleUnloadFn(module);
    if (retainedPrimary)
      driver->cuDevicePrimaryCtxReleaseFn(cuDevice);
  }
};

namespace {
/// Makes a context current (the primary context of device 0 if none is)
/// and records it and its device in `k`.
tcgen_status bindContext(tcgen_kernel &k) {
  const Driver &d = *k.driver;
  CUresult r = d.cuCtxGetCurrentFn(&k.context);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, rt::formatCudaError(d, "cuCtxGetCurrent", r));
  if (k.context) {
    r = d.cuCtxGetDeviceFn(&k.cuDevice);
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA,
                  rt::formatCudaError(d, "cuCtxGetDevice", r));
    return TCGEN_OK;
  }
  int count = 0;
  r = d.cuDeviceGetCountFn(&count);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_NO_DEVICE,
                rt::formatCudaError(d, "cuDeviceGetCount", r));
  if (count == 0)
    return fail(TCGEN_ERROR_NO_DEVICE, "no CUDA device found");
  if ((r = d.cuDeviceGetFn(&k.cuDevice, 0)) != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, rt::formatCudaError(d, "cuDeviceGet", r));
  if ((r = d.cuDevicePrimaryCtxRetainFn(&k.context, k.cuDevice)) !=
      CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA,
                rt::formatCudaError(d, "cuDevicePrimaryCtxRetain", r));
  k.retainedPrimary = true;
  if ((r = d.cuCtxSetCurrentFn(k.context)) != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, rt::formatCudaError(d, "cuCtxSetCurrent", r));
  return TCGEN_OK;
}

tcgen_status queryDevice(tcgen_kernel &k) {
  const Driver &d = *k.driver;
  struct {
    CUdevice_attribute attribute;
    const char *name;
    int value;
  } attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cc major", 0},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "cc minor", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "smem optin", 0},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count", 0}};
  for (auto &a : attrs) {
    CUresult r = d.cuDeviceGetAttributeFn(&a.value, a.attribute, k.cuDevice);
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA,
                  rt::formatCudaError(d, "cuDeviceGetAttribute", r) + " (" +
                      a.name + ")");
  }
  char name[256] = {0};
  CUresult r = d.cuDeviceGetNameFn(name, sizeof(name) - 1, k.cuDevice);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, rt::formatCudaError(d, "cuDeviceGetName", r));
  k.device.ccMajor = attrs[0].value;
  k.device.ccMinor = attrs[1].value;
  k.device.maxDynamicSmemBytes = attrs[2].value;
  k.device.smCount = attrs[3].value;
  k.device.name = name;
  return TCGEN_OK;
}

/// Loads a PTX image with the JIT's error log in the message.
CUresult loadPtx(const Driver &d, const std::string &ptx, CUmodule &module,
                 std::string &log) {
  std::string buffer(kJitLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      buffer.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(buffer.size() - 1))};
  CUresult r = d.cuModuleLoadDataExFn(&module, ptx.c_str(), 2, options, values);
  log = buffer.c_str();
  return r;
}

/// Loads the cubin, or the PTX if there is no cubin or the driver refuses
/// the cubin for this device (the reason is kept in k.loadNote). A cubin
/// that is not a well-formed ELF image within its file is an error: the
/// driver trusts the image's own sizes and would read past the buffer.
tcgen_status loadModule(tcgen_kernel &k) {
  const Driver &d = *k.driver;
  std::filesystem::path dir =
      std::filesystem::path(k.manifestPath).parent_path();
  std::string cubinError;
  if (!k.manifest.cubin.empty()) {
    std::string path = (dir / k.manifest.cubin).string();
    std::string image;
    if (!readFile(path, image)) {
      cubinError = path + ": cannot read cubin";
    } else if (std::string bad = validateCubinImage(image.data(), image.size());
               !bad.empty()) {
      return fail(TCGEN_ERROR_MANIFEST,
                  path + ": truncated or corrupt cubin: " + bad);
    } else {
      CUresult r = d.cuModuleLoadDataFn(&k.module, image.data());
      if (r == CUDA_SUCCESS) {
        k.binaryKind = "cubin";
        return TCGEN_OK;
      }
      k.module = nullptr;
      cubinError = path + ": " + rt::formatCudaError(d, "cuModuleLoadData", r);
    }
  }
  if (k.manifest.ptx.empty())
    return fail(cubinError.find("cannot read") != std::string::npos
                    ? TCGEN_ERROR_NOT_FOUND
                    : TCGEN_ERROR_CUDA,
                cubinError + " (and the manifest names no PTX)");
  std::string path = (dir / k.manifest.ptx).string();
  std::string ptx, log;
  std::string prefix = cubinError.empty() ? "" : cubinError + "; ";
  if (!readFile(path, ptx))
    return fail(TCGEN_ERROR_NOT_FOUND, prefix + path + ": cannot read PTX");
  CUresult r = loadPtx(d, ptx, k.module, log);
  if (r != CUDA_SUCCESS) {
    k.module = nullptr;
    return fail(TCGEN_ERROR_CUDA,
                prefix + path + ": " +
                    rt::formatCudaError(d, "cuModuleLoadDataEx", r) +
                    (log.empty() ? "" : "\n" + log));
  }
  k.binaryKind = "ptx";
  if (!cubinError.empty())
    k.loadNote = cubinError + "; loaded the PTX instead (JIT-compiled by the "
                              "driver)";
  return TCGEN_OK;
}

/// Looks up the entry and raises the limits the launch geometry needs.
tcgen_status prepareFunction(tcgen_kernel &k) {
  const Driver &d = *k.driver;
  const Launch &launch = k.manifest.launch;
  CUresult r =
      d.cuModuleGetFunctionFn(&k.function, k.module, k.manifest.entry.c_str());
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA,
                rt::formatCudaError(d, "cuModuleGetFunction", r) + ": entry '" +
                    k.manifest.entry + "' not found in the " + k.binaryKind);
  if (launch.dynamicSmemBytes > kDefaultDynamicSmemLimit) {
    r = d.cuFuncSetAttributeFn(k.function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(launch.dynamicSmemBytes));
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA,
                  rt::formatCudaError(d, "cuFuncSetAttribute", r) +
                      " (max dynamic shared memory " +
                      std::to_string(launch.dynamicSmemBytes) + " B)");
  }
  int64_t clusterSize =
      launch.cluster[0] * launch.cluster[1] * launch.cluster[2];
  k.persistentSlots = k.device.smCount;
  if (clusterSize > 1) {
    CUlaunchAttribute attribute = {};
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = static_cast<unsigned>(launch.cluster[0]);
    attribute.value.clusterDim.y = static_cast<unsigned>(launch.cluster[1]);
    attribute.value.clusterDim.z = static_cast<unsigned>(launch.cluster[2]);
    CUlaunchConfig config = {};
    config.gridDimX = static_cast<unsigned>(launch.cluster[0]);
    config.gridDimY = static_cast<unsigned>(launch.cluster[1]);
    config.gridDimZ = static_cast<unsigned>(launch.cluster[2]);
    config.blockDimX = static_cast<unsigned>(launch.block[0]);
    config.blockDimY = static_cast<unsigned>(launch.block[1]);
    config.blockDimZ = static_cast<unsigned>(launch.block[2]);
    config.sharedMemBytes = static_cast<unsigned>(launch.dynamicSmemBytes);
    config.attrs = &attribute;
    config.numAttrs = 1;
    int clusters = 0;
    r = d.cuOccupancyMaxActiveClustersFn(&clusters, k.function, &config);
    if (r == CUDA_SUCCESS && clusters > 0)
      k.persistentSlots = static_cast<int>(
          std::min<int64_t>(k.device.smCount, clusters * clusterSize));
  }
  for (const Pack &pack : k.manifest.packs) {
    CUfunction f = nullptr;
    r = d.cuModuleGetFunctionFn(&f, k.module, pack.entry.c_str());
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA,
                  rt::formatCudaError(d, "cuModuleGetFunction", r) +
                      ": pack entry '" + pack.entry + "' (operand '" +
                      pack.operand + "') not found in the " + k.binaryKind);
    k.packFunctions.push_back(f);
  }
  if (clusterSize > kPortableClusterSize) {
    r = d.cuFuncSetAttributeFn(
        k.function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS)
      return fail(TCGEN_ERROR_CUDA,
                  rt::formatCudaError(d, "cuFuncSetAttribute", r) +
                      " (non-portable cluster size " +
                      std::to_string(clusterSize) + ")");
  }
  return TCGEN_OK;
}

/// Maps each param to its kind and operand; refuses kinds other than "ptr",
/// "tensormap" and "workspace".
tcgen_status planParams(tcgen_kernel &k) {
  int workspaces = 0;
  for (size_t i = 0; i < k.manifest.params.size(); ++i) {
    const Param &p = k.manifest.params[i];
    std::string where = k.manifestPath + ": params[" + std::to_string(i) + "]";
    ParamPlan plan;
    if (p.kind == "ptr")
      plan.kind = ParamPlan::Ptr;
    else if (p.kind == "tensormap")
      plan.kind = ParamPlan::TensorMap;
    else if (p.kind == "workspace")
      plan.kind = ParamPlan::Workspace;
    else if (p.kind == "size")
      plan.kind = ParamPlan::Size;
    else if (p.kind == "stride")
      plan.kind = ParamPlan::Stride;
    else
      return fail(TCGEN_ERROR_UNSUPPORTED,
                  where + ": kind '" + p.kind +
                      "' is not supported by this runtime (supported: ptr, "
                      "tensormap, workspace, size, stride)");
    if (plan.kind == ParamPlan::Size) {
      // The parser checks this; be safe for built manifests.
      if (p.value != "m" && p.value != "n" && p.value != "k")
        return fail(TCGEN_ERROR_MANIFEST,
                    where + ": a size param names m, n or k, got '" + p.value +
                        "'");
      plan.size = p.value[0];
      k.paramPlans.push_back(plan);
      continue;
    }
    if (plan.kind == ParamPlan::Workspace) {
      // The parser checks these; be safe for built manifests.
      if (p.bytesPerBlock <= 0)
        return fail(TCGEN_ERROR_MANIFEST,
                    where + ": workspace needs bytes_per_block > 0");
      if (workspaces++)
        return fail(TCGEN_ERROR_MANIFEST,
                    where + ": a manifest has at most one workspace param");
      k.paramPlans.push_back(plan); // No operand: the runtime's buffer.
      continue;
    }
    const Operand *operand = k.manifest.findOperand(p.operand);
    if (!operand) // The parser checks this; be safe for built manifests.
      return fail(TCGEN_ERROR_MANIFEST,
                  where + ": no operand named '" + p.operand + "'");
    plan.operand = static_cast<size_t>(operand - k.manifest.operands.data());
    if (plan.kind == ParamPlan::Stride) {
      // The parser checks this; be safe for built manifests.
      if (p.dim < 0 || size_t(p.dim) >= operand->strides.size())
        return fail(TCGEN_ERROR_MANIFEST,
                    where + ": a stride param names a dimension of operand '" +
                        p.operand + "', got " + std::to_string(p.dim));
      plan.dim = size_t(p.dim);
    }
    k.paramPlans.push_back(plan);
  }
  return TCGEN_OK;
}

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
                             CUtensorMap &map) {
  const Param &p = k.manifest.params[index];
  std::string where = "kernel '" + k.manifest.entry + "': params[" +
                      std::to_string(index) + "] (tensormap of operand '" +
                      operand.name + "'): ";
  TensorMapLayout layout;
  std::string error = tensorMapLayout(p, operand, address, layout);
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

tcgen_status loadImpl(const char *path, tcgen_kernel **out) {
  if (!out)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT, "tcgen_rt_load: out is null");
  *out = nullptr;
  if (!path)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT, "tcgen_rt_load: path is null");
  auto k = std::make_unique<tcgen_kernel>();
  std::string error = findManifest(path, k->manifestPath);
  if (!error.empty())
    return fail(TCGEN_ERROR_NOT_FOUND, error);
  error = loadManifest(k->manifestPath, k->manifest);
  if (!error.empty())
    return fail(TCGEN_ERROR_MANIFEST, error);
  tcgen_status status = planParams(*k);
  if (status != TCGEN_OK)
    return status;
  k->driver = driverOrFail(status);
  if (!k->driver)
    return status;
  if ((status = bindContext(*k)) != TCGEN_OK ||
      (status = queryDevice(*k)) != TCGEN_OK)
    return status;
  error = validateDevice(k->manifest, k->device);
  int64_t smem = k->manifest.launch.dynamicSmemBytes +
                 k->manifest.resources.staticSmemBytes;
  if (error.empty() && smem > k->device.maxDynamicSmemBytes)
    error = "kernel needs " + std::to_string(smem) +
            " B of shared memory per block; device '" + k->device.name +
            "' allows " + std::to_string(k->device.maxDynamicSmemBytes);
  if (!error.empty())
    return fail(TCGEN_ERROR_UNSUPPORTED_DEVICE, k->manifestPath + ": " + error);
  if ((status = loadModule(*k)) != TCGEN_OK ||
      (status = prepareFunction(*k)) != TCGEN_OK)
    return status;
  *out = k.release();
  return succeed();
}

/// Converts the C arguments; reports malformed ones.
tcgen_status convertArgs(const tcgen_tensor_arg *args, int nargs,
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
    if (a.dtype < TCGEN_DTYPE_F16 || a.dtype > TCGEN_DTYPE_E5M2)
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

/// Allocates and zeroes the workspace on the first launch that needs one.
/// Needs the kernel's context current.
tcgen_status ensureWorkspace(tcgen_kernel &k, CUstream stream) {
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
  // stream that does not synchronize with the legacy default stream.
  r = d.cuMemsetD8AsyncFn(buffer, 0, static_cast<size_t>(bytes), stream);
  if (r != CUDA_SUCCESS) {
    d.cuMemFreeFn(buffer);
    return fail(TCGEN_ERROR_CUDA,
                where + size + ": " +
                    rt::formatCudaError(d, "cuMemsetD8Async", r));
  }
  k.workspace = buffer;
  return TCGEN_OK;
}

CUresult launchKernel(tcgen_kernel &k, CUstream stream, void **params) {
  const Driver &d = *k.driver;
  Launch l = k.manifest.launch;
  // The same grid the workspace was sized for.
  l.grid = launchedGrid(l, k.persistentSlots);
  auto u = [](int64_t v) { return static_cast<unsigned>(v); };
  if (l.cluster[0] * l.cluster[1] * l.cluster[2] == 1)
    return d.cuLaunchKernelFn(k.function, u(l.grid[0]), u(l.grid[1]),
                              u(l.grid[2]), u(l.block[0]), u(l.block[1]),
                              u(l.block[2]), u(l.dynamicSmemBytes), stream,
                              params, nullptr);
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = u(l.cluster[0]);
  attribute.value.clusterDim.y = u(l.cluster[1]);
  attribute.value.clusterDim.z = u(l.cluster[2]);
  CUlaunchConfig config = {};
  config.gridDimX = u(l.grid[0]);
  config.gridDimY = u(l.grid[1]);
  config.gridDimZ = u(l.grid[2]);
  config.blockDimX = u(l.block[0]);
  config.blockDimY = u(l.block[1]);
  config.blockDimZ = u(l.block[2]);
  config.sharedMemBytes = u(l.dynamicSmemBytes);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return d.cuLaunchKernelExFn(&config, k.function, params, nullptr);
}

/// Validates `tensors` for `k` and builds their kernel parameters (packs'
/// buffers and the workspace allocated on first use). Needs the kernel's
/// context current.
tcgen_status buildPlan(tcgen_kernel *k, const std::vector<TensorArg> &tensors,
                       CUstream stream, std::unique_ptr<LaunchPlan> &out) {
  // A dynamic-shape kernel's sizes and strides come from the tensors.
  Manifest boundManifest;
  std::string error = bindSizes(k->manifest, tensors, boundManifest);
  if (error.empty())
    error = validateLaunch(boundManifest, tensors, k->device);
  if (!error.empty())
    return fail(TCGEN_ERROR_VALIDATION,
                "kernel '" + k->manifest.entry + "': " + error);
  const Manifest &bound = boundManifest;

  auto plan = std::make_unique<LaunchPlan>();
  plan->tensors = tensors;
  size_t numParams = k->paramPlans.size();
  size_t numMaps = 0;
  for (const ParamPlan &p : k->paramPlans)
    numMaps += p.kind == ParamPlan::TensorMap;
  plan->pointers.resize(numParams);
  plan->sizes.resize(numParams);
  plan->maps.resize(numMaps);
  plan->params.resize(numParams);

  tcgen_status status;
  bool usesWorkspace = false;
  // Pack buffers first: the tensor maps of packed operands address them.
  if (!k->manifest.packs.empty() &&
      (status = ensurePackBuffers(*k)) != TCGEN_OK)
    return status;
  for (size_t i = 0, map = 0; i < numParams; ++i) {
    const ParamPlan &pp = k->paramPlans[i];
    if (pp.kind == ParamPlan::Workspace) {
      usesWorkspace = true;
      plan->params[i] = &plan->pointers[i]; // Set below.
      continue;
    }
    if (pp.kind == ParamPlan::Size) {
      plan->sizes[i] = pp.size == 'm'   ? bound.op.m
                       : pp.size == 'n' ? bound.op.n
                                        : bound.op.k;
      plan->params[i] = &plan->sizes[i];
      continue;
    }
    if (pp.kind == ParamPlan::Stride) {
      // The launch's stride (bindSizes took it from the tensor).
      plan->sizes[i] = bound.operands[pp.operand].strides[pp.dim];
      plan->params[i] = &plan->sizes[i];
      continue;
    }
    const TensorArg &tensor = tensors[pp.operand];
    if (pp.kind == ParamPlan::Ptr) {
      plan->pointers[i] = static_cast<CUdeviceptr>(tensor.address);
      plan->params[i] = &plan->pointers[i];
      continue;
    }
    CUtensorMap &slot = plan->maps[map++].map;
    const Operand &operand = bound.operands[pp.operand];
    const Pack *pack = k->manifest.findPack(operand.name);
    status =
        pack ? encodeTensorMap(
                   *k, i, packedOperand(operand, *pack),
                   static_cast<uintptr_t>(
                       k->packBuffers[pack - k->manifest.packs.data()]),
                   slot)
             : encodeTensorMap(*k, i, operand, tensor.address, slot);
    if (status != TCGEN_OK)
      return status;
    plan->params[i] = &slot;
  }
  // After the encoding, so that a launch refused there allocates nothing
  // and enqueues nothing.
  if (usesWorkspace) {
    if ((status = ensureWorkspace(*k, stream)) != TCGEN_OK)
      return status;
    for (size_t i = 0; i < numParams; ++i)
      if (k->paramPlans[i].kind == ParamPlan::Workspace)
        plan->pointers[i] = k->workspace;
  }
  out = std::move(plan);
  return TCGEN_OK;
}

tcgen_status launchImpl(tcgen_kernel *k, const tcgen_tensor_arg *args,
                        int nargs, CUstream stream) {
  if (!k)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_launch: kernel is null");
  std::vector<TensorArg> tensors;
  tcgen_status status = convertArgs(args, nargs, tensors);
  if (status != TCGEN_OK)
    return status;

  const Driver &d = *k->driver;
  ScopedContext scope(d);
  const char *call = nullptr;
  CUresult r = scope.enter(k->context, call);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_CUDA, rt::formatCudaError(d, call, r));
  std::lock_guard<std::mutex> guard(k->planMutex);
  if (!k->lastPlan || !sameTensors(k->lastPlan->tensors, tensors)) {
    std::unique_ptr<LaunchPlan> plan;
    if ((status = buildPlan(k, tensors, stream, plan)) != TCGEN_OK)
      return status;
    k->lastPlan = std::move(plan);
  }
  const LaunchPlan &plan = *k->lastPlan;
  if ((status = launchPacks(*k, plan.tensors, stream)) != TCGEN_OK)
    return status;
  r = launchKernel(*k, stream,
                   plan.params.empty()
                       ? nullptr
                       : const_cast<void **>(plan.params.data()));
  if (r != CUDA_SUCCESS) {
    bool cluster = k->manifest.launch.cluster[0] *
                       k->manifest.launch.cluster[1] *
                       k->manifest.launch.cluster[2] !=
                   1;
    return fail(TCGEN_ERROR_CUDA,
                "kernel '" + k->manifest.entry + "': " +
                    rt::formatCudaError(
                        d, cluster ? "cuLaunchKernelEx" : "cuLaunchKernel", r));
  }
  return succeed();
}
} // namespace

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

extern "C" {

const char *tcgen_rt_status_name(tcgen_status status) {
  switch (status) {
  case TCGEN_OK:
    return "TCGEN_OK";
  case TCGEN_ERROR_INVALID_ARGUMENT:
    return "TCGEN_ERROR_INVALID_ARGUMENT";
  case TCGEN_ERROR_NOT_FOUND:
    return "TCGEN_ERROR_NOT_FOUND";
  case TCGEN_ERROR_MANIFEST:
    return "TCGEN_ERROR_MANIFEST";
  case TCGEN_ERROR_NO_DRIVER:
    return "TCGEN_ERROR_NO_DRIVER";
  case TCGEN_ERROR_NO_DEVICE:
    return "TCGEN_ERROR_NO_DEVICE";
  case TCGEN_ERROR_UNSUPPORTED_DEVICE:
    return "TCGEN_ERROR_UNSUPPORTED_DEVICE";
  case TCGEN_ERROR_VALIDATION:
    return "TCGEN_ERROR_VALIDATION";
  case TCGEN_ERROR_UNSUPPORTED:
    return "TCGEN_ERROR_UNSUPPORTED";
  case TCGEN_ERROR_CUDA:
    return "TCGEN_ERROR_CUDA";
  }
  return "TCGEN_ERROR_UNKNOWN";
}

const char *tcgen_rt_last_error(void) { return lastError.c_str(); }

tcgen_status tcgen_rt_device_count(int *count) {
  if (!count)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_device_count: count is null");
  *count = 0;
  tcgen_status status = TCGEN_OK;
  const Driver *d = driverOrFail(status);
  if (!d)
    return status;
  CUresult r = d->cuDeviceGetCountFn(count);
  if (r != CUDA_SUCCESS)
    return fail(TCGEN_ERROR_NO_DEVICE,
                rt::formatCudaError(*d, "cuDeviceGetCount", r));
  return succeed();
}

tcgen_status tcgen_rt_load(const char *path, tcgen_kernel **out) {
  return loadImpl(path, out);
}

tcgen_status tcgen_rt_launch(tcgen_kernel *kernel, const tcgen_tensor_arg *args,
                             int nargs, CUstream stream) {
  return launchImpl(kernel, args, nargs, stream);
}

void tcgen_rt_unload(tcgen_kernel *kernel) { delete kernel; }

const char *tcgen_rt_entry(const tcgen_kernel *k) {
  return k ? k->manifest.entry.c_str() : nullptr;
}

const char *tcgen_rt_manifest_path(const tcgen_kernel *k) {
  return k ? k->manifestPath.c_str() : nullptr;
}

const char *tcgen_rt_arch(const tcgen_kernel *k) {
  return k ? k->manifest.target.arch.c_str() : nullptr;
}

const char *tcgen_rt_backend(const tcgen_kernel *k) {
  return k ? k->manifest.target.backend.c_str() : nullptr;
}

const char *tcgen_rt_binary_kind(const tcgen_kernel *k) {
  return k ? k->binaryKind.c_str() : nullptr;
}

const char *tcgen_rt_device_name(const tcgen_kernel *k) {
  return k ? k->device.name.c_str() : nullptr;
}

int tcgen_rt_num_operands(const tcgen_kernel *k) {
  return k ? static_cast<int>(k->manifest.operands.size()) : 0;
}

tcgen_status tcgen_rt_operand(const tcgen_kernel *k, int index,
                              tcgen_operand_info *out) {
  if (!k || !out || index < 0 ||
      index >= static_cast<int>(k->manifest.operands.size()))
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_operand: null argument or index out of range");
  const Operand &o = k->manifest.operands[index];
  out->name = o.name.c_str();
  out->role = roleName(o.role);
  out->dtype = static_cast<tcgen_dtype>(o.dtype);
  out->rank = static_cast<int>(o.shape.size());
  out->shape = o.shape.data();
  out->strides = o.strides.data();
  out->align_bytes = o.alignBytes;
  return succeed();
}

tcgen_status tcgen_rt_op(const tcgen_kernel *k, tcgen_op_info *out) {
  if (!k || !out)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT, "tcgen_rt_op: null argument");
  const OpInfo &op = k->manifest.op;
  *out = {op.kind.c_str(), op.batch, op.m, op.n, op.k, op.accumulate ? 1 : 0};
  return succeed();
}

tcgen_status tcgen_rt_launch_info(const tcgen_kernel *k,
                                  tcgen_launch_info *out) {
  if (!k || !out)
    return fail(TCGEN_ERROR_INVALID_ARGUMENT,
                "tcgen_rt_launch_info: null argument");
  const Launch &l = k->manifest.launch;
  for (int i = 0; i < 3; ++i) {
    out->grid[i] = l.grid[i];
    out->block[i] = l.block[i];
    out->cluster[i] = l.cluster[i];
  }
  out->dynamic_smem_bytes = l.dynamicSmemBytes;
  out->registers = k->manifest.resources.registers;
  out->spill_bytes = k->manifest.resources.spillBytes;
  out->static_smem_bytes = k->manifest.resources.staticSmemBytes;
  return succeed();
}

const char *tcgen_rt_load_note(const tcgen_kernel *k) {
  return k ? k->loadNote.c_str() : nullptr;
}

const char *tcgen_rt_dtype_name(tcgen_dtype dtype) {
  if (dtype < TCGEN_DTYPE_F16 || dtype > TCGEN_DTYPE_E5M2)
    return "?";
  return dtypeName(static_cast<DType>(dtype));
}

} // extern "C"

const Manifest *tcgen::rt::getManifest(const tcgen_kernel *kernel) {
  return kernel ? &kernel->manifest : nullptr;
}
