//===- Backends.h - Registration of the four back ends ----------*- C++ -*-===//
//
// Each lib/Targets/<T>/Backend.cpp implements the TargetBackend interface
// (tcgen/Config/Backend.h) for its back end; these register them.
// registerTCGenBackends (Pipelines.h) calls all four.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_BACKENDS_H
#define TCGEN_TARGETS_BACKENDS_H

namespace mlir::tcgen {

/// Registers the wmma back end (gpu.subgroup_mma fragments).
void registerWMMABackend();

/// Registers the sm80 back end (ldmatrix and mma.sync, cp.async stages).
void registerSM80Backend();

/// Registers the sm90 back end (whole warp-specialized wgmma kernels).
void registerSM90Backend();

/// Registers the simt back end (whole CUDA-core f32 kernels).
void registerSIMTBackend();

} // namespace mlir::tcgen

#endif // TCGEN_TARGETS_BACKENDS_H
