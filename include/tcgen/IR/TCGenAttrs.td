//===- TCGenAttrs.td - tcgen dialect and attributes --------*- tablegen -*-===//
//
// The tcgen dialect holds attributes only: the target a module is compiled
// for and the configuration (tile sizes, stages, shared-memory layout) every
// transformation reads. Every heuristic choice lives in #tcgen.config so that
// lit can test the choice apart from the mechanics.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_IR_TCGENATTRS_TD
#define TCGEN_IR_TCGENATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"

def TCGen_Dialect : Dialect {
  let name = "tcgen";
  let cppNamespace = "::mlir::tcgen";
  let summary = "Attributes of the tcgen tensor-core kernel generator";
  let description = [{
    `#tcgen.target<"sm_90a">` names the GPU a module is compiled for;
    `#tcgen.config<...>` carries every choice the generator makes for one
    contraction (block and warp tiles, MMA shape, pipeline stages, padding).
  }];
  let useDefaultAttributePrinterParser = 1;
}

class TCGen_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TCGen_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TCGen_TargetAttr : TCGen_Attr<"Target", "target"> {
  let summary = "The GPU architecture a module is compiled for";
  let description = [{
    `#tcgen.target<"sm_80">`, `#tcgen.target<"sm_90a">`. The architecture
    string is the one ptxas takes. Helpers derive the compute capability and
    the shared-memory budget of one thread block.
  }];
  let parameters = (ins StringRefParameter<"architecture, e.g. sm_90a">:$arch);
  let assemblyFormat = "`<` $arch `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Compute capability as major*10+minor (sm_90a -> 90).
    int getComputeCapability() const;
    /// True for architecture-specific targets (`sm_90a`) whose cubins run
    /// only on that exact capability.
    bool isArchSpecific() const;
    /// Shared memory one thread block may use, in bytes (opt-in maximum).
    int64_t getMaxSharedMemoryPerBlock() const;
  }];
}

def TCGen_ConfigAttr : TCGen_Attr<"Config", "config"> {
  let summary = "Kernel configuration of one contraction";
  let description = [{
    Every choice the generator makes for one contraction:

    ```mlir
    #tcgen.config<backend = "wmma", block = [128, 128, 32], warp = [64, 64, 32],
                  mma = [16, 16, 16], stages = 1, padding = 8, vector = 8>
    ```

    - `block`: thread-block tile [m, n, k]; `warp`: warp tile [m, n, k]; the
      block tile is a multiple of the warp tile, which is a multiple of `mma`.
    - `stages`: shared-memory buffers per operand (1 = single buffer).
    - sm80: a warp tile K smaller than the block tile's splits each k-tile
      over block_k / warp_k warps per (m, n) warp tile (intra-block
      split-K); their partial sums meet in shared memory.
    - `padding`: elements added to each shared-memory row (a multiple of 8
      f16 elements keeps 16-byte row alignment for WMMA loads).
    - `vector`: elements per global->shared copy (8 f16 = 16 bytes).
    - `raster`: tile rows of M walked before the next tile column of N
      (grouped rasterization for L2 reuse; 1 = row-major block order).
    - `persistent`: one block per SM looping over the tiles (sm90).
    - `streamk`: stream-K (sm90, persistent): the k-tiles of the tiles
      that do not fill a whole wave are split evenly over the SMs, and the
      partial accumulators are summed through a global workspace.
    - `cluster`: thread blocks per cluster [m, n] (sm90): with [2, 1] two
      blocks on neighbouring tile rows share each B tile, which TMA
      multicasts (each block loads half of it into both); with [1, 2] they
      share the A tile. [1, 1] is no cluster.
    - `store`: how the kernel writes C (sm90): "global" stores each
      thread's accumulator pairs straight from registers; "tma" stages
      them through shared memory (128B-swizzled chunks, two buffers per
      consumer warpgroup) and writes them with TMA stores that overlap the
      next tile's main loop; "staged" stages them the same way and the
      warpgroup's threads write each chunk out, a row per warp store
      (coalesced), for C whose rows TMA cannot address.
    - `swap`: the kernel computes C^T = B^T A^T (sm90): its M is the
      problem's N and its N the problem's M, so that a small M becomes the
      wgmma's N (down to 8) instead of a 64-row tile mostly of padding; it
      writes C transposed from registers (store = "global"). Printed only
      when true.
    - `pack` (sm90): which operands are copied into buffers with rows a
      multiple of 128 bytes apart before the kernel: "auto" (where TMA
      cannot read the rows, or reads them slowly and the operand is too
      large for L2), "always", "never", "a" / "b" (that operand as with
      always, the other only where TMA cannot read its rows) or "async"
      (rows a multiple of 4 bytes apart are loaded by the producer with
      cp.async instead, in pieces of 16 bytes, or of 8 or 4 where the rows
      are not 16-byte multiples apart).
    - `prologue` (sm90): where a fused prologue is applied: "regs" (on A in
      registers, wgmma's register-A form), "smem" (on each tile in shared
      memory), "pack" (once, by a pack kernel) or "auto" (regs where it
      applies, else smem while each tile is read by at most 8 output
      tiles, else pack).
    - `epilogue_loads` (sm90): how a fused epilogue reads a matrix operand:
      "fragments" (global loads in the accumulators' layout), "tma" (the
      operand's chunk through the TMA-store buffer) or "auto" (tma where
      it applies, else fragments).
    - `epilogue_in_half` (sm90): compute a fused epilogue on f16x2 / bf16x2
      pairs where that gives the same bits as its f32 body.
    The last four are decisions the sm90 back end otherwise takes itself:
    each is printed only when it differs from its default ("auto", or
    false).
    Omitted fields take the defaults shown above (raster = 8,
    persistent = true, streamk = false, cluster = [1, 1], store = "global",
    swap = false, pack = "auto", prologue = "auto", epilogue_loads =
    "auto", epilogue_in_half = false).
  }];
  let parameters = (ins
    StringRefParameter<"backend">:$backend,
    ArrayRefParameter<"int64_t", "block tile [m, n, k]">:$blockTile,
    ArrayRefParameter<"int64_t", "warp tile [m, n, k]">:$warpTile,
    ArrayRefParameter<"int64_t", "MMA instruction shape [m, n, k]">:$mmaShape,
    "int64_t":$stages,
    "int64_t":$padding,
    "int64_t":$vector,
    "int64_t":$raster,
    "bool":$persistent,
    "bool":$streamK,
    ArrayRefParameter<"int64_t", "blocks per cluster [m, n]">:$cluster,
    StringRefParameter<"how C is written: global or tma">:$store,
    "bool":$swap,
    StringRefParameter<"operand packing (sm90)">:$pack,
    StringRefParameter<"where a fused prologue is applied (sm90)">:$prologue,
    StringRefParameter<"how a fused epilogue reads a matrix (sm90)">:
        $epilogueLoads,
    "bool":$epilogueInHalf);
  // The configuration without the back end's own decisions (pack,
  // prologue, epilogue_loads, epilogue_in_half), which take their defaults.
  let builders = [
    AttrBuilder<(ins "StringRef":$backend, "ArrayRef<int64_t>":$blockTile,
                     "ArrayRef<int64_t>":$warpTile,
                     "ArrayRef<int64_t>":$mmaShape, "int64_t":$stages,
                     "int64_t":$padding, "int64_t":$vector, "int64_t":$raster,
                     "bool":$persistent, "bool":$streamK,
                     "ArrayRef<int64_t>":$cluster, "StringRef":$store,
                     "bool":$swap), [{
      return $_get($_ctxt, backend, blockTile, warpTile, mmaShape, stages,
                   padding, vector, raster, persistent, streamK, cluster,
                   store, swap, "auto", "auto", "auto", false);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Warps that share one warp tile's K range (intra-block split-K, sm80):
    /// block_k / warp_k; 1 on the other back ends, whose warps walk the
    /// block's K range themselves.
    int64_t getKSplits() const;
    /// Warps per thread block: (block_m / warp_m) * (block_n / warp_n) *
    /// getKSplits().
    int64_t getNumWarps() const;
    /// Threads per thread block.
    int64_t getNumThreads() const { return getNumWarps() * 32; }
    /// This config with the sm90 back end's decisions replaced.
    ConfigAttr withDecisions(StringRef pack, StringRef prologue,
                             StringRef epilogueLoads,
                             bool epilogueInHalf) const;
    /// Why `value` is not a valid value of the decision field `field`
    /// (pack, prologue, epilogue_loads), or "" if it is.
    static std::string checkDecision(StringRef field, StringRef value);
  }];
}

#endif // TCGEN_IR_TCGENATTRS_TD
