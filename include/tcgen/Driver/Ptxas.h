//===- Ptxas.h - Assemble PTX with the CUDA toolkit's ptxas -----*- C++ -*-===//

#ifndef TCGEN_DRIVER_PTXAS_H
#define TCGEN_DRIVER_PTXAS_H

#include "tcgen/Runtime/Manifest.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tcgen {

/// What ptxas said about one kernel.
struct PtxasReport {
  ::tcgen::Resources resources;
  /// Lines with "warning" in them, and the (C75xx) notes of wgmma
  /// serialization or injected warpgroup fences.
  std::vector<std::string> warnings;
  std::string log; ///< everything ptxas printed
};

/// Finds ptxas: $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH (bin/ptxas), then
/// /usr/local/cuda/bin, then PATH. Returns "" when there is none.
std::string findPtxas();

/// Assembles `ptxPath` for `arch` into `cubinPath` with `-O3 -v` and parses
/// registers, spills and shared memory. Returns an error message, or "".
std::string runPtxas(llvm::StringRef ptxas, llvm::StringRef arch,
                     llvm::StringRef ptxPath, llvm::StringRef cubinPath,
                     PtxasReport &report);

/// Parses `ptxas -v` output (exposed for tests).
void parsePtxasLog(llvm::StringRef log, PtxasReport &report);

} // namespace mlir::tcgen

#endif // TCGEN_DRIVER_PTXAS_H
