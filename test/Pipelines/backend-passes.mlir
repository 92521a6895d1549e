// RUN: tcgen-opt %s --tcgen-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: tcgen-opt %s --tcgen-lower-to-nvvm --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM

// Each back end's passes (TargetBackend, tcgen/Config/Backend.h) at their
// places in the pipeline: the whole-kernel generators (sm90, then simt)
// before the generic kernel formation, wmma's MMA mapping after
// tcgen-detect-parallel, sm80's lowering of the lowered kernels before the
// shared memory becomes dynamic, sm90's grid constants at the end of the
// NVVM lowering.
// CHECK:      tcgen-configure
// CHECK:      tcgen-sm90-build-kernel
// CHECK-NEXT: tcgen-simt-build-kernel
// CHECK-NEXT: func.func(
// CHECK-NEXT:   tcgen-lower-contraction
// CHECK:        tcgen-detect-parallel,
// CHECK-NEXT:   tcgen-wmma-map-mma,
// CHECK-NEXT:   tcgen-hoist-accumulators
// CHECK:        tcgen-stage-epilogue,
// CHECK-NEXT:   tcgen-async-copies{wmma=false},
// CHECK-NEXT:   tcgen-prefetch-tiles,
// CHECK:      lower-affine
// CHECK:      func.func(
// CHECK-NEXT:   tcgen-sm80-lower-mma,
// CHECK-NEXT:   tcgen-sm80-swizzle-shared,
// CHECK-NEXT:   tcgen-dynamic-shared-memory

// NVVM:      reconcile-unrealized-casts
// NVVM-NEXT: ),
// NVVM-NEXT: tcgen-sm90-grid-constant
func.func @f() {
  return
}
