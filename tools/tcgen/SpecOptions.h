//===- SpecOptions.h - tcgen's spec options and help ------------*- C++ -*-===//
//
// The CLI side of the spec front end (--einsum, --sizes, --dtypes,
// --epilogue, --prologue, --accumulate, --name): checks which were given,
// builds the module and prints errors with a caret under the column; and
// hides the options of the linked libraries from tcgen's --help.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TOOLS_TCGEN_SPECOPTIONS_H
#define TCGEN_TOOLS_TCGEN_SPECOPTIONS_H

#include "tcgen/Frontend/Spec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/CommandLine.h"

#include <initializer_list>

namespace mlir::tcgen {

/// Which of compile's problem options the command line has.
struct SpecOptionsGiven {
  bool inputFile = false, einsum = false, sizes = false, dtypes = false,
       epilogue = false, prologue = false, accumulate = false, name = false,
       group = false,
       blockScales = false;
};

/// Checks that there is one problem, an input file or --einsum, and that
/// the spec's options come with --einsum. Prints an error and fails
/// otherwise.
LogicalResult checkSpecOptions(const SpecOptionsGiven &given);

/// Sorts the values of --prologue: a placement (auto, regs, smem, pack;
/// the last one given wins) into `mode`, anything else into `exprs` (the
/// spec's prologue expressions). Fails (with an error) only for an empty
/// value.
LogicalResult splitPrologueValues(const std::vector<std::string> &values,
                                  std::string &mode,
                                  std::vector<std::string> &exprs);

/// Parses the spec and builds its module. On a malformed spec prints
/// `tcgen: error: --epilogue:14: ...`, the option's text and a caret under
/// the column, and returns null.
OwningOpRef<ModuleOp> buildModuleFromSpec(MLIRContext &context,
                                          const SpecStrings &strings);

/// Formats `error` for the terminal: the message, then (where it has a
/// column) the option's text from `strings` with a caret under the column.
std::string formatSpecError(const SpecError &error, const SpecStrings &strings);

/// Hides every option that is not registered in one of `subcommands` (the
/// LLVM and MLIR libraries' own options) from --help and --help-hidden, at
/// the top level and in those subcommands; they still parse.
void hideForeignOptions(
    std::initializer_list<llvm::cl::SubCommand *> subcommands);

} // namespace mlir::tcgen

#endif // TCGEN_TOOLS_TCGEN_SPECOPTIONS_H
