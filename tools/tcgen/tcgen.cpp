//===- tcgen.cpp - The tcgen command-line tool ------------------*- C++ -*-===//
//
// This file implements the user CLI:
//   tcgen compile INPUT.mlir --target=sm_90a -o DIR   (kernel bundle)
//   tcgen compile --einsum mk,kn->mn --sizes ... -o DIR  (from a spec)
//   tcgen explain INPUT.mlir [--print-ir-after-all]    (config and IR)
//   tcgen tune INPUT.mlir -o DIR | tcgen tune --import DIR...  (autotuner)
//   tcgen reschedule KERNEL.cu --kernel NAME -o DIR    (raise a CUDA kernel)
//   tcgen run DIR --check | tcgen bench DIR...         (forwarded to tcgen-gpu)
//
//===----------------------------------------------------------------------===//

#include "Batch.h"
#include "Reschedule.h"
#include "SpecOptions.h"
#include "Tune.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Driver/Driver.h"
#include "tcgen/Frontend/Generate.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Reschedule/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::SubCommand
    compileCmd("compile", "Compile linalg contractions to kernel bundles");
static cl::SubCommand
    explainCmd("explain",
               "Print the chosen configuration and the IR of every stage");

static cl::SubCommand genCmd(
    "gen-problems",
    "Write a batch file of random problems (specs) for tcgen compile --batch");

static cl::SubCommand tuneCmd(
    "tune", "Compile the model's top candidates, measure them, keep the "
            "fastest in the tuning cache");

static cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<input.mlir> (or --einsum ...)"),
              cl::Optional, cl::sub(compileCmd), cl::sub(explainCmd));
// The problem as an einsum spec instead of an input file (SpecOptions.cpp;
// the grammar is in docs/USER-GUIDE.md).
static cl::opt<std::string> specEinsum(
    "einsum",
    cl::desc("The problem as an einsum instead of an input file: A's, B's "
             "and C's indices, e.g. mk,kn->mn or bmk,bnk->bmn (indices C "
             "lacks are summed over)"),
    cl::value_desc("a,b->c"), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> specSizes(
    "sizes",
    cl::desc("With --einsum: the size of every index, e.g. m=3072,n=4096,"
             "k=1024 (? for a size known at launch)"),
    cl::value_desc("i=N,..."), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> specDtypes(
    "dtypes",
    cl::desc("With --einsum: dtypes of a, b, c, acc (the accumulator) and "
             "epilogue operands, e.g. a=bf16,b=bf16,c=bf16,bias=f32 "
             "(default: a and b f16, c f32, operands c's)"),
    cl::value_desc("name=type,..."), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> specEpilogue(
    "epilogue",
    cl::desc("With --einsum: C per element from acc (the contraction "
             "result) and operands read at C's indices, e.g. "
             "\"gelu_tanh(acc + bias[n]) + res[m,n]\""),
    cl::value_desc("expr"), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> specBlockScales(
    "block-scales",
    cl::desc("With --einsum: block-scaled fp8 (DeepSeek-V3's recipe): f32 "
             "scales sa of 1x128 blocks of A and sb of 128x128 blocks of B, "
             "function arguments after A and B: a=1x128,b=128x128"),
    cl::value_desc("a=1x128,b=128x128"), cl::sub(compileCmd),
    cl::sub(explainCmd));
static cl::opt<bool>
    specAccumulate("accumulate",
                   cl::desc("With --einsum: C += A B instead of C = A B"),
                   cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string>
    specName("name",
             cl::desc("With --einsum: the function's name, which names the "
                      "kernels (default: einsum)"),
             cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> specGroup(
    "group",
    cl::desc("With --einsum: a grouped product (mixtures of experts): the "
             "index of b that picks a group, e.g. g in tk,gnk->tn; the "
             "function takes the groups' row offsets (G + 1 integers) "
             "before C"),
    cl::value_desc("index"), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> batchFile(
    "batch",
    cl::desc("Compile every problem of FILE (a line each: NAME, then tcgen "
             "compile's options: a spec or an input file) into DIR/NAME in "
             "parallel, or with option sets (@set lines) into DIR/SET/NAME; "
             "a summary in DIR/batch.tsv. Options given with --batch apply "
             "to every problem"),
    cl::value_desc("FILE"), cl::sub(compileCmd));
static cl::opt<std::string> batchSubset(
    "subset",
    cl::desc("With --batch: compile only the problems of the file's subset "
             "NAME (its @subset lines)"),
    cl::value_desc("NAME"), cl::init(""), cl::sub(compileCmd));
static cl::opt<unsigned>
    batchJobs("j",
              cl::desc("With --batch: problems compiled at once (default: "
                       "the host's threads)"),
              cl::init(0), cl::sub(compileCmd));
static cl::opt<uint64_t> genSeed("seed",
                                 cl::desc("The generator's seed (default 1)"),
                                 cl::init(1), cl::sub(genCmd));
static cl::opt<unsigned> genCount("count",
                                  cl::desc("Problems to write (default 100)"),
                                  cl::init(100), cl::sub(genCmd));
static cl::list<std::string> genKinds(
    "kinds",
    cl::desc("Features to draw (default: all but grouped and dual): "
             "layout, batch, contract2, dtype, epilogue, prologue, "
             "accumulate, dynamic, config, blockscale (block-scaled fp8), "
             "grouped (grouped products) and dual (dual GEMMs), each of the "
             "last two only where named"),
    cl::CommaSeparated, cl::sub(genCmd));
static cl::opt<int64_t> genMaxFlops(
    "max-flops",
    cl::desc("The most multiply-adds (batch x M x N x K) of a problem "
             "(default 2^28)"),
    cl::init(int64_t(1) << 28), cl::sub(genCmd));
static cl::opt<std::string> genOutput("o",
                                      cl::desc("Output file (default: stdout)"),
                                      cl::value_desc("file"), cl::init("-"),
                                      cl::sub(genCmd));
static cl::list<std::string>
    tuneInputs(cl::Positional, cl::desc("<input.mlir> | --import <dir>..."),
               cl::OneOrMore, cl::sub(tuneCmd));
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"),
                                      cl::sub(compileCmd), cl::sub(tuneCmd));
static cl::opt<std::string>
    targetArch("target", cl::desc("GPU architecture (sm_80, sm_90a)"),
               cl::init("sm_90a"), cl::sub(compileCmd), cl::sub(explainCmd),
               cl::sub(tuneCmd));
static cl::opt<unsigned>
    topCandidates("top",
                  cl::desc("Candidates of the model to show (explain, default "
                           "8) or to compile and measure (tune, default 8; 0: "
                           "all)"),
                  cl::init(8), cl::sub(explainCmd), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneJobs(
    "jobs", cl::desc("Candidates compiled at once (default: the host's threads)"),
    cl::init(0), cl::sub(tuneCmd));
static cl::opt<bool> importTuned(
    "import",
    cl::desc("Read the measurements of tune directories (DIR/tune.tsv and "
             "DIR/measured.csv), keep each fastest in --tuning-cache and "
             "calibrate the model"),
    cl::sub(tuneCmd));
static cl::opt<bool> noMeasure(
    "no-measure",
    cl::desc("Only compile the candidates (measure them elsewhere with "
             "tcgen-gpu tune DIR)"),
    cl::sub(tuneCmd));
static cl::opt<std::string>
    tuneBudget("budget",
               cl::desc("Seconds of GPU time for measuring (tcgen-gpu tune "
                        "--budget; default 3)"),
               cl::init(""), cl::sub(tuneCmd));
static cl::opt<std::string> emitKind(
    "emit",
    cl::desc("cubin (default), ptx, or mlir (print the linalg module that "
             "is compiled, from the input or the spec, and stop)"),
    cl::init("cubin"), cl::sub(compileCmd));
// The compiler's options (Options.def): a flag for each configuration
// option and switch, on the subcommands its role names.
#define TCGEN_CLI_DECLARE_Opt(FIELD, FLAG, TYPE, INIT, DESC, ...)             \
  static cl::opt<TYPE> FIELD##Flag(FLAG, cl::desc(DESC), cl::init(INIT),      \
                                   __VA_ARGS__);
#define TCGEN_CLI_DECLARE_List(FIELD, FLAG, TYPE, INIT, DESC, ...)            \
  static cl::list<TYPE> FIELD##Flag(FLAG, cl::desc(DESC), cl::CommaSeparated, \
                                    __VA_ARGS__);
#define TCGEN_CLI_Tiling(KIND, FIELD, FLAG, TYPE, INIT, DESC)                 \
  TCGEN_CLI_DECLARE_##KIND(FIELD, FLAG, TYPE, INIT, DESC, cl::sub(compileCmd), \
                           cl::sub(explainCmd))
#define TCGEN_CLI_TunedTiling(KIND, FIELD, FLAG, TYPE, INIT, DESC)            \
  TCGEN_CLI_DECLARE_##KIND(FIELD, FLAG, TYPE, INIT, DESC, cl::sub(compileCmd), \
                           cl::sub(explainCmd), cl::sub(tuneCmd))
#define TCGEN_CLI_Decision(KIND, FIELD, FLAG, TYPE, INIT, DESC)               \
  TCGEN_CLI_TunedTiling(KIND, FIELD, FLAG, TYPE, INIT, DESC)
#define TCGEN_CLI_Source(KIND, FIELD, FLAG, TYPE, INIT, DESC)                 \
  TCGEN_CLI_TunedTiling(KIND, FIELD, FLAG, TYPE, INIT, DESC)
// --prologue is declared below (it takes a spec's expressions too).
#define TCGEN_CLI_SpecDecision(KIND, FIELD, FLAG, TYPE, INIT, DESC)
#define TCGEN_CLI_Internal(KIND, FIELD, FLAG, TYPE, INIT, DESC)
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  TCGEN_CLI_##ROLE(KIND, FIELD, FLAG, TYPE, INIT, DESC)
#define TCGEN_SWITCH_Step(FIELD, CLI_FLAG, CLI_DESC)                          \
  static cl::opt<bool> FIELD##Switch(CLI_FLAG, cl::desc(CLI_DESC),            \
                                     cl::sub(compileCmd), cl::sub(explainCmd));
#define TCGEN_SWITCH_Fusion(FIELD, CLI_FLAG, CLI_DESC)                        \
  static cl::opt<bool> FIELD##Switch(CLI_FLAG, cl::desc(CLI_DESC),            \
                                     cl::sub(compileCmd), cl::sub(explainCmd), \
                                     cl::sub(tuneCmd));
#define TCGEN_SWITCH_Internal(FIELD, CLI_FLAG, CLI_DESC)
#define TCGEN_PIPELINE_SWITCH(FIELD, FLAG, INIT, DESC, CLI_FLAG, ROLE,        \
                              CLI_DESC)                                       \
  TCGEN_SWITCH_##ROLE(FIELD, CLI_FLAG, CLI_DESC)
#include "tcgen/Pipelines/Options.def"
static cl::list<std::string> prologueValues(
    "prologue",
    cl::desc("With --einsum: a pointwise producer of a or b, e.g. relu(a) "
             "(once per operand). Else, or as well, sm90: where a fused "
             "prologue is applied: regs (on A, in registers: ldmatrix and "
             "wgmma's register-A form), smem (on each tile in shared "
             "memory), pack (once, by a pack kernel into a copy) or auto "
             "(default: regs where it applies, else smem while each tile is "
             "read by at most 8 output tiles, else pack)"),
    cl::value_desc("expr|auto|regs|smem|pack"), cl::sub(compileCmd),
    cl::sub(explainCmd), cl::sub(tuneCmd));
/// --prologue's placement (the last one given; empty: none) and its spec
/// expressions.
static std::string prologueMode;
static std::vector<std::string> prologueExprs;
static cl::opt<bool> allowSpills(
    "allow-spills",
    cl::desc("Write bundles whose kernels spill or serialize wgmma"),
    cl::sub(compileCmd));
static cl::opt<bool> printAfterAll("print-ir-after-all",
                                   cl::desc("Print the IR after every pass"),
                                   cl::sub(compileCmd), cl::sub(explainCmd));

/// Runs tcgen-gpu (next to this binary) with `args`: the GPU side of the
/// tool has no MLIR and lives in its own binary.
static int forwardToGpuTool(const char *argv0, ArrayRef<const char *> args) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&forwardToGpuTool));
  llvm::SmallString<256> tool(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(tool, "tcgen-gpu");
  if (!llvm::sys::fs::can_execute(tool)) {
    llvm::errs() << "tcgen: " << args.front()
                 << " needs tcgen-gpu (built with the CUDA toolkit) next to "
                    "tcgen; not found at "
                 << tool << "\n";
    return 1;
  }
  SmallVector<StringRef> forwarded = {tool};
  for (const char *a : args)
    forwarded.push_back(a);
  std::string err;
  int rc =
      llvm::sys::ExecuteAndWait(tool, forwarded, std::nullopt, {}, 0, 0, &err);
  if (rc < 0)
    llvm::errs() << "tcgen: could not run tcgen-gpu: " << err << "\n";
  return rc < 0 ? 1 : rc;
}

/// A pipeline option's value from its flag.
template <typename To, typename T>
static void setOption(To &to, const cl::opt<T> &from) {
  to = from.getValue();
}
template <typename To, typename T>
static void setOption(To &to, const cl::list<T> &from) {
  to = SmallVector<T>(from.begin(), from.end());
}

/// Whether a flag was set to other than its default.
template <typename T, typename I>
static bool isSet(const cl::opt<T> &flag, const I &init) {
  return flag.getValue() != T(init);
}
template <typename T, typename I>
static bool isSet(const cl::list<T> &flag, const I &) {
  return !flag.empty();
}

/// The pipeline options of the command line (Options.def).
static void setPipelineOptions(mlir::tcgen::TCGenPipelineOptions &options) {
#define TCGEN_SET_Tiling(FIELD) setOption(options.FIELD, FIELD##Flag);
#define TCGEN_SET_TunedTiling(FIELD) TCGEN_SET_Tiling(FIELD)
#define TCGEN_SET_Decision(FIELD) TCGEN_SET_Tiling(FIELD)
#define TCGEN_SET_Source(FIELD) TCGEN_SET_Tiling(FIELD)
#define TCGEN_SET_SpecDecision(FIELD) options.FIELD = FIELD##Mode;
#define TCGEN_SET_Internal(FIELD)
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  TCGEN_SET_##ROLE(FIELD)
#define TCGEN_SWITCH_SET_Step(FIELD, INIT)                                    \
  options.FIELD = FIELD##Switch ? !(INIT) : (INIT);
#define TCGEN_SWITCH_SET_Fusion(FIELD, INIT) TCGEN_SWITCH_SET_Step(FIELD, INIT)
#define TCGEN_SWITCH_SET_Internal(FIELD, INIT)
#define TCGEN_PIPELINE_SWITCH(FIELD, FLAG, INIT, DESC, CLI_FLAG, ROLE,        \
                              CLI_DESC)                                       \
  TCGEN_SWITCH_SET_##ROLE(FIELD, INIT)
#include "tcgen/Pipelines/Options.def"
}

/// Appends `--FLAG=VALUE` (`--FLAG` for a bool) to `out` where the flag is
/// set.
template <typename T, typename I>
static void forwardFlag(std::vector<std::string> &out, StringRef flag,
                        const cl::opt<T> &value, const I &init) {
  if (!isSet(value, init))
    return;
  if constexpr (std::is_same_v<T, bool>)
    out.push_back(("--" + flag).str());
  else if constexpr (std::is_same_v<T, std::string>)
    out.push_back(("--" + flag + "=" + value.getValue()).str());
  else
    out.push_back(("--" + flag + "=" + Twine(value.getValue())).str());
}
template <typename T, typename I>
static void forwardFlag(std::vector<std::string> &out, StringRef flag,
                        const cl::list<T> &values, const I &) {
  if (values.empty())
    return;
  std::string joined;
  for (const T &v : values)
    joined += (joined.empty() ? "" : ",") + Twine(v).str();
  out.push_back(("--" + flag + "=" + joined).str());
}

/// The flags `tcgen tune` passes on to every candidate it compiles: the
/// decisions and fusion switches given (Options.def).
static std::vector<std::string> tuneForwardedFlags() {
  std::vector<std::string> out;
#define TCGEN_FORWARD_Tiling(FIELD, FLAG, INIT)
#define TCGEN_FORWARD_Source(FIELD, FLAG, INIT)
#define TCGEN_FORWARD_Internal(FIELD, FLAG, INIT)
#define TCGEN_FORWARD_TunedTiling(FIELD, FLAG, INIT)                          \
  forwardFlag(out, FLAG, FIELD##Flag, INIT);
#define TCGEN_FORWARD_Decision(FIELD, FLAG, INIT)                             \
  TCGEN_FORWARD_TunedTiling(FIELD, FLAG, INIT)
#define TCGEN_FORWARD_SpecDecision(FIELD, FLAG, INIT)                         \
  if (!FIELD##Mode.empty())                                                   \
    out.push_back("--" FLAG "=" + FIELD##Mode);
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  TCGEN_FORWARD_##ROLE(FIELD, FLAG, INIT)
#define TCGEN_SWITCH_FORWARD_Step(FIELD, CLI_FLAG)
#define TCGEN_SWITCH_FORWARD_Internal(FIELD, CLI_FLAG)
#define TCGEN_SWITCH_FORWARD_Fusion(FIELD, CLI_FLAG)                          \
  if (FIELD##Switch)                                                          \
    out.push_back("--" CLI_FLAG);
#define TCGEN_PIPELINE_SWITCH(FIELD, FLAG, INIT, DESC, CLI_FLAG, ROLE,        \
                              CLI_DESC)                                       \
  TCGEN_SWITCH_FORWARD_##ROLE(FIELD, CLI_FLAG)
#include "tcgen/Pipelines/Options.def"
  return out;
}

/// Parses the input. Diagnostics go to stderr.
static OwningOpRef<ModuleOp>
parseInput(MLIRContext &ctx, llvm::SourceMgr &sourceMgr, StringRef path) {
  std::string err;
  auto file = openInputFile(path, &err);
  if (!file) {
    llvm::errs() << "tcgen: " << err << "\n";
    return {};
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  // Errors without a location come from ops the parser builds itself: a
  // linalg named op's body (linalg.matmul f16 x f16 -> bf16 has no cast
  // from f16 to bf16). Note them, then let them through.
  bool unlocated = false;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler noteUnlocated(&ctx, [&](Diagnostic &d) {
      unlocated |= d.getSeverity() == DiagnosticSeverity::Error &&
                   isa<UnknownLoc>(d.getLocation());
      return failure();
    });
    module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  }
  if (!module) {
    llvm::errs() << "tcgen: " << path << " does not parse as MLIR";
    if (unlocated)
      llvm::errs() << ": an op the parser built itself is invalid (a linalg "
                      "named op whose body cannot convert between its "
                      "element types, such as f16 x f16 -> bf16?)";
    llvm::errs() << "\n";
    return {};
  }
  return module;
}

/// The spec options as given.
static mlir::tcgen::SpecStrings specStrings() {
  mlir::tcgen::SpecStrings spec;
  spec.einsum = specEinsum;
  spec.sizes = specSizes;
  spec.dtypes = specDtypes;
  spec.epilogue = specEpilogue;
  spec.prologues = prologueExprs;
  spec.name = specName;
  spec.group = specGroup;
  spec.accumulate = specAccumulate;
  spec.blockScales = specBlockScales;
  return spec;
}

/// The problem of compile and explain: the linalg module the spec builds
/// (--einsum) or the input file parses to, without a target. Diagnostics
/// go to stderr.
static OwningOpRef<ModuleOp> loadProblem(MLIRContext &ctx,
                                         llvm::SourceMgr &sourceMgr) {
  if (specEinsum.getNumOccurrences())
    return mlir::tcgen::buildModuleFromSpec(ctx, specStrings());
  return parseInput(ctx, sourceMgr, inputFile);
}

/// Checks that compile and explain have one problem, an input file or a
/// spec, and sorts --prologue's values into its placement and the spec's
/// expressions.
static LogicalResult checkProblemOptions() {
  if (failed(mlir::tcgen::splitPrologueValues(
          std::vector<std::string>(prologueValues.begin(),
                                   prologueValues.end()),
          prologueMode, prologueExprs)))
    return failure();
  mlir::tcgen::SpecOptionsGiven given;
  given.einsum = specEinsum.getNumOccurrences() > 0;
  given.inputFile = !inputFile.empty();
  given.sizes = specSizes.getNumOccurrences() > 0;
  given.dtypes = specDtypes.getNumOccurrences() > 0;
  given.epilogue = specEpilogue.getNumOccurrences() > 0;
  given.prologue = !prologueExprs.empty();
  given.accumulate = specAccumulate.getNumOccurrences() > 0;
  given.blockScales = specBlockScales.getNumOccurrences() > 0;
  given.name = specName.getNumOccurrences() > 0;
  given.group = specGroup.getNumOccurrences() > 0;
  return mlir::tcgen::checkSpecOptions(given);
}

/// Whether the options fix part of the configuration (then tcgen compile
/// does not try the model's other candidates when a kernel spills): a
/// tiling option of Options.def is set.
static bool configFixedByOptions() {
  bool fixed = false;
#define TCGEN_FIXES_Tiling(FIELD, INIT) fixed |= isSet(FIELD##Flag, INIT);
#define TCGEN_FIXES_TunedTiling(FIELD, INIT) TCGEN_FIXES_Tiling(FIELD, INIT)
#define TCGEN_FIXES_Decision(FIELD, INIT)
#define TCGEN_FIXES_SpecDecision(FIELD, INIT)
#define TCGEN_FIXES_Source(FIELD, INIT)
#define TCGEN_FIXES_Internal(FIELD, INIT)
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  TCGEN_FIXES_##ROLE(FIELD, INIT)
#include "tcgen/Pipelines/Options.def"
  return fixed;
}

/// `tcgen compile` and `tcgen explain` of one problem: loads it and hands
/// it to the compile driver.
static int compile(MLIRContext &ctx, bool explainOnly) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = loadProblem(ctx, sourceMgr);
  if (!module)
    return 1;
  // --emit=mlir: the module the driver compiles.
  if (!explainOnly && emitKind == "mlir") {
    module->print(llvm::outs());
    llvm::outs() << "\n";
    return 0;
  }
  mlir::tcgen::DriverOptions options;
  options.target = targetArch;
  options.emit = emitKind;
  setPipelineOptions(options.pipeline);
  options.configFixed = configFixedByOptions();
  options.allowSpills = allowSpills;
  options.explain = explainOnly;
  if (explainOnly)
    // The model's view first, from a configured copy of the input.
    options.beforePipeline =
        [](ModuleOp m, const mlir::tcgen::TCGenPipelineOptions &pipeline) {
          FailureOr<std::vector<mlir::tcgen::RankedContraction>> ranked =
              mlir::tcgen::rankContractions(m, pipeline);
          if (failed(ranked))
            return failure();
          for (const mlir::tcgen::RankedContraction &r : *ranked)
            mlir::tcgen::printRanking(llvm::outs(), r, topCandidates);
          return success();
        };
  options.printIRAfterAll = printAfterAll;
  if (!inputFile.empty())
    options.problemName = inputFile;
  return failed(mlir::tcgen::compileToBundle(*module, options, outputDir)) ? 1
                                                                           : 0;
}

/// `tcgen tune`: the host half of the autotuner, or --import.
static int tune(MLIRContext &ctx, const char *argv0) {
  std::vector<std::string> inputs(tuneInputs.begin(), tuneInputs.end());
  if (importTuned) {
    if (tuningCacheFlag.empty()) {
      llvm::errs() << "tcgen: tune --import needs --tuning-cache=FILE to "
                      "keep the results in\n";
      return 1;
    }
    return mlir::tcgen::importTune(inputs, tuningCacheFlag);
  }
  if (inputs.size() != 1) {
    llvm::errs() << "tcgen: tune takes one input file (or --import DIR...)\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = parseInput(ctx, sourceMgr, inputs.front());
  if (!module || failed(mlir::tcgen::attachTarget(*module, targetArch)))
    return 1;
  mlir::tcgen::TCGenPipelineOptions options;
  setPipelineOptions(options);
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&forwardToGpuTool));
  llvm::SmallString<256> gpuTool(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(gpuTool, "tcgen-gpu");
  mlir::tcgen::TuneRequest request;
  request.input = inputs.front();
  request.outputDir = outputDir;
  request.target = targetArch;
  request.top = topCandidates;
  request.jobs = tuneJobs;
  request.tcgenPath = self;
  request.tcgenGpuPath =
      llvm::sys::fs::can_execute(gpuTool) ? gpuTool.str().str() : "";
  request.measure = !noMeasure;
  request.budget = tuneBudget;
  request.cachePath = tuningCacheFlag;
  request.forwardedFlags = tuneForwardedFlags();
  return mlir::tcgen::runTune(*module, options, request);
}

/// `tcgen gen-problems`: a batch file of random problems.
static int genProblems() {
  mlir::tcgen::GenerateOptions options;
  options.seed = genSeed;
  options.count = genCount;
  options.kinds = std::set<std::string>(genKinds.begin(), genKinds.end());
  options.maxFlops = genMaxFlops;
  std::string unknown = mlir::tcgen::unknownGeneratorKind(options.kinds);
  if (!unknown.empty()) {
    llvm::errs() << "tcgen: error: --kinds: unknown kind '" << unknown
                 << "' (known: "
                 << llvm::join(mlir::tcgen::generatorKinds(), ", ") << ")\n";
    return 1;
  }
  if (options.maxFlops < 1) {
    llvm::errs() << "tcgen: error: --max-flops must be positive\n";
    return 1;
  }
  std::string err;
  auto file = openOutputFile(genOutput, &err);
  if (!file) {
    llvm::errs() << "tcgen: error: " << err << "\n";
    return 1;
  }
  file->os() << "# tcgen gen-problems --seed " << options.seed << " --count "
             << options.count;
  if (!options.kinds.empty())
    file->os() << " --kinds " << llvm::join(options.kinds, ",");
  file->os() << " --max-flops " << options.maxFlops << "\n";
  for (const mlir::tcgen::GeneratedProblem &p :
       mlir::tcgen::generateProblems(options))
    file->os() << mlir::tcgen::formatBatchLine(p) << "\n";
  file->keep();
  return 0;
}

/// `tcgen compile --batch FILE`: the options of the command line other
/// than --batch, -o and -j go to every problem.
static int batch(int argc, char **argv) {
  if (!inputFile.empty() || specEinsum.getNumOccurrences()) {
    llvm::errs() << "tcgen: error: --batch takes its problems from the batch "
                    "file, not an input file or --einsum\n";
    return 1;
  }
  if (outputDir.empty()) {
    llvm::errs() << "tcgen: error: --batch needs an output directory (-o "
                    "DIR)\n";
    return 1;
  }
  mlir::tcgen::BatchRequest request;
  request.file = batchFile;
  request.outputDir = outputDir;
  request.jobs = batchJobs;
  request.subset = batchSubset;
  request.tcgenPath = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&forwardToGpuTool));
  for (int i = 2; i < argc; ++i) {
    StringRef arg = argv[i];
    StringRef name = arg.ltrim('-').split('=').first;
    if (arg.starts_with("-") && (name == "batch" || name == "o" ||
                                 name == "j" || name == "subset")) {
      if (!arg.contains('='))
        ++i; // its value
      continue;
    }
    request.forwarded.push_back(arg.str());
  }
  return mlir::tcgen::runBatch(request);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  if (argc >= 2 &&
      (StringRef(argv[1]) == "run" || StringRef(argv[1]) == "bench" ||
       StringRef(argv[1]) == "compare"))
    return forwardToGpuTool(argv[0],
                            ArrayRef<const char *>(argv + 1, argc - 1));

  registerAllPasses();
  mlir::tcgen::registerAllTCGenPasses();
  mlir::tcgen::registerTCGenReschedulePasses();
  mlir::tcgen::hideForeignOptions(
      {&compileCmd, &explainCmd, &tuneCmd, &genCmd,
       &mlir::tcgen::rescheduleSubCommand()});
  cl::ParseCommandLineOptions(
      argc, argv,
      "tcgen: tensor-core kernels from linalg\n\n"
      "  tcgen compile INPUT.mlir --target=sm_90a -o DIR\n"
      "  tcgen compile --einsum mk,kn->mn --sizes m=M,n=N,k=K "
      "[--dtypes ...] [--epilogue EXPR] -o DIR\n"
      "  tcgen compile --batch FILE -o DIR [-j N] [--subset NAME] "
      "[options for every problem]\n"
      "  tcgen gen-problems --seed S --count N [--kinds ...] -o FILE\n"
      "  tcgen explain INPUT.mlir [--print-ir-after-all]\n"
      "  tcgen tune INPUT.mlir -o DIR [--top=N] [--tuning-cache=FILE]\n"
      "  tcgen tune --import DIR... --tuning-cache=FILE\n"
      "  tcgen reschedule KERNEL.cu --kernel NAME [--launch ...] "
      "[--emit=llvm|raised] [--explain] -o DIR\n"
      "  tcgen run DIR [--check]        (needs a GPU; runs tcgen-gpu)\n"
      "  tcgen bench DIR...             (needs a GPU; runs tcgen-gpu)\n"
      "  tcgen compare A_DIR B_DIR      (needs a GPU; runs tcgen-gpu)\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  registry.insert<mlir::tcgen::TCGenDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);

  if (genCmd)
    return genProblems();
  if (mlir::tcgen::rescheduleSubCommand())
    return mlir::tcgen::runReschedule(ctx);
  if (compileCmd && batchFile.getNumOccurrences())
    return batch(argc, argv);
  if (batchSubset.getNumOccurrences()) {
    llvm::errs() << "tcgen: error: --subset selects problems of a --batch "
                    "file\n";
    return 1;
  }
  if ((compileCmd || explainCmd) && failed(checkProblemOptions()))
    return 1;
  if (compileCmd)
    return compile(ctx, /*explainOnly=*/false);
  if (explainCmd)
    return compile(ctx, /*explainOnly=*/true);
  if (tuneCmd) {
    if (failed(mlir::tcgen::splitPrologueValues(
            std::vector<std::string>(prologueValues.begin(),
                                     prologueValues.end()),
            prologueMode, prologueExprs)))
      return 1;
    if (!prologueExprs.empty()) {
      llvm::errs() << "tcgen: error: tune takes an input file, not a "
                      "prologue expression (write the spec's module with "
                      "tcgen compile --einsum ... --emit=mlir)\n";
      return 1;
    }
    return tune(ctx, argv[0]);
  }
  llvm::errs() << "tcgen: expected a subcommand: compile, explain, tune, "
                  "gen-problems, reschedule, run, bench "
                  "(see --help)\n";
  return 1;
}
