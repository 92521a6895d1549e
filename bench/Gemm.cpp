//===- Gemm.cpp - A bundle's matmul, on the host and the device -----------===//
//
// This file implements describeGemm(), makeHostOperands() and
// DeviceOperands.
//
//===----------------------------------------------------------------------===//

#include "Gemm.h"

using namespace tcgen;
using namespace tcgen::bench;

MatrixLayout tcgen::bench::layoutOf(const Operand &o) {
  size_t rank = o.shape.size();
  if (rank >= 4) {
    // Several batch dimensions, outermost first, then the matrix.
    MatrixLayout l{o.shape[rank - 2], o.shape[rank - 1], o.strides[rank - 2],
                   o.strides[rank - 1], o.strides[rank - 3]};
    l.batchDims.assign(o.shape.begin(), o.shape.end() - 2);
    l.batchDimStrides.assign(o.strides.begin(), o.strides.end() - 2);
    return l;
  }
  if (rank == 3)
    return {o.shape[1], o.shape[2], o.strides[1], o.strides[2], o.strides[0]};
  return {o.shape[0], o.shape[1], o.strides[0], o.strides[1]};
}

void tcgen::bench::allocateHostOperand(const Operand &o, HostMatrix &host) {
  MatrixLayout l = layoutOf(o);
  if (l.multiBatch()) {
    host.allocateBatchDims(o.dtype, l.batchDims, l.batchDimStrides, l.rows,
                           l.cols, l.stride0, l.stride1);
    return;
  }
  int64_t batch = o.shape.size() == 3 ? o.shape[0] : 1;
  host.allocateBatch(o.dtype, batch, l.rows, l.cols, l.batchStride, l.stride0,
                     l.stride1);
}

std::string tcgen::bench::describeGemm(const Manifest &manifest,
                                       GemmSpec &spec) {
  if (manifest.op.kind != "matmul")
    return "op kind '" + manifest.op.kind +
           "' is not supported by tcgen-gpu (matmul only)";
  if (manifest.operands.size() != 3)
    return "a matmul with " + std::to_string(manifest.operands.size()) +
           " operands is not supported by tcgen-gpu (expected A, B, C)";
  spec.batch = manifest.op.batch;
  if (spec.batch < 1) // parseManifest checks this; be safe for built ones.
    return "op.batch " + std::to_string(spec.batch) + " is not a batch size";
  spec.m = manifest.op.m;
  spec.n = manifest.op.n;
  spec.k = manifest.op.k;
  spec.accumulate = manifest.op.accumulate;
  spec.accumulator = manifest.op.accumulator;
  spec.tf32 = manifest.op.tf32;
  if (spec.accumulator != DType::F32 && spec.accumulator != DType::F16)
    return std::string("op.accumulator '") + dtypeName(spec.accumulator) +
           "' is not supported by tcgen-gpu (f16 or f32)";
  // A batch of matrices is one rank-3 operand, the batch outermost; a
  // summed batch has one C.
  spec.batchReduce = manifest.op.batchReduce;
  // Several batch dimensions (op.batch_shape): 2 + their number.
  size_t batchRank = !manifest.op.batchShape.empty()
                         ? 2 + manifest.op.batchShape.size()
                     : spec.batch > 1 ? 3
                                      : 2;
  bool haveA = false, haveB = false, haveC = false;
  for (size_t i = 0; i < manifest.operands.size(); ++i) {
    const Operand &o = manifest.operands[i];
    bool isC = o.role == OperandRole::Out || o.role == OperandRole::InOut;
    size_t rank = isC && spec.batchReduce ? 2 : batchRank;
    if (o.shape.size() != rank || o.strides.size() != rank)
      return "operand '" + o.name + "' has rank " +
             std::to_string(o.shape.size()) + "; tcgen-gpu needs rank " +
             std::to_string(rank) +
             (isC && spec.batchReduce
                  ? std::string(" for the one C of a summed batch "
                                "(op.batch_reduce)")
              : spec.batch > 1 ? " for a batched matmul (op.batch " +
                                     std::to_string(spec.batch) + ")"
                               : std::string());
    if (rank >= 4 &&
        !std::equal(manifest.op.batchShape.begin(),
                    manifest.op.batchShape.end(), o.shape.begin())) {
      auto dims = [](auto begin, auto end, const char *sep) {
        std::string text;
        for (auto it = begin; it != end; ++it)
          text += (it == begin ? "" : sep) + std::to_string(*it);
        return text;
      };
      return "operand '" + o.name + "' holds a batch of " +
             dims(o.shape.begin(), o.shape.end() - 2, " x ") +
             " matrices, but op.batch_shape is [" +
             dims(manifest.op.batchShape.begin(), manifest.op.batchShape.end(),
                  ", ") +
             "]";
    }
    if (rank == 3 && o.shape[0] != spec.batch)
      return "operand '" + o.name + "' holds a batch of " +
             std::to_string(o.shape[0]) + " matrices, but op.batch is " +
             std::to_string(spec.batch);
    std::string error = checkFloatDType(o.dtype, "operand '" + o.name + "'");
    if (!error.empty())
      return error;
    MatrixLayout layout = layoutOf(o);
    switch (o.role) {
    case OperandRole::Lhs:
      spec.aIndex = i, spec.aType = o.dtype, spec.a = layout, haveA = true;
      break;
    case OperandRole::Rhs:
      spec.bIndex = i, spec.bType = o.dtype, spec.b = layout, haveB = true;
      break;
    case OperandRole::Out:
    case OperandRole::InOut:
      spec.cIndex = i, spec.cType = o.dtype, spec.c = layout, haveC = true;
      break;
    case OperandRole::In: // Epilogue inputs: see describeCheckedGemm().
      return "operand '" + o.name +
             "' is an epilogue input; describe the matmul without it";
    case OperandRole::Lhs2: // add(gemm, gemm): see describeCheckedGemm().
    case OperandRole::Rhs2:
      return "operand '" + o.name +
             "' belongs to a second product; describe the matmul without it";
    case OperandRole::Offsets: // A grouped product: see checkGrouped().
      return "operand '" + o.name +
             "' holds a grouped product's row offsets (Grouped.h)";
    case OperandRole::ScaleA: // Block scales: see describeCheckedGemm().
    case OperandRole::ScaleB:
      return "operand '" + o.name +
             "' is a block scale; describe the matmul without it";
    }
  }
  if (!haveA || !haveB || !haveC) // parseManifest checks this for matmul.
    return "matmul operands need roles lhs, rhs and out or inout";
  return "";
}

std::vector<HostMatrix> tcgen::bench::makeHostOperands(const Manifest &manifest,
                                                       const GemmSpec &spec,
                                                       uint64_t seed) {
  std::vector<HostMatrix> host(manifest.operands.size());
  for (size_t i = 0; i < host.size(); ++i) {
    allocateHostOperand(manifest.operands[i], host[i]);
    if (i == spec.cIndex && !spec.accumulate)
      host[i].poisonNaN();
    else
      host[i].fillRandom(seed, /*stream=*/i);
  }
  return host;
}

std::string DeviceOperands::create(const Manifest &manifest,
                                   const std::vector<HostMatrix> &host) {
  buffers.clear();
  args.clear();
  buffers.resize(host.size());
  for (size_t i = 0; i < host.size(); ++i) {
    const Operand &o = manifest.operands[i];
    std::string error = buffers[i].allocate(host[i].bytes.size());
    if (error.empty())
      error = buffers[i].upload(host[i].bytes.data(), host[i].bytes.size());
    if (!error.empty())
      return "operand '" + o.name + "': " + error;
    args.push_back({o.name, o.dtype, o.shape, o.strides,
                    reinterpret_cast<uintptr_t>(buffers[i].get())});
  }
  return "";
}

std::string tcgen::bench::dtypeLabel(const GemmSpec &spec) {
  return std::string(dtypeName(spec.aType)) + "x" + dtypeName(spec.bType) +
         "->" + dtypeName(spec.cType);
}

std::string tcgen::bench::bindLaunchSizes(rt::Kernel &kernel,
                                          const LaunchSizes &sizes) {
  std::string error = checkLaunchSizes(kernel.manifest(), sizes);
  if (!error.empty() || !kernel.isDynamic())
    return error;
  return kernel.bindSizes(sizes[0], sizes[1], sizes[2]);
}

std::string tcgen::bench::ptxFallbackNote(const rt::Kernel &kernel) {
  if (kernel.manifest().cubin.empty() ||
      std::string(kernel.binaryKind()) != "ptx")
    return "";
  return std::string("ran from the PTX, not the manifest's cubin: ") +
         kernel.loadNote();
}

std::string tcgen::bench::checkLaunchSizes(const Manifest &manifest,
                                           const LaunchSizes &sizes) {
  bool given = sizes[0] || sizes[1] || sizes[2];
  if (manifest.isDynamic())
    return given ? "" : "the bundle's sizes are fixed at launch: give them "
                        "with --sizes M,N,K";
  if (!given || (sizes[0] == manifest.op.m && sizes[1] == manifest.op.n &&
                 sizes[2] == manifest.op.k))
    return "";
  auto triple = [](int64_t m, int64_t n, int64_t k) {
    return std::to_string(m) + "," + std::to_string(n) + "," +
           std::to_string(k);
  };
  return "--sizes " + triple(sizes[0], sizes[1], sizes[2]) +
         " differ from the bundle's sizes " +
         triple(manifest.op.m, manifest.op.n, manifest.op.k) +
         " (fixed at compile time)";
}

bool tcgen::bench::parseLaunchSizes(const std::string &text,
                                    LaunchSizes &out) {
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = text.find(',', at);
    if ((i < 2) != (end != std::string::npos))
      return false;
    std::string field = text.substr(at, end == std::string::npos
                                            ? std::string::npos
                                            : end - at);
    if (field.empty() || field.size() > 12 ||
        field.find_first_not_of("0123456789") != std::string::npos)
      return false;
    out[i] = std::stoll(field);
    if (out[i] < 1)
      return false;
    at = end + 1;
  }
  return true;
}
