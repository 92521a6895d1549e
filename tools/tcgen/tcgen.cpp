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
static cl::opt<bool>
    specAccumulate("accumulate",
                   cl::desc("With --einsum: C += A B instead of C = A B"),
                   cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string>
    specName("name",
             cl::desc("With --einsum: the function's name, which names the "
                      "kernels (default: einsum)"),
             cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd));
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
    cl::desc("Features to draw (default: all): layout, batch, contract2, "
             "dtype, epilogue, prologue, accumulate, dynamic, config"),
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
static cl::opt<std::string> tuningCache(
    "tuning-cache",
    cl::desc("Tuning cache file: compile and explain use its measured "
             "configuration for a problem (and its calibrated model "
             "constants) before the model's choice; tune updates it"),
    cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(tuneCmd));
static cl::opt<std::string> deviceName(
    "device",
    cl::desc("Device whose tuning-cache records apply, as tcgen-gpu names it "
             "(default: the only device in the cache)"),
    cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(tuneCmd));
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
static cl::opt<std::string>
    backendName("backend",
                cl::desc("Code generation back end: wmma (sm_70 and later), "
                         "sm80 (ldmatrix, mma.sync, cp.async; sm_80 and "
                         "later), sm90 (wgmma, TMA; sm_90a) or simt (f32 on "
                         "CUDA cores, any target); default: the target's "
                         "(simt for f32 x f32 without --allow-tf32)"),
                cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd),
                cl::sub(tuneCmd));
static cl::list<int64_t> blockTile("block-tile", cl::desc("Block tile m,n,k"),
                                   cl::CommaSeparated, cl::sub(compileCmd),
                                   cl::sub(explainCmd));
static cl::list<int64_t> warpTile("warp-tile", cl::desc("Warp tile m,n,k"),
                                  cl::CommaSeparated, cl::sub(compileCmd),
                                  cl::sub(explainCmd));
static cl::list<int64_t>
    threadTile("thread-tile",
               cl::desc("Thread tile m,n (simt back end: outputs per thread)"),
               cl::CommaSeparated, cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<int64_t>
    padding("padding", cl::desc("Shared-memory row padding (elements)"),
            cl::init(-1), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<int64_t> stages(
    "stages",
    cl::desc("Stages of shared operand buffers (wmma: 1, or 2 for double "
             "buffering; default: 2 where they fit in 48 KiB; sm90: the "
             "ring's depth, default: as many as fit)"),
    cl::init(-1), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<int64_t> vectorWidth("vector",
                                    cl::desc("Copy vector width (elements)"),
                                    cl::init(-1), cl::sub(compileCmd),
                                    cl::sub(explainCmd));
static cl::opt<int64_t>
    rasterGroup("raster",
                cl::desc("Tile rows per raster group (1: row-major order)"),
                cl::init(-1), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<int>
    persistentBlocks("persistent",
                     cl::desc("Persistent blocks on sm90: 1 (default) or 0"),
                     cl::init(-1), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<int> streamK(
    "stream-k",
    cl::desc("Stream-K on sm90: 1 or 0 (default: when the tiles fill the "
             "last wave of SMs poorly)"),
    cl::init(-1), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<int> swapAB(
    "swap",
    cl::desc("sm90: compute C^T = B^T A^T, the block tile in its terms "
             "(its M is the problem's N): 1 or 0 (default: for small M)"),
    cl::init(-1), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::list<int64_t>
    clusterShape("cluster",
                 cl::desc("Blocks per cluster m,n on sm90 (2,1: B tiles "
                          "multicast to two blocks; 1,2: A tiles)"),
                 cl::CommaSeparated, cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string>
    storeKind("store",
              cl::desc("How C is written on sm90: global (from registers) or "
                       "tma (shared memory + TMA stores overlapping the next "
                       "tile)"),
              cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd),
              cl::sub(tuneCmd));
static cl::opt<bool> allowTf32(
    "allow-tf32",
    cl::desc("Run f32 x f32 contractions on sm90's tensor cores, which read "
             "f32 operands as tf32 (10-bit mantissas), accumulating in f32 "
             "(without it: the simt back end, full f32 on CUDA cores)"),
    cl::init(false), cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(tuneCmd));
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
/// --prologue's placement (the last one given) and its spec expressions.
static std::string prologueMode = "auto";
static std::vector<std::string> prologueExprs;
static cl::opt<bool> epilogueInHalf(
    "epilogue-in-half",
    cl::desc("sm90: compute a fused epilogue on f16x2 / bf16x2 pairs where "
             "that gives the same bits as its f32 body (one add, sub or mul, "
             "then max / min / neg; not yet measured on a GPU)"),
    cl::init(false), cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(tuneCmd));
static cl::opt<std::string> epilogueLoadsMode(
    "epilogue-loads",
    cl::desc("sm90: how a fused epilogue reads a matrix operand: auto "
             "(tma where it applies, else fragments), fragments (global "
             "loads in the accumulators' layout) or tma (the operand's "
             "chunk through the TMA-store buffer)"),
    cl::init("auto"), cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(tuneCmd));
static cl::opt<std::string> packMode(
    "pack",
    cl::desc("sm90: copy A or B into buffers with rows a multiple of 128 "
             "bytes apart before the kernel: auto (where TMA cannot read the "
             "rows or reads them slowly and the operand is too large for L2), "
             "always, never, a / b (that operand as with always, the "
             "other only where TMA cannot read its rows), or async (rows a "
             "multiple of 16 bytes apart are loaded with cp.async by the "
             "kernel's producer instead of copied)"),
    cl::init("auto"), cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(tuneCmd));
static cl::opt<bool> noFuseEpilogue(
    "no-fuse-epilogue",
    cl::desc("Do not fuse pointwise consumers of a contraction into its "
             "kernel (they are then refused: tcgen emits no standalone "
             "pointwise kernels)"),
    cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(tuneCmd));
static cl::opt<bool> noPromote("no-promote",
                               cl::desc("Skip shared-memory promotion"),
                               cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool>
    noHoist("no-hoist", cl::desc("Skip permutation and accumulator hoisting"),
            cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool> noUnroll("no-unroll",
                              cl::desc("Do not unroll the warp tile"),
                              cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool> noVectorize("no-vectorize",
                                 cl::desc("Skip copy vectorization"),
                                 cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool> noReorderCopies(
    "no-reorder-copies",
    cl::desc("Walk every copied tile row by row (wmma: no reordering "
             "against shared-memory bank conflicts)"),
    cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool> asyncCopies(
    "async-copies",
    cl::desc("wmma: copy the K tiles with cp.async into the config's stages "
             "of shared buffers (--stages=2..8) instead of the register "
             "prefetch"),
    cl::init(false), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool> noPrefetch("no-prefetch",
                                cl::desc("Skip global-load latency hiding"),
                                cl::sub(compileCmd), cl::sub(explainCmd));
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

static void setPipelineOptions(mlir::tcgen::TCGenPipelineOptions &options) {
  options.blockTile = SmallVector<int64_t>(blockTile.begin(), blockTile.end());
  options.warpTile = SmallVector<int64_t>(warpTile.begin(), warpTile.end());
  options.threadTile =
      SmallVector<int64_t>(threadTile.begin(), threadTile.end());
  options.backend = backendName;
  options.padding = padding;
  options.stages = stages;
  options.vector = vectorWidth;
  options.raster = rasterGroup;
  options.persistent = persistentBlocks;
  options.streamK = streamK;
  options.swap = swapAB;
  options.cluster =
      SmallVector<int64_t>(clusterShape.begin(), clusterShape.end());
  options.store = storeKind;
  options.pack = packMode;
  options.prologue = prologueMode;
  options.epilogueLoads = epilogueLoadsMode;
  options.epilogueInHalf = epilogueInHalf;
  options.allowTf32 = allowTf32;
  options.tuningCache = tuningCache;
  options.device = deviceName;
  options.fuse = !noFuseEpilogue;
  options.promote = !noPromote;
  options.hoist = !noHoist;
  options.unroll = !noUnroll;
  options.vectorize = !noVectorize;
  options.reorderCopies = !noReorderCopies;
  options.prefetch = !noPrefetch;
  options.asyncCopies = asyncCopies;
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
  spec.accumulate = specAccumulate;
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
  given.name = specName.getNumOccurrences() > 0;
  return mlir::tcgen::checkSpecOptions(given);
}

/// Whether the options fix part of the configuration (then tcgen compile
/// does not try the model's other candidates when a kernel spills).
static bool configFixedByOptions() {
  return !blockTile.empty() || !warpTile.empty() || !threadTile.empty() ||
         stages >= 0 ||
         streamK >= 0 || swapAB >= 0 || !clusterShape.empty() ||
         rasterGroup >= 0 ||
         !storeKind.empty() || persistentBlocks >= 0 || padding >= 0 ||
         vectorWidth >= 0;
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
    if (tuningCache.empty()) {
      llvm::errs() << "tcgen: tune --import needs --tuning-cache=FILE to "
                      "keep the results in\n";
      return 1;
    }
    return mlir::tcgen::importTune(inputs, tuningCache);
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
  request.cachePath = tuningCache;
  if (packMode != "auto")
    request.forwardedFlags.push_back("--pack=" + packMode);
  if (allowTf32)
    request.forwardedFlags.push_back("--allow-tf32");
  if (prologueMode != "auto")
    request.forwardedFlags.push_back("--prologue=" + prologueMode);
  if (epilogueLoadsMode != "auto")
    request.forwardedFlags.push_back("--epilogue-loads=" + epilogueLoadsMode);
  if (epilogueInHalf)
    request.forwardedFlags.push_back("--epilogue-in-half");
  if (!storeKind.empty())
    request.forwardedFlags.push_back("--store=" + storeKind);
  if (!backendName.empty())
    request.forwardedFlags.push_back("--backend=" + backendName);
  if (noFuseEpilogue)
    request.forwardedFlags.push_back("--no-fuse-epilogue");
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
