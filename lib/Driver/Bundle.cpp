//===- Bundle.cpp - Kernel bundles from compiled modules --------*- C++ -*-===//
//
// This file implements the extraction of kernel manifests from the host side
// of a compiled module and of PTX from its gpu.binary ops.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Driver/Bundle.h"

#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tcgen;

/// Minimum base-pointer alignment of every operand: the copies move 16 bytes.
constexpr int64_t kOperandAlignBytes = 16;

static std::optional<::tcgen::DType> toDType(Type t) {
  if (t.isF16())
    return ::tcgen::DType::F16;
  if (t.isBF16())
    return ::tcgen::DType::BF16;
  if (t.isF32())
    return ::tcgen::DType::F32;
  if (t.isF64())
    return ::tcgen::DType::F64;
  // A grouped product's row offsets.
  if (t.isInteger(32))
    return ::tcgen::DType::I32;
  if (t.isInteger(64))
    return ::tcgen::DType::I64;
  if (isa<Float8E4M3FNType>(t))
    return ::tcgen::DType::E4M3;
  if (isa<Float8E5M2Type>(t))
    return ::tcgen::DType::E5M2;
  return std::nullopt;
}

static std::optional<int64_t> constantIndex(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

static ::tcgen::json::Value configToJson(ConfigAttr config) {
  using ::tcgen::json::Value;
  Value json = Value::object();
  auto triple = [](ArrayRef<int64_t> v) {
    return Value::intArray(std::vector<int64_t>(v.begin(), v.end()));
  };
  json.set("backend", Value(config.getBackend().str()));
  json.set("block_tile", triple(config.getBlockTile()));
  json.set("warp_tile", triple(config.getWarpTile()));
  json.set("mma", triple(config.getMmaShape()));
  json.set("stages", Value(config.getStages()));
  json.set("padding", Value(config.getPadding()));
  json.set("vector", Value(config.getVector()));
  json.set("raster", Value(config.getRaster()));
  json.set("persistent", Value(config.getPersistent()));
  json.set("streamk", Value(config.getStreamK()));
  json.set("cluster", triple(config.getCluster()));
  json.set("store", Value(config.getStore().str()));
  if (config.getSwap())
    json.set("swap", Value(true));
  return json;
}

/// Describes the tagged memref `operand` for the manifest.
static FailureOr<::tcgen::Operand> describeOperand(Operation *at, Value operand,
                                                   bool overwrite,
                                                   bool allowDynamic = false) {
  StringRef role = getOperandRole(operand);
  auto type = dyn_cast<MemRefType>(operand.getType());
  std::optional<::tcgen::DType> dtype =
      type ? toDType(type.getElementType()) : std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  // Dynamic sizes and strides are -1 (fixed at launch) in the manifest;
  // only the sm90 back end compiles them (allowDynamic).
  if (role.empty() || !type || (!allowDynamic && !type.hasStaticShape()) ||
      !dtype || failed(type.getStridesAndOffset(strides, offset)) ||
      offset != 0)
    return at->emitError("kernel operand is not a tagged, statically shaped "
                         "function argument: ")
           << operand.getType();
  ::tcgen::Operand op;
  op.name = role.str();
  op.role = role == "A"           ? ::tcgen::OperandRole::Lhs
            : role == "B"         ? ::tcgen::OperandRole::Rhs
            : role == "A2"        ? ::tcgen::OperandRole::Lhs2
            : role == "B2"        ? ::tcgen::OperandRole::Rhs2
            : role == "SA"        ? ::tcgen::OperandRole::ScaleA
            : role == "SB"        ? ::tcgen::OperandRole::ScaleB
            : role.starts_with("E") ? ::tcgen::OperandRole::In
            : role == "offsets"     ? ::tcgen::OperandRole::Offsets
            : overwrite             ? ::tcgen::OperandRole::Out
                                    : ::tcgen::OperandRole::InOut;
  op.dtype = *dtype;
  auto dynamicToManifest = [](int64_t v) {
    return ShapedType::isDynamic(v) ? ::tcgen::kDynamicSize : v;
  };
  for (int64_t d : type.getShape())
    op.shape.push_back(dynamicToManifest(d));
  for (int64_t s : strides)
    op.strides.push_back(dynamicToManifest(s));
  op.alignBytes = kOperandAlignBytes;
  return op;
}

/// Fills the op section from the A, B and C operands (`batchReduce`: the
/// products of A's and B's batch are summed into one C).
static void describeOp(::tcgen::Manifest &m, bool overwrite,
                       bool batchReduce = false) {
  const ::tcgen::Operand *a = m.findOperand("A");
  const ::tcgen::Operand *b = m.findOperand("B");
  m.op.kind = "matmul";
  m.op.accumulate = !overwrite;
  // A batched matmul's operands have the batch as their first dimension
  // (several batch dimensions: the leading ones, op.batch their product).
  size_t lead = a->shape.size() - 2;
  m.op.batch = 1;
  for (size_t d = 0; d < lead; ++d)
    m.op.batch *= a->shape[d];
  if (lead > 1)
    m.op.batchShape.assign(a->shape.begin(), a->shape.begin() + lead);
  m.op.batchReduce = batchReduce && m.op.batch > 1;
  m.op.m = a->shape[lead];
  m.op.k = a->shape[lead + 1];
  m.op.n = b->shape.back();
  // add(gemm, gemm): the second product's K.
  if (const ::tcgen::Operand *a2 = m.findOperand("A2"))
    m.op.k2 = a2->shape[lead + 1];
}

/// Drops the batch dimensions of every operand of rank above 2 where A's
/// batch dimensions all have extent 1: the manifest describes a batch of
/// one as a plain matmul, [m, k] x [k, n] -> [m, n], with the same
/// strides (each dropped dimension only ever has index 0).
static void dropUnitBatch(::tcgen::Manifest &m) {
  const ::tcgen::Operand *a = m.findOperand("A");
  if (!a || a->shape.size() <= 2 ||
      !llvm::all_of(ArrayRef<int64_t>(a->shape).drop_back(2),
                    [](int64_t e) { return e == 1; }))
    return;
  for (::tcgen::Operand &o : m.operands) {
    while (o.shape.size() > 2 && o.shape[0] == 1) {
      o.shape.erase(o.shape.begin());
      o.strides.erase(o.strides.begin());
    }
  }
}

/// Whether the operand named `name` is stored transposed according to
/// `flags` (a tcgen.transposed attribute: A's, then B's; A2 and B2 follow
/// A and B).
static bool isTransposed(DenseBoolArrayAttr flags, StringRef name) {
  if (!flags)
    return false;
  if (name == "A" || name == "A2")
    return flags[0];
  return (name == "B" || name == "B2") && flags[1];
}

/// Whether the batch dimension of the operand named `name` sits between
/// its two matrix dimensions according to `flags` (a tcgen.batch_middle
/// attribute: A's, B's, then C's).
static bool isBatchMiddle(DenseBoolArrayAttr flags, StringRef name) {
  if (!flags)
    return false;
  return (name == "A" && flags[0]) || (name == "B" && flags[1]) ||
         (name == "C" && flags[2]);
}

/// Moves the middle of three entries to the front: an operand stored
/// [rows][batch][cols] is described in the batch-first order with its
/// strides (the runtime orders a tensor map's dimensions by stride).
static void batchToFront(std::vector<int64_t> &dims) {
  if (dims.size() == 3)
    std::rotate(dims.begin(), dims.begin() + 1, dims.begin() + 2);
}

/// Moves the entries at `positions` (a batch dimension each, in the order
/// of C's batch dimensions) to the front, the others after them in their
/// order: an operand with several batch dimensions is described batch-first.
/// A position of -1 (a batch dimension the operand lacks) becomes
/// `absent[i]`: the batch's extent in a shape, 0 in strides (a broadcast).
/// (Past the end of `absent`, which holds C's extents where the function
/// has C, 1: the manifest's checks then refuse the operand's batch.)
static void batchesToFront(std::vector<int64_t> &dims,
                           ArrayRef<int64_t> positions,
                           ArrayRef<int64_t> absent) {
  std::vector<int64_t> out;
  for (auto [i, p] : llvm::enumerate(positions))
    out.push_back(p >= 0 ? dims[p] : i < absent.size() ? absent[i] : 1);
  for (size_t d = 0; d < dims.size(); ++d)
    if (!llvm::is_contained(positions, int64_t(d)))
      out.push_back(dims[d]);
  dims = std::move(out);
}

/// Swaps the last two entries: a matrix stored transposed is described by
/// its logical shape with swapped strides (the batch dimension stays).
static void swapMatrixDims(std::vector<int64_t> &dims) {
  if (dims.size() >= 2)
    std::swap(dims[dims.size() - 2], dims[dims.size() - 1]);
}

/// Reads the fused epilogue a host function records (describeEpilogue) into
/// the manifest's op.epilogue.
static LogicalResult readEpilogue(func::FuncOp func, DictionaryAttr attr,
                                  ::tcgen::OpInfo &op) {
  auto fail = [&] {
    return func.emitError("malformed ") << kFusedEpilogueAttrName << ": "
                                        << attr;
  };
  auto matmulType = attr.getAs<StringAttr>("matmul_dtype");
  auto inputs = attr.getAs<ArrayAttr>("inputs");
  auto steps = attr.getAs<ArrayAttr>("ops");
  auto result = attr.getAs<IntegerAttr>("result");
  std::optional<::tcgen::DType> dtype =
      matmulType ? ::tcgen::parseDType(matmulType.getValue().str())
                 : std::nullopt;
  if (!dtype || !inputs || !steps || !result)
    return fail();
  ::tcgen::Epilogue e;
  e.matmulDType = *dtype;
  e.result = result.getInt();
  for (Attribute a : inputs) {
    auto d = dyn_cast<DictionaryAttr>(a);
    auto name = d ? d.getAs<StringAttr>("operand") : StringAttr();
    auto kind = d ? d.getAs<StringAttr>("kind") : StringAttr();
    if (!name || !kind)
      return fail();
    std::optional<::tcgen::EpilogueInputKind> k =
        ::tcgen::parseEpilogueInputKind(kind.getValue().str());
    if (!k)
      return fail();
    e.inputs.push_back({name.getValue().str(), *k});
  }
  for (Attribute a : steps) {
    auto d = dyn_cast<DictionaryAttr>(a);
    auto name = d ? d.getAs<StringAttr>("op") : StringAttr();
    auto args = d ? d.getAs<ArrayAttr>("args") : ArrayAttr();
    auto type = d ? d.getAs<StringAttr>("dtype") : StringAttr();
    if (!name || !args || !type)
      return fail();
    ::tcgen::EpilogueStep step;
    step.op = name.getValue().str();
    step.dtype = type.getValue().str();
    for (Attribute arg : args)
      step.args.push_back(cast<IntegerAttr>(arg).getInt());
    if (auto value = d.getAs<FloatAttr>("value"))
      step.value = value.getValueAsDouble();
    if (auto predicate = d.getAs<StringAttr>("predicate"))
      step.predicate = predicate.getValue().str();
    e.steps.push_back(std::move(step));
  }
  op.epilogue = std::move(e);
  return success();
}

/// The manifest's packs from the kernel's tcgen.packs attribute (the copies
/// of operands with rows TMA cannot read, run before the kernel).
static void readPacks(Operation *kernel, ::tcgen::Manifest &m) {
  auto packs = kernel->getAttrOfType<ArrayAttr>("tcgen.packs");
  if (!packs)
    return;
  for (Attribute a : packs) {
    auto d = cast<DictionaryAttr>(a);
    ::tcgen::Pack pack;
    pack.operand = d.getAs<StringAttr>("operand").getValue().str();
    pack.entry = d.getAs<StringAttr>("entry").getValue().str();
    ArrayRef<int64_t> strides =
        d.getAs<DenseI64ArrayAttr>("strides").asArrayRef();
    pack.strides.assign(strides.begin(), strides.end());
    // Like the operand: a transposed copy is described by the logical
    // shape with swapped strides (the kernel's layout: with M or N = 1 it
    // reads a transposed argument in the other layout).
    auto packed = kernel->getAttrOfType<DenseBoolArrayAttr>("tcgen.transposed");
    if (isTransposed(packed, pack.operand))
      swapMatrixDims(pack.strides);
    ArrayRef<int64_t> grid = d.getAs<DenseI64ArrayAttr>("grid").asArrayRef();
    ArrayRef<int64_t> block = d.getAs<DenseI64ArrayAttr>("block").asArrayRef();
    pack.grid = {grid[0], grid[1], grid[2]};
    pack.block = {block[0], block[1], block[2]};
    m.packs.push_back(std::move(pack));
  }
}

/// Kernels the sm90 back end generated: the ABI is on the gpu.func.
static LogicalResult collectSM90Kernels(ModuleOp module, StringRef arch,
                                        std::vector<KernelRecord> &kernels) {
  auto target = TargetAttr::get(module.getContext(), arch);
  for (auto func : module.getOps<func::FuncOp>()) {
    auto kernelRef = func->getAttrOfType<FlatSymbolRefAttr>("tcgen.kernel");
    if (!kernelRef)
      continue;
    auto gpuModule =
        module.lookupSymbol<gpu::GPUModuleOp>(kernelRef.getValue());
    auto kernel =
        gpuModule ? gpuModule.lookupSymbol<gpu::GPUFuncOp>(kernelRef.getValue())
                  : gpu::GPUFuncOp();
    auto config = func->getAttrOfType<ConfigAttr>(kConfigAttrName);
    auto params =
        kernel ? kernel->getAttrOfType<ArrayAttr>("tcgen.params") : ArrayAttr();
    auto boxes =
        kernel ? kernel->getAttrOfType<DictionaryAttr>("tcgen.tensormap_boxes")
               : DictionaryAttr();
    auto launch = kernel
                      ? kernel->getAttrOfType<DenseI64ArrayAttr>("tcgen.launch")
                      : DenseI64ArrayAttr();
    if (!config || !params || !boxes || !launch ||
        (launch.size() != 8 && launch.size() != 9))
      return func.emitError("generated kernel ") << kernelRef << " has no ABI";
    ::tcgen::Manifest m;
    m.entry = kernelRef.getValue().str();
    m.target = {arch.str(), config.getBackend().str(),
                target.getComputeCapability()};
    auto transposed = func->getAttrOfType<DenseBoolArrayAttr>("tcgen.transposed");
    auto batchMiddle =
        func->getAttrOfType<DenseBoolArrayAttr>("tcgen.batch_middle");
    auto batchPositions =
        func->getAttrOfType<DictionaryAttr>("tcgen.batch_positions");
    // The batch extents, in C's order: C holds every batch dimension (an
    // operand that lacks one lists it with C's extent and stride 0).
    SmallVector<int64_t> batchExtents;
    if (auto cPositions = batchPositions
                              ? batchPositions.getAs<DenseI64ArrayAttr>("C")
                              : DenseI64ArrayAttr())
      for (BlockArgument arg : func.getArguments())
        if (getOperandRole(arg) == "C")
          for (int64_t d : cPositions.asArrayRef())
            batchExtents.push_back(
                cast<ShapedType>(arg.getType()).getDimSize(d));
    for (BlockArgument arg : func.getArguments()) {
      if (getOperandRole(arg).empty())
        continue;
      FailureOr<::tcgen::Operand> op =
          describeOperand(func, arg, func->hasAttr(kOverwriteAttrName),
                          /*allowDynamic=*/true);
      if (failed(op))
        return failure();
      // A stored [m][b][k] is the batch-first A[b][m][k] with strides
      // [k, b k, 1].
      if (isBatchMiddle(batchMiddle, op->name)) {
        batchToFront(op->shape);
        batchToFront(op->strides);
      }
      if (auto positions = batchPositions
                               ? batchPositions.getAs<DenseI64ArrayAttr>(
                                     op->name)
                               : DenseI64ArrayAttr()) {
        batchesToFront(op->shape, positions.asArrayRef(), batchExtents);
        batchesToFront(op->strides, positions.asArrayRef(),
                       SmallVector<int64_t>(positions.size(), 0));
      }
      // A stored [k][m] is the logical A[m][k] with strides [1, m] (and B
      // stored [n][k] the logical B[k][n] with strides [1, k]).
      if (isTransposed(transposed, op->name)) {
        swapMatrixDims(op->shape);
        swapMatrixDims(op->strides);
      }
      // A swapped kernel (C^T = B^T A^T) writes the caller's C[m][n] as
      // its C^T[n][m] with strides [1, n]; a matrix operand of its
      // epilogue has C's shape and is read the same way.
      if (func->hasAttr("tcgen.swapped") && op->shape.size() == 2 &&
          (op->name == "C" || StringRef(op->name).starts_with("E"))) {
        swapMatrixDims(op->shape);
        swapMatrixDims(op->strides);
      }
      // A batch of one is a plain matmul: where the kernel is not batched
      // (A's box has two entries), the batch dimensions of extent 1, now
      // in front, go.
      auto aBox = boxes.getAs<DenseI64ArrayAttr>("A");
      bool kernelBatched = aBox && aBox.size() > 2;
      while (!kernelBatched && !func->hasAttr("tcgen.groups") &&
             op->shape.size() > 2 && op->shape[0] == 1) {
        op->shape.erase(op->shape.begin());
        op->strides.erase(op->strides.begin());
      }
      m.operands.push_back(*op);
    }
    if (!m.findOperand("A") || !m.findOperand("B") || !m.findOperand("C"))
      return func.emitError("kernel does not take all of A, B and C");
    // Without tcgen.overwrite the kernel computes C += A*B (C inout).
    describeOp(m, func->hasAttr(kOverwriteAttrName),
               func->hasAttr("tcgen.batch_reduce"));
    // A grouped product: B's group dimension is not a batch.
    if (auto groups = func->getAttrOfType<IntegerAttr>("tcgen.groups"))
      m.op.groups = groups.getInt();
    // Block-scaled fp8: SA's 1 x 128 and SB's 128 x 128 blocks.
    if (func->hasAttr("tcgen.block_scales"))
      m.op.blockScales = ::tcgen::BlockScaleInfo();
    // A dual GEMM: B2 is the second product's B (op.dual).
    m.op.dual = func->hasAttr("tcgen.dual");
    m.op.accumulator = ::tcgen::DType::F32; // wgmma accumulates in f32
    // f32 operands go through the tensor cores as tf32.
    m.op.tf32 = m.findOperand("A")->dtype == ::tcgen::DType::F32;
    if (auto epilogue =
            func->getAttrOfType<DictionaryAttr>(kFusedEpilogueAttrName))
      if (failed(readEpilogue(func, epilogue, m.op)))
        return failure();
    if (auto prologue =
            func->getAttrOfType<DictionaryAttr>(kFusedPrologueAttrName)) {
      // The prologue's body is written like an epilogue without inputs;
      // its "matmul" value is A's element.
      ::tcgen::OpInfo body;
      if (failed(readEpilogue(func, prologue, body)))
        return failure();
      auto operand =
          func->getAttrOfType<StringAttr>(kFusedPrologueOperandAttrName);
      m.op.prologue = ::tcgen::Prologue{
          operand ? operand.getValue().str() : std::string("A"),
          std::move(*body.epilogue)};
    }
    for (Attribute p : params) {
      auto [kind, operand] = cast<StringAttr>(p).getValue().split(':');
      ::tcgen::Param param{kind.str(), operand.str(), ""};
      if (kind == "workspace") {
        // "workspace:<bytes per block>": scratch the runtime owns.
        param.operand.clear();
        if (operand.getAsInteger(10, param.bytesPerBlock))
          return func.emitError("malformed workspace parameter ") << p;
      }
      if (kind == "size") {
        // "size:m": a size of the launch, no operand.
        param.operand.clear();
        param.value = operand.str();
      }
      if (kind == "stride") {
        // "stride:E0:0": the launch's stride of an operand's dimension.
        auto [name, dim] = operand.split(':');
        param.operand = name.str();
        if (dim.getAsInteger(10, param.dim) || param.dim < 0)
          return func.emitError("malformed stride parameter ") << p;
      }
      if (kind == "tensormap") {
        auto box = boxes.getAs<DenseI64ArrayAttr>(operand);
        if (!box)
          return func.emitError("no tensor-map box for operand ") << operand;
        param.box.assign(box.asArrayRef().begin(), box.asArrayRef().end());
        param.swizzle = "128B";
        param.l2Promotion = "256B";
        param.oobFill = "zero";
      }
      m.params.push_back(param);
    }
    readPacks(kernel, m);
    ArrayRef<int64_t> l = launch.asArrayRef();
    m.launch.grid = {l[0], l[1], l[2]};
    m.launch.block = {l[3], l[4], l[5]};
    m.launch.dynamicSmemBytes = l[6];
    if (auto cluster = kernel->getAttrOfType<DenseI64ArrayAttr>("tcgen.cluster");
        cluster && cluster.size() == 3)
      m.launch.cluster = {cluster[0], cluster[1], cluster[2]};
    // 0: one block per tile; 1: persistent; 2: stream-K (persistent, one
    // block per SM).
    m.launch.persistent = l[7] != 0;
    m.launch.streamK = l[7] == 2;
    if (l.size() > 8)
      m.launch.streamKBlocks = l[8];
    ArrayRef<int64_t> bt = config.getBlockTile();
    m.launch.gridFormula = {std::string(m.op.batch > 1 && !m.op.batchReduce ? "batch * " : "") +
                                "ceildiv(m, " + std::to_string(bt[0]) +
                                ") * ceildiv(n, " + std::to_string(bt[1]) +
                                ") tiles",
                            "1", "1"};
    if (m.op.groups > 0)
      m.launch.gridFormula[0] = "one block per SM over the groups' sum of "
                                "ceildiv(rows, " +
                                std::to_string(bt[0]) + ") * ceildiv(n, " +
                                std::to_string(bt[1]) + ") tiles";
    m.config = configToJson(config);
    SmallVector<int64_t> regs;
    if (auto r = kernel->getAttrOfType<DenseI64ArrayAttr>("tcgen.setmaxnreg"))
      regs.assign(r.asArrayRef().begin(), r.asArrayRef().end());
    kernels.push_back({std::move(m), gpuModule.getName().str(), regs});
  }
  return success();
}

/// Standalone pointwise kernels (tcgen-build-pointwise): op kind
/// "pointwise", Y = f(X, E0, ...), every operand by pointer.
static LogicalResult
collectPointwiseKernels(ModuleOp module, StringRef arch,
                        std::vector<KernelRecord> &kernels) {
  auto target = TargetAttr::get(module.getContext(), arch);
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
      auto body = kernel->getAttrOfType<DictionaryAttr>("tcgen.pointwise");
      if (!body)
        continue;
      auto host = kernel->getAttrOfType<FlatSymbolRefAttr>("tcgen.host");
      auto func = host ? module.lookupSymbol<func::FuncOp>(host.getValue())
                       : func::FuncOp();
      auto params = kernel->getAttrOfType<ArrayAttr>("tcgen.params");
      auto args = kernel->getAttrOfType<DenseI64ArrayAttr>("tcgen.operand_args");
      auto launch = kernel->getAttrOfType<DenseI64ArrayAttr>("tcgen.launch");
      if (!func || !params || !args || !launch || launch.size() != 8 ||
          args.size() != int64_t(params.size()))
        return kernel.emitError("pointwise kernel has no ABI");
      ::tcgen::Manifest m;
      m.entry = kernel.getName().str();
      m.target = {arch.str(), "pointwise", target.getComputeCapability()};
      if (failed(readEpilogue(func, body, m.op)))
        return failure();
      m.op.kind = "pointwise";
      for (auto [i, p] : llvm::enumerate(params)) {
        StringRef name = cast<StringAttr>(p).getValue().split(':').second;
        Value arg = func.getArgument(args[i]);
        auto type = cast<MemRefType>(arg.getType());
        std::optional<::tcgen::DType> dtype = toDType(type.getElementType());
        SmallVector<int64_t> strides;
        int64_t offset;
        if (!dtype || failed(type.getStridesAndOffset(strides, offset)) ||
            offset != 0)
          return func.emitError("pointwise kernel operand is not a plain "
                                "memref: ")
                 << type;
        ::tcgen::Operand o;
        o.name = name.str();
        o.role = name == "X"   ? ::tcgen::OperandRole::Lhs
                 : name == "Y" ? ::tcgen::OperandRole::Out
                               : ::tcgen::OperandRole::In;
        o.dtype = *dtype;
        o.shape.assign(type.getShape().begin(), type.getShape().end());
        o.strides.assign(strides.begin(), strides.end());
        o.alignBytes = kOperandAlignBytes;
        if (o.name == "Y") {
          m.op.m = o.shape[0];
          m.op.n = o.shape[1];
        }
        m.operands.push_back(std::move(o));
        m.params.push_back({"ptr", name.str(), ""});
      }
      ArrayRef<int64_t> l = launch.asArrayRef();
      m.launch.grid = {l[0], l[1], l[2]};
      m.launch.block = {l[3], l[4], l[5]};
      m.launch.dynamicSmemBytes = l[6];
      m.launch.gridFormula = {"min(ceildiv(m * n / w, 256), 1056)", "1", "1"};
      kernels.push_back({std::move(m), gpuModule.getName().str(), {}});
    }
  }
  return success();
}

FailureOr<std::vector<KernelRecord>>
mlir::tcgen::collectKernels(ModuleOp module, StringRef arch) {
  std::vector<KernelRecord> kernels;
  if (failed(collectSM90Kernels(module, arch, kernels)) ||
      failed(collectPointwiseKernels(module, arch, kernels)))
    return failure();
  auto target = TargetAttr::get(module.getContext(), arch);
  WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
    auto func = launch->getParentOfType<func::FuncOp>();
    auto config =
        func ? func->getAttrOfType<ConfigAttr>(kConfigAttrName) : ConfigAttr();
    if (!config) {
      launch.emitError("launch is not a tcgen kernel (no #tcgen.config)");
      return WalkResult::interrupt();
    }
    bool overwrite = func->hasAttr(kOverwriteAttrName);
    auto transposed = func->getAttrOfType<DenseBoolArrayAttr>("tcgen.transposed");
    ::tcgen::Manifest m;
    m.entry = launch.getKernelName().str();
    m.target = {arch.str(), config.getBackend().str(),
                target.getComputeCapability()};
    for (Value operand : launch.getKernelOperands()) {
      FailureOr<::tcgen::Operand> op =
          describeOperand(launch, operand, overwrite);
      if (failed(op))
        return WalkResult::interrupt();
      // A stored [k][m] is the logical A[m][k] with strides [1, m] (B
      // stored [n][k] likewise), as for sm90 kernels.
      if (isTransposed(transposed, op->name)) {
        swapMatrixDims(op->shape);
        swapMatrixDims(op->strides);
      }
      // bf16 A and B carried as f16 bits through the compiler (sm80).
      if (func->hasAttr(kBF16OperandsAttrName) &&
          (op->name == "A" || op->name == "B"))
        op->dtype = ::tcgen::DType::BF16;
      m.params.push_back({"ptr", op->name, ""});
      m.operands.push_back(*op);
    }
    if (!m.findOperand("A") || !m.findOperand("B") || !m.findOperand("C")) {
      launch.emitError("kernel does not take all of A, B and C");
      return WalkResult::interrupt();
    }
    // These kernels take plain pointers: a batch of one is a plain matmul
    // (the manifest admits no rank-3 operand with op.batch 1).
    dropUnitBatch(m);
    describeOp(m, overwrite);
    // WMMA and sm80 accumulate in the fragment type: C's element type, or
    // with a fused epilogue (sm80) the intermediate's, its matmul dtype.
    m.op.accumulator = m.findOperand("C")->dtype;
    if (auto epilogue =
            func->getAttrOfType<DictionaryAttr>(kFusedEpilogueAttrName)) {
      if (failed(readEpilogue(func, epilogue, m.op)))
        return WalkResult::interrupt();
      m.op.accumulator = m.op.epilogue->matmulDType;
    }
    if (auto prologue =
            func->getAttrOfType<DictionaryAttr>(kFusedPrologueAttrName)) {
      // As for sm90: the body written like an epilogue without inputs.
      ::tcgen::OpInfo body;
      if (failed(readEpilogue(func, prologue, body)))
        return WalkResult::interrupt();
      auto operand =
          func->getAttrOfType<StringAttr>(kFusedPrologueOperandAttrName);
      m.op.prologue = ::tcgen::Prologue{
          operand ? operand.getValue().str() : std::string("A"),
          std::move(*body.epilogue)};
    }

    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int d = 0; d < 6; ++d) {
      std::optional<int64_t> v = constantIndex(dims[d]);
      if (!v) {
        launch.emitError("launch sizes must be constants");
        return WalkResult::interrupt();
      }
      (d < 3 ? m.launch.grid[d] : m.launch.block[d - 3]) = *v;
    }
    if (Value dynamic = launch.getDynamicSharedMemorySize()) {
      APInt bytes;
      if (!matchPattern(dynamic, m_ConstantInt(&bytes))) {
        launch.emitError("dynamic shared memory size must be a constant");
        return WalkResult::interrupt();
      }
      m.launch.dynamicSmemBytes = bytes.getSExtValue();
    }
    ArrayRef<int64_t> bt = config.getBlockTile();
    m.launch.gridFormula = {"ceildiv(n, " + std::to_string(bt[1]) + ")",
                            "ceildiv(m, " + std::to_string(bt[0]) + ")",
                            "batch"};
    m.config = configToJson(config);
    kernels.push_back({std::move(m), launch.getKernelModuleName().str()});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return kernels;
}

FailureOr<std::map<std::string, std::string>>
mlir::tcgen::collectPTX(ModuleOp module) {
  std::map<std::string, std::string> ptx;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
      binary.emitError("expected a PTX object");
      return failure();
    }
    ptx[binary.getName().str()] = object.getObject().getValue().str();
  }
  return ptx;
}
