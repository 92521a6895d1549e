//===- Records.cpp - Tab-separated record files -----------------*- C++ -*-===//
//
// This file implements the line format of the tuner's tab-separated files.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Support/Records.h"

#include <sstream>

std::vector<std::string> tcgen::splitTabs(const std::string &line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos)
      return fields;
    start = tab + 1;
  }
}

std::string tcgen::forEachRecord(
    const std::string &text, const std::string &name,
    const std::function<std::string(const std::vector<std::string> &)>
        &record) {
  std::istringstream in(text);
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty() || line[0] == '#')
      continue;
    if (std::string why = record(splitTabs(line)); !why.empty())
      return name + ":" + std::to_string(lineNo) + ": " + why;
  }
  return "";
}
