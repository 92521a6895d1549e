//===- spec_fuzzer.cpp - libFuzzer target of the spec front end's parser --===//
//
// This file implements the `spec` fuzz target: the input is split at NUL
// bytes into the strings of a spec (einsum, sizes, dtypes, epilogue, a
// prologue, the name; the first byte's low bit asks for C += A B), which
// parseSpec() must either accept or refuse with an error that names one of
// the options and a column within that option's string (or 0). Properties
// besides "no crash, no sanitizer report": an accepted problem has a size
// for every index of its loops and indices that all appear in those loops;
// an error's text starts with its option.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Frontend/Spec.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir::tcgen;

namespace {
void check(bool ok) {
  if (!ok)
    std::abort();
}

/// The length of the option's string an error's column refers to.
size_t fieldLength(const SpecStrings &s, const std::string &field) {
  if (field == "--einsum")
    return s.einsum.size();
  if (field == "--sizes")
    return s.sizes.size();
  if (field == "--dtypes")
    return s.dtypes.size();
  if (field == "--epilogue")
    return s.epilogue.size();
  if (field == "--prologue")
    return s.prologues.empty() ? 0 : s.prologues.front().size();
  if (field == "--name")
    return s.name.size();
  return std::string::npos; // another option: no bound to check
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  SpecStrings s;
  s.accumulate = data[0] & 1;
  std::vector<std::string> parts(1);
  for (size_t i = 1; i < size; ++i) {
    if (data[i] == 0)
      parts.emplace_back();
    else
      parts.back() += static_cast<char>(data[i]);
  }
  parts.resize(6);
  s.einsum = parts[0];
  s.sizes = parts[1];
  s.dtypes = parts[2];
  s.epilogue = parts[3];
  if (!parts[4].empty())
    s.prologues.push_back(parts[4]);
  s.name = parts[5];

  SpecError error;
  llvm::FailureOr<ProblemSpec> problem = parseSpec(s, error);
  if (llvm::failed(problem)) {
    check(!error.field.empty() && error.field.rfind("--", 0) == 0);
    size_t length = fieldLength(s, error.field);
    check(length == std::string::npos || error.column <= length + 1);
    check(error.str().rfind(error.field, 0) == 0);
    return 0;
  }
  check(problem->sizes.size() == problem->loops.size());
  for (const std::string *indices : {&problem->a, &problem->b, &problem->c})
    for (char index : *indices)
      check(problem->loops.find(index) != std::string::npos);
  return 0;
}
