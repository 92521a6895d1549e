//===- Ptxas.cpp - Assemble PTX with the CUDA toolkit's ptxas ---*- C++ -*-===//
//
// This file implements finding and running ptxas and reading its -v report.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Driver/Ptxas.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <cstdlib>

using namespace mlir::tcgen;

std::string mlir::tcgen::findPtxas() {
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"}) {
    if (const char *root = std::getenv(var)) {
      llvm::SmallString<256> path(root);
      llvm::sys::path::append(path, "bin", "ptxas");
      if (llvm::sys::fs::can_execute(path))
        return std::string(path);
    }
  }
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  return "";
}

void mlir::tcgen::parsePtxasLog(llvm::StringRef log, PtxasReport &report) {
  report.log = log.str();
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  llvm::Regex regs("Used ([0-9]+) registers");
  llvm::Regex spill("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  llvm::Regex smem("([0-9]+) bytes smem");
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> m;
    if (regs.match(line, &m))
      m[1].getAsInteger(10, report.resources.registers);
    if (spill.match(line, &m)) {
      int64_t stores = 0, loads = 0;
      m[1].getAsInteger(10, stores);
      m[2].getAsInteger(10, loads);
      report.resources.spillBytes = stores + loads;
    }
    if (smem.match(line, &m))
      m[1].getAsInteger(10, report.resources.staticSmemBytes);
    // "(C7519) warpgroup.arrive is injected ...", "(C7520) wgmma ...
    // serialized": ptxas had to serialize or fence the tensor-core pipeline.
    if (line.contains("warning") || line.contains("(C75"))
      report.warnings.push_back(line.trim().str());
  }
}

std::string mlir::tcgen::runPtxas(llvm::StringRef ptxas, llvm::StringRef arch,
                                  llvm::StringRef ptxPath,
                                  llvm::StringRef cubinPath,
                                  PtxasReport &report) {
  llvm::SmallString<128> logPath;
  if (llvm::sys::fs::createTemporaryFile("tcgen-ptxas", "log", logPath))
    return "cannot create a temporary file for the ptxas log";
  std::string archFlag = ("-arch=" + arch).str();
  llvm::SmallVector<llvm::StringRef> args = {ptxas,   archFlag, "-O3",    "-v",
                                             ptxPath, "-o",     cubinPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &errMsg);
  auto buffer = llvm::MemoryBuffer::getFile(logPath);
  if (buffer)
    parsePtxasLog((*buffer)->getBuffer(), report);
  llvm::sys::fs::remove(logPath);
  if (rc != 0)
    return "ptxas failed (exit " + std::to_string(rc) + ")" +
           (errMsg.empty() ? "" : ": " + errMsg) + "\n" + report.log;
  return "";
}
