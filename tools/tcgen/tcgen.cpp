//===- tcgen.cpp - The tcgen command-line tool ------------------*- C++ -*-===//
//
// This file implements the user CLI:
//   tcgen compile INPUT.mlir --target=sm_90a -o DIR   (kernel bundle)
//   tcgen explain INPUT.mlir [--print-ir-after-all]    (config and IR)
//   tcgen run DIR --check | tcgen bench DIR...         (forwarded to tcgen-gpu)
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"
#include "Ptxas.h"

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Pipelines/Pipelines.h"

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

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required, cl::sub(compileCmd),
                                      cl::sub(explainCmd));
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"),
                                      cl::sub(compileCmd));
static cl::opt<std::string>
    targetArch("target", cl::desc("GPU architecture (sm_80, sm_90a)"),
               cl::init("sm_90a"), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> emitKind("emit", cl::desc("cubin (default) or ptx"),
                                     cl::init("cubin"), cl::sub(compileCmd));
static cl::opt<std::string>
    backendName("backend",
                cl::desc("Code generation back end: wmma (sm_70 and later)"),
                cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::list<int64_t> blockTile("block-tile", cl::desc("Block tile m,n,k"),
                                   cl::CommaSeparated, cl::sub(compileCmd),
                                   cl::sub(explainCmd));
static cl::list<int64_t> warpTile("warp-tile", cl::desc("Warp tile m,n,k"),
                                  cl::CommaSeparated, cl::sub(compileCmd),
                                  cl::sub(explainCmd));
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
              cl::init(""), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<std::string> packMode(
    "pack",
    cl::desc("sm90: copy A or B into buffers with rows a multiple of 128 "
             "bytes apart before the kernel: auto (where TMA cannot read the "
             "rows or reads them slowly and the operand is too large for L2), "
             "always or never"),
    cl::init("auto"), cl::sub(compileCmd), cl::sub(explainCmd));
static cl::opt<bool> noFuseEpilogue(
    "no-fuse-epilogue",
    cl::desc("Do not fuse pointwise consumers of a contraction into its "
             "kernel (they are then refused: tcgen emits no standalone "
             "pointwise kernels)"),
    cl::sub(compileCmd), cl::sub(explainCmd));
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
  options.backend = backendName;
  options.padding = padding;
  options.stages = stages;
  options.vector = vectorWidth;
  options.raster = rasterGroup;
  options.persistent = persistentBlocks;
  options.streamK = streamK;
  options.cluster =
      SmallVector<int64_t>(clusterShape.begin(), clusterShape.end());
  options.store = storeKind;
  options.pack = packMode;
  options.fuse = !noFuseEpilogue;
  options.promote = !noPromote;
  options.hoist = !noHoist;
  options.unroll = !noUnroll;
  options.vectorize = !noVectorize;
  options.reorderCopies = !noReorderCopies;
  options.prefetch = !noPrefetch;
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

/// Parses the input and attaches the target. Diagnostics go to stderr.
static OwningOpRef<ModuleOp> loadInput(MLIRContext &ctx,
                                       llvm::SourceMgr &sourceMgr) {
  std::string err;
  auto file = openInputFile(inputFile, &err);
  if (!file) {
    llvm::errs() << "tcgen: " << err << "\n";
    return {};
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return {};
  auto target = mlir::tcgen::TargetAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&ctx), "invalid --target: "); },
      &ctx, StringRef(targetArch));
  if (!target)
    return {};
  (*module)->setAttr(mlir::tcgen::kTargetAttrName, target);
  return module;
}

static int compile(MLIRContext &ctx, bool explainOnly) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = loadInput(ctx, sourceMgr);
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

  PassManager pm(&ctx);
  if (printAfterAll || explainOnly) {
    ctx.disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::outs());
  }
  mlir::tcgen::TCGenPipelineOptions options;
  setPipelineOptions(options);
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
    if (failed(writeFile((base + ".json").str(), ::tcgen::writeManifest(m))))
      return 1;
    llvm::outs() << "tcgen: wrote " << base << ".{"
                 << (wantCubin ? "cubin," : "") << "ptx,json} (grid "
                 << m.launch.grid[0] << "x" << m.launch.grid[1] << ", block "
                 << m.launch.block[0] << ", " << m.resources.registers
                 << " registers, " << m.resources.staticSmemBytes
                 << " B smem)\n";
  }
  return 0;
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
  llvm::errs() << "tcgen: expected a subcommand: compile, explain, run, bench "
                  "(see --help)\n";
  return 1;
}
