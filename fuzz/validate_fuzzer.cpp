//===- validate_fuzzer.cpp - libFuzzer target: launch validation ----------===//
//
// This file implements a libFuzzer target for the runtime's launch checks
// (tcgen/Runtime/Validate.h): bindSizes, validateLaunch, tensorMapLayout,
// launchedGrid, workspaceBytes, packBytes and specializeManifest. No CUDA.
//
// The input is either manifest JSON, optionally followed by a NUL byte and
// bytes that choose the tensors and the device, or, when the text before
// the NUL is not a manifest, bytes from which a structured manifest is
// derived (a matmul with random sizes, layouts, dtypes, tensor maps, packs,
// a workspace, an epilogue input, a launch geometry). A derived manifest
// goes through writeManifest() and parseManifest() first, so that the checks
// only ever see manifests the runtime could load. The tensors passed are
// the manifest's own (sizes fixed at launch chosen by the bytes) with one
// field or another changed at times, so that most launches get deep into
// the checks. Besides "no crash, no sanitizer report" it checks what the
// header promises: a valid launch has a valid tensor-map layout for each
// tensormap param, the launched grid has at least one block per dimension
// (a multiple of the cluster for persistent kernels), packBytes is -1 or a
// multiple of 256, and specializeManifest leaves no size fixed at launch.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Validate.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace tcgen;

namespace {
[[noreturn]] void violated(const char *what, const Manifest &manifest) {
  std::fprintf(stderr, "property violated: %s\n--- manifest:\n%s\n", what,
               writeManifest(manifest).c_str());
  std::abort();
}

/// A size: mostly small or typical ones, at times an extreme one.
int64_t pickSize(FuzzedDataProvider &fdp) {
  static constexpr int64_t kSizes[] = {1,   2,   7,    16,   63,    64,
                                       100, 128, 1000, 4096, 65536, 1 << 20};
  switch (fdp.ConsumeIntegralInRange<int>(0, 7)) {
  case 0:
    return fdp.ConsumeIntegral<int64_t>();
  case 1:
    return fdp.ConsumeIntegralInRange<int64_t>(-2, 1 << 16);
  default:
    return fdp.PickValueInArray(kSizes);
  }
}

DType pickDType(FuzzedDataProvider &fdp) {
  return static_cast<DType>(fdp.ConsumeIntegralInRange<int>(0, 7));
}

/// A matrix operand [rows, cols] (with a batch in front if batch > 1),
/// row-major or transposed; sizes fixed at launch get strides of -1.
Operand makeMatrix(FuzzedDataProvider &fdp, const char *name, OperandRole role,
                   DType dtype, int64_t batch, int64_t rows, int64_t cols) {
  Operand o;
  o.name = name;
  o.role = role;
  o.dtype = dtype;
  bool transposed = fdp.ConsumeBool();
  int64_t inner = transposed ? rows : cols, outer = transposed ? cols : rows;
  // Padded leading dimension; -1 where unknown or where it overflows (the
  // parser then refuses the manifest).
  int64_t lead = -1, batchStride = -1;
  if (inner > 0 && __builtin_add_overflow(
                       inner, 8 * fdp.ConsumeIntegralInRange(0, 2), &lead))
    lead = -1;
  if (lead > 0 && outer > 0 &&
      __builtin_mul_overflow(lead, outer, &batchStride))
    batchStride = -1;
  o.shape = {rows, cols};
  o.strides = transposed ? std::vector<int64_t>{1, lead}
                         : std::vector<int64_t>{lead, 1};
  if (batch > 1) {
    o.shape.insert(o.shape.begin(), batch);
    o.strides.insert(o.strides.begin(), batchStride);
  }
  o.alignBytes = fdp.PickValueInArray({1, 2, 4, 16, 128});
  return o;
}

/// The param of operand `o`: a pointer, or a tensor map with a box of
/// 16..128 bytes along the contiguous dimension.
Param makeParam(FuzzedDataProvider &fdp, const Operand &o) {
  Param p;
  p.operand = o.name;
  if (fdp.ConsumeBool()) {
    p.kind = "ptr";
    return p;
  }
  p.kind = "tensormap";
  p.swizzle = fdp.PickValueInArray({"none", "32B", "64B", "128B"});
  p.l2Promotion = fdp.PickValueInArray({"none", "64B", "128B", "256B"});
  p.oobFill = fdp.PickValueInArray({"zero", "nan"});
  int64_t size = dtypeSize(o.dtype);
  for (size_t d = 0; d < o.shape.size(); ++d)
    p.box.push_back(fdp.PickValueInArray<int64_t>({1, 8, 16, 64, 128, 256}));
  p.box[0] = fdp.PickValueInArray<int64_t>({16, 32, 64, 128}) / size;
  return p;
}

/// A structured matmul manifest from the bytes (not necessarily valid: it
/// goes through the parser before use).
Manifest deriveManifest(FuzzedDataProvider &fdp) {
  Manifest m;
  m.entry = "kernel";
  m.ptx = "kernel.ptx";
  m.target.arch = fdp.PickValueInArray({"sm_80", "sm_89", "sm_90a", "sm_100a"});
  m.target.backend = "sm90";
  m.target.minCC = fdp.PickValueInArray({70, 80, 89, 90, 100});
  m.op.kind = "matmul";
  bool dynamic = fdp.ConsumeIntegralInRange(0, 3) == 0;
  m.op.batch = dynamic ? 1 : fdp.PickValueInArray<int64_t>({1, 1, 2, 3});
  m.op.m = dynamic && fdp.ConsumeBool() ? kDynamicSize : pickSize(fdp);
  m.op.n = dynamic && fdp.ConsumeBool() ? kDynamicSize : pickSize(fdp);
  m.op.k = dynamic ? kDynamicSize : pickSize(fdp);
  m.op.accumulate = !dynamic && fdp.ConsumeBool();
  DType in = pickDType(fdp), out = pickDType(fdp);
  m.operands.push_back(
      makeMatrix(fdp, "A", OperandRole::Lhs, in, m.op.batch, m.op.m, m.op.k));
  m.operands.push_back(
      makeMatrix(fdp, "B", OperandRole::Rhs, in, m.op.batch, m.op.k, m.op.n));
  m.operands.push_back(makeMatrix(
      fdp, "C", m.op.accumulate ? OperandRole::InOut : OperandRole::Out, out,
      m.op.batch, m.op.m, m.op.n));
  if (m.op.batch == 1 && fdp.ConsumeBool()) {
    // A bias row added in the epilogue, then rounded to C's dtype.
    Operand bias;
    bias.name = "bias";
    bias.role = OperandRole::In;
    bias.dtype = DType::F32;
    bias.shape = {m.op.n};
    bias.strides = {1};
    bias.alignBytes = 4;
    m.operands.push_back(bias);
    Epilogue e;
    e.inputs.push_back({"bias", EpilogueInputKind::Row});
    e.steps.push_back({"addf", {0, 1}, "f32", 0, ""});
    if (out != DType::F32)
      e.steps.push_back({"truncf", {2}, dtypeName(out), 0, ""});
    e.result = e.numValues() - 1;
    m.op.epilogue = e;
  }
  for (const Operand &o : m.operands)
    m.params.push_back(makeParam(fdp, o));
  if (fdp.ConsumeBool()) {
    Param p;
    p.kind = "workspace";
    p.bytesPerBlock = 16 * fdp.ConsumeIntegralInRange<int64_t>(1, 1 << 20);
    m.params.push_back(p);
  }
  for (const char *size : {"m", "n", "k"})
    if (dynamic) {
      Param p;
      p.kind = "size";
      p.value = size;
      m.params.push_back(p);
    }
  if (!dynamic && fdp.ConsumeBool()) {
    Pack pack;
    pack.operand = "A";
    pack.entry = "pack_a";
    pack.strides = m.operands[0].strides;
    for (int64_t &s : pack.strides)
      if (s != 1 &&
          __builtin_add_overflow(s, fdp.ConsumeIntegralInRange(0, 64), &s))
        s = -1;
    pack.grid = {fdp.ConsumeIntegralInRange<int64_t>(1, 1024), 1, 1};
    pack.block = {256, 1, 1};
    m.packs.push_back(pack);
  }
  int64_t cluster = fdp.PickValueInArray<int64_t>({1, 1, 2, 4});
  m.launch.cluster = {cluster, 1, 1};
  m.launch.grid = {cluster * fdp.ConsumeIntegralInRange<int64_t>(1, 1 << 16),
                   fdp.ConsumeIntegralInRange<int64_t>(1, 4), 1};
  m.launch.persistent = dynamic || fdp.ConsumeBool();
  m.launch.streamK = m.launch.persistent && fdp.ConsumeBool();
  if (dynamic)
    m.launch.grid[0] = kDynamicSize;
  m.launch.block = {fdp.PickValueInArray<int64_t>({128, 256, 384}), 1, 1};
  m.launch.dynamicSmemBytes = fdp.ConsumeIntegralInRange<int64_t>(0, 1 << 18);
  m.resources.staticSmemBytes = fdp.ConsumeIntegralInRange<int64_t>(0, 1024);
  // At times extreme values where the parser and the checks do arithmetic.
  if (fdp.ConsumeIntegralInRange(0, 7) == 0) {
    m.launch.block = {pickSize(fdp), pickSize(fdp), pickSize(fdp)};
    for (Pack &pack : m.packs)
      pack.block = {pickSize(fdp), pickSize(fdp), 1};
    if (m.op.batch > 1)
      m.op.batchShape = {pickSize(fdp), pickSize(fdp)};
    m.launch.dynamicSmemBytes = pickSize(fdp);
    m.resources.staticSmemBytes = pickSize(fdp);
  }
  return m;
}

DeviceInfo pickDevice(FuzzedDataProvider &fdp) {
  DeviceInfo device;
  int cc = fdp.PickValueInArray({70, 75, 80, 86, 89, 90, 90, 100, 120});
  device.ccMajor = cc / 10;
  device.ccMinor = cc % 10;
  device.maxDynamicSmemBytes =
      fdp.PickValueInArray<int64_t>({49152, 232448, 232448, 101376});
  device.name = "fuzz device";
  device.smCount = fdp.PickValueInArray({132, 132, 78, 1, 0, -1, 1000});
  return device;
}

/// The tensors of one launch: the operands of `m` as they are, then at
/// times one field of one tensor changed, or a tensor dropped or added.
std::vector<TensorArg> makeArgs(FuzzedDataProvider &fdp, const Manifest &m) {
  std::vector<TensorArg> args;
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    TensorArg arg{o.name, o.dtype, o.shape, o.strides,
                  uintptr_t(0x100000) * (i + 1)};
    args.push_back(arg);
  }
  if (args.empty() || fdp.ConsumeBool())
    return args;
  TensorArg &arg = args[fdp.ConsumeIntegralInRange<size_t>(0, args.size() - 1)];
  switch (fdp.ConsumeIntegralInRange(0, 7)) {
  case 0:
    arg.dtype = pickDType(fdp);
    break;
  case 1:
  case 2:
    if (!arg.shape.empty())
      arg.shape[fdp.ConsumeIntegralInRange<size_t>(0, arg.shape.size() - 1)] =
          pickSize(fdp);
    break;
  case 3:
    if (!arg.strides.empty())
      arg.strides[fdp.ConsumeIntegralInRange<size_t>(0, arg.strides.size() -
                                                            1)] = pickSize(fdp);
    break;
  case 4:
    arg.address = fdp.ConsumeIntegral<uintptr_t>();
    break;
  case 5:
    arg.name = fdp.ConsumeRandomLengthString(8);
    break;
  case 6:
    arg.shape.push_back(pickSize(fdp));
    arg.strides.push_back(pickSize(fdp));
    break;
  default:
    if (fdp.ConsumeBool())
      args.pop_back();
    else
      args.push_back(args.front());
    break;
  }
  return args;
}

/// Checks the geometry helpers, which take any loadable manifest.
void checkGeometry(const Manifest &m, const DeviceInfo &device) {
  std::array<int64_t, 3> grid = launchedGrid(m.launch, device.smCount);
  for (int64_t g : grid)
    if (g < 1)
      violated("launchedGrid gave an empty grid", m);
  if ((m.launch.persistent || m.launch.streamK) && device.smCount > 0 &&
      grid[0] % m.launch.cluster[0] != 0)
    violated("launchedGrid's grid is not a multiple of the cluster", m);
  if (workspaceBytes(m, device.smCount) < -1)
    violated("workspaceBytes below -1", m);
  for (const Pack &pack : m.packs) {
    const Operand *o = m.findOperand(pack.operand);
    int64_t bytes = o ? packBytes(*o, pack) : 0;
    if (bytes < -1 || (bytes > 0 && bytes % 256 != 0))
      violated("packBytes is neither -1 nor a multiple of 256", m);
  }
}

/// Checks that a launch validateLaunch() accepted has a tensor-map layout
/// of one entry per dimension for each tensormap param.
void checkTensorMaps(const Manifest &m, const std::vector<TensorArg> &args) {
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    const Pack *pack = m.findPack(o.name);
    Operand copy = pack ? packedOperand(o, *pack) : o;
    uintptr_t address = pack ? uintptr_t(256) : args[i].address;
    for (const Param &p : m.params) {
      if (p.kind != "tensormap" || p.operand != o.name)
        continue;
      TensorMapLayout layout;
      if (!tensorMapLayout(p, copy, address, layout, pack != nullptr).empty())
        violated("valid launch, but no tensor-map layout", m);
      size_t rank = o.shape.size();
      if (layout.globalDim.size() != rank || layout.boxDim.size() != rank ||
          layout.globalStrides.size() + 1 != rank)
        violated("tensor-map layout of the wrong rank", m);
    }
  }
}

/// Runs every check of Validate.h on the loadable manifest `m`.
void exercise(const Manifest &m, FuzzedDataProvider &fdp) {
  DeviceInfo device = pickDevice(fdp);
  checkGeometry(m, device);

  // Sizes fixed at launch: bound densely, as the GPU tools do.
  Manifest spec;
  int64_t sm = pickSize(fdp), sn = pickSize(fdp), sk = pickSize(fdp);
  bool specialized = specializeManifest(m, sm, sn, sk, spec).empty();
  if (specialized) {
    if (spec.isDynamic())
      violated("specializeManifest left a size fixed at launch", m);
    for (const Operand &o : spec.operands)
      for (const std::vector<int64_t> *dims : {&o.shape, &o.strides})
        for (int64_t d : *dims)
          if (d == kDynamicSize)
            violated("specializeManifest left a -1 extent or stride", m);
  }

  std::vector<TensorArg> args = makeArgs(fdp, specialized ? spec : m);
  Manifest bound;
  if (!bindSizes(m, args, bound).empty())
    return;
  checkGeometry(bound, device);
  if (validateLaunch(bound, args, device).empty())
    checkTensorMaps(bound, args);
  // The unbound manifest too: its -1 sizes must be refused or matched.
  (void)validateLaunch(m, args, device);
  // Tensor maps of every operand at an arbitrary address.
  uintptr_t address = fdp.ConsumeIntegral<uintptr_t>();
  for (const Param &p : m.params)
    if (const Operand *o = m.findOperand(p.operand);
        o && p.kind == "tensormap") {
      TensorMapLayout layout;
      (void)tensorMapLayout(p, *o, address, layout);
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Manifest text, then NUL and the bytes that choose tensors and device.
  const uint8_t *nul = static_cast<const uint8_t *>(std::memchr(data, 0, size));
  size_t textSize = nul ? size_t(nul - data) : size;
  Manifest manifest;
  std::string_view text(reinterpret_cast<const char *>(data), textSize);
  if (parseManifest(text, manifest).empty()) {
    size_t rest = nul ? size - textSize - 1 : 0;
    FuzzedDataProvider fdp(nul ? nul + 1 : data + size, rest);
    exercise(manifest, fdp);
    return 0;
  }
  FuzzedDataProvider fdp(data, size);
  Manifest derived = deriveManifest(fdp);
  if (!parseManifest(writeManifest(derived), manifest).empty())
    return 0;
  exercise(manifest, fdp);
  return 0;
}
