//===- linalg_fuzzer.cpp - libFuzzer target: the compiler's front end -----===//
//
// This file implements a libFuzzer target for the front of tcgen's compiler:
// it parses an MLIR module (every upstream dialect and tcgen's registered,
// as tcgen and tcgen-opt do), attaches #tcgen.target, runs contraction
// recognition (isContractionCandidate, analyzeContraction) on every linalg
// op, then the front of the pipeline (buildTCGenConfigurePipeline: fusion
// of pointwise ops, bufferization, dimension collapsing, tcgen-configure).
// Diagnostics are swallowed: the property is no crash, no hang and no
// sanitizer report, not acceptance. Text that crashes upstream MLIR's own
// parser (hasUpstreamParserCrash) is not parsed.
//
// An input that parses as MLIR is taken as it is, compiled for sm_90a with
// the default options. Any other input is read as bytes from which a
// contraction is derived: linalg.matmul, linalg.batch_matmul or a
// linalg.generic, on tensors or memrefs, with random element types, sizes
// (static, dynamic, 0 or 1), operand layouts, an accumulating or zero-filled
// C, a bias and relu epilogue (sometimes times a second product of A from
// the same fill: a dual GEMM), then a random target and random pipeline
// options (back end, tiles, stages, cluster, swap, ...), the way a user
// would pass them to `tcgen compile`.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {
/// One context for the whole run: creating one per input (every dialect
/// registered) would take most of the time. The passes are registered, as
/// in tcgen, for the pipeline's textual parts.
MLIRContext &getContext() {
  static MLIRContext *context = [] {
    registerAllPasses();
    tcgen::registerAllTCGenPasses();
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registry.insert<tcgen::TCGenDialect>();
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    ctx->printOpOnDiagnostic(false);
    return ctx;
  }();
  return *context;
}

/// An element type of the generated contraction and what its arithmetic is.
struct ElementType {
  const char *name;
  bool isFloat;
  int bits;
};

constexpr ElementType kTypes[] = {
    {"f16", true, 16}, {"bf16", true, 16},    {"f32", true, 32},
    {"f64", true, 64}, {"f8E4M3FN", true, 8}, {"f8E5M2", true, 8},
    {"i8", false, 8},  {"i32", false, 32},    {"i1", false, 1}};

/// `value` of type `from` converted to `to` in a region, as arith spells
/// it; appends the op to `body` and returns the new value's name.
std::string cast(std::string &body, const std::string &value,
                 const ElementType &from, const ElementType &to,
                 const std::string &name) {
  const char *op = nullptr;
  if (std::string(from.name) == to.name)
    return value;
  if (from.isFloat && to.isFloat)
    op = from.bits < to.bits ? "arith.extf" : "arith.truncf";
  else if (!from.isFloat && !to.isFloat)
    op = from.bits < to.bits ? "arith.extsi" : "arith.trunci";
  else
    op = from.isFloat ? "arith.fptosi" : "arith.sitofp";
  body += "    %" + name + " = " + op + " " + value + " : " + from.name +
          " to " + to.name + "\n";
  return "%" + name;
}

/// A dimension size: mostly typical ones, at times 0, 1 or dynamic.
std::string pickDim(FuzzedDataProvider &fdp, bool allowDynamic) {
  static constexpr const char *kDims[] = {
      "1",   "2",    "8",    "16",   "17", "64",   "100",  "128",
      "256", "1000", "1024", "4096", "0",  "8191", "65536"};
  if (allowDynamic && fdp.ConsumeIntegralInRange(0, 5) == 0)
    return "?";
  return fdp.PickValueInArray(kDims);
}

/// The shaped type of dimensions `dims` (indices into `sizes`).
std::string shapedType(bool tensor, const std::vector<std::string> &sizes,
                       const std::vector<int> &dims, const char *element) {
  std::string s = tensor ? "tensor<" : "memref<";
  for (int d : dims)
    s += sizes[d] + "x";
  return s + element + ">";
}

/// affine_map<(d0, ..) -> (dims)> over `rank` loop dimensions.
std::string affineMap(int rank, const std::vector<int> &dims) {
  std::string s = "affine_map<(";
  for (int i = 0; i < rank; ++i)
    s += (i ? ", d" : "d") + std::to_string(i);
  s += ") -> (";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", d" : "d") + std::to_string(dims[i]);
  return s + ")>";
}

/// A module with one contraction derived from the bytes.
std::string deriveModule(FuzzedDataProvider &fdp) {
  const ElementType &in = fdp.PickValueInArray(kTypes);
  const ElementType &in2 =
      fdp.ConsumeIntegralInRange(0, 7) == 0 ? fdp.PickValueInArray(kTypes) : in;
  const ElementType &out = fdp.PickValueInArray(kTypes);
  bool tensor = fdp.ConsumeBool();
  bool batched = fdp.ConsumeIntegralInRange(0, 3) == 0;
  bool accumulate = fdp.ConsumeBool();
  bool allowDynamic = fdp.ConsumeIntegralInRange(0, 3) == 0;
  // Loop dimensions: [b,] m, n, k.
  int b = batched ? 0 : -1, m = b + 1, n = m + 1, k = n + 1, rank = k + 1;
  std::vector<std::string> sizes;
  if (batched)
    sizes.push_back(pickDim(fdp, allowDynamic));
  for (int i = 0; i < 3; ++i)
    sizes.push_back(pickDim(fdp, allowDynamic));
  auto withBatch = [&](std::vector<int> dims) {
    if (batched)
      dims.insert(dims.begin(), b);
    return dims;
  };
  std::vector<int> aDims = withBatch(
      fdp.ConsumeBool() ? std::vector<int>{m, k} : std::vector<int>{k, m});
  std::vector<int> bDims = withBatch(
      fdp.ConsumeBool() ? std::vector<int>{k, n} : std::vector<int>{n, k});
  std::vector<int> cDims =
      withBatch(fdp.ConsumeIntegralInRange(0, 3) ? std::vector<int>{m, n}
                                                 : std::vector<int>{n, m});
  std::string ta = shapedType(tensor, sizes, aDims, in.name);
  std::string tb = shapedType(tensor, sizes, bDims, in2.name);
  std::string tc = shapedType(tensor, sizes, cDims, out.name);
  bool epilogue = out.isFloat && fdp.ConsumeIntegralInRange(0, 2) == 0;
  std::string tbias = shapedType(tensor, sizes, {n}, out.name);
  // A dual GEMM: a second product of A and B2 from the same zero fill, which
  // the consumer reads beside the first (tensors only: on memrefs both
  // would write C).
  bool dual = epilogue && tensor && !accumulate &&
              fdp.ConsumeIntegralInRange(0, 3) == 0;

  std::string s = "func.func @f(%A: " + ta + ", %B: " + tb + ", %C: " + tc;
  if (dual)
    s += ", %B2: " + tb;
  if (epilogue)
    s += ", %bias: " + tbias;
  s += ")" + (tensor ? " -> " + tc : std::string()) + " {\n";
  std::string zero = out.isFloat ? "0.0" : "0";
  s += "  %zero = arith.constant " + zero + " : " + out.name + "\n";
  std::string init = "%C";
  if (!accumulate) {
    s += std::string("  ") + (tensor ? "%init = " : "") +
         "linalg.fill ins(%zero : " + out.name + ") outs(%C : " + tc + ")" +
         (tensor ? " -> " + tc : "") + "\n";
    if (tensor)
      init = "%init";
  }
  std::string maps = "indexing_maps = [" + affineMap(rank, aDims) + ", " +
                     affineMap(rank, bDims) + ", " + affineMap(rank, cDims) +
                     "]";
  int form = fdp.ConsumeIntegralInRange(0, 2);
  bool namedMaps = form == 0 && cDims == withBatch({m, n}) && fdp.ConsumeBool();
  for (const char *bName : {"%B", "%B2"}) {
  if (std::string(bName) == "%B2" && !dual)
    break;
  std::string result = !tensor ? "" : dual && bName[2] ? "%D2 = " : "%D = ";
  std::string ins = std::string("ins(%A, ") + bName + " : " + ta + ", " + tb +
                    ") outs(" + init + " : " + tc + ")" +
                    (tensor ? " -> " + tc : "");
  if (form == 0 && cDims == withBatch({m, n})) {
    // A named op; its own body converts the element types.
    s += "  " + result + (batched ? "linalg.batch_matmul " : "linalg.matmul ");
    if (namedMaps)
      s += maps + " ";
    s += ins + "\n";
  } else {
    std::string iterators = "iterator_types = [";
    for (int i = 0; i < rank; ++i)
      iterators += i == k ? "\"reduction\"" : "\"parallel\", ";
    s += "  " + result + "linalg.generic {" + maps + ", " + iterators + "]} " +
         ins + " {\n  ^bb0(%a: " + in.name + ", %b: " + in2.name +
         ", %c: " + out.name + "):\n";
    std::string body;
    std::string a = cast(body, "%a", in, out, "a1");
    std::string bb = cast(body, "%b", in2, out, "b1");
    const char *mul = out.isFloat ? "arith.mulf" : "arith.muli";
    const char *add = out.isFloat ? "arith.addf" : "arith.addi";
    body += std::string("    %p = ") + mul + " " + a + ", " + bb + " : " +
            out.name + "\n    %s = " + add + " %c, %p : " + out.name +
            "\n    linalg.yield %s : " + out.name + "\n  }\n";
    s += body;
  }
  }
  std::string last = tensor ? "%D" : "%C";
  if (epilogue) {
    // C = max(C + bias[n], 0), a pointwise consumer the front end fuses.
    std::vector<int> ids = cDims;
    std::string pointwise;
    for (int i = 0; i < rank - 1; ++i)
      pointwise += std::string(i ? ", " : "") + "\"parallel\"";
    // The consumer's loops are C's dimensions, in C's order.
    std::vector<int> loop;
    for (size_t i = 0; i < ids.size(); ++i)
      loop.push_back(int(i));
    int biasDim = int(std::find(ids.begin(), ids.end(), n) - ids.begin());
    // With a dual GEMM: max(C + bias[n], 0) * D2.
    std::string second = dual ? ", " + affineMap(rank - 1, loop) : "";
    s += std::string("  ") + (tensor ? "%E = " : "") +
         "linalg.generic {indexing_maps = [" + affineMap(rank - 1, loop) +
         ", " + affineMap(rank - 1, {biasDim}) + second + ", " +
         affineMap(rank - 1, loop) + "], iterator_types = [" + pointwise +
         "]} ins(" + last + ", %bias" + (dual ? ", %D2" : "") + " : " + tc +
         ", " + tbias + (dual ? ", " + tc : "") + ") outs(" + last + " : " +
         tc + ")" + (tensor ? " -> " + tc : "") + " {\n  ^bb0(%x: " +
         out.name + ", %y: " + out.name +
         (dual ? std::string(", %x2: ") + out.name : std::string()) + ", %o: " + out.name +
         "):\n    %t = arith.addf %x, %y : " + out.name +
         (dual ? std::string("\n    %r0 = arith.maximumf %t, %zero : ") + out.name +
                     "\n    %r = arith.mulf %r0, %x2 : " + out.name
               : std::string("\n    %r = arith.maximumf %t, %zero : ") + out.name) +
         "\n    linalg.yield %r : " + out.name + "\n  }\n";
    if (tensor)
      last = "%E";
  }
  s += tensor ? "  return " + last + " : " + tc + "\n}\n" : "  return\n}\n";
  return s;
}

/// Pipeline options a user could pass to `tcgen compile`, from the bytes.
void deriveOptions(FuzzedDataProvider &fdp,
                   tcgen::TCGenPipelineOptions &options) {
  options.backend = std::string(
      fdp.PickValueInArray({"", "", "sm90", "sm80", "wmma", "simt", "x"}));
  if (fdp.ConsumeBool())
    return;
  auto pick = [&](std::initializer_list<int64_t> values) {
    return values
        .begin()[fdp.ConsumeIntegralInRange<size_t>(0, values.size() - 1)];
  };
  if (fdp.ConsumeBool())
    options.blockTile =
        SmallVector<int64_t>{pick({0, 16, 64, 128, 256}),
                             pick({16, 64, 96, 128, 256}), pick({16, 32, 64})};
  if (fdp.ConsumeBool())
    options.warpTile = SmallVector<int64_t>{pick({16, 32, 64}),
                                            pick({16, 32, 64}), pick({16, 32})};
  options.stages = pick({-1, -1, 0, 1, 2, 4, 7});
  options.padding = pick({-1, -1, 0, 8, 3});
  options.vector = pick({-1, -1, 1, 4, 8, 3});
  options.raster = pick({-1, -1, 0, 1, 8});
  options.persistent = int(pick({-1, 0, 1}));
  options.streamK = int(pick({-1, 0, 1}));
  options.swap = int(pick({-1, 0, 1}));
  if (fdp.ConsumeBool())
    options.cluster = SmallVector<int64_t>{pick({1, 2, 4, 3}), pick({1, 2})};
  options.store = std::string(fdp.PickValueInArray({"", "global", "tma", "x"}));
  options.allowTf32 = fdp.ConsumeBool();
  options.fuse = fdp.ConsumeIntegralInRange(0, 3) != 0;
  options.modelRank = pick({0, 0, 1, 5, 1000});
  // The sm90 decisions (config fields), a bad value among them.
  options.pack = std::string(
      fdp.PickValueInArray({"", "", "always", "never", "a", "async", "x"}));
  options.prologue =
      std::string(fdp.PickValueInArray({"", "", "regs", "smem", "pack"}));
  options.epilogueLoads =
      std::string(fdp.PickValueInArray({"", "", "fragments", "tma", "x"}));
  options.epilogueInHalf = fdp.ConsumeBool();
}

/// Recognition, then the front of the pipeline, on `module`.
void compileFront(ModuleOp module, StringRef arch,
                  const tcgen::TCGenPipelineOptions &options) {
  MLIRContext &ctx = getContext();
  auto target = tcgen::TargetAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&ctx)); }, &ctx, arch);
  if (!target)
    return;
  module->setAttr(tcgen::kTargetAttrName, target);
  module->walk([](Operation *op) {
    if (!tcgen::isContractionCandidate(op))
      return;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      (void)tcgen::analyzeContraction(linalgOp);
  });
  PassManager pm(&ctx);
  tcgen::buildTCGenConfigurePipeline(pm, options);
  (void)pm.run(module);
}

/// Whether `text` has a known crash of the upstream MLIR 22 parser, outside
/// tcgen: linalg.broadcast, linalg.transpose (and the other ops whose
/// `dimensions` or `permutation` is parsed the same way) dereference a null
/// attribute when what follows the `=` is not a well-formed integer list
/// (`dimensions =([0]`, `permutation = [1, 0x]`, `permutation = [1, ]`). tcgen-opt and tcgen crash
/// the same way on such text; the target skips it to go on fuzzing.
bool hasUpstreamParserCrash(StringRef text) {
  for (StringRef keyword : {"dimensions", "permutation"}) {
    for (size_t at = text.find(keyword); at != StringRef::npos;
         at = text.find(keyword, at + 1)) {
      StringRef rest = text.drop_front(at + keyword.size()).ltrim();
      if (!rest.consume_front("="))
        continue;
      rest = rest.ltrim();
      if (!rest.consume_front("["))
        return true;
      size_t close = rest.find(']');
      if (close == StringRef::npos)
        return true;
      // Each element an integer (`[1, ]` and `[1,,0]` crash too).
      StringRef list = rest.take_front(close).trim();
      if (list.empty())
        continue;
      SmallVector<StringRef> elements;
      list.split(elements, ',');
      for (StringRef element : elements) {
        element = element.trim();
        element.consume_front("-");
        if (element.empty() ||
            element.find_first_not_of("0123456789") != StringRef::npos)
          return true;
      }
    }
  }
  return false;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = getContext();
  ScopedDiagnosticHandler swallow(&ctx, [](Diagnostic &) { return success(); });
  std::string text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&ctx);
  tcgen::TCGenPipelineOptions options;
  std::string arch = "sm_90a";
  OwningOpRef<ModuleOp> module;
  if (!hasUpstreamParserCrash(text))
    module = parseSourceString<ModuleOp>(text, config);
  if (!module) {
    FuzzedDataProvider fdp(data, size);
    std::string derived = deriveModule(fdp);
    arch = fdp.PickValueInArray({"sm_90a", "sm_90a", "sm_80", "sm_86", "sm_75",
                                 "sm_70", "sm_100a", "sm_89", "sm_90", "sm_1"});
    deriveOptions(fdp, options);
    // To see what an input compiles: TCGEN_FUZZ_PRINT=1 linalg_fuzzer FILE.
    if (std::getenv("TCGEN_FUZZ_PRINT")) {
      llvm::errs() << "// target " << arch << ", options: ";
      options.print(llvm::errs());
      llvm::errs() << "\n" << derived;
    }
    module = parseSourceString<ModuleOp>(derived, config);
    if (!module) {
      // The generator's own output must parse unless a type combination is
      // invalid (a named op whose body cannot convert its element types).
      return 0;
    }
  }
  compileFront(*module, arch, options);
  return 0;
}
