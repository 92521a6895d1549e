//===- Passes.td - tcgen sm90 target passes ----------------*- tablegen -*-===//

#ifndef TCGEN_TARGETS_SM90_PASSES_TD
#define TCGEN_TARGETS_SM90_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenSM90BuildKernelPass : Pass<"tcgen-sm90-build-kernel", "ModuleOp"> {
  let summary = "Generate warp-specialized wgmma + TMA kernels for sm_90a";
  let description = [{
    Replaces each contraction whose `#tcgen.config` selects the `sm90` back
    end by a generated kernel in its own `gpu.module`: TMA loads of the A and
    B tiles into 128B-swizzled shared memory through a ring of `stages`
    full/empty mbarrier pairs, one producer warpgroup (registers lowered with
    setmaxnreg) whose first thread issues the loads, and block_m / 64
    consumer warpgroups (registers raised) that issue `wgmma.mma_async`
    m64nNk16 with descriptors computed by the generator and write their
    64 x N accumulator slab to C.

    The kernel's ABI is recorded on the `gpu.func` (`tcgen.params`: the
    A and B tensor maps by value, C by pointer; `tcgen.launch`: grid, block
    and dynamic shared memory), and the contraction is erased from the host
    function, which keeps its tagged operands.

    An elementwise consumer of the result (a linalg.generic reading it with
    the identity map; see findEpilogue for the legality rules) is fused:
    the kernel computes the consumer's body on the accumulators in
    registers, loads its extra operands (scalars, row or column vectors,
    matrices: kernel parameters E0, E1, ...) in the accumulator layout and
    writes the consumer's output as C; the host function records the body
    for the manifest (`tcgen.fused_epilogue`). A consumer that cannot be
    fused stays, with a remark saying why.

    Before: `linalg.fill` (zero) + `linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", ...>}`
    After:  `gpu.module @f_kernel { gpu.func @f_kernel(%tmA: !llvm.ptr, %tmB: !llvm.ptr, %C: memref<...>) kernel ... }`
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"true",
           "Compute an elementwise consumer of the result in the kernel's "
           "epilogue">,
    Option<"pack", "pack", "std::string", /*default=*/"\"auto\"",
           "Copy A or B into a buffer with rows a multiple of 128 bytes "
           "apart before the kernel (a pack kernel in the same module): "
           "auto (where TMA cannot read the rows, not a multiple of 16 "
           "bytes apart, or reads them slowly, not a multiple of 128 bytes, "
           "and the operand is too large for L2), always "
           "(whenever the rows are not a multiple of 128 bytes apart), "
           "never, a / b (that operand as with always, the other only "
           "where TMA cannot read its rows), or async (no copy where the "
           "rows are a multiple of 16 bytes apart: the producer warpgroup "
           "loads such an operand with cp.async instead of TMA; the others "
           "as with auto)">,
    Option<"epilogueLoads", "epilogue-loads", "std::string",
           /*default=*/"\"auto\"",
           "How a fused epilogue reads a matrix operand: fragments (each "
           "thread loads its accumulators' pairs from global memory), tma "
           "(the operand's chunk is loaded with TMA into the TMA-store chunk "
           "buffer, where each thread finds its pairs at its store "
           "addresses; one operand of C's dtype, TMA stores, whole chunks, "
           "no batch, stream-K or cluster), or auto (tma where it applies, "
           "else fragments)">,
    Option<"epilogueInHalf", "epilogue-in-half", "bool", /*default=*/"false",
           "Compute a fused epilogue on f16x2 / bf16x2 pairs where that "
           "gives the same bits as its f32 body (one add, sub or mul, then "
           "max / min / neg, constants the 16-bit type holds; not yet "
           "measured on a GPU, so off by default)">,
    Option<"prologueMode", "prologue", "std::string", /*default=*/"\"auto\"",
           "Where a fused prologue is applied: regs (on A only: the "
           "consumers load A's tile into registers with ldmatrix, transform "
           "it there and multiply with wgmma's register-A form; 16-bit A), "
           "smem (each block rewrites the operand's tiles in "
           "shared memory, once per tile that reads them), pack (a pack "
           "kernel transforms the operand once, into a copy the kernel "
           "reads) or auto (regs where it applies, else smem while the "
           "operand's tiles are read by at most 8 output tiles each, else "
           "pack)">,
  ];
}

def TCGenSM90GridConstantPass : Pass<"tcgen-sm90-grid-constant", "ModuleOp"> {
  let summary = "Mark tensor-map kernel parameters __grid_constant__ by value";
  let description = [{
    After the NVVM lowering, gives every lowered kernel parameter that
    `tcgen.params` names a tensor map the attributes of a CUDA
    `const __grid_constant__ CUtensorMap` parameter:
    `{llvm.byval = !llvm.array<128 x i8>, llvm.align = 64, nvvm.grid_constant}`,
    so PTX declares `.param .align 64 .b8 p[128]` and TMA reads the map from
    the parameter space.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

#endif // TCGEN_TARGETS_SM90_PASSES_TD
