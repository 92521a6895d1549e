//===- Resources.cpp - Resources of the sm90 kernels ------------*- C++ -*-===//
//
// This file implements the sm90 resource formulas that are not constexpr:
// the ring depth a shared-memory budget allows and when operands are
// packed.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Resources.h"

#include <algorithm>

using namespace mlir::tcgen::sm90;

int64_t mlir::tcgen::sm90::chooseStages(int64_t blockM, int64_t blockN,
                                        int64_t blockK, bool tmaStore,
                                        bool bKMajor, int64_t maxStages,
                                        int64_t rowBlocks) {
  int64_t fixed = sharedMemoryBytes(blockM, blockN, blockK, 0, tmaStore,
                                    bKMajor, rowBlocks);
  int64_t stage = sharedMemoryBytes(blockM, blockN, blockK, 1, tmaStore,
                                    bKMajor, rowBlocks) -
                  fixed;
  // The kernel's static shared memory (its mbarriers, up to 144 bytes)
  // counts against the same limit: a ring that filled the budget to the
  // byte was refused at launch (64 x 176, seven stages).
  int64_t stages =
      (kMaxDynamicSmemBytes - kStaticSmemReserveBytes - fixed) / stage;
  return std::min<int64_t>(stages, maxStages);
}

bool mlir::tcgen::sm90::shouldPack(int64_t rowBytes, int64_t bytes,
                                   llvm::StringRef mode) {
  if (rowBytes % 128 == 0 || mode == "never")
    return false;
  if (rowBytes % 16 != 0 || mode == "always")
    return true;
  return bytes >= kPackMinBytes ||
         (rowBytes % 32 != 0 && bytes >= kPackMinSectorBytes);
}
