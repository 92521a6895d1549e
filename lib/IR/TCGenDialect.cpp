//===- TCGenDialect.cpp - tcgen dialect and attributes ----------*- C++ -*-===//
//
// This file implements the tcgen dialect: #tcgen.target and #tcgen.config,
// their verifiers and the config's key = value syntax with defaults.
//
//===----------------------------------------------------------------------===//

#include "tcgen/IR/TCGenDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tcgen;

#include "tcgen/IR/TCGenDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tcgen/IR/TCGenAttrs.cpp.inc"

void TCGenDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tcgen/IR/TCGenAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

/// Parses "sm_XY" or "sm_XYa" into XY; returns -1 when malformed.
static int parseComputeCapability(StringRef arch) {
  if (!arch.consume_front("sm_"))
    return -1;
  arch.consume_back("a");
  int cc = 0;
  if (arch.size() < 2 || arch.getAsInteger(10, cc))
    return -1;
  return cc;
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef arch) {
  int cc = parseComputeCapability(arch);
  if (cc < 0)
    return emitError() << "malformed target architecture '" << arch
                       << "' (expected sm_XY or sm_XYa, e.g. sm_90a)";
  if (cc < 70)
    return emitError() << "target '" << arch
                       << "' has no tensor cores usable by tcgen (need sm_70 "
                          "or later)";
  // The architectures the generated PTX (ISA 8.3) and LLVM's NVPTX back end
  // know; the arch-specific "a" form exists for sm_90 only.
  static constexpr int kKnown[] = {70, 72, 75, 80, 86, 87, 89, 90};
  if (!llvm::is_contained(kKnown, cc) || (arch.ends_with("a") && cc != 90))
    return emitError() << "unsupported target '" << arch
                       << "' (tcgen generates code for sm_70, sm_72, sm_75, "
                          "sm_80, sm_86, sm_87, sm_89, sm_90 and sm_90a)";
  return success();
}

int TargetAttr::getComputeCapability() const {
  return parseComputeCapability(getArch());
}

bool TargetAttr::isArchSpecific() const { return getArch().ends_with("a"); }

int64_t TargetAttr::getMaxSharedMemoryPerBlock() const {
  // Opt-in maxima from the CUDA programming guide's compute capability table.
  switch (getComputeCapability()) {
  case 70:
    return 96 * 1024;
  case 75:
    return 64 * 1024;
  case 80:
    return 163 * 1024;
  case 86:
  case 89:
    return 99 * 1024;
  default:
    return 227 * 1024; // sm_90 and later
  }
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

namespace {
/// Defaults of every #tcgen.config field (the syntax lets any be omitted).
struct ConfigFields {
  std::string backend = "wmma";
  SmallVector<int64_t> block = {128, 128, 32};
  SmallVector<int64_t> warp = {64, 64, 32};
  SmallVector<int64_t> mma = {16, 16, 16};
  int64_t stages = 1;
  int64_t padding = 8;
  int64_t vector = 8;
  int64_t raster = 8;
  bool persistent = true;
  bool streamK = false;
  SmallVector<int64_t> cluster = {1, 1};
  std::string store = "global";
  bool swap = false;
  std::string pack = "auto";
  std::string prologue = "auto";
  std::string epilogueLoads = "auto";
  bool epilogueInHalf = false;
};

/// The values each decision field of the sm90 back end takes.
struct DecisionField {
  StringRef name;
  ArrayRef<StringRef> values;
};
constexpr StringRef kPackValues[] = {"auto", "always", "never",
                                     "a",    "b",      "async"};
constexpr StringRef kPrologueValues[] = {"auto", "regs", "smem", "pack"};
constexpr StringRef kEpilogueLoadsValues[] = {"auto", "fragments", "tma"};
const DecisionField kDecisionFields[] = {
    {"pack", kPackValues},
    {"prologue", kPrologueValues},
    {"epilogue_loads", kEpilogueLoadsValues}};
} // namespace

std::string ConfigAttr::checkDecision(StringRef field, StringRef value) {
  for (const DecisionField &f : kDecisionFields) {
    if (f.name != field)
      continue;
    if (llvm::is_contained(f.values, value))
      return "";
    std::string why;
    llvm::raw_string_ostream os(why);
    os << field << " must be ";
    for (size_t i = 0; i < f.values.size(); ++i)
      os << (i == 0 ? "" : i + 1 == f.values.size() ? " or " : ", ")
         << f.values[i];
    os << ", not '" << value << "'";
    return why;
  }
  return "unknown decision field '" + field.str() + "'";
}

static ParseResult parseTriple(AsmParser &parser, SmallVector<int64_t> &out) {
  out.clear();
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

static ParseResult parseBool(AsmParser &parser, bool &out) {
  StringRef value;
  SMLoc at = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword(&value)) ||
      (value != "true" && value != "false"))
    return parser.emitError(at, "expected true or false");
  out = value == "true";
  return success();
}

Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  ConfigFields f;
  llvm::StringSet<llvm::MallocAllocator> seen;
  auto parseField = [&]() -> ParseResult {
    std::string key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc)
             << "duplicate #tcgen.config field '" << key << "'";
    if (key == "backend")
      return parser.parseString(&f.backend);
    if (key == "block")
      return parseTriple(parser, f.block);
    if (key == "warp")
      return parseTriple(parser, f.warp);
    if (key == "mma")
      return parseTriple(parser, f.mma);
    if (key == "stages")
      return parser.parseInteger(f.stages);
    if (key == "padding")
      return parser.parseInteger(f.padding);
    if (key == "vector")
      return parser.parseInteger(f.vector);
    if (key == "raster")
      return parser.parseInteger(f.raster);
    if (key == "persistent")
      return parseBool(parser, f.persistent);
    if (key == "streamk")
      return parseBool(parser, f.streamK);
    if (key == "cluster")
      return parseTriple(parser, f.cluster);
    if (key == "store")
      return parser.parseString(&f.store);
    if (key == "swap")
      return parseBool(parser, f.swap);
    if (key == "epilogue_in_half")
      return parseBool(parser, f.epilogueInHalf);
    std::string *decision = key == "pack"             ? &f.pack
                            : key == "prologue"       ? &f.prologue
                            : key == "epilogue_loads" ? &f.epilogueLoads
                                                      : nullptr;
    if (decision) {
      SMLoc at = parser.getCurrentLocation();
      if (parser.parseString(decision))
        return failure();
      std::string why = checkDecision(key, *decision);
      if (!why.empty())
        return parser.emitError(at) << why;
      return success();
    }
    return parser.emitError(loc)
           << "unknown #tcgen.config field '" << key
           << "' (expected backend, block, warp, mma, stages, padding, vector, "
              "raster, persistent, streamk, cluster, store, swap, pack, "
              "prologue, epilogue_loads, epilogue_in_half)";
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseField) || parser.parseGreater())
      return {};
  }
  return ConfigAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), StringRef(f.backend), ArrayRef<int64_t>(f.block),
      ArrayRef<int64_t>(f.warp), ArrayRef<int64_t>(f.mma), f.stages, f.padding,
      f.vector, f.raster, f.persistent, f.streamK,
      ArrayRef<int64_t>(f.cluster), StringRef(f.store), f.swap,
      StringRef(f.pack), StringRef(f.prologue), StringRef(f.epilogueLoads),
      f.epilogueInHalf);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  auto triple = [&](ArrayRef<int64_t> v) {
    printer << "[";
    llvm::interleaveComma(v, printer);
    printer << "]";
  };
  printer << "<backend = \"" << getBackend() << "\", block = ";
  triple(getBlockTile());
  printer << ", warp = ";
  triple(getWarpTile());
  printer << ", mma = ";
  triple(getMmaShape());
  printer << ", stages = " << getStages() << ", padding = " << getPadding()
          << ", vector = " << getVector() << ", raster = " << getRaster()
          << ", persistent = " << (getPersistent() ? "true" : "false")
          << ", streamk = " << (getStreamK() ? "true" : "false")
          << ", cluster = ";
  triple(getCluster());
  printer << ", store = \"" << getStore() << "\"";
  if (getSwap())
    printer << ", swap = true";
  // The back end's decisions, where set.
  if (getPack() != "auto")
    printer << ", pack = \"" << getPack() << "\"";
  if (getPrologue() != "auto")
    printer << ", prologue = \"" << getPrologue() << "\"";
  if (getEpilogueLoads() != "auto")
    printer << ", epilogue_loads = \"" << getEpilogueLoads() << "\"";
  if (getEpilogueInHalf())
    printer << ", epilogue_in_half = true";
  printer << ">";
}

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef backend, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> warp, ArrayRef<int64_t> mma,
                                 int64_t stages, int64_t padding,
                                 int64_t vector, int64_t raster,
                                 bool persistent, bool streamK,
                                 ArrayRef<int64_t> cluster, StringRef store,
                                 bool swap, StringRef pack, StringRef prologue,
                                 StringRef epilogueLoads,
                                 bool epilogueInHalf) {
  if (raster < 1)
    return emitError() << "raster " << raster << " must be at least 1";
  if (streamK && (backend != "sm90" || !persistent))
    return emitError() << "streamk needs the sm90 back end and persistent = "
                          "true";
  if (cluster.size() != 2 || cluster[0] < 1 || cluster[1] < 1)
    return emitError() << "cluster needs 2 positive sizes [m, n]";
  if (cluster[0] * cluster[1] > 2)
    return emitError() << "clusters of more than 2 blocks are not generated "
                          "(cluster = [" << cluster[0] << ", " << cluster[1]
                       << "])";
  if (cluster[0] * cluster[1] > 1 && (backend != "sm90" || streamK))
    return emitError() << "cluster [" << cluster[0] << ", " << cluster[1]
                       << "] needs the sm90 back end without streamk";
  if (backend != "wmma" && backend != "sm80" && backend != "sm90" &&
      backend != "simt")
    return emitError() << "unknown backend '" << backend
                       << "' (available: wmma, sm80, sm90, simt)";
  if (store != "global" && store != "tma" && store != "staged")
    return emitError() << "unknown store '" << store
                       << "' (available: global, tma, staged)";
  if (store != "global" && backend != "sm90" &&
      !(store == "staged" && (backend == "sm80" || backend == "wmma")))
    return emitError() << "store = \"" << store
                       << "\" needs the sm90 back end (sm80 and wmma: "
                          "\"staged\" or \"global\")";
  if (swap && (backend != "sm90" || (store != "global" && store != "tma") ||
               cluster[0] * cluster[1] > 1))
    return emitError() << "swap needs the sm90 back end with store = "
                          "\"global\" or \"tma\" and no cluster";
  for (auto [field, value] : {std::pair<StringRef, StringRef>{"pack", pack},
                              {"prologue", prologue},
                              {"epilogue_loads", epilogueLoads}}) {
    std::string why = checkDecision(field, value);
    if (!why.empty())
      return emitError() << why;
    if (value != "auto" && backend != "sm90")
      return emitError() << field << " = \"" << value
                         << "\" needs the sm90 back end";
  }
  if (epilogueInHalf && backend != "sm90")
    return emitError() << "epilogue_in_half needs the sm90 back end";
  if (block.size() != 3 || warp.size() != 3 || mma.size() != 3)
    return emitError() << "block, warp and mma tiles need 3 sizes [m, n, k]";
  static const char *dims[] = {"m", "n", "k"};
  for (int d = 0; d < 3; ++d) {
    if (block[d] <= 0 || warp[d] <= 0 || mma[d] <= 0)
      return emitError() << "tile sizes must be positive";
    if (block[d] % warp[d] != 0)
      return emitError() << "block tile " << dims[d] << "=" << block[d]
                         << " is not a multiple of warp tile " << warp[d];
    if (warp[d] % mma[d] != 0)
      return emitError() << "warp tile " << dims[d] << "=" << warp[d]
                         << " is not a multiple of the mma shape " << mma[d];
  }
  int64_t warps = (block[0] / warp[0]) * (block[1] / warp[1]) *
                  (backend == "sm80" ? block[2] / warp[2] : 1);
  if (warps * 32 > 1024)
    return emitError() << warps << " warps exceed 1024 threads per block";
  if (stages < 1)
    return emitError() << "stages must be at least 1";
  if (backend == "sm90") {
    // One consumer warpgroup per 64 rows, one wgmma m64nNk16 over the whole
    // block width, one 128-byte swizzle atom along K: 64 f16 / bf16 (k16
    // wgmmas), 32 tf32 elements (k8) or 128 fp8 elements (k32).
    bool tf32 = block[2] == 32 && mma[2] == 8;
    bool fp8 = block[2] == 128 && mma[2] == 32;
    bool sixteen = block[2] == 64 && mma[2] == 16;
    // Swapped, the small dimension is the block's N: down to 8 (a K-major
    // B tile of 8 rows; BuildKernel checks the layout).
    bool widthOk = swap ? block[1] % 8 == 0 && block[1] >= 8
                        : block[1] % 16 == 0 && block[1] >= 64;
    // A consumer warpgroup takes warp[0] rows: one 64-row block or several
    // (each its own m64 accumulator).
    bool rowsOk = warp[0] % 64 == 0 && block[0] % warp[0] == 0;
    if (!sm90RowsFit(block[0], block[1]) || !rowsOk || warp[1] != block[1] ||
        !widthOk || block[1] > 256 || !(sixteen || tf32 || fp8) ||
        warp[2] != block[2] || mma[0] != 64 || mma[1] != block[1])
      return emitError()
             << "sm90 configs need block = [64 | 128 | 192, N, 64] with N a "
                "multiple of 16 from 64 to 256 (192 rows: to 192; with swap, "
                "of 8 from 8), "
                "warp = [64 x r, N, 64] dividing the block's rows, mma = "
                "[64, N, 16] (tf32: K 32 and mma K 8; fp8: K 128 and mma K "
                "32)";
  }
  if (backend == "sm80") {
    // Fragments of 16x16x16: one ldmatrix.x4 per A or B fragment, two
    // m16n8k16 mma.sync per product.
    if (mma[0] != 16 || mma[1] != 16 || mma[2] != 16)
      return emitError() << "sm80 configs take mma = [16, 16, 16] (each a "
                            "pair of m16n8k16 mma.sync)";
    if (stages < 2 || stages > 8)
      return emitError() << "sm80 configs pipeline 2 to 8 stages of cp.async "
                            "copies, not "
                         << stages;
  }
  if (backend == "simt") {
    // CUDA cores: thread tiles of 4-element strips, 32 per warp tile
    // (tcgen-simt-build-kernel checks the rest against the sizes).
    if (mma[2] != 1 || warp[2] != block[2] || mma[0] % 4 != 0 ||
        mma[1] % 4 != 0 || (warp[0] / mma[0]) * (warp[1] / mma[1]) != 32)
      return emitError() << "simt configs need mma = [TM, TN, 1] (the "
                            "thread tile, multiples of 4) with 32 thread "
                            "tiles per warp tile and warp K = block K";
    if (stages != 2)
      return emitError() << "simt configs double-buffer (stages = 2), not "
                         << stages;
    if (padding < 0 || padding % 4 != 0)
      return emitError() << "simt padding " << padding
                         << " must be a non-negative multiple of 4 elements "
                            "(16-byte shared rows)";
    return success();
  }
  if (padding < 0 || padding % 8 != 0)
    return emitError() << "padding " << padding
                       << " must be a non-negative multiple of 8 elements "
                          "(16-byte rows for WMMA loads)";
  if (vector != 1 && vector != 2 && vector != 4 && vector != 8)
    return emitError() << "vector width " << vector
                       << " must be 1, 2, 4 or 8 elements";
  return success();
}

ConfigAttr ConfigAttr::withDecisions(StringRef pack, StringRef prologue,
                                     StringRef epilogueLoads,
                                     bool epilogueInHalf) const {
  return ConfigAttr::get(getContext(), getBackend(), getBlockTile(),
                         getWarpTile(), getMmaShape(), getStages(),
                         getPadding(), getVector(), getRaster(),
                         getPersistent(), getStreamK(), getCluster(),
                         getStore(), getSwap(), pack, prologue, epilogueLoads,
                         epilogueInHalf);
}

int64_t ConfigAttr::getKSplits() const {
  return getBackend() == "sm80" ? getBlockTile()[2] / getWarpTile()[2] : 1;
}

int64_t ConfigAttr::getNumWarps() const {
  return (getBlockTile()[0] / getWarpTile()[0]) *
         (getBlockTile()[1] / getWarpTile()[1]) * getKSplits();
}
