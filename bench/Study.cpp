//===- Study.cpp - Bundle sets of a study ---------------------------------===//
//
// This file implements Study.h: reading a study directory's bundles (its
// batch.tsv, or its subdirectories), pairing two sets by problem name and
// the geometric mean. No CUDA here: the unit tests run without a GPU.
//
//===----------------------------------------------------------------------===//

#include "Study.h"

#include "tcgen/Runtime/Manifest.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

using namespace tcgen;
using namespace tcgen::bench;

std::string tcgen::bench::readBatchSummary(const std::string &text,
                                           std::vector<std::string> &okNames) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line.rfind("name\tstatus\t", 0) != 0)
    return "not a tcgen compile --batch summary (its header is not "
           "name<TAB>status<TAB>...)";
  for (int lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty())
      continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos || tab == 0)
      return "line " + std::to_string(lineNo) + ": no name and status";
    size_t tab2 = line.find('\t', tab + 1);
    std::string status =
        line.substr(tab + 1, tab2 == std::string::npos ? std::string::npos
                                                       : tab2 - tab - 1);
    if (status == "ok")
      okNames.push_back(line.substr(0, tab));
  }
  return "";
}

std::string tcgen::bench::listStudyBundles(const std::string &dir,
                                           std::vector<StudyBundle> &bundles) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return dir + ": not a directory";
  fs::path root(dir);
  fs::path summary = root / "batch.tsv";
  if (fs::exists(summary, ec)) {
    std::ifstream file(summary);
    std::stringstream text;
    text << file.rdbuf();
    std::vector<std::string> names;
    if (std::string e = readBatchSummary(text.str(), names); !e.empty())
      return summary.string() + ": " + e;
    for (const std::string &n : names)
      bundles.push_back({n, (root / n).string()});
    if (bundles.empty())
      return summary.string() + ": no problem compiled (no row is ok)";
    return "";
  }
  std::vector<std::string> names;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string manifest;
    if (it->is_directory(ec) &&
        findManifest(it->path().string(), manifest).empty())
      names.push_back(it->path().filename().string());
  }
  if (ec)
    return dir + ": " + ec.message();
  std::sort(names.begin(), names.end());
  for (const std::string &n : names)
    bundles.push_back({n, (root / n).string()});
  if (bundles.empty())
    return dir + ": no bundle (no batch.tsv, and no subdirectory holds a "
                 "manifest)";
  return "";
}

StudyPairing tcgen::bench::pairStudies(const std::vector<StudyBundle> &a,
                                       const std::vector<StudyBundle> &b) {
  StudyPairing result;
  std::map<std::string, const StudyBundle *> inB;
  for (const StudyBundle &x : b)
    inB.emplace(x.name, &x);
  for (const StudyBundle &x : a) {
    auto it = inB.find(x.name);
    if (it == inB.end()) {
      result.onlyA.push_back(x.name);
      continue;
    }
    result.pairs.emplace_back(x, *it->second);
    inB.erase(it);
  }
  for (const StudyBundle &x : b)
    if (inB.count(x.name))
      result.onlyB.push_back(x.name);
  return result;
}

double tcgen::bench::geomean(const std::vector<double> &values) {
  double logSum = 0;
  size_t n = 0;
  for (double v : values)
    if (std::isfinite(v) && v > 0) {
      logSum += std::log(v);
      ++n;
    }
  return n ? std::exp(logSum / double(n))
           : std::numeric_limits<double>::quiet_NaN();
}
