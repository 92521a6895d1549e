//===- TcgenRt.cpp - tcgen kernel runtime, C ABI --------------------------===//
//
// This file implements the loading half of the C ABI of tcgen_rt.h over the
// CUDA driver API: bundle loading (manifest, cubin or PTX, entry lookup),
// the accessors and the per-thread error messages. Launches and plans are in
// Launch.cpp.
//
//===----------------------------------------------------------------------===//

#include "tcgen/tcgen_rt.h"

#include "Kernel.h"
#include "tcgen/Runtime/Elf.h"
#include "tcgen/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

using namespace tcgen;
using namespace tcgen::rt;

namespace {
constexpr int64_t kDefaultDynamicSmemLimit = 48 * 1024; // Without opt-in.
constexpr int64_t kPortableClusterSize = 8;             // Larger needs opt-in.
constexpr size_t kJitLogBytes = 16 * 1024;

thread_local std::string lastError;
} // namespace

tcgen_status tcgen::rt::fail(tcgen_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

tcgen_status tcgen::rt::succeed() {
  lastError.clear();
  return TCGEN_OK;
}

const std::string &tcgen::rt::lastErrorMessage() { return lastError; }

namespace {
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

tcgen_kernel::~tcgen_kernel() {
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

int tcgen_rt_version(void) {
  return TCGEN_RT_VERSION_MAJOR * 10000 + TCGEN_RT_VERSION_MINOR * 100 +
         TCGEN_RT_VERSION_PATCH;
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
  if (dtype < TCGEN_DTYPE_F16 || dtype > TCGEN_DTYPE_I64)
    return "?";
  return dtypeName(static_cast<DType>(dtype));
}

} // extern "C"

const Manifest *tcgen::rt::getManifest(const tcgen_kernel *kernel) {
  return kernel ? &kernel->manifest : nullptr;
}
