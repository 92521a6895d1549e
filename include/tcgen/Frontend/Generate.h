//===- Generate.h - Random contraction problems as specs --------*- C++ -*-===//
//
// A generator of random problems over the forms the spec front end takes
// (Spec.h): sizes with 1s, primes, 2^k +- 1, multiples of 8 and 16 and odd
// values; every einsum layout of A, B and C; batches (extent 1, broadcast,
// several batch indices) and two contracted indices; dtypes; epilogue
// expressions with random functions, operands and literals; prologues;
// --accumulate; sizes known at launch; forced configurations; and, where
// named, grouped products and dual GEMMs (an epilogue reading acc2). Each
// problem is a line of a `tcgen compile --batch` file. The draws are a
// function of the seed and the problem's index only, so a problem list is
// reproducible from its seed. No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_FRONTEND_GENERATE_H
#define TCGEN_FRONTEND_GENERATE_H

#include "tcgen/Frontend/Spec.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace mlir::tcgen {

/// What to generate.
struct GenerateOptions {
  uint64_t seed = 1;
  unsigned count = 100;
  /// The features drawn (names of generatorKinds()); empty: all of them
  /// but grouped and dual, which are drawn only where named.
  /// A problem without any is a plain mk,kn->mn of random sizes and f16.
  std::set<std::string> kinds;
  /// The largest multiply-add count of a problem (batch x M x N x K).
  int64_t maxFlops = int64_t(1) << 28;
};

/// One generated problem: its spec and the other options of its line.
struct GeneratedProblem {
  std::string name;
  SpecStrings spec;
  /// Options besides the spec's (--allow-tf32, --block-tile=..., ...).
  std::vector<std::string> flags;
  /// The forms drawn, e.g. "size:prime", "layout:a=km", "epilogue:op:silu"
  /// (every one of generatorForms() is drawn over enough problems).
  std::set<std::string> forms;
};

/// The features GenerateOptions::kinds selects: layout, batch, contract2,
/// dtype, epilogue, prologue, accumulate, dynamic, config, blockscale, and
/// grouped (grouped products) and dual (dual GEMMs), which are drawn only
/// where kinds names them (each instead of a problem of the other kinds).
const std::vector<std::string> &generatorKinds();

/// Every form generateProblem can record in GeneratedProblem::forms when
/// all kinds are drawn.
std::vector<std::string> generatorForms();

/// The forms only a dual GEMM records ("dual:b=nk", "dual:epilogue:gate",
/// ...); every one is drawn over enough problems of kinds {"dual"}, whose
/// other forms are among generatorForms().
std::vector<std::string> generatorDualForms();

/// Checks the names of `kinds`; returns the first unknown one, or "".
std::string unknownGeneratorKind(const std::set<std::string> &kinds);

/// The problem of index `index` for `options.seed` (the same for any
/// count).
GeneratedProblem generateProblem(const GenerateOptions &options,
                                 unsigned index);

/// `options.count` problems.
std::vector<GeneratedProblem> generateProblems(const GenerateOptions &options);

/// The problem as a line of a batch file: `NAME --einsum=... ...`, each
/// value that needs it in double quotes.
std::string formatBatchLine(const GeneratedProblem &problem);

} // namespace mlir::tcgen

#endif // TCGEN_FRONTEND_GENERATE_H
