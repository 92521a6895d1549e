//===- TuningCache.h - Measured configurations per device -------*- C++ -*-===//
//
// The tuning cache: a plain text file of the fastest measured configuration
// per device and problem (`tcgen tune` writes it, `tcgen compile
// --tuning-cache=FILE` consults it before the model) and of the model's
// calibrated constants per device. One record per line, fields separated
// by tabs (device names hold spaces):
//
//   config <TAB> DEVICE <TAB> KEY <TAB> #tcgen.config<...> <TAB> MS <TAB> DATE
//   model  <TAB> DEVICE <TAB> sms=132 sm_tflops=5.85 ...
//
//   version <TAB> 2
//
// The version record says which format the file is written in: 2 (this
// one) records the sm90 back end's decisions in the configs (`pack`,
// `prologue`, `epilogue_loads`, `epilogue_in_half`, where not "auto"); a
// file without one is version 1, whose configs read with those at "auto".
// Lines starting with '#' and empty lines are ignored. A later record for
// the same device and key (or device, for `model`) replaces an earlier one.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_CONFIG_TUNINGCACHE_H
#define TCGEN_CONFIG_TUNINGCACHE_H

#include "tcgen/Config/Model.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tcgen {

/// The fastest measured configuration of one problem on one device.
struct TuningEntry {
  std::string device, key;
  std::string config; ///< the #tcgen.config attribute, printed
  double ms = 0;      ///< its measured median time
  std::string date;   ///< when it was measured (YYYY-MM-DD)
};

class TuningCache {
public:
  /// The format version str() writes and the newest parse() reads.
  static constexpr int kVersion = 2;

  /// Reads `path`; a file that does not exist is an empty cache. Returns
  /// std::nullopt and sets `error` (naming the file and line) on a
  /// malformed record.
  static std::optional<TuningCache> load(const std::string &path,
                                         std::string &error);
  /// Parses the text of a cache file (`name` for messages).
  static std::optional<TuningCache> parse(const std::string &text,
                                          const std::string &name,
                                          std::string &error);

  /// The entry for `key` on `device`; with an empty `device`, the entry of
  /// the only device that has one (nullptr if several devices do: the user
  /// must say which).
  const TuningEntry *find(const std::string &device,
                          const std::string &key) const;
  /// The calibrated constants of `device` (empty: the only device with
  /// constants), or nullptr.
  const model::DeviceConstants *constants(const std::string &device) const;

  void add(const TuningEntry &entry);
  void setConstants(const std::string &device,
                    const model::DeviceConstants &constants);

  /// The file's text: a header comment, then the records sorted by device
  /// and key.
  std::string str() const;
  /// Writes str() to `path`. Returns false and sets `error` on failure.
  bool save(const std::string &path, std::string &error) const;

  size_t size() const { return entries.size(); }

private:
  std::map<std::pair<std::string, std::string>, TuningEntry> entries;
  std::map<std::string, model::DeviceConstants> calibrations;
};

} // namespace mlir::tcgen

#endif // TCGEN_CONFIG_TUNINGCACHE_H
