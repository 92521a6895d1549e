//===- BuildGrouped.cpp - Grouped products to sm90 kernels ------*- C++ -*-===//
//
// This file implements tcgen-sm90-build-grouped: each grouped product
// (mixtures of experts, tcgen/Analysis/Grouped.h) becomes a generated
// persistent sm90 kernel that walks the tiles of every group from the
// device-side offsets; its ABI is recorded as tcgen-sm90-build-kernel
// records it.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Passes.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Analysis/Grouped.h"
#include "tcgen/Config/Config.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Targets/SM90/KernelBuilder.h"
#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSM90BUILDGROUPEDPASS
#include "tcgen/Targets/SM90/Passes.h.inc"

namespace {

/// The default config of a grouped product: 128-row tiles (two consumer
/// warpgroups), the widest N tile of 256, 128 or 64 that divides N (else
/// 128, the last tile masked), 64-element k-tiles, as many stages as fit
/// (at most 8); persistent, C stored from registers.
ConfigAttr defaultGroupedConfig(MLIRContext *ctx, const GroupedInfo &info) {
  int64_t blockN = 128;
  for (int64_t w : {256, 128, 64})
    if (info.n % w == 0) {
      blockN = w;
      break;
    }
  const int64_t blockM = 128, blockK = 64;
  int64_t stages = sm90::chooseStages(blockM, blockN, blockK,
                                      /*tmaStore=*/false, info.bKMajor);
  return ConfigAttr::get(ctx, "sm90", {blockM, blockN, blockK},
                         {64, blockN, blockK}, {64, blockN, 16}, stages,
                         /*padding=*/0, /*vector=*/8, /*raster=*/8,
                         /*persistent=*/true, /*streamK=*/false,
                         /*cluster=*/{1, 1}, /*store=*/"global",
                         /*swap=*/false);
}

/// Checks that the grouped kernel takes `config`; emits an error at `op`
/// naming the first field it does not.
LogicalResult checkGroupedConfig(linalg::GenericOp op, ConfigAttr config,
                                 const GroupedInfo &info) {
  auto refuse = [&](const Twine &what) {
    return op.emitOpError("grouped product: the sm90 grouped kernel takes ")
           << what << ", not " << config;
  };
  ArrayRef<int64_t> block = config.getBlockTile();
  ArrayRef<int64_t> warp = config.getWarpTile();
  if (config.getBackend() != "sm90")
    return refuse("backend = \"sm90\"");
  if (block[0] != 64 && block[0] != 128)
    return refuse("a block tile M of 64 or 128");
  if (warp[0] != 64)
    return refuse("a warp tile M of 64 (one 64-row block per warpgroup)");
  if (block[1] < 16 || block[1] > 256 || block[1] % 16 != 0)
    return refuse("a block tile N that is a multiple of 16 from 16 to 256");
  if (!info.bKMajor && block[1] % 64 != 0)
    return refuse("with B stored [g][k][n] a block tile N that is a multiple "
                  "of 64 (whole 64-wide boxes)");
  if (block[2] != 64)
    return refuse("a block tile K of 64 (one 128-byte row of 16-bit "
                  "elements)");
  if (config.getStreamK() || config.getCluster()[0] != 1 ||
      config.getCluster()[1] != 1 || config.getSwap())
    return refuse("no stream-K, cluster or swap");
  if (config.getStore() != "global")
    return refuse("store = \"global\" (C stored from registers, masked at "
                  "each group's end)");
  if (config.getStages() < 2 ||
      sm90::sharedMemoryBytes(block[0], block[1], block[2], config.getStages(),
                              /*tmaStore=*/false,
                              info.bKMajor) > sm90::kMaxDynamicSmemBytes)
    return refuse("at least two stages that fit the shared memory");
  return success();
}

/// The zero linalg.fill of `buffer` in front of `op` in its block, or null.
linalg::FillOp findZeroFill(linalg::GenericOp op, Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    auto fill = dyn_cast<linalg::FillOp>(user);
    if (fill && fill->getBlock() == op->getBlock() &&
        fill->isBeforeInBlock(op) &&
        (matchPattern(fill.value(), m_AnyZeroFloat()) ||
         matchPattern(fill.value(), m_Zero())))
      return fill;
  }
  return {};
}

struct BuildGroupedPass final
    : impl::TCGenSM90BuildGroupedPassBase<BuildGroupedPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isGroupedCandidate(op))
        ops.push_back(op);
    });
    for (linalg::GenericOp op : ops)
      if (failed(build(op)))
        return signalPassFailure();
  }

  /// Fills the kernel's parameters from the product and its config.
  static sm90::KernelParams
  kernelParams(func::FuncOp func, const GroupedInfo &info, ConfigAttr config) {
    sm90::KernelParams p;
    p.name = (func.getSymName() + "_kernel").str();
    p.n = info.n;
    p.k = info.k;
    p.groups = info.groups;
    p.offsetsI64 = info.offsetsType.isInteger(64);
    p.blockM = config.getBlockTile()[0];
    p.blockN = config.getBlockTile()[1];
    p.blockK = config.getBlockTile()[2];
    p.stages = config.getStages();
    p.groupM = config.getRaster();
    p.inType = info.aType.isBF16() ? "bf16" : "f16";
    p.bKMajor = info.bKMajor;
    p.outType = "f32";
    // B's map: (inner, rows, group); A's is the plain 2-d one.
    p.bMapDims = {sm90::KernelParams::kMapInner, sm90::KernelParams::kMapOuter,
                  0};
    return p;
  }

  LogicalResult build(linalg::GenericOp op) {
    FailureOr<GroupedInfo> info = analyzeGroupedContraction(op);
    if (failed(info))
      return failure();
    TargetAttr target = getTargetOrDefault(op);
    if (target.getComputeCapability() != 90 || !target.isArchSpecific())
      return op.emitOpError("grouped product: only the sm90 back end "
                            "compiles grouped products (--target=sm_90a), "
                            "not ")
             << target;
    ConfigAttr config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (!config)
      config = defaultGroupedConfig(op->getContext(), *info);
    if (failed(checkGroupedConfig(op, config, *info)))
      return failure();
    // TMA reads A's and B's rows in 16-byte steps; no copies are made.
    const int64_t bRowElems = info->bKMajor ? info->k : info->n;
    if (info->k % 8 != 0 || bRowElems % 8 != 0)
      return op.emitOpError("grouped product: A and B are read through TMA "
                            "only, whose rows must be a multiple of 16 bytes "
                            "apart: K")
             << (info->bKMajor ? "" : " and N") << " must be multiples of 8 "
             << "(K = " << info->k << ", N = " << info->n << ")";
    auto func = op->getParentOfType<func::FuncOp>();
    // An elementwise consumer of the result reading nothing else is fused.
    ContractionInfo asMatmul;
    asMatmul.op = cast<linalg::LinalgOp>(op.getOperation());
    asMatmul.c = info->c;
    asMatmul.m = info->rows;
    asMatmul.n = info->n;
    asMatmul.cType = info->accType;
    std::string whyNot;
    std::optional<EpilogueInfo> epilogue = findEpilogue(asMatmul, whyNot);
    if (!whyNot.empty())
      return op.emitOpError("grouped product: its consumer cannot be fused "
                            "into the kernel: ")
             << whyNot;
    if (epilogue && !epilogue->operands.empty())
      return op.emitOpError("grouped product: a fused epilogue reading other "
                            "operands (a bias per group, a residual) is not "
                            "supported yet");
    Value out = epilogue ? epilogue->out : info->c;
    if (!isa<BlockArgument>(out))
      return op.emitOpError("grouped product: C must be a function argument "
                            "(or the output of a fused elementwise consumer)");
    linalg::FillOp fill = findZeroFill(op, info->c);
    if (!fill)
      return op.emitOpError("grouped product: the output must be zero-filled "
                            "first (C = A B; C += A B is not supported yet)");
    if (failed(tagOperandArgument(func, op, info->a, "A")) ||
        failed(tagOperandArgument(func, op, info->b, "B")) ||
        failed(tagOperandArgument(func, op, info->offsets, "offsets")) ||
        failed(tagOperandArgument(func, op, out, "C")))
      return failure();

    sm90::KernelParams p = kernelParams(func, *info, config);
    sm90::EpilogueBodyBuilder body;
    if (epilogue) {
      p.fusedEpilogue = true;
      p.matmulType = "f32";
      p.outType = typeName(epilogue->outType);
      body = [&](OpBuilder &builder, Value acc, ValueRange operands) {
        return emitEpilogueBody(builder, *epilogue, acc, operands);
      };
    }
    ModuleOp module = getOperation();
    FailureOr<Operation *> kernelModule =
        sm90::buildKernelModule(module, p, op.getLoc(), body);
    if (failed(kernelModule))
      return failure();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    auto kernel =
        *cast<gpu::GPUModuleOp>(*kernelModule).getOps<gpu::GPUFuncOp>().begin();
    recordABI(kernel, func, p, config);
    // The offsets' slices go with the product.
    SmallVector<Operation *> others;
    for (Value slice : {op.getDpsInputs()[2], op.getDpsInputs()[3]})
      if (Operation *def = slice.getDefiningOp();
          def && !llvm::is_contained(others, def))
        others.push_back(def);
    return eraseComputedContraction(func, op, fill,
                                    epilogue ? &*epilogue : nullptr, others);
  }

  /// The ABI `tcgen compile` reads for the manifest (as
  /// tcgen-sm90-build-kernel records it).
  void recordABI(gpu::GPUFuncOp kernel, func::FuncOp func,
                 const sm90::KernelParams &p, ConfigAttr config) {
    Builder b(&getContext());
    kernel->setAttr("tcgen.params",
                    b.getStrArrayAttr({"tensormap:A", "tensormap:B", "ptr:C",
                                       "ptr:offsets"}));
    // Boxes innermost first: A [blockM rows][64]; B one tile's rows (K-major)
    // or 64-wide boxes (N-major) of one group.
    int64_t bRows = p.bKMajor ? sm90::bBoxRows(p) : 64;
    kernel->setAttr(
        "tcgen.tensormap_boxes",
        b.getDictionaryAttr(
            {b.getNamedAttr("A", b.getDenseI64ArrayAttr({64, p.blockM})),
             b.getNamedAttr("B", b.getDenseI64ArrayAttr({64, bRows, 1}))}));
    // The kernel reads B as stored; the function's B is [g][n][k]
    // ("transposed": the manifest describes it as [g, k, n]).
    kernel->setAttr("tcgen.transposed",
                    b.getDenseBoolArrayAttr({false, p.bKMajor}));
    func->setAttr("tcgen.transposed",
                  b.getDenseBoolArrayAttr({false, p.bKMajor}));
    func->setAttr("tcgen.groups", b.getI64IntegerAttr(p.groups));
    // One block per SM, persistent.
    kernel->setAttr("tcgen.launch",
                    b.getDenseI64ArrayAttr(
                        {-1, 1, 1, p.threads(), 1, 1, p.smemBytes(), 1}));
    kernel->setAttr("tcgen.cluster", b.getDenseI64ArrayAttr({1, 1, 1}));
    kernel->setAttr(
        "tcgen.setmaxnreg",
        b.getDenseI64ArrayAttr(
            {p.producerRegisters(), p.consumerRegisters(), p.consumers()}));
    kernel->setAttr(kConfigAttrName, config);
    func->setAttr(kConfigAttrName, config);
    func->setAttr(kOverwriteAttrName, b.getUnitAttr());
    func->setAttr("tcgen.kernel", FlatSymbolRefAttr::get(kernel.getNameAttr()));
  }
};
} // namespace
} // namespace mlir::tcgen
