//===- SM90MainloopTest.cpp - The typed main loop is the text's -*- C++ -*-===//
//
// This file tests the typed sm90 main loop (Mainloop.h) against the kernel's
// text form: the rendered kernel is parsed with its SSA names recorded, the
// text's main loop (from %accU through the release of the item's last
// stage) is replaced by buildMainLoop's ops on the same kernel-wide values,
// and the module must print exactly as the text alone does.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Mainloop.h"

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
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace mlir::tcgen::sm90;

namespace {

DialectRegistry kernelDialects() {
  DialectRegistry registry;
  registry
      .insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
              LLVM::LLVMDialect, NVVM::NVVMDialect, memref::MemRefDialect,
              nvgpu::NVGPUDialect, scf::SCFDialect, vector::VectorDialect>();
  return registry;
}

std::string printGeneric(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os, OpPrintingFlags().printGenericOpForm());
  return StringRef(s).rtrim().str();
}

/// Expects `a` and `b` to be equal, naming the first line that differs.
void expectSameLines(StringRef a, StringRef b, StringRef what) {
  SmallVector<StringRef> la, lb;
  a.split(la, '\n');
  b.split(lb, '\n');
  for (size_t i = 0; i < std::min(la.size(), lb.size()); ++i)
    if (la[i] != lb[i]) {
      ADD_FAILURE() << what.str() << ": line " << i + 1 << " differs:\n  "
                    << la[i].str() << "\n  " << lb[i].str();
      return;
    }
  EXPECT_EQ(la.size(), lb.size()) << what.str();
}

/// A kernel parsed with its SSA names: every value a name defines.
struct NamedModule {
  llvm::SourceMgr sources;
  Block block;
  AsmParserState state;
  std::multimap<std::string, Value> values;
  std::map<std::string, Operation *> ops; // the last op defining a name

  bool parse(StringRef text, MLIRContext *ctx) {
    sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                               llvm::SMLoc());
    ParserConfig config(ctx);
    if (failed(parseAsmSourceFile(sources, &block, config, &state)))
      return false;
    auto nameOf = [](llvm::SMRange r) {
      StringRef s(r.Start.getPointer(),
                  r.End.getPointer() - r.Start.getPointer());
      return s.drop_front(s.starts_with("%") ? 1 : 0).str();
    };
    for (const AsmParserState::OperationDefinition &def : state.getOpDefs())
      for (const auto &group : def.resultGroups) {
        std::string name = nameOf(group.definition.loc);
        values.emplace(name, def.op->getResult(group.startIndex));
        ops[name] = def.op;
      }
    for (const AsmParserState::BlockDefinition &def : state.getBlockDefs())
      for (auto [i, arg] : llvm::enumerate(def.arguments))
        values.emplace(nameOf(arg.loc), def.block->getArgument(i));
    return true;
  }

  /// The value `name` that is visible at `at`, or null.
  Value lookup(StringRef name, Operation *at, DominanceInfo &dom) {
    auto [lo, hi] = values.equal_range(name.str());
    for (auto it = lo; it != hi; ++it)
      if (dom.properlyDominates(it->second, at))
        return it->second;
    return {};
  }
};

/// Replaces the text's main loop of `m` by the typed one; returns false
/// (with a test failure) where the text's ops cannot be found.
bool substituteMainLoop(NamedModule &m, const KernelParams &p) {
  Operation *begin = m.ops["accU"];
  if (!begin) {
    ADD_FAILURE() << "no %accU";
    return false;
  }
  Operation *end = p.clusterSize() == 1
                       ? m.ops["ltok"]
                       : m.ops["ltokR1"]->getNextNode(); // the inline asm
  DominanceInfo dom;
  auto get = [&](StringRef name) {
    Value v = m.lookup(name, begin, dom);
    EXPECT_TRUE(v) << "no %" << name.str();
    return v;
  };
  MainloopValues v;
  for (auto [field, name] : {std::pair{&v.cStages, "cStages"},
                             {&v.c1, "c1"},
                             {&v.ticks, "ticks"},
                             {&v.full, "full"},
                             {&v.empty, "empty"},
                             {&v.ring, "ring"},
                             {&v.cStageBytesI, "cStageBytesI"},
                             {&v.aSlab, "aSlab"},
                             {&v.cATile, "cATile"},
                             {&v.c4i, "c4i"},
                             {&v.descALoWord, "descALoWord"},
                             {&v.descBLoWord, "descBLoWord"},
                             {&v.descAHiWord, "descAHiWord"},
                             {&v.descBHiWord, "descBHiWord"}})
    *field = get(name);
  for (int64_t rb = 0; p.rowBlocks > 1 && rb < p.rowBlocks; ++rb)
    v.cRowBlock.push_back(get(("cRowBlock" + Twine(rb)).str()));
  if (p.hasPrologue()) {
    v.pRing32 = get("pRing32");
    v.pStageBytes = get("pStageBytes");
  }
  if (p.prologueInRegisters) {
    for (int64_t kk = 0; kk < p.blockK / p.wgmmaK(); ++kk)
      v.raOff.push_back(get(("raOff" + Twine(kk)).str()));
    v.raZero = get("raZero");
    v.raOne = get("raOne");
  }
  if (p.clusterSize() > 1) {
    v.c8bar = get("c8bar");
    v.emptyR0 = get("emptyR0");
    v.emptyR1 = get("emptyR1");
    v.lane32 = get("lane32");
  }
  // The prologue in shared memory belongs to the producer's piece: the
  // text's own ops (from %pS<sfx> through the named barrier) are cloned
  // onto the typed k-tile's stage.
  int prologueCalls = 0;
  v.prologue = [&](OpBuilder &b, Location, Value stage) {
    Operation *op = m.ops[prologueCalls++ == 0 ? "pSf" : "pS"];
    IRMapping map;
    map.map(op->getOperand(0), stage);
    for (;; op = op->getNextNode()) {
      b.clone(*op, map);
      if (isa<NVVM::BarrierOp>(op))
        break;
    }
  };
  Value it0 = get("it0"), len = get("len");
  if (!it0 || !len || !end)
    return false;
  OpBuilder b(begin);
  MainloopResult typed = buildMainLoop(b, begin->getLoc(), p, v, it0, len);
  // The text's results the rest of the kernel reads: the accumulators (the
  // loop's first results) and %itNext.
  Operation *textLoop = nullptr;
  for (Operation *op = begin; op != end->getNextNode(); op = op->getNextNode())
    if (isa<scf::ForOp>(op))
      textLoop = op;
  for (auto [i, acc] : llvm::enumerate(typed.acc))
    textLoop->getResult(i).replaceAllUsesWith(acc);
  // The consumer's %itNext is the last one the text defines.
  m.ops["itNext"]->getResult(0).replaceAllUsesWith(typed.itNext);
  SmallVector<Operation *> textOps;
  for (Operation *op = begin; op != end->getNextNode(); op = op->getNextNode())
    textOps.push_back(op);
  for (Operation *op : llvm::reverse(textOps)) {
    if (!op->use_empty()) {
      ADD_FAILURE() << "a text result is still read: "
                    << op->getName().getStringRef().str();
      return false;
    }
    op->erase();
  }
  return true;
}

/// Renders `p`, substitutes the typed main loop and compares the printouts.
void expectSameAsText(const KernelParams &p, StringRef what) {
  MLIRContext ctx(kernelDialects());
  std::string text = renderKernelModule(p);
  OwningOpRef<ModuleOp> reference =
      parseSourceString<ModuleOp>(text, ParserConfig(&ctx));
  ASSERT_TRUE(reference) << what.str();
  NamedModule typed;
  ASSERT_TRUE(typed.parse(text, &ctx)) << what.str();
  ASSERT_TRUE(substituteMainLoop(typed, p)) << what.str();
  auto module = cast<ModuleOp>(typed.block.front());
  ASSERT_TRUE(succeeded(verify(module))) << what.str();
  expectSameLines(printGeneric(*reference), printGeneric(module), what);
}

KernelParams baseParams() {
  KernelParams p;
  p.name = "k";
  p.m = 1024;
  p.n = 1024;
  p.k = 1024;
  return p;
}

TEST(SM90Mainloop, SharedMemoryOperands) {
  for (const char *type : {"f16", "bf16"})
    for (bool aMN : {false, true})
      for (bool bK : {false, true}) {
        KernelParams p = baseParams();
        p.inType = type;
        p.aMNMajor = aMN;
        p.bKMajor = bK;
        expectSameAsText(
            p, (Twine(type) + " aMN " + Twine(aMN) + " bK " + Twine(bK)).str());
      }
}

TEST(SM90Mainloop, Tf32AndFp8) {
  KernelParams p = baseParams();
  p.inType = "tf32";
  p.blockK = 32;
  p.bKMajor = true;
  expectSameAsText(p, "tf32");
  for (const char *fp8 : {"e4m3", "e5m2"}) {
    p.inType = fp8;
    p.blockK = 128;
    expectSameAsText(p, fp8);
  }
}

TEST(SM90Mainloop, RowBlocks) {
  KernelParams p = baseParams();
  p.blockM = 192;
  p.blockN = 96;
  p.rowBlocks = 3;
  expectSameAsText(p, "192x96, 3 row blocks");
}

TEST(SM90Mainloop, ClusterReleasesBothBlocks) {
  KernelParams p = baseParams();
  p.clusterM = 2;
  expectSameAsText(p, "2x1 cluster");
  p.clusterM = 1;
  p.clusterN = 2;
  expectSameAsText(p, "1x2 cluster");
}

TEST(SM90Mainloop, StreamK) {
  KernelParams p = baseParams();
  p.streamK = true;
  expectSameAsText(p, "stream-K");
}

TEST(SM90Mainloop, SizesAtRunTimeSecondProductAndBatch) {
  KernelParams p = baseParams();
  p.dynamicShape = true;
  p.tmaStore = true;
  expectSameAsText(p, "sizes at run time");
  p = baseParams();
  p.k2 = 512;
  expectSameAsText(p, "add(gemm, gemm)");
  p = baseParams();
  p.batched = true;
  p.batch = 3;
  expectSameAsText(p, "batch of 3");
}

TEST(SM90Mainloop, SharedMemoryPrologue) {
  KernelParams p = baseParams();
  p.prologueA = true;
  expectSameAsText(p, "prologue on A");
  p.prologueA = false;
  p.prologueB = true;
  expectSameAsText(p, "prologue on B");
}

TEST(SM90Mainloop, RegisterAPrologue) {
  for (bool aMN : {false, true}) {
    KernelParams p = baseParams();
    p.inType = aMN ? "bf16" : "f16";
    p.prologueA = true;
    p.prologueInRegisters = true;
    p.aMNMajor = aMN;
    p.blockN = 192;
    expectSameAsText(p, aMN ? "register A, bf16 [k][m]"
                            : "register A, f16 [m][k]");
  }
}

} // namespace
