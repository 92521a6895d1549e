//===- EpilogueSubstitution.h - Typed epilogue into a kernel ---*- C++ -*-===//
//
// This file defines the check that the sm90 epilogue built with typed ops
// (Epilogue.h) is the text renderer's: a rendered kernel is parsed with its
// values' names, and each piece of its epilogue is rebuilt with the typed
// functions from the values of those names, in place of the text's ops.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_UNITTESTS_TARGETS_EPILOGUESUBSTITUTION_H
#define TCGEN_UNITTESTS_TARGETS_EPILOGUESUBSTITUTION_H

#include "tcgen/Targets/SM90/Epilogue.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::tcgen::sm90::epiloguecheck {

/// A rendered kernel module, parsed, with the values of each name.
struct NamedKernel {
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<SmallVector<Value>> names;

  /// The value named `name` (e.g. "%c0", "%acc#1") whose definition
  /// dominates `at`, or null.
  Value lookup(StringRef name, Operation *at) const {
    auto it = names.find(name);
    if (it == names.end())
      return {};
    DominanceInfo dom;
    for (Value v : it->second)
      if (dom.properlyDominates(v, at))
        return v;
    return {};
  }
  /// Moves the uses of `old` to `value`, and its name too.
  void replace(Value old, Value value) {
    old.replaceAllUsesWith(value);
    for (auto &entry : names)
      for (Value &v : entry.second)
        if (v == old)
          v = value;
  }
  /// Erases the ops from `first` up to (not including) `end` in reverse
  /// order, and their names; false if one still has uses.
  bool eraseRange(Operation *first, Operation *end) {
    SmallVector<Operation *> ops;
    for (Operation *op = first; op != end; op = op->getNextNode())
      ops.push_back(op);
    DenseSet<Operation *> erased;
    for (Operation *op : ops)
      op->walk([&](Operation *nested) { erased.insert(nested); });
    for (auto &entry : names)
      llvm::erase_if(entry.second, [&](Value v) {
        Operation *owner =
            isa<BlockArgument>(v)
                ? cast<BlockArgument>(v).getOwner()->getParentOp()
                : v.getDefiningOp();
        return erased.contains(owner);
      });
    for (Operation *op : llvm::reverse(ops)) {
      if (!op->use_empty())
        return false;
      op->erase();
    }
    return true;
  }
  /// The operations defining `name`, in program order.
  SmallVector<Operation *> defs(StringRef name) const {
    SmallVector<Operation *> ops;
    auto it = names.find(name);
    if (it != names.end())
      for (Value v : it->second)
        if (Operation *op = v.getDefiningOp())
          ops.push_back(op);
    return ops;
  }
};

/// Parses `text` (a module), recording every value's name.
inline std::unique_ptr<NamedKernel> parseNamed(MLIRContext &ctx,
                                               StringRef text) {
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                        llvm::SMLoc());
  Block block;
  AsmParserState state;
  ParserConfig config(&ctx);
  if (failed(parseAsmSourceFile(sm, &block, config, &state)))
    return nullptr;
  auto kernel = std::make_unique<NamedKernel>();
  auto nameAt = [](llvm::SMRange r) {
    return StringRef(r.Start.getPointer(),
                     r.End.getPointer() - r.Start.getPointer());
  };
  for (const AsmParserState::OperationDefinition &def : state.getOpDefs()) {
    Operation *op = def.op;
    for (auto [g, group] : llvm::enumerate(def.resultGroups)) {
      unsigned start = group.startIndex;
      unsigned end = g + 1 < def.resultGroups.size()
                         ? def.resultGroups[g + 1].startIndex
                         : op->getNumResults();
      StringRef name = nameAt(group.definition.loc);
      kernel->names[name].push_back(op->getResult(start));
      for (unsigned i = start; end - start > 1 && i < end; ++i)
        kernel->names[(name + "#" + Twine(i - start)).str()].push_back(
            op->getResult(i));
    }
  }
  for (const AsmParserState::BlockDefinition &def : state.getBlockDefs())
    for (auto [i, arg] : llvm::enumerate(def.arguments))
      if (arg.loc.isValid())
        kernel->names[nameAt(arg.loc)].push_back(def.block->getArgument(i));
  kernel->module = OwningOpRef<ModuleOp>(cast<ModuleOp>(block.front()));
  kernel->module->getOperation()->remove();
  return kernel;
}

/// The module printed in the generic form (every attribute shown).
inline std::string print(ModuleOp module) {
  std::string s;
  llvm::raw_string_ostream os(s);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  return s;
}

/// Where two printouts first differ, with a few lines of each.
inline std::string firstDifference(StringRef a, StringRef b) {
  SmallVector<StringRef> la, lb;
  a.split(la, '\n');
  b.split(lb, '\n');
  size_t i = 0;
  while (i < la.size() && i < lb.size() && la[i] == lb[i])
    ++i;
  std::string out = "line " + std::to_string(i + 1) + ":\n";
  for (size_t k = i; k < i + 4; ++k)
    out += "  text:  " + (k < la.size() ? la[k].str() : "") + "\n" +
           "  typed: " + (k < lb.size() ? lb[k].str() : "") + "\n";
  return out;
}

/// The values the epilogue reads, by their names, where `at` stands.
inline EpilogueValues valuesAt(const NamedKernel &k, const KernelParams &p,
                               Operation *at) {
  auto get = [&](StringRef name) { return k.lookup(name, at); };
  EpilogueValues v;
  v.c0 = get("%c0");
  v.c1 = get("%c1");
  v.c128 = get("%c128");
  v.ticks = get("%ticks");
  v.t = get("%t");
  v.cid = get("%cid");
  v.ncl = get("%ncl");
  v.bid = get("%bid");
  v.m0 = get("%m0");
  v.n0 = get("%n0");
  v.bIdx = get("%bIdx");
  for (size_t i = 0; i < p.batchShape.size(); ++i)
    v.bIdxs.push_back(get("%bIdx" + std::to_string(i)));
  v.wg = get("%wg");
  v.wg32 = get("%wg32");
  v.wtid = get("%wtid");
  v.pad = get("%pad");
  v.dsm = get("%dsm");
  v.ringAddr = get("%ringAddr");
  v.sizeM = get("%sizeM");
  v.sizeN = get("%sizeN");
  v.C = get("%C");
  v.tmapC = get("%tmapC");
  for (size_t e = 0; e < p.epilogueOperands.size(); ++e) {
    v.E.push_back(get("%E" + std::to_string(e)));
    v.sclE.push_back(get("%sclE" + std::to_string(e)));
  }
  v.tmapE = get("%tmapE");
  v.eBar = get("%eBar");
  v.zero4 = get("%zero4");
  v.cLow = get("%cLow");
  v.sumBase = get("%sumBase");
  v.cSlotStride = get("%cSlotStride");
  return v;
}

/// The dialects a rendered kernel module uses.
inline void loadDialects(MLIRContext &ctx) {
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect, memref::MemRefDialect,
                  nvgpu::NVGPUDialect, scf::SCFDialect,
                  vector::VectorDialect>();
}

/// Rebuilds every piece of the epilogue of the parsed kernel `k` (of the
/// parameters `p`) with the typed functions in place of the text's ops;
/// `check(piece)` runs after each piece and stops the work when false.
/// Returns what went wrong, or an empty string.
inline std::string
substituteTypedEpilogue(NamedKernel &named, const KernelParams &p,
                        llvm::function_ref<bool(StringRef)> check) {
  NamedKernel *k = &named;
  ModuleOp module = *k->module;
  MLIRContext &ctx = *module.getContext();
  const Location loc = UnknownLoc::get(&ctx);
  auto expectSame = check;
  auto gpuModule = *module.getOps<gpu::GPUModuleOp>().begin();
  auto kernel = *gpuModule.getOps<gpu::GPUFuncOp>().begin();

  // The signature: the operands' and the sizes' parameters.
  SmallVector<Type> params = epilogueParamTypes(&ctx, p);
  for (auto [e, type] : llvm::enumerate(params)) {
    std::string name =
        int64_t(e) == p.tmaEpilogueOperand ? "%pE" + std::to_string(e)
        : p.dynamicShape && p.epilogueOperands[e].kind != "scalar"
            ? "%E" + std::to_string(e) + "raw"
            : "%E" + std::to_string(e);
    Value arg = k->lookup(name, &kernel.front().front());
    if (!arg || !isa<BlockArgument>(arg) || arg.getType() != type)
      return "parameter " + name + " differs";
  }
  SmallVector<Type> sizes = dynamicParamTypes(&ctx, p);
  ArrayRef<BlockArgument> args = kernel.getArguments();
  if (sizes.size() > args.size())
    return "too few parameters";
  for (auto [i, type] : llvm::enumerate(sizes))
    if (args[args.size() - sizes.size() + i].getType() != type)
      return "size parameter " + std::to_string(i) + " differs";

  // The declarations of the functions the kernel calls.
  {
    Operation *first = &gpuModule.getBody()->front();
    while (!isa<func::FuncOp, gpu::GPUFuncOp>(first))
      first = first->getNextNode();
    OpBuilder b(first);
    emitEpilogueDecls(b, loc, p);
    if (!k->eraseRange(first, kernel))
      return "a replaced op is still used";
    if (!expectSame("the declarations"))
      return "";
  }

  // The problem's counts and the operands' views.
  {
    Operation *first = k->defs(p.dynamicShape ? "%dSpanM" : "%cNumK").front();
    Operation *end = k->defs("%cid").front();
    OpBuilder b(first);
    auto get = [&](StringRef name) { return k->lookup(name, first); };
    ProblemSizes s =
        emitProblemSizes(b, loc, p, get("%cGroup"), get("%cClSize"),
                         get("%sizeM"), get("%sizeN"), get("%sizeK"));
    SmallVector<Value> raw, strides;
    for (size_t e = 0; e < p.epilogueOperands.size(); ++e) {
      std::string name = "%E" + std::to_string(e);
      raw.push_back(p.dynamicShape && p.epilogueOperands[e].kind != "scalar"
                        ? get(name + "raw")
                    : int64_t(e) == p.tmaEpilogueOperand
                        ? get("%pE" + std::to_string(e))
                        : get(name));
      strides.push_back(get(name + "stride"));
    }
    SmallVector<Value> views = emitEpilogueViews(b, loc, p, raw, get("%sizeM"),
                                                 get("%sizeN"), strides);
    for (auto [name, value] : {std::pair<StringRef, Value>{"%cNumK", s.cNumK},
                               {"%cTilesM", s.cTilesM},
                               {"%cTilesN", s.cTilesN},
                               {"%cPerGroup", s.cPerGroup},
                               {"%cUnits", s.cUnits},
                               {"%cTiles", s.cTiles}})
      k->replace(k->defs(name).front()->getResult(0), value);
    for (auto [e, view] : llvm::enumerate(views))
      if (view.getDefiningOp())
        k->replace(k->defs("%E" + std::to_string(e)).front()->getResult(0),
                   view);
    if (!k->eraseRange(first, end))
      return "a replaced op is still used";
    if (!expectSame("the problem sizes and views"))
      return "";
  }

  // The scalar operands' loads.
  SmallVector<Operation *> scalarLoads;
  for (size_t e = 0; e < p.epilogueOperands.size(); ++e)
    for (Operation *op : k->defs("%sclE" + std::to_string(e)))
      scalarLoads.push_back(op);
  if (!scalarLoads.empty()) {
    Operation *first = scalarLoads.front();
    OpBuilder b(first);
    EpilogueValues v = valuesAt(*k, p, first);
    SmallVector<Value> scalars = emitScalarOperandLoads(b, loc, p, v.E);
    for (auto [e, value] : llvm::enumerate(scalars))
      if (value)
        k->replace(k->defs("%sclE" + std::to_string(e)).front()->getResult(0),
                   value);
    if (!k->eraseRange(first, scalarLoads.back()->getNextNode()))
      return "a replaced op is still used";
    if (!expectSame("the scalar loads"))
      return "";
  }

  // The TMA-loaded operand's prefetch.
  if (p.tmaEpilogueOperand >= 0) {
    Operation *first = k->defs("%epDone").front();
    OpBuilder b(first);
    emitEpilogueOperandPrefetch(b, loc, p, valuesAt(*k, p, first));
    if (!k->eraseRange(first, k->defs("%accU").front()))
      return "a replaced op is still used";
    if (!expectSame("the operand prefetch"))
      return "";
  }

  // The tile epilogues (one per row block), each up to its block's end.
  // (Pack kernels in the module have values of the same names.)
  SmallVector<Operation *> starts = k->defs("%c32");
  llvm::erase_if(starts,
                 [&](Operation *op) { return !kernel->isProperAncestor(op); });
  if (int64_t(starts.size()) != p.rowBlocks)
    return "not one tile epilogue per row block";
  for (auto [rb, first] : llvm::enumerate(starts)) {
    OpBuilder b(first);
    Value acc = k->lookup(p.rowBlocks == 1 ? std::string("%acc")
                                           : "%acc#" + std::to_string(rb),
                          first);
    Value wgIndex = k->lookup(p.rowBlocks == 1 ? "%wg" : "%wgE", first);
    if (!acc || !wgIndex)
      return "no accumulator or row block index";
    emitTileEpilogue(b, loc, p, valuesAt(*k, p, first), acc, wgIndex);
    if (!k->eraseRange(first, first->getBlock()->getTerminator()))
      return "a replaced op is still used";
  }
  expectSame("the tile epilogue");
  return "";
}

} // namespace mlir::tcgen::sm90::epiloguecheck

#endif // TCGEN_UNITTESTS_TARGETS_EPILOGUESUBSTITUTION_H
