//===- Records.h - Tab-separated record files -------------------*- C++ -*-===//
//
// The line format of the tuner's files (tune.tsv, the tuning cache): one
// record per line, fields separated by tabs, '#' lines are comments. Free
// of MLIR and CUDA: the runtime's manifest library and the compiler's
// configuration library both read it.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_SUPPORT_RECORDS_H
#define TCGEN_SUPPORT_RECORDS_H

#include <functional>
#include <string>
#include <vector>

namespace tcgen {

/// The tab-separated fields of `line`.
std::vector<std::string> splitTabs(const std::string &line);

/// Calls `record` with the tab-separated fields of each line of `text` that
/// is neither empty nor a '#' comment (a trailing '\r' dropped). Stops at
/// the first non-empty string `record` returns and gives it back as
/// "name:line: why"; returns "" when every line was taken. Shared by the
/// tab-separated files of the tuner (tune.tsv, the tuning cache).
std::string forEachRecord(
    const std::string &text, const std::string &name,
    const std::function<std::string(const std::vector<std::string> &)> &record);

} // namespace tcgen

#endif // TCGEN_SUPPORT_RECORDS_H
