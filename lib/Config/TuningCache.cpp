//===- TuningCache.cpp - Measured configurations per device -----*- C++ -*-===//
//
// This file implements the tuning cache's file format.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/TuningCache.h"

#include "tcgen/Support/Records.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

using namespace mlir::tcgen;

std::optional<TuningCache> TuningCache::parse(const std::string &text,
                                              const std::string &name,
                                              std::string &error) {
  TuningCache cache;
  error = ::tcgen::forEachRecord(
      text, name, [&](const std::vector<std::string> &f) -> std::string {
        if (f[0] == "config") {
          if (f.size() != 6)
            return "a config record has 6 tab-separated fields (config, "
                   "device, key, #tcgen.config, ms, date), not " +
                   std::to_string(f.size());
          TuningEntry e{f[1], f[2], f[3], 0, f[5]};
          char *end = nullptr;
          e.ms = std::strtod(f[4].c_str(), &end);
          if (f[4].empty() || *end || !std::isfinite(e.ms) || e.ms <= 0)
            return "the time '" + f[4] + "' is not a positive number";
          if (e.device.empty() || e.key.empty() ||
              e.config.rfind("#tcgen.config<", 0) != 0)
            return "a config record needs a device, a key and a "
                   "#tcgen.config<...> attribute";
          cache.add(e);
          return "";
        }
        if (f[0] == "version") {
          // Version 1 (no version record) wrote configs without the sm90
          // decisions (pack, prologue, epilogue_loads, epilogue_in_half),
          // which read as "auto": the same kernels as then.
          char *end = nullptr;
          long v = f.size() == 2 ? std::strtol(f[1].c_str(), &end, 10) : 0;
          if (f.size() != 2 || f[1].empty() || *end || v < 1)
            return "a version record has 2 tab-separated fields (version, "
                   "a positive number)";
          if (v > kVersion)
            return "the tuning cache's format version " + f[1] +
                   " is newer than this tcgen reads (up to " +
                   std::to_string(kVersion) + ")";
          return "";
        }
        if (f[0] == "model") {
          if (f.size() != 3)
            return "a model record has 3 tab-separated fields (model, "
                   "device, constants), not " +
                   std::to_string(f.size());
          std::string why;
          std::optional<model::DeviceConstants> d =
              model::DeviceConstants::parse(f[2], why);
          if (!d)
            return why;
          cache.setConstants(f[1], *d);
          return "";
        }
        return "unknown record '" + f[0] +
               "' (expected version, config or model)";
      });
  if (!error.empty())
    return std::nullopt;
  return cache;
}

std::optional<TuningCache> TuningCache::load(const std::string &path,
                                             std::string &error) {
  std::ifstream in(path);
  if (!in) {
    if (errno == ENOENT)
      return TuningCache();
    error = "cannot read the tuning cache " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse(text.str(), path, error);
}

const TuningEntry *TuningCache::find(const std::string &device,
                                     const std::string &key) const {
  if (!device.empty()) {
    auto it = entries.find({device, key});
    return it == entries.end() ? nullptr : &it->second;
  }
  const TuningEntry *found = nullptr;
  for (const auto &[k, e] : entries) {
    if (k.second != key)
      continue;
    if (found)
      return nullptr; // several devices: ambiguous
    found = &e;
  }
  return found;
}

const mlir::tcgen::model::DeviceConstants *
TuningCache::constants(const std::string &device) const {
  if (!device.empty()) {
    auto it = calibrations.find(device);
    return it == calibrations.end() ? nullptr : &it->second;
  }
  return calibrations.size() == 1 ? &calibrations.begin()->second : nullptr;
}

void TuningCache::add(const TuningEntry &entry) {
  entries[{entry.device, entry.key}] = entry;
}

void TuningCache::setConstants(const std::string &device,
                               const model::DeviceConstants &constants) {
  calibrations[device] = constants;
}

std::string TuningCache::str() const {
  std::ostringstream os;
  os << "# tcgen tuning cache: the fastest measured configuration per device "
        "and problem,\n# and the model's constants per device (tcgen tune "
        "writes it; tcgen compile\n# --tuning-cache reads it). Fields are "
        "separated by tabs.\n";
  os << "version\t" << kVersion << "\n";
  for (const auto &[device, d] : calibrations)
    os << "model\t" << device << "\t" << d.str() << "\n";
  for (const auto &[k, e] : entries) {
    char ms[32];
    std::snprintf(ms, sizeof(ms), "%.6g", e.ms);
    os << "config\t" << e.device << "\t" << e.key << "\t" << e.config << "\t"
       << ms << "\t" << e.date << "\n";
  }
  return os.str();
}

bool TuningCache::save(const std::string &path, std::string &error) const {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) {
      error = "cannot write " + tmp + ": " + std::strerror(errno);
      return false;
    }
    out << str();
    if (!out.flush()) {
      error = "cannot write " + tmp + ": " + std::strerror(errno);
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot replace " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}
