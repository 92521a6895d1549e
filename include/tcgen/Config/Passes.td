//===- Passes.td - tcgen configuration passes --------------*- tablegen -*-===//

#ifndef TCGEN_CONFIG_PASSES_TD
#define TCGEN_CONFIG_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenConfigurePass : Pass<"tcgen-configure", "func::FuncOp"> {
  let summary = "Recognize contractions and attach a #tcgen.config to each";
  let description = [{
    For every contraction (`linalg.matmul`), checks that tcgen can compile it
    (static sizes, f16 or bf16 inputs, f16/bf16/f32 output, row-major
    operands), chooses the back end (`backend` option, else sm90 on sm_90a
    for C = A*B and wmma otherwise), chooses a configuration (the back end's
    default for the problem, overridden field by field by the options; for
    sm90 the warp tile, wgmma shape and stages follow from the block tile)
    and checks that it fits the problem, the back end and the target's
    shared memory. The target is the module's `tcgen.target` attribute
    (default `sm_90a`).

    Before: `linalg.matmul ins(%a, %b : ...) outs(%c : ...)`
    After:  `linalg.matmul {tcgen.config = #tcgen.config<...>} ins(...) outs(...)`

    For sm90 the default is the tile-size model's first choice
    (docs/DESIGN.md). With `tuning-cache`, a configuration measured by
    `tcgen tune` for the same problem (target, dtypes, sizes, layouts,
    fused epilogue) on `device` replaces it, and the device's calibrated
    model constants, if the cache holds them, drive the model; the other
    options still override either field by field.

    The sm90 back end's own decisions (`pack`, `prologue`,
    `epilogue_loads`, `epilogue_in_half`) are fields of the config too: an
    option sets one, otherwise the tuned record's stands, else the back
    end's default ("auto": it decides while building the kernel). Other
    back ends take none of them (the options are checked, then ignored).

    An op that already carries a config keeps it (it is still checked).
  }];
  let options = [
    ListOption<"blockTile", "block-tile", "int64_t",
               "Thread-block tile [m, n, k] (default: the target's)">,
    ListOption<"warpTile", "warp-tile", "int64_t",
               "Warp tile [m, n, k] (default: the target's)">,
    ListOption<"threadTile", "thread-tile", "int64_t",
               "Thread tile [m, n] of the simt back end (its config's mma "
               "field, [m, n, 1]; default: the model's)">,
    Option<"backend", "backend", "std::string", /*default=*/"\"\"",
           "Back end (wmma, sm80, sm90 or simt; default: the target's, simt for f32 inputs without allow-tf32)">,
    Option<"padding", "padding", "int64_t", /*default=*/"-1",
           "Shared-memory row padding in elements (-1: default)">,
    Option<"vector", "vector", "int64_t", /*default=*/"-1",
           "Elements per global->shared copy (-1: default)">,
    Option<"raster", "raster", "int64_t", /*default=*/"-1",
           "Tile rows per raster group (1: row-major; -1: default)">,
    Option<"persistent", "persistent", "int", /*default=*/"-1",
           "Persistent blocks: 1 yes, 0 no, -1 default">,
    Option<"streamK", "stream-k", "int", /*default=*/"-1",
           "Stream-K on sm90: 1 yes, 0 no, -1 default (by wave efficiency)">,
    ListOption<"cluster", "cluster", "int64_t",
               "Blocks per cluster [m, n] on sm90 (default: the target's)">,
    Option<"swap", "swap", "int", /*default=*/"-1",
           "sm90: compute C^T = B^T A^T, the block tile in its terms (M "
           "the problem's N): 1 yes, 0 no, -1 default">,
    Option<"store", "store", "std::string", /*default=*/"\"\"",
           "How C is written on sm90: global or tma (default: the target's)">,
    Option<"tuningCache", "tuning-cache", "std::string", /*default=*/"\"\"",
           "Tuning cache file written by tcgen tune (empty: none)">,
    Option<"device", "device", "std::string", /*default=*/"\"\"",
           "Device whose tuning-cache records apply (empty: the only device "
           "in the cache)">,
    Option<"modelRank", "model-rank", "int64_t", /*default=*/"0",
           "Take the tile-size model's candidate of this rank instead of "
           "its first (tcgen compile retries with the next ones when a "
           "kernel spills)">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Accept f32 x f32 contractions on the sm90 back end, whose tensor "
           "cores read f32 operands as tf32 (10-bit mantissas; f32 "
           "accumulation)">,
    Option<"pack", "pack", "std::string", /*default=*/"\"\"",
           "sm90: which operands are copied into buffers with rows a "
           "multiple of 128 bytes apart before the kernel: auto, always, "
           "never, a, b or async (the config's `pack`; empty: the "
           "config's own, else auto)">,
    Option<"prologue", "prologue", "std::string", /*default=*/"\"\"",
           "sm90: where a fused prologue is applied: auto, regs, smem or "
           "pack (the config's `prologue`; empty: the config's own, else "
           "auto)">,
    Option<"epilogueLoads", "epilogue-loads", "std::string",
           /*default=*/"\"\"",
           "sm90: how a fused epilogue reads a matrix operand: auto, "
           "fragments or tma (the config's `epilogue_loads`; empty: the "
           "config's own, else auto)">,
    Option<"epilogueInHalf", "epilogue-in-half", "bool", /*default=*/"false",
           "sm90: compute a fused epilogue on f16x2 / bf16x2 pairs where "
           "that gives the same bits as its f32 body (the config's "
           "`epilogue_in_half`; false: the config's own)">,
    Option<"stages", "stages", "int64_t", /*default=*/"-1",
           "Stages of shared operand buffers (-1: default; wmma: 2 where "
           "two fit in static shared memory, else 1; sm90: as many as the "
           "shared memory holds)">,
  ];
  let dependentDialects = ["::mlir::tcgen::TCGenDialect"];
}

def TCGenAttachTargetPass : Pass<"tcgen-attach-target", "ModuleOp"> {
  let summary = "Attach #tcgen.target to the module";
  let description = [{
    Sets the module's `tcgen.target` attribute, which every later choice
    reads: `--tcgen-attach-target=arch=sm_80` makes lit cover any
    architecture on a machine without a GPU.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_90a\"",
           "Target architecture (sm_80, sm_90a, ...)">,
  ];
  let dependentDialects = ["::mlir::tcgen::TCGenDialect"];
}

#endif // TCGEN_CONFIG_PASSES_TD
