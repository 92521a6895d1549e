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

    The config's decisions steer the kernel: `pack` (which operands are
    copied into padded buffers first, or loaded with cp.async), `prologue`
    (where a fused prologue is applied: regs, smem or pack),
    `epilogue_loads` (how a fused epilogue reads a matrix operand:
    fragments or tma) and `epilogue_in_half` (an epilogue computed on
    16-bit pairs where exact); "auto" leaves each to this pass's rules.

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
  ];
}

def TCGenSM90BuildGroupedPass : Pass<"tcgen-sm90-build-grouped", "ModuleOp"> {
  let summary = "Generate the sm_90a kernel of a grouped product (mixtures of experts)";
  let description = [{
    Replaces each grouped product (tcgen/Analysis/Grouped.h: the
    linalg.generic over (t, n, k, g) that masks each group's product to
    the rows offsets[g] ..< offsets[g + 1]) by a generated sm90 kernel in
    its own `gpu.module`: one persistent launch (a block per SM) whose
    blocks count the groups' tiles from the offsets on the device and walk
    them, A tiles through a 2-d tensor map over all T rows, B tiles through
    a 3-d map at the tile's group, and C stored from registers with the
    rows past the group's end masked. An elementwise consumer of the
    result without extra operands (silu(acc), a cast) is fused into the
    epilogue.

    The config is the op's own `#tcgen.config` where it has one, else the
    default: block [128, N tile, 64] with the widest N tile of 256, 128 or
    64 that divides N (else 128), as many stages as fit. The ABI is recorded
    as by tcgen-sm90-build-kernel (`tcgen.params`: A and B tensor maps, C
    and the offsets by pointer), and the function records the group count
    (`tcgen.groups`) and tags the offsets argument `offsets`.

    Before: `linalg.generic {... (t, n, k, g) ...} ins(%a, %b, %starts, %ends) outs(%c)`
    After:  `gpu.module @f_kernel { gpu.func @f_kernel(%tmA: !llvm.ptr, %tmB: !llvm.ptr, %C: memref<1xT>, %offsets: memref<G+1 x i32>) kernel ... }`
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
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
