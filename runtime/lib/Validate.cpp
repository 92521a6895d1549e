//===- Validate.cpp - Launch-argument validation --------------------------===//
//
// This file implements validateDevice(), validateLaunch(),
// validateLaunchable(), launchedGrid() and workspaceBytes().
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Validate.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <tuple>

using namespace tcgen;

namespace {
std::string formatDims(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") +
         (dims[i] == kDynamicSize ? std::string("?") : std::to_string(dims[i]));
  return s + "]";
}

std::string formatAddress(uintptr_t address) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx",
                static_cast<unsigned long long>(address));
  return buf;
}

std::string describeDevice(const DeviceInfo &device) {
  return "device '" + device.name + "' (compute capability " +
         std::to_string(device.ccMajor) + "." + std::to_string(device.ccMinor) +
         ")";
}

/// Returns XX for an arch "sm_XXa" (architecture-specific features), or -1.
int archSpecificCC(const std::string &arch) {
  if (arch.size() < 5 || arch.compare(0, 3, "sm_") != 0 || arch.back() != 'a')
    return -1;
  int cc = 0;
  for (size_t i = 3; i + 1 < arch.size(); ++i) {
    if (arch[i] < '0' || arch[i] > '9')
      return -1;
    cc = cc * 10 + (arch[i] - '0');
    if (cc > 100000)
      return -1;
  }
  return cc;
}

std::string listNames(const Manifest &manifest) {
  std::string s;
  for (size_t i = 0; i < manifest.operands.size(); ++i)
    s += (i ? ", " : "") + manifest.operands[i].name;
  return s;
}

constexpr int kTensorMapMinCC = 90;              // TMA: Hopper and newer.
constexpr uintptr_t kTensorMapAddressAlign = 16; // Global address.
constexpr int64_t kTensorMapStrideAlign = 16;    // Global strides, bytes.
constexpr int64_t kTensorMapMaxStride = int64_t(1) << 40; // Exclusive.
constexpr int64_t kTensorMapMaxExtent = int64_t(1) << 32; // Inclusive.

std::string checkArg(const Operand &operand, const TensorArg &arg) {
  std::string prefix = "operand '" + operand.name + "': ";
  if (arg.dtype != operand.dtype)
    return prefix + "dtype mismatch: kernel expects " +
           dtypeName(operand.dtype) + ", got " + dtypeName(arg.dtype);
  if (arg.shape != operand.shape)
    return prefix + "shape mismatch: kernel expects " +
           formatDims(operand.shape) + ", got " + formatDims(arg.shape);
  if (arg.strides != operand.strides)
    return prefix + "strides mismatch: kernel expects " +
           formatDims(operand.strides) + ", got " + formatDims(arg.strides);
  if (arg.address == 0)
    return prefix + "null device pointer";
  if (arg.address % static_cast<uintptr_t>(operand.alignBytes) != 0)
    return prefix + "misaligned pointer: kernel expects " +
           std::to_string(operand.alignBytes) + "-byte alignment, got " +
           formatAddress(arg.address);
  return "";
}
} // namespace

std::string tcgen::tensorMapLayout(const Param &param, const Operand &operand,
                                   uintptr_t address, TensorMapLayout &out,
                                   bool packCopy) {
  std::string prefix = "operand '" + operand.name + "': ";
  size_t rank = operand.shape.size();
  if (param.box.size() != rank || operand.strides.size() != rank)
    return prefix + "tensormap box " + formatDims(param.box) + " has " +
           std::to_string(param.box.size()) +
           " entries but the operand has rank " + std::to_string(rank);
  if (address % kTensorMapAddressAlign != 0)
    return prefix + "TMA needs a 16-byte aligned global address, got " +
           formatAddress(address);

  // Innermost first: the dimensions by increasing stride (the later one
  // first on a tie), except those whose stride says nothing about the
  // layout: one of extent 1 addresses one element (a writer may give it
  // its neighbour's stride, or any), one of stride 0 (a broadcast) one
  // place. These keep their place in the manifest's order, slot rank-1-d,
  // so that the box, which the writer lists in that order, stays with its
  // dimension. A pack's copy is laid out by its strides, which the
  // compiler writes for every dimension (packCopy): only its broadcasts
  // keep their place (an N = 1 B copied K-major, strides [1, k], is
  // {k, 1}, where B itself would be {1, k}).
  auto keepsPlace = [&](size_t d) {
    return (operand.shape[d] == 1 && !packCopy) || operand.strides[d] == 0;
  };
  std::vector<size_t> order(rank, rank), byStride;
  for (size_t d = 0; d < rank; ++d) {
    if (keepsPlace(d))
      order[rank - 1 - d] = d;
    else
      byStride.push_back(d);
  }
  std::stable_sort(byStride.begin(), byStride.end(), [&](size_t a, size_t b) {
    if (operand.strides[a] != operand.strides[b])
      return operand.strides[a] < operand.strides[b];
    return a > b;
  });
  for (size_t i = 0, next = 0; i < rank; ++i)
    if (order[i] == rank)
      order[i] = byStride[next++];
  // TMA's innermost dimension is contiguous.
  if (rank == 0 ||
      (operand.shape[order[0]] != 1 && operand.strides[order[0]] != 1))
    return prefix +
           "TMA needs a dimension of stride 1 (the innermost), got "
           "strides " +
           formatDims(operand.strides);
  // The manifest lists an operand batch dimensions first and its matrix's
  // two dimensions last; the kernel reads a matrix dimension contiguously.
  // A batch dimension that comes out innermost (its stride 1, the matrix's
  // of extent 1 or further apart: a batch stored innermost) would take the
  // box and the coordinates of a matrix dimension and read other elements.
  if (rank > 2 && order[0] < rank - 2)
    return prefix + "the kernel reads one of the matrix dimensions (the " +
           "last two) contiguously, but batch dimension " +
           std::to_string(order[0]) + " is the innermost (shape " +
           formatDims(operand.shape) + ", strides " +
           formatDims(operand.strides) + ")";

  int64_t size = dtypeSize(operand.dtype);
  TensorMapLayout layout;
  layout.globalAddress = address;
  for (size_t i = 0; i < rank; ++i) {
    size_t dim = order[i];
    int64_t extent = operand.shape[dim];
    if (extent < 1 || extent > kTensorMapMaxExtent)
      return prefix + "TMA needs extents in [1, 2^32], got " +
             std::to_string(extent) + " in dimension " + std::to_string(dim) +
             " (shape " + formatDims(operand.shape) + ")";
    layout.globalDim.push_back(static_cast<uint64_t>(extent));
    layout.boxDim.push_back(static_cast<uint32_t>(param.box[i]));
    layout.elementStrides.push_back(1);
    if (i == 0)
      continue;
    // Only index 0 of an extent-1 dimension is in bounds: its stride is
    // never used, so whatever the manifest says, it needs no checks.
    if (extent == 1) {
      layout.globalStrides.push_back(0);
      continue;
    }
    int64_t stride = operand.strides[dim];
    std::string which = "got stride " + std::to_string(stride);
    // Reachable when an extent-1 dimension holds the innermost place.
    if (stride < 0)
      return prefix + "TMA needs strides >= 0, " + which + " in dimension " +
             std::to_string(dim) + " (strides " + formatDims(operand.strides) +
             ")";
    if (stride >= kTensorMapMaxStride / size)
      return prefix + "TMA needs byte strides below 2^40, " + which +
             " in dimension " + std::to_string(dim) + " (strides " +
             formatDims(operand.strides) + ", " + dtypeName(operand.dtype) +
             ")";
    int64_t bytes = stride * size;
    if (bytes % kTensorMapStrideAlign != 0)
      return prefix + "TMA needs byte strides that are multiples of 16, " +
             which + " (" + std::to_string(bytes) + " bytes of " +
             dtypeName(operand.dtype) + ") in dimension " +
             std::to_string(dim) + " (strides " + formatDims(operand.strides) +
             ")";
    layout.globalStrides.push_back(static_cast<uint64_t>(bytes));
  }
  out = std::move(layout);
  return "";
}

std::array<int64_t, 3> tcgen::launchedGrid(const Launch &launch, int smCount) {
  std::array<int64_t, 3> grid = launch.grid;
  // stream_k implies persistent (the parser insists); a built manifest
  // with only stream_k still gets the grid its kernel expects.
  // grid[0] = -1 (sizes fixed at launch): one block per SM.
  if (grid[0] == kDynamicSize)
    grid[0] = std::max<int64_t>({smCount, launch.cluster[0], 1});
  if ((!launch.persistent && !launch.streamK) || smCount <= 0)
    return grid;
  // A persistent kernel strides over grid[0] tiles with at most one block
  // per SM; a stream-K kernel shares the k-iterations of all tiles among
  // one block per SM, so that every SM has work even when there are fewer
  // tiles than SMs (or among stream_k_blocks, if fewer).
  if (launch.streamK)
    grid[0] = launch.streamKBlocks > 0
                  ? std::min<int64_t>(launch.streamKBlocks, smCount)
                  : smCount;
  else
    grid[0] = std::min<int64_t>(grid[0], smCount);
  // The launch fails unless the grid is a multiple of the cluster; the
  // kernel reads its real grid size, so fewer blocks are fine.
  int64_t cluster = std::max<int64_t>(launch.cluster[0], 1);
  grid[0] = std::max(grid[0] / cluster, int64_t(1)) * cluster;
  return grid;
}

int64_t tcgen::workspaceBytes(const Manifest &manifest, int smCount) {
  auto it = std::find_if(manifest.params.begin(), manifest.params.end(),
                         [](const Param &p) { return p.kind == "workspace"; });
  if (it == manifest.params.end())
    return 0;
  std::array<int64_t, 3> grid = launchedGrid(manifest.launch, smCount);
  int64_t bytes = it->bytesPerBlock;
  for (int64_t blocks : grid)
    if (__builtin_mul_overflow(bytes, blocks, &bytes))
      return -1;
  return bytes;
}

std::string tcgen::validateDevice(const Manifest &manifest,
                                  const DeviceInfo &device) {
  int cc = device.ccMajor * 10 + device.ccMinor;
  if (cc < manifest.target.minCC)
    return describeDevice(device) + " is below the kernel's min_cc " +
           std::to_string(manifest.target.minCC) + " (target " +
           manifest.target.arch + ")";
  int exact = archSpecificCC(manifest.target.arch);
  if (exact >= 0 && cc != exact)
    return describeDevice(device) + " cannot run a kernel built for " +
           manifest.target.arch + ": it runs on compute capability " +
           std::to_string(exact / 10) + "." + std::to_string(exact % 10) +
           " only";
  return "";
}

Operand tcgen::packedOperand(const Operand &operand, const Pack &pack) {
  Operand copy = operand;
  copy.strides = pack.strides;
  return copy;
}

int64_t tcgen::packBytes(const Operand &operand, const Pack &pack) {
  int64_t last = 0;
  for (size_t i = 0; i < operand.shape.size() && i < pack.strides.size();
       ++i) {
    int64_t extent = operand.shape[i];
    if (extent <= 0)
      return 0;
    if (pack.strides[i] > 0 &&
        extent - 1 > (std::numeric_limits<int64_t>::max() - last) /
                         pack.strides[i])
      return -1;
    last += (extent - 1) * pack.strides[i];
  }
  int64_t size = dtypeSize(operand.dtype);
  if (last + 1 > (std::numeric_limits<int64_t>::max() - 255) / size)
    return -1;
  return ((last + 1) * size + 255) / 256 * 256;
}

std::string tcgen::validateLaunch(const Manifest &manifest,
                                  const std::vector<TensorArg> &args,
                                  const DeviceInfo &device) {
  std::string error = validateDevice(manifest, device);
  if (!error.empty())
    return error;
  for (size_t i = 0; i < manifest.params.size(); ++i)
    if (manifest.params[i].kind == "tensormap" &&
        device.ccMajor * 10 + device.ccMinor < kTensorMapMinCC)
      return describeDevice(device) + " cannot take params[" +
             std::to_string(i) +
             "] of kind tensormap: TMA needs compute capability 9.0 or higher";
  // Both are >= 0 in a parsed manifest; a sum past int64_t exceeds any
  // device's limit.
  int64_t smem;
  if (__builtin_add_overflow(manifest.launch.dynamicSmemBytes,
                             manifest.resources.staticSmemBytes, &smem) ||
      smem > device.maxDynamicSmemBytes)
    return "launch: shared memory " +
           std::to_string(manifest.launch.dynamicSmemBytes) + " B dynamic + " +
           std::to_string(manifest.resources.staticSmemBytes) +
           " B static exceeds the limit of " +
           std::to_string(device.maxDynamicSmemBytes) + " B per block on " +
           describeDevice(device);
  if (args.size() != manifest.operands.size())
    return "argument count mismatch: kernel expects " +
           std::to_string(manifest.operands.size()) + " tensors (" +
           listNames(manifest) + "), got " + std::to_string(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Operand &operand = manifest.operands[i];
    if (args[i].name != operand.name)
      return "argument " + std::to_string(i) +
             ": name mismatch: kernel expects operand '" + operand.name +
             "', got '" + args[i].name +
             "' (pass tensors in order: " + listNames(manifest) + ")";
    error = checkArg(operand, args[i]);
    if (!error.empty())
      return error;
    // A packed operand's tensor maps address the runtime's copy (256-byte
    // aligned) with the pack's strides.
    const Pack *pack = manifest.findPack(operand.name);
    Operand copy = pack ? packedOperand(operand, *pack) : operand;
    uintptr_t address = pack ? uintptr_t(256) : args[i].address;
    for (const Param &p : manifest.params) {
      if (p.kind != "tensormap" || p.operand != operand.name)
        continue;
      TensorMapLayout layout;
      error = tensorMapLayout(p, copy, address, layout, pack != nullptr);
      if (!error.empty())
        return error;
    }
  }
  return "";
}

namespace {
/// The op size ("m", "n" or "k") of dimension `d` of a matmul operand of
/// rank `rank` and role `role`, or 0 for the batch dimension. An epilogue
/// input is [n] (a row), [m] (a column) or [m, n].
char sizeOfDim(const Manifest &manifest, const Operand &o, size_t d) {
  OperandRole role = o.role;
  size_t rank = o.shape.size();
  if (role == OperandRole::In && rank == 1 && manifest.op.epilogue)
    for (const EpilogueInput &in : manifest.op.epilogue->inputs)
      if (in.operand == o.name)
        return in.kind == EpilogueInputKind::Row ? 'n' : 'm';
  size_t lead = rank == 3 ? 1 : 0;
  if (d < lead)
    return 0;
  bool first = d == lead;
  switch (role) {
  case OperandRole::Lhs:
    return first ? 'm' : 'k';
  case OperandRole::Rhs:
  // A dual GEMM's B2 is [k, n] like B (an add(gemm, gemm)'s [k2, n] has
  // its k2 fixed, so only its n is ever bound).
  case OperandRole::Rhs2:
    return first ? 'k' : 'n';
  default:
    return first ? 'm' : 'n';
  }
}

/// Replaces the sizes fixed at launch with m, n and k in the op and the
/// operands' shapes; strides of -1 come from `strides(i, d)`.
template <typename StrideFn>
void substitute(Manifest &out, int64_t m, int64_t n, int64_t k,
                StrideFn strides) {
  auto size = [&](char which) {
    return which == 'm' ? m : which == 'n' ? n : k;
  };
  if (out.op.m == kDynamicSize)
    out.op.m = m;
  if (out.op.n == kDynamicSize)
    out.op.n = n;
  if (out.op.k == kDynamicSize)
    out.op.k = k;
  for (size_t i = 0; i < out.operands.size(); ++i) {
    Operand &o = out.operands[i];
    for (size_t d = 0; d < o.shape.size(); ++d)
      if (o.shape[d] == kDynamicSize)
        o.shape[d] = size(sizeOfDim(out, o, d));
    for (size_t d = 0; d < o.strides.size(); ++d)
      if (o.strides[d] == kDynamicSize)
        o.strides[d] = strides(i, d);
  }
}
} // namespace

std::string tcgen::bindSizes(const Manifest &manifest,
                             const std::vector<TensorArg> &args,
                             Manifest &out) {
  out = manifest;
  if (!manifest.isDynamic())
    return "";
  // Sizes from A [.., m, k] and B [.., k, n]; the rest of the launch is
  // checked against them (validateLaunch).
  const Operand *a = manifest.findRole(OperandRole::Lhs);
  const Operand *b = manifest.findRole(OperandRole::Rhs);
  if (!a || !b || args.size() != manifest.operands.size())
    return "";
  const TensorArg &ta = args[a - manifest.operands.data()];
  const TensorArg &tb = args[b - manifest.operands.data()];
  if (ta.shape.size() != a->shape.size() || tb.shape.size() != b->shape.size() ||
      ta.strides.size() != ta.shape.size() ||
      tb.strides.size() != tb.shape.size())
    return "";
  size_t lead = a->shape.size() == 3 ? 1 : 0;
  // (n is B's last extent: B is [k, n], [batch, k, n] or, for a grouped
  // product, [groups, k, n].)
  int64_t m = ta.shape[lead], k = ta.shape[lead + 1], n = tb.shape.back();
  for (auto [name, size, from] :
       {std::tuple<const char *, int64_t, const Operand *>{"m", m, a},
        {"k", k, a},
        {"n", n, b}})
    if (size < 1)
      return "operand '" + from->name + "': size " + name +
             " must be at least 1, got " + std::to_string(size);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].strides.size() != manifest.operands[i].strides.size())
      return ""; // validateLaunch names the rank mismatch.
  substitute(out, m, n, k,
             [&](size_t i, size_t d) { return args[i].strides[d]; });
  return "";
}

std::string tcgen::specializeManifest(const Manifest &manifest, int64_t m,
                                      int64_t n, int64_t k, Manifest &out) {
  out = manifest;
  if (!manifest.isDynamic())
    return "";
  for (auto [name, size, dynamic] :
       {std::tuple<const char *, int64_t, bool>{"m", m,
                                                manifest.op.m == kDynamicSize},
        {"n", n, manifest.op.n == kDynamicSize},
        {"k", k, manifest.op.k == kDynamicSize}})
    if (dynamic && size < 1)
      return std::string("size ") + name +
             " is fixed at launch and must be given (at least 1), got " +
             std::to_string(size);
  // Dense strides: the dimension of stride 1 innermost, then the others
  // from the last to the first (a batch outermost).
  substitute(out, m, n, k, [](size_t, size_t) { return kDynamicSize; });
  for (Operand &o : out.operands) {
    std::vector<size_t> order;
    for (size_t d = 0; d < o.strides.size(); ++d)
      if (o.strides[d] == 1)
        order.push_back(d);
    for (size_t d = o.strides.size(); d-- > 0;)
      if (o.strides[d] != 1)
        order.push_back(d);
    int64_t dense = 1;
    for (size_t d : order) {
      if (o.strides[d] == kDynamicSize)
        o.strides[d] = dense;
      if (__builtin_mul_overflow(o.strides[d], o.shape[d], &dense))
        return "operand '" + o.name + "': dense strides of shape " +
               formatDims(o.shape) + " do not fit in 64 bits";
    }
  }
  return "";
}

std::string tcgen::validateLaunchable(const Manifest &manifest,
                                      int64_t maxSharedBytes) {
  // A size fixed at launch: one every TMA rule admits for any dtype.
  constexpr int64_t kNominalSize = 128;
  Manifest m;
  std::string error =
      specializeManifest(manifest, kNominalSize, kNominalSize, kNominalSize, m);
  if (!error.empty())
    return error;
  // The device the manifest asks for: min_cc, or exactly XX for sm_XXa.
  int cc = std::max(m.target.minCC, archSpecificCC(m.target.arch));
  DeviceInfo device;
  device.ccMajor = cc / 10;
  device.ccMinor = cc % 10;
  device.maxDynamicSmemBytes = maxSharedBytes;
  device.name = "nominal " + m.target.arch;
  device.smCount = 1;
  std::vector<TensorArg> args;
  uintptr_t address = 0;
  for (const Operand &o : m.operands) {
    // Far apart, each 256-byte aligned (as cudaMalloc's).
    address += uintptr_t(1) << 32;
    args.push_back({o.name, o.dtype, o.shape, o.strides, address});
  }
  return validateLaunch(m, args, device);
}
