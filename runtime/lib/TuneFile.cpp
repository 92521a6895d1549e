//===- TuneFile.cpp - The candidate list of a tuning run ------------------===//

#include "tcgen/Runtime/TuneFile.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace tcgen;

namespace {
bool parseInt(const std::string &s, int64_t &out) {
  char *end = nullptr;
  out = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && !*end;
}
} // namespace

std::string tcgen::parseTuneFile(const std::string &text,
                                 const std::string &name, TuneFile &out) {
  return forEachRecord(text, name, [&](const std::vector<std::string> &f) {
    if (f[0] == "candidate") {
      if (f.size() != 13)
        return "a candidate line has 13 tab-separated fields, not " +
               std::to_string(f.size());
      TuneCandidateRecord r;
      int64_t v[8];
      for (int i = 0; i < 8; ++i)
        if (!parseInt(f[2 + i], v[i]))
          return "field " + std::to_string(3 + i) +
                 " of a candidate is not an integer: '" + f[2 + i] + "'";
      char *end = nullptr;
      r.predictedUs = std::strtod(f[10].c_str(), &end);
      if (f[10].empty() || *end)
        return "the predicted time '" + f[10] + "' is not a number";
      r.id = f[1];
      r.rank = int(v[0]);
      r.blockM = v[1], r.blockN = v[2], r.stages = v[3];
      r.streamK = v[4] != 0;
      r.clusterM = v[5], r.clusterN = v[6], r.raster = v[7];
      r.status = f[11];
      r.config = f[12];
      out.candidates.push_back(std::move(r));
      return std::string();
    }
    if (f.size() != 2)
      return "a '" + f[0] + "' line has 2 tab-separated fields, not " +
             std::to_string(f.size());
    if (f[0] == "key")
      out.key = f[1];
    else if (f[0] == "input")
      out.input = f[1];
    else if (f[0] == "problem")
      out.problem = f[1];
    else if (f[0] == "constants")
      out.constants = f[1];
    else
      return "unknown record '" + f[0] + "'";
    return std::string();
  });
}

std::string tcgen::readTuneFile(const std::string &dir, TuneFile &out) {
  std::string path = dir + "/tune.tsv";
  std::ifstream in(path);
  if (!in)
    return "cannot read " + path + " (written by tcgen tune)";
  std::stringstream text;
  text << in.rdbuf();
  if (std::string e = parseTuneFile(text.str(), path, out); !e.empty())
    return e;
  if (out.candidates.empty())
    return path + " lists no candidate";
  return "";
}

std::string tcgen::printTuneFile(const TuneFile &file) {
  std::ostringstream os;
  os << "# tcgen tune: candidates of one contraction, ranked by the "
        "tile-size model\n"
     << "# candidate fields: id, rank, block_m, block_n, stages, streamk, "
        "cluster_m, cluster_n, raster, predicted_us, status, config\n"
     << "key\t" << file.key << "\n"
     << "input\t" << file.input << "\n"
     << "problem\t" << file.problem << "\n"
     << "constants\t" << file.constants << "\n";
  for (const TuneCandidateRecord &r : file.candidates) {
    char predicted[32];
    std::snprintf(predicted, sizeof(predicted), "%.3f", r.predictedUs);
    os << "candidate\t" << r.id << "\t" << r.rank << "\t" << r.blockM << "\t"
       << r.blockN << "\t" << r.stages << "\t" << int(r.streamK) << "\t"
       << r.clusterM << "\t" << r.clusterN << "\t" << r.raster << "\t"
       << predicted << "\t" << r.status << "\t" << r.config << "\n";
  }
  return os.str();
}
