//===- Passes.td - tcgen target-neutral transformations ----*- tablegen -*-===//
//
// The paper pipeline's target-neutral steps, in pipeline order. Each pass
// works on the loop nest of one contraction, whose loops carry a
// `tcgen.loop` tag naming their role (block_m, warp_n, point_k, copy, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TRANSFORMS_PASSES_TD
#define TCGEN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenFuseElementwisePass : Pass<"tcgen-fuse-elementwise", "func::FuncOp"> {
  let summary = "Merge chains of elementwise ops on tensors into one generic";
  let description = [{
    Runs on tensors, before bufferization, so that the pointwise DAG that
    consumes a contraction's result becomes a single `linalg.generic` the
    back end can compute in the kernel's epilogue (seed 001 section 6).
    Elementwise named ops (`linalg.add`, `linalg.max`, `linalg.exp`,
    `linalg.elementwise`, ...) are generalized first; contractions, fills
    and copies are left alone. A producer is fused into its consumer when
    both are elementwise generics and the producer has no other user (so no
    work is duplicated): `relu(C + D)` written as two ops becomes one
    generic reading C and D.

    Before: `%s = linalg.add ins(%mm, %d)` ; `%r = linalg.max ins(%s, %zero)`
    After:  `%r = linalg.generic ins(%mm, %d, %zero) { addf ; maximumf }`
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TCGenSplitSharedFillsPass
    : Pass<"tcgen-split-shared-fills", "func::FuncOp"> {
  let summary = "Give each contraction its own fill of its initial value";
  let description = [{
    Runs on tensors, first. A `linalg.fill` of a `tensor.empty` whose result
    initializes several contractions (two products written from one zero
    tensor, as in a gated MLP's `silu(X W1) * (X W3)`) is cloned, with its
    empty tensor, for every contraction after the first that reads it.
    Bufferization then gives each product its own buffer, written from the
    fill, instead of filling one and copying it for the other, and the
    back end sees each contraction start from its own zero fill (a dual
    GEMM, add(gemm, gemm)).

    Before: `%f = fill(0, empty)` ; `%p = matmul(%A, %B, %f)` ;
            `%q = matmul(%A, %B2, %f)`
    After:  `%f = fill(0, empty)` ; `%p = matmul(%A, %B, %f)` ;
            `%f2 = fill(0, empty)` ; `%q = matmul(%A, %B2, %f2)`
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TCGenChainContractionsPass
    : Pass<"tcgen-chain-contractions", "func::FuncOp"> {
  let summary = "Turn add(gemm, gemm) into one accumulation";
  let description = [{
    Runs on tensors, before the elementwise fusion. An elementwise sum of
    two contraction results (a `linalg.add`, or a generic whose body is one
    `addf` of its two inputs, identity maps), where both contractions start
    from a zero fill and have no other use, becomes the later contraction
    accumulating onto the earlier one's result (seed 004's add(gemm, gemm)):
    the back end then computes both products in one kernel, into one set
    of f32 accumulators, and rounds once. Pointwise consumers of the sum
    stay consumers of the chained result (the fused epilogue).

    Before: `%p = matmul(%A, %B, zeros)` ; `%q = matmul(%A2, %B2, zeros)` ;
            `%s = linalg.add ins(%p, %q)`
    After:  `%p = matmul(%A, %B, zeros)` ; `%s = matmul(%A2, %B2, %p)`
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TCGenPeelAccumulatorInitPass
    : Pass<"tcgen-peel-accumulator-init", "func::FuncOp"> {
  let summary = "Move a computed contraction init into an elementwise add";
  let description = [{
    Runs on tensors, before tcgen-fuse-elementwise. A contraction whose
    initial value (its `outs` operand) is computed by an elementwise op
    (all loops parallel, broadcasts allowed: `relu(C)`, a bias broadcast
    along M, `alpha * C`) is rewritten as the same contraction started from
    zero, followed by an elementwise `addf` of the product and that value.
    The fusion pass then merges the init's computation into the add, so the
    transformed C input becomes part of the kernel's fused epilogue (seed
    001's ReLU on C) and the kernel keeps its C = A*B main loop. A
    contraction initialized by a fill, a function argument or another
    contraction is left alone. The sum is computed on the product rounded
    to the init's type (like any fused epilogue), not inside the f32
    accumulators.

    Before: `%r = relu(%C)` ; `%d = linalg.matmul ins(%A, %B) outs(%r)`
    After:
    ```mlir
    %z = linalg.fill ins(%zero) outs(tensor.empty())
    %p = linalg.matmul ins(%A, %B) outs(%z)
    %d = linalg.generic ins(%p, %r) outs(tensor.empty()) { addf }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TCGenCollapseDimsPass : Pass<"tcgen-collapse-dims", "func::FuncOp"> {
  let summary = "Collapse several batch, M, N or K dimensions into one";
  let description = [{
    Runs on memrefs, after bufferization. A contraction with several
    dimensions of one role (batch, M, N or K; `linalg::inferContractionDims`)
    becomes the canonical matmul or batched matmul when the layout allows
    (seed 001 section 5): every operand that uses the role holds its
    dimensions next to each other, in one order, and is a contiguous
    function argument. Then each role's run of dimensions is one dimension
    of their product, as a reshape of the same memory: the function's
    argument types change to the collapsed ones (so the kernel bundle
    describes those; a caller passes the same buffers viewed collapsed), the
    contraction is rebuilt on one loop per role, and a `linalg.fill` of an
    argument follows its new type. Contractions that do not collapse (roles
    in different orders, operands that are not arguments or have other
    users) are left alone; the analysis names the problem.

    Before: `linalg.generic` over (b, h, q, k, d) with A[b,h,q,d],
            B[b,h,k,d], C[b,h,q,k] (two batch dimensions)
    After:  `linalg.generic` over (b, q, k, d) with A[b*h,q,d], B[b*h,k,d],
            C[b*h,q,k], arguments of those types
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TCGenLowerContractionPass : Pass<"tcgen-lower-contraction", "func::FuncOp"> {
  let summary = "Lower configured contractions to a tagged affine loop nest";
  let description = [{
    Lowers each `linalg.matmul` carrying a `#tcgen.config` to the canonical
    3-d affine nest (m, n, k) of scalar loads, multiply-adds and stores. The
    outermost loop keeps the config; each loop gets `tcgen.loop = "m" | "n" |
    "k"`. A zero `linalg.fill` of the output directly before the matmul is
    folded in: the nest is marked `tcgen.overwrite` (C = A*B; the kernel never
    reads C). The operands must be function arguments; they are tagged
    `tcgen.operand = "A" | "B" | "C"` for the kernel ABI.

    Before: `linalg.matmul {tcgen.config = ...} ins(%A, %B) outs(%C)`
    After:
    ```mlir
    affine.for %i = 0 to 128 {
      affine.for %j = 0 to 128 {
        affine.for %k = 0 to 64 {
          %a = affine.load %A[%i, %k]  ...  affine.store %s, %C[%i, %j]
        } {tcgen.loop = "k"}
      } {tcgen.loop = "n"}
    } {tcgen.config = #tcgen.config<...>, tcgen.loop = "m"}
    ```
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"false",
           "The K loop's tile copies of wmma kernels become cp.async stages "
           "(tcgen-async-copies{wmma}): a pointwise producer of A (or else "
           "B) is then fused as a prologue, as on sm80, which tcgen-apply-"
           "prologue applies to the copied chunks">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def TCGenTilePass : Pass<"tcgen-tile", "func::FuncOp"> {
  let summary = "Two-level tiling: thread-block tiles, then warp tiles";
  let description = [{
    Tiles the (m, n, k) nest of each configured contraction twice, with the
    block tile and then the warp tile of its `#tcgen.config` (paper §3.2):
    `(m, n, k)` becomes `(block_m, block_n, block_k, warp_m, warp_n, warp_k,
    point_m, point_n, point_k)`, each loop tagged with its role.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def TCGenPromoteOperandsPass : Pass<"tcgen-promote-operands", "func::FuncOp"> {
  let summary = "Copy the A and B tiles into padded shared memory";
  let description = [{
    At the top of each `block_k` iteration, copies the block's A tile
    (block_m x block_k) and B tile (block_k x block_n) into workgroup-memory
    buffers (`memref.global` in address space 3) whose rows are padded by the
    config's `padding` elements, and redirects the compute loads to them.
    Barriers go before the copies (the previous iteration's readers are done)
    and after them (the tile is complete). Copy nests are tagged
    `tcgen.loop = "copy_row" / "copy_col"` and `tcgen.copy = "A" | "B"`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TCGenDetectParallelPass : Pass<"tcgen-detect-parallel", "func::FuncOp"> {
  let summary = "Mark the loops that carry no dependence through global memory";
  let description = [{
    Runs affine dependence analysis on every loop of each configured nest and
    tags the loops that carry no dependence through global memory with
    `tcgen.parallel` (paper §3.2: parallel loops are detected after the shared
    buffers exist). Accesses to shared memory (address space 3) are left out:
    each thread block owns its tiles, and every copy of a tile writes the same
    values, so they order nothing between blocks or warps. The k loops carry
    the accumulation and stay sequential; tcgen-map-to-gpu maps only loops
    that this pass proved parallel.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def TCGenHoistAccumulatorsPass : Pass<"tcgen-hoist-accumulators", "func::FuncOp"> {
  let summary = "Permute loops, unroll the warp tile, carry accumulators in registers";
  let description = [{
    The paper's §3.3 restructuring, after the MMA mapping:
    1. sinks `block_k` below `warp_m`/`warp_n` ((k, ii, jj) -> (ii, jj, k));
       legal because the copies at the top of `block_k` depend on k only;
    2. permutes the point loops (m, n, k) -> (k, m, n) and unrolls them fully;
    3. hoists the accumulator loads and stores out of `warp_k` and `block_k`:
       accumulators become `iter_args`, loaded (or zero-initialized for
       `tcgen.overwrite`) before the k loops and stored once after them;
    4. removes redundant A/B fragment loads (CSE: the unroll-jam effect).
  }];
  let options = [
    Option<"unroll", "unroll", "bool", /*default=*/"true",
           "Fully unroll the point loops (steps 2 and 4)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TCGenVectorizeCopiesPass : Pass<"tcgen-vectorize-copies", "func::FuncOp"> {
  let summary = "Vectorize global->shared copy loops (128-bit accesses)";
  let description = [{
    Rewrites the inner loop of each copy nest to move `vector` elements (the
    config's field, 8 f16 = 16 bytes) per iteration with
    `affine.vector_load` / `affine.vector_store` (paper §3.5).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::vector::VectorDialect"];
}

def TCGenMapToGPUPass : Pass<"tcgen-map-to-gpu", "func::FuncOp"> {
  let summary = "Map the tiled nest to blocks, warps and threads in a gpu.launch";
  let description = [{
    Replaces each configured nest with a `gpu.launch` (paper §3.6): the
    `block_m`/`block_n` loops become the grid (y, x), the `warp_m`/`warp_n`
    loops become the warp index within the block, and every copy nest is
    collapsed and distributed over all threads of the block. The launch
    sizes follow from the tile sizes: grid = (N / block_n, M / block_m),
    block = 32 x warps threads. With `raster = R > 1` in the config the
    launch's linear block index walks R tile rows column by column, then the
    next R rows (grouped order: the blocks resident at one time share A and
    B panels in L2).

    Copy order: with `reorder-copies` (the default) the threads walk each
    copied tile in the order that a small model of the hardware
    (SharedBanks.h) finds cheapest: shared-memory store wavefronts (32 banks
    of 4 bytes, 16-byte stores in phases of 8 threads) plus the global lines
    each phase loads. Row-major (consecutive threads take consecutive chunks
    of a row) is kept on a tie. For rows of 4 chunks padded by 8 f16 (80
    bytes apart), row-major makes each phase store rows r and r + 1, which
    share banks; visiting the rows of each group of 8 as 0 4 1 5 2 6 3 7
    makes a phase store rows r and r + 4, 320 bytes apart (the two halves of
    a bank line), from the same two global lines. This goes beyond the
    paper, whose copies store 2-way conflicted into rows padded by 8 f16.
  }];
  let options = [
    Option<"reorderCopies", "reorder-copies", "bool", /*default=*/"true",
           "Walk each copied tile in the order with the fewest shared-memory "
           "store wavefronts and global lines (row-major on a tie)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TCGenPrefetchTilesPass : Pass<"tcgen-prefetch-tiles", "func::FuncOp"> {
  let summary = "Hide global-load latency: load the next K tile into registers";
  let description = [{
    Software-pipelines the `block_k` loop of each mapped kernel (paper §3.4,
    §3.7): the copy loops are unrolled, the first tile is copied before the
    loop, and each iteration loads the *next* tile from global memory into
    registers before computing on the current one, then stores the registers
    to shared memory after the compute. The last tile's compute is peeled.

    Before (one iteration):  barrier; copy(k); barrier; compute(k)
    After:
    ```
    copy(lb); barrier
    for k in [lb, ub - step): r = load(k + step); compute(k); barrier;
                              store(r); barrier
    compute(ub - step)
    ```
    With `stages = 2` in the kernel's #tcgen.config (double-buffered shared
    memory, beyond the paper), each shared buffer gets a twin (a second
    `memref.global`, `<name>_1`): tile i lives in buffer i % 2, so the
    stores of tile k + 1 never touch the buffer the compute of tile k reads,
    and the barrier between the compute and the stores goes away:
    ```
    copy(lb) -> buf0; barrier
    for k: r = load(k + step); compute(k) from buf[i % 2];
           store(r) -> buf[(i + 1) % 2]; barrier
    ```
    The buffer of an iteration is an `arith.select` on its parity.

    Runs after tcgen-map-to-gpu, when each thread's share of a copy is a
    constant number of vector moves. A loop of one iteration is left alone.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TCGenBuildPointwisePass : Pass<"tcgen-build-pointwise", "ModuleOp"> {
  let summary = "Compile pointwise ops left outside the kernels as kernels of their own";
  let description = [{
    A pointwise consumer that could not be fused into its contraction's
    kernel (its input is a function argument the caller can observe, say:
    the remark at the contraction says why) would otherwise be dropped.
    Each 2-d elementwise op still in a host function whose operands are
    all function arguments (findStandalonePointwise: an [m, n] output, an
    [m, n] input `X`, and scalars, row or column vectors or matrices as
    the other inputs, with a body the epilogues accept) becomes a kernel
    in its own `gpu.module` (`<func>_pointwise<i>`): 256 threads per
    block, each handling W consecutive elements of a row at a time (W the
    largest of 8, 4, 2 and 1 that divides n: vector loads and stores),
    grid-stride over the matrix; the op's body, cloned per element, is
    computed in the op's own types. The op is erased with a remark naming
    the kernel. The `gpu.func` carries its ABI (`tcgen.params`: every
    operand by pointer; `tcgen.launch`; `tcgen.operand_args`: the host
    function's argument of each parameter; `tcgen.pointwise`: the body
    as the manifest's op.epilogue) and `tcgen compile` writes it as a
    bundle of its own (op kind `pointwise`). Ops it cannot take stay, and
    tcgen-verify-lowered names them with the reason.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect"];
}

def TCGenVerifyLoweredPass : Pass<"tcgen-verify-lowered", "func::FuncOp"> {
  let summary = "Reject computation left outside the generated kernels";
  let description = [{
    Runs last in the kernel-formation pipeline. tcgen emits the kernels of
    contractions (with the pointwise consumers it fused) and nothing for the
    rest of a host function, so a linalg op still there would be dropped
    from the compiled result without a word. Each one is an error naming
    it; the remarks of the earlier passes say why it was not fused.
  }];
}

def TCGenAsyncCopiesPass : Pass<"tcgen-async-copies", "func::FuncOp"> {
  let summary = "Pipeline the K loop's tile copies as cp.async in S stages";
  let description = [{
    An alternative to tcgen-prefetch-tiles (seed 003's multi-stage
    pipeline): the vectorized global->shared copies of the K loop become
    `nvgpu.device_async_copy` (cp.async, 16-byte copies bypass L1) into S
    stages of shared buffers (S = the config's stages, 2 to 8; the buffers
    `<name>_1` .. `<name>_<S-1>` are copies of the first). Tiles 0 .. S-2
    are issued before the loop, one commit group each; iteration i waits
    until at most S - 2 groups are pending (tile i has landed), meets the
    other threads at one barrier, issues tile i + S - 1 into stage
    (i + S - 1) % S, which iteration i - 1 read (the barrier separates
    them), and computes tile i from stage i % S while S - 1 tiles are in
    flight. Every iteration commits a group, empty past the last tile, so
    the wait count stays S - 2 to the end.
    One barrier per K tile, no registers staged.

    The K loops of `sm80` kernels are always pipelined this way (it is that
    back end's pipeline); those of `wmma` kernels only with `wmma = true`
    (`tcgen compile --async-copies`; otherwise tcgen-prefetch-tiles takes
    them).

    Before: `affine.for %k { barrier ; copies ; barrier ; compute }`
    After:
    ```mlir
    nvgpu.device_async_copy ... (tile 0) ; nvvm.cp.async.commit.group ...
    affine.for %k {
      nvvm.cp.async.wait.group S-2 ; gpu.barrier
      scf.if (k + S - 1 < K) { nvgpu.device_async_copy ... }
      nvvm.cp.async.commit.group ; compute(stage k % S)
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"wmma", "wmma", "bool", /*default=*/"true",
           "Also pipeline the K loops of wmma kernels (sm80 kernels always)">,
  ];
}

def TCGenSplitKReducePass : Pass<"tcgen-split-k-reduce", "func::FuncOp"> {
  let summary = "Sum the partial accumulators of intra-block split-K";
  let description = [{
    With intra-block split-K (an sm80 config whose warp tile K is smaller
    than the block tile's: `#tcgen.config.getKSplits() > 1`, seed 004
    IV-E), tcgen-map-to-gpu gives each of the block_k / warp_k warps of one
    (m, n) warp tile its own share of every k-tile, so after the K loop each
    holds a partial sum of the tile's C fragments. This pass reduces them
    through shared memory before C is written: the warps with warpK > 0
    store their fragments into a shared scratch buffer (one 16x16 slot per
    warp and fragment: `[(splits - 1) * warps_mn * fragments * 16][16]`),
    all threads meet at a barrier, and the warps with warpK = 0 add the
    partials to their own fragments and store C as before.

    ```mlir
    scf.if (warpK != 0) { gpu.subgroup_mma_store_matrix %f, %scratch[slot(warpK - 1, f)] }
    gpu.barrier
    scf.if (warpK == 0) {
      %p = gpu.subgroup_mma_load_matrix %scratch[slot(s, f)] ...
      %sum = gpu.subgroup_mma_elementwise addf %f, %p
      gpu.subgroup_mma_store_matrix %sum, %C[...]
    }
    ```
    C += A*B is refused (every share would add C); so are C stores that
    are not fragment stores after the K loop.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TCGenStageEpiloguePass : Pass<"tcgen-stage-epilogue", "func::FuncOp"> {
  let summary = "Write C through shared memory with 16-byte stores";
  let description = [{
    For kernels whose config says `store = "staged"` (sm80; the sm90 back
    end stages its own), replaces each warp's C fragment stores after the
    K loop by a store through shared memory (seed 004): one fragment row
    (16 rows of the warp tile) at a time, the warp writes its fragments into
    its 16-row slab of a shared buffer, synchronizes (`bar.warp.sync`),
    copies the slab to C in 16-byte vectors (lane l takes chunks l, l + 32,
    ...: each warp store covers whole rows of the warp tile, contiguous in
    C) and synchronizes again before the next fragment row. The fragment
    stores must form the row-major grid tcgen-hoist-accumulators unrolls
    (row index shared along a row, column index along a column), in one
    block; anything else is an error.

    Before: `gpu.subgroup_mma_store_matrix %f, %C[%r, %c]` (16 per warp)
    After:
    ```mlir
    gpu.subgroup_mma_store_matrix %f, %slab[%warp * 16, 16 j] ...   // j = 0..3
    nvvm.bar.warp.sync %all
    %v = vector.load %slab[%warp * 16 + row, col] : ..., vector<4xf32>
    vector.store %v, %C[%r + row, %c + col] : ..., vector<4xf32>         // x 8
    nvvm.bar.warp.sync %all
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def TCGenApplyProloguePass : Pass<"tcgen-apply-prologue", "func::FuncOp"> {
  let summary = "Apply a fused producer of A or B to the cp.async tiles";
  let description = [{
    For a function whose pointwise producer of A or B tcgen-lower-contraction
    chose as a prologue (sm80; the producer carries
    `tcgen.prologue_sources`, the contraction reads the producer's input):
    in each K loop pipelined by tcgen-async-copies, every thread rewrites
    the 16-byte chunks it copied itself, once its own copies of the k-tile
    have landed (after `cp.async.wait.group`) and before the barrier after
    which the other warps read them: load, the producer's body per element,
    store. No extra barrier is needed, and the shared indices are those of
    the thread's copies (the same in every stage). The producer and its
    buffer are erased.

    Before: `nvvm.cp.async.wait.group N ; gpu.barrier ; ...`
    After:
    ```mlir
    nvvm.cp.async.wait.group N
    %v = vector.load %stage[%r, %c] : memref<..., 3>, vector<8xf16>
    ... the body on each element ...
    vector.store %w, %stage[%r, %c]
    gpu.barrier
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TCGenDynamicSharedMemoryPass
    : Pass<"tcgen-dynamic-shared-memory", "func::FuncOp"> {
  let summary = "Move a kernel's shared tiles into dynamic shared memory";
  let description = [{
    Static shared memory is limited to 48 KiB per block; deeper pipelines
    need more. For each `gpu.launch` whose static shared buffers (the
    `memref.global`s in address space 3 it reads with `memref.get_global`)
    take more than `static-limit` bytes, the buffers become `memref.view`s
    at 128-byte aligned offsets of one dynamic region
    (`@__tcgen_dsmem`, an external shared array), and the launch's
    `dynamic_shared_memory_size` is set to the region's size; the runtime
    raises the kernel's limit above 48 KiB (docs/BUNDLE.md). Buffers no
    longer read anywhere are erased. Launches within the limit are left
    alone.

    Before: `%a = memref.get_global @__tcgen_smem_A : memref<128x32xf16, 3>`
    After:
    ```mlir
    %g = memref.get_global @__tcgen_dsmem : memref<0xi8, 3>
    %d = memref.reinterpret_cast %g to offset: [0], sizes: [65536], strides: [1]
        : memref<0xi8, 3> to memref<65536xi8, 3>
    %a = memref.view %d[%c0][] : memref<65536xi8, 3> to memref<128x32xf16, 3>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"staticLimit", "static-limit", "int64_t", /*default=*/"49152",
           "Static shared memory a launch may keep, in bytes">,
  ];
}

#endif // TCGEN_TRANSFORMS_PASSES_TD
