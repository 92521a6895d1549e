//===- SpecOptions.cpp - tcgen's spec options and help ----------*- C++ -*-===//
//
// This file implements the CLI side of the spec front end (the checks of
// the problem options, the module from --einsum, errors with a caret) and
// the filter that keeps tcgen's --help to tcgen's own options.
//
//===----------------------------------------------------------------------===//

#include "SpecOptions.h"

#include "tcgen/Frontend/BuildSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcgen;
namespace cl = llvm::cl;

LogicalResult mlir::tcgen::checkSpecOptions(const SpecOptionsGiven &given) {
  if (given.inputFile && given.einsum) {
    llvm::errs() << "tcgen: error: give an input file or --einsum, not both\n";
    return failure();
  }
  if (!given.inputFile && !given.einsum) {
    llvm::errs() << "tcgen: error: expected an input file (INPUT.mlir) or a "
                    "spec (--einsum \"mk,kn->mn\" --sizes m=...,n=...,k=...)\n";
    return failure();
  }
  if (given.einsum)
    return success();
  std::pair<bool, const char *> specOnly[] = {
      {given.sizes, "--sizes"},
      {given.dtypes, "--dtypes"},
      {given.epilogue, "--epilogue"},
      {given.prologue, "--prologue=EXPR"},
      {given.accumulate, "--accumulate"},
      {given.name, "--name"},
      {given.group, "--group"},
      {given.blockScales, "--block-scales"}};
  for (auto [isGiven, option] : specOnly)
    if (isGiven) {
      llvm::errs() << "tcgen: error: " << option
                   << " is part of a spec and needs --einsum (an input file "
                      "says it in its IR)\n";
      return failure();
    }
  return success();
}

LogicalResult
mlir::tcgen::splitPrologueValues(const std::vector<std::string> &values,
                                 std::string &mode,
                                 std::vector<std::string> &exprs) {
  exprs.clear();
  for (const std::string &v : values) {
    if (v == "auto" || v == "regs" || v == "smem" || v == "pack")
      mode = v;
    else if (StringRef(v).trim().empty()) {
      llvm::errs() << "tcgen: error: --prologue is empty (an expression such "
                      "as relu(a), or auto, regs, smem or pack)\n";
      return failure();
    } else
      exprs.push_back(v);
  }
  return success();
}

std::string mlir::tcgen::formatSpecError(const SpecError &error,
                                         const SpecStrings &strings) {
  std::string text;
  if (error.field == "--einsum")
    text = strings.einsum;
  else if (error.field == "--sizes")
    text = strings.sizes;
  else if (error.field == "--dtypes")
    text = strings.dtypes;
  else if (error.field == "--epilogue")
    text = strings.epilogue;
  else if (error.field == "--name")
    text = strings.name;
  else if (error.field == "--group")
    text = strings.group;
  else if (error.field == "--block-scales")
    text = strings.blockScales;
  else if (error.field == "--prologue") {
    // The first prologue whose text reaches the column (errors stop at the
    // first one that fails, in order).
    for (const std::string &p : strings.prologues)
      if (error.column <= p.size() + 1) {
        text = p;
        break;
      }
  }
  std::string out = "tcgen: error: " + error.str() + "\n";
  if (error.column == 0 || text.empty() || error.column > text.size() + 1)
    return out;
  out += "  " + text + "\n  " + std::string(error.column - 1, ' ') + "^\n";
  return out;
}

OwningOpRef<ModuleOp>
mlir::tcgen::buildModuleFromSpec(MLIRContext &context,
                                 const SpecStrings &strings) {
  SpecError error;
  FailureOr<ProblemSpec> spec = parseSpec(strings, error);
  if (failed(spec)) {
    llvm::errs() << formatSpecError(error, strings);
    return {};
  }
  FailureOr<OwningOpRef<ModuleOp>> module = buildSpecModule(context, *spec);
  if (failed(module))
    return {};
  return std::move(*module);
}

void mlir::tcgen::hideForeignOptions(
    std::initializer_list<cl::SubCommand *> subcommands) {
  static cl::OptionCategory tcgenCategory("tcgen options");
  auto isOurs = [&](cl::Option *o) {
    return llvm::any_of(subcommands, [&](cl::SubCommand *sub) {
      return o->Subs.contains(sub);
    });
  };
  SmallVector<cl::SubCommand *> all(subcommands);
  all.push_back(&cl::SubCommand::getTopLevel());
  for (cl::SubCommand *sub : all) {
    for (auto &entry : cl::getRegisteredOptions(*sub))
      if (isOurs(entry.second) &&
          !llvm::is_contained(entry.second->Categories, &tcgenCategory))
        entry.second->addCategory(tcgenCategory);
    cl::HideUnrelatedOptions(tcgenCategory, *sub);
  }
}
