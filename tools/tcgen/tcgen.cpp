//===- tcgen.cpp - The tcgen command-line tool ------------------*- C++ -*-===//
//
// This file implements the user CLI:
//   tcgen compile INPUT.mlir --target=sm_90a -o DIR   (kernel bundle)
//   tcgen explain INPUT.mlir [--print-ir-after-all]    (config and IR)
//   tcgen tune INPUT.mlir -o DIR | tcgen tune --import DIR...  (autotuner)
//   tcgen run DIR --check | tcgen bench DIR...         (forwarded to tcgen-gpu)
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"
#include "Ptxas.h"
#include "Tune.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Runtime/Validate.h"

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

static cl::SubCommand tuneCmd(
    "tune", "Compile the model's top candidates, measure them, keep the "
            "fastest in the tuning cache");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required, cl::sub(compileCmd),
                                      cl::sub(explainCmd));
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
static cl::opt<std::string> emitKind("emit", cl::desc("cubin (default) or ptx"),
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
static cl::opt<std::string> prologueMode(
    "prologue",
    cl::desc("sm90: where a fused prologue (a pointwise producer of A or B) "
             "is applied: regs (on A, in registers: ldmatrix and wgmma's "
             "register-A form), smem (on each tile in shared memory), pack "
             "(once, by a pack kernel into a copy) or auto (regs where it "
             "applies, else smem while each tile is read by at most 8 output "
             "tiles, else pack)"),
    cl::init("auto"), cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(tuneCmd));
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

/// The PTX features for `arch`: PTX 8.3 (CUDA 12.3+) serves sm_70 .. sm_90a.
static std::string ptxFeatures() { return "+ptx83"; }

static LogicalResult writeFile(StringRef path, StringRef contents) {
  std::string err;
  auto file = openOutputFile(path, &err);
  if (!file) {
    llvm::errs() << "tcgen: " << err << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  return success();
}

/// Parses the input, attaches the target and refuses empty contractions
/// (verifyNoEmptyDimension). Diagnostics go to stderr.
static OwningOpRef<ModuleOp> loadInput(MLIRContext &ctx,
                                       llvm::SourceMgr &sourceMgr,
                                       StringRef path) {
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
  auto target = mlir::tcgen::TargetAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&ctx), "invalid --target: "); },
      &ctx, StringRef(targetArch));
  if (!target)
    return {};
  (*module)->setAttr(mlir::tcgen::kTargetAttrName, target);
  // An empty contraction computes nothing, and the pipeline's
  // canonicalization would erase it without a word: say which operand is
  // empty here.
  WalkResult empty = module->walk([](linalg::LinalgOp op) {
    return mlir::tcgen::isContractionCandidate(op) &&
                   failed(mlir::tcgen::verifyNoEmptyDimension(op))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (empty.wasInterrupted())
    return {};
  return module;
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

/// One compile with the tile-size model's candidate of rank `modelRank`.
/// With `retrySpills`, a kernel that fails the spill guard is not reported:
/// `spilled` says so, and the caller tries the next candidate.
static int compileOnce(MLIRContext &ctx, bool explainOnly, int64_t modelRank,
                       bool retrySpills, std::string &spilled) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = loadInput(ctx, sourceMgr, inputFile);
  if (!module)
    return 1;
  bool hasContraction = false;
  module->walk([&](Operation *op) {
    hasContraction |= mlir::tcgen::isContractionCandidate(op);
  });
  if (!hasContraction) {
    llvm::errs() << "tcgen: no supported contraction (linalg.matmul) found in "
                 << inputFile << "\n";
    return 1;
  }

  mlir::tcgen::TCGenPipelineOptions options;
  setPipelineOptions(options);
  options.modelRank = modelRank;
  if (explainOnly) {
    // The model's view first, from a configured copy of the input.
    FailureOr<std::vector<mlir::tcgen::RankedContraction>> ranked =
        mlir::tcgen::rankContractions(*module, options);
    if (failed(ranked))
      return 1;
    for (const mlir::tcgen::RankedContraction &r : *ranked)
      mlir::tcgen::printRanking(llvm::outs(), r, topCandidates);
  }

  PassManager pm(&ctx);
  if (printAfterAll || explainOnly) {
    ctx.disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::outs());
  }
  mlir::tcgen::buildTCGenPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  FailureOr<std::vector<mlir::tcgen::KernelRecord>> kernels =
      mlir::tcgen::collectKernels(*module, targetArch);
  if (failed(kernels))
    return 1;
  if (kernels->empty()) {
    llvm::errs() << "tcgen: the input produced no kernel\n";
    return 1;
  }

  PassManager lower(&ctx);
  if (printAfterAll || explainOnly)
    lower.enableIRPrinting([](Pass *, Operation *) { return false; },
                           [](Pass *, Operation *) { return true; }, true,
                           false, false, llvm::outs());
  mlir::tcgen::TCGenNVVMOptions nvvm;
  nvvm.chip = targetArch;
  nvvm.features = ptxFeatures();
  mlir::tcgen::buildTCGenLowerToNVVM(lower, nvvm);
  if (failed(parsePassPipeline("gpu-module-to-binary{format=isa}", lower,
                               llvm::errs())) ||
      failed(lower.run(*module)))
    return 1;
  FailureOr<std::map<std::string, std::string>> ptx =
      mlir::tcgen::collectPTX(*module);
  if (failed(ptx))
    return 1;

  if (explainOnly) {
    for (mlir::tcgen::KernelRecord &k : *kernels)
      llvm::outs() << "// kernel " << k.manifest.entry << ": config "
                   << ::tcgen::json::print(k.manifest.config, /*pretty=*/false)
                   << "\n";
    return 0;
  }

  if (outputDir.empty()) {
    llvm::errs() << "tcgen: compile needs an output directory (-o DIR)\n";
    return 1;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "tcgen: cannot create " << outputDir << ": " << ec.message()
                 << "\n";
    return 1;
  }
  bool wantCubin = emitKind == "cubin";
  if (!wantCubin && emitKind != "ptx") {
    llvm::errs() << "tcgen: --emit must be cubin or ptx, not '" << emitKind
                 << "'\n";
    return 1;
  }
  std::string ptxas = wantCubin ? mlir::tcgen::findPtxas() : "";
  if (wantCubin && ptxas.empty()) {
    llvm::errs() << "tcgen: ptxas not found (set CUDA_ROOT or put the CUDA "
                    "toolkit on PATH), or use --emit=ptx\n";
    return 1;
  }
  for (mlir::tcgen::KernelRecord &k : *kernels) {
    ::tcgen::Manifest &m = k.manifest;
    auto it = ptx->find(k.gpuModule);
    if (it == ptx->end()) {
      llvm::errs() << "tcgen: no PTX for kernel " << m.entry << "\n";
      return 1;
    }
    llvm::SmallString<256> base(outputDir);
    llvm::sys::path::append(base, m.entry);
    std::string ptxPath = (base + ".ptx").str();
    std::string cubinPath = (base + ".cubin").str();
    if (failed(writeFile(ptxPath, it->second)))
      return 1;
    m.ptx = m.entry + ".ptx";
    if (wantCubin) {
      mlir::tcgen::PtxasReport report;
      std::string err =
          mlir::tcgen::runPtxas(ptxas, targetArch, ptxPath, cubinPath, report);
      if (!err.empty()) {
        llvm::errs() << "tcgen: " << err << "\n";
        return 1;
      }
      for (const std::string &w : report.warnings)
        llvm::errs() << "tcgen: " << m.entry << ": ptxas " << w << "\n";
      // Build guard: a kernel that spills registers or whose wgmma chain
      // ptxas serialized is not shipped unless asked for.
      bool serialized = llvm::any_of(report.warnings, [](const std::string &w) {
        return StringRef(w).contains("(C75");
      });
      if ((report.resources.spillBytes != 0 || serialized) && !allowSpills &&
          retrySpills) {
        spilled = llvm::formatv("{0} spills {1} bytes of registers{2}",
                                m.entry, report.resources.spillBytes,
                                serialized ? " / has serialized wgmma" : "")
                      .str();
        return 1;
      }
      if ((report.resources.spillBytes != 0 || serialized) && !allowSpills) {
        llvm::errs() << "tcgen: error: " << m.entry << " spills "
                     << report.resources.spillBytes << " bytes of registers"
                     << (serialized ? " / has serialized wgmma (C75xx)" : "")
                     << "; choose another configuration or pass "
                        "--allow-spills\n";
        return 1;
      }
      m.cubin = m.entry + ".cubin";
      m.resources = report.resources;
      // setmaxnreg.inc waits until the block has the registers: the split
      // must fit in what ptxas allocated at entry, or the kernel hangs.
      if (k.setmaxnreg.size() == 3) {
        int64_t owned = m.launch.block[0] * m.resources.registers;
        int64_t wanted =
            128 * k.setmaxnreg[0] + 128 * k.setmaxnreg[1] * k.setmaxnreg[2];
        if (wanted > owned) {
          llvm::errs() << "tcgen: error: " << m.entry
                       << ": setmaxnreg asks for " << wanted
                       << " registers but the block owns " << owned << " ("
                       << m.launch.block[0] << " threads x "
                       << m.resources.registers
                       << "); the consumers would wait forever\n";
          return 1;
        }
      }
    }
    // What the runtime checks at every launch, checked once here: a rule
    // that chose a kernel no launch can satisfy is an error, not a bundle.
    if (std::string why = ::tcgen::validateLaunchable(
            m, mlir::tcgen::TargetAttr::get(&ctx, targetArch)
                   .getMaxSharedMemoryPerBlock());
        !why.empty()) {
      llvm::errs() << "tcgen: error: " << m.entry
                   << ": the runtime would refuse every launch of this "
                      "kernel: "
                   << why
                   << " (a bug in tcgen's choice of kernel; the bundle is "
                      "not written)\n";
      llvm::sys::fs::remove(ptxPath);
      llvm::sys::fs::remove(cubinPath);
      return 1;
    }
    if (failed(writeFile((base + ".json").str(), ::tcgen::writeManifest(m))))
      return 1;
    llvm::outs() << "tcgen: wrote " << base << ".{"
                 << (wantCubin ? "cubin," : "") << "ptx,json} (grid ";
    if (m.launch.grid[0] == ::tcgen::kDynamicSize)
      llvm::outs() << "one block per SM";
    else
      llvm::outs() << m.launch.grid[0] << "x" << m.launch.grid[1];
    llvm::outs() << ", block "
                 << m.launch.block[0] << ", " << m.resources.registers
                 << " registers, " << m.resources.staticSmemBytes
                 << " B smem";
    if (m.launch.dynamicSmemBytes)
      llvm::outs() << " + " << m.launch.dynamicSmemBytes << " B dynamic";
    llvm::outs() << ")\n";
  }
  return 0;
}

/// Compiles with the model's first choice; where a kernel of it spills (or
/// serializes wgmma) and the options fix no part of the configuration,
/// with its next choices, up to eight.
static int compile(MLIRContext &ctx, bool explainOnly) {
  bool retry = !explainOnly && !allowSpills && !configFixedByOptions();
  constexpr int64_t kMaxTries = 8;
  for (int64_t rank = 0;; ++rank) {
    std::string spilled;
    bool last = rank + 1 == kMaxTries;
    int rc = compileOnce(ctx, explainOnly, rank, retry && !last, spilled);
    if (spilled.empty())
      return rc;
    llvm::errs() << "tcgen: note: " << spilled
                 << " with the tile-size model's choice " << rank + 1
                 << "; trying its next\n";
  }
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
  OwningOpRef<ModuleOp> module = loadInput(ctx, sourceMgr, inputs.front());
  if (!module)
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

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  if (argc >= 2 &&
      (StringRef(argv[1]) == "run" || StringRef(argv[1]) == "bench"))
    return forwardToGpuTool(argv[0],
                            ArrayRef<const char *>(argv + 1, argc - 1));

  registerAllPasses();
  mlir::tcgen::registerAllTCGenPasses();
  cl::ParseCommandLineOptions(
      argc, argv,
      "tcgen: tensor-core kernels from linalg\n\n"
      "  tcgen compile INPUT.mlir --target=sm_90a -o DIR\n"
      "  tcgen explain INPUT.mlir [--print-ir-after-all]\n"
      "  tcgen tune INPUT.mlir -o DIR [--top=N] [--tuning-cache=FILE]\n"
      "  tcgen tune --import DIR... --tuning-cache=FILE\n"
      "  tcgen run DIR [--check]        (needs a GPU; runs tcgen-gpu)\n"
      "  tcgen bench DIR...             (needs a GPU; runs tcgen-gpu)\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  registry.insert<mlir::tcgen::TCGenDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);

  if (compileCmd)
    return compile(ctx, /*explainOnly=*/false);
  if (explainCmd)
    return compile(ctx, /*explainOnly=*/true);
  if (tuneCmd)
    return tune(ctx, argv[0]);
  llvm::errs() << "tcgen: expected a subcommand: compile, explain, tune, run, "
                  "bench "
                  "(see --help)\n";
  return 1;
}
