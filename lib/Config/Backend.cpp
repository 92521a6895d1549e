//===- Backend.cpp - The registry of back ends ------------------*- C++ -*-===//
//
// This file implements the back-end registry and the defaults of
// TargetBackend: a formula a back end does not provide is a fatal error.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Backend.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::tcgen;

/// The registered back ends, in registration order.
static std::vector<std::unique_ptr<TargetBackend>> &registry() {
  static std::vector<std::unique_ptr<TargetBackend>> backends;
  return backends;
}

[[noreturn]] static void missing(const TargetBackend &backend,
                                 StringRef formula) {
  llvm::report_fatal_error(llvm::Twine("tcgen: the ") + backend.getName() +
                           " back end has no " + formula);
}

TargetBackend::~TargetBackend() = default;

int64_t TargetBackend::getMaxSharedMemoryBytes() const {
  missing(*this, "shared-memory budget");
}

int64_t TargetBackend::getSharedMemoryBytes(int64_t, int64_t, int64_t, int64_t,
                                            bool, bool, int64_t) const {
  missing(*this, "shared-memory formula");
}

int64_t TargetBackend::getStagesThatFit(int64_t, int64_t, int64_t, bool, bool,
                                        int64_t, int64_t) const {
  missing(*this, "stage formula");
}

int64_t TargetBackend::getMaxAccumulatorRegisters() const {
  missing(*this, "accumulator register budget");
}

bool TargetBackend::canSwizzleRows(int64_t) const {
  missing(*this, "shared-memory swizzle");
}

int64_t TargetBackend::getStreamKSplitTiles(int64_t, int64_t) const {
  missing(*this, "stream-K schedule");
}

int64_t TargetBackend::getStreamKBlocks(int64_t, int64_t, bool) const {
  missing(*this, "stream-K schedule");
}

int64_t TargetBackend::getRasterGroup(int64_t, int64_t, int64_t, int64_t,
                                      int64_t) const {
  missing(*this, "raster schedule");
}

bool TargetBackend::shouldPackOperand(int64_t, int64_t, StringRef) const {
  missing(*this, "operand packing");
}

int64_t TargetBackend::getSwapStages(int64_t) const {
  missing(*this, "swapped kernels");
}

bool TargetBackend::swapCopiesB(bool, int64_t) const {
  missing(*this, "swapped kernels");
}

void mlir::tcgen::registerTargetBackend(
    std::unique_ptr<TargetBackend> backend) {
  if (!lookupTargetBackend(backend->getName()))
    registry().push_back(std::move(backend));
}

const TargetBackend *mlir::tcgen::lookupTargetBackend(StringRef name) {
  for (const std::unique_ptr<TargetBackend> &backend : registry())
    if (backend->getName() == name)
      return backend.get();
  return nullptr;
}

const TargetBackend &mlir::tcgen::getTargetBackend(StringRef name) {
  if (const TargetBackend *backend = lookupTargetBackend(name))
    return *backend;
  llvm::report_fatal_error(llvm::Twine("tcgen: no back end '") + name +
                           "' is registered (registerTCGenBackends)");
}

std::vector<const TargetBackend *> mlir::tcgen::getTargetBackends() {
  std::vector<const TargetBackend *> out;
  for (const std::unique_ptr<TargetBackend> &backend : registry())
    out.push_back(backend.get());
  return out;
}
