//===- manifest_fuzzer.cpp - libFuzzer target: bundle text parsers --------===//
//
// This file implements a libFuzzer target for the text formats the runtime
// and the tools read from disk: JSON (tcgen::json::parse), the bundle
// manifest (tcgen::parseManifest) and the tuner's tune.tsv
// (tcgen::parseTuneFile). Every input goes through all three. Beyond "no
// crash, no sanitizer report", it checks that what parses round-trips:
//  - JSON: print(parse(x)) parses back to an equal value, pretty or compact;
//  - manifest: writeManifest(parseManifest(x)) parses back to an equal
//    manifest (the compiler writes what the runtime reads);
//  - tune.tsv: printTuneFile(parseTuneFile(x)) parses back.
// A violated property aborts, which libFuzzer reports as a crash.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Json.h"
#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/TuneFile.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {
/// Prints `what` and the offending texts, then aborts (a libFuzzer crash).
[[noreturn]] void violated(const char *what, const std::string &first,
                           const std::string &second) {
  std::fprintf(stderr,
               "property violated: %s\n--- first:\n%s\n--- second:\n%s\n", what,
               first.c_str(), second.c_str());
  std::abort();
}

void checkJson(std::string_view text) {
  tcgen::json::Value value;
  if (!tcgen::json::parse(text, value).empty())
    return;
  for (bool pretty : {true, false}) {
    std::string printed = tcgen::json::print(value, pretty);
    tcgen::json::Value again;
    std::string error = tcgen::json::parse(printed, again);
    if (!error.empty())
      violated("printed JSON does not parse", printed, error);
    if (again != value)
      violated("printed JSON parses to another value", std::string(text),
               printed);
  }
}

void checkManifest(std::string_view text) {
  tcgen::Manifest manifest;
  if (!tcgen::parseManifest(text, manifest).empty())
    return;
  std::string written = tcgen::writeManifest(manifest);
  tcgen::Manifest again;
  std::string error = tcgen::parseManifest(written, again);
  if (!error.empty())
    violated("written manifest does not parse", written, error);
  if (again != manifest)
    violated("written manifest parses to another manifest", std::string(text),
             written);
}

void checkTuneFile(const std::string &text) {
  tcgen::TuneFile file;
  if (!tcgen::parseTuneFile(text, "fuzz", file).empty())
    return;
  std::string printed = tcgen::printTuneFile(file);
  tcgen::TuneFile again;
  std::string error = tcgen::parseTuneFile(printed, "fuzz", again);
  if (!error.empty())
    violated("printed tune file does not parse", printed, error);
  if (again.candidates.size() != file.candidates.size())
    violated("printed tune file has another candidate count", text, printed);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  checkJson(text);
  checkManifest(text);
  checkTuneFile(text);
  return 0;
}
