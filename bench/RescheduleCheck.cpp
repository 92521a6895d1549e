//===- RescheduleCheck.cpp - tcgen-gpu reschedule-check -------------------===//
//
// This file implements `tcgen-gpu reschedule-check DIR`: it loads the two
// raw kernels of DIR with the CUDA runtime's library API, gives them the
// same random inputs and their own NaN-poisoned outputs, compares the
// outputs bit for bit (the schedule reorders no arithmetic), and times
// both with CUDA events, alternating, reporting medians as a CSV row.
//
//===----------------------------------------------------------------------===//

#include "RescheduleCheck.h"

#include "CudaUtil.h"
#include "RawCheck.h"
#include "Timing.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace tcgen;
using namespace tcgen::bench;

const char *const tcgen::bench::kRescheduleCheckHelp =
    "usage: tcgen-gpu reschedule-check DIR [options]\n"
    "  Runs DIR/original.json and DIR/rescheduled.json (tcgen reschedule -o "
    "DIR)\n"
    "  on the same random inputs with NaN-poisoned outputs, compares the\n"
    "  outputs bit for bit, and times both (CUDA events, alternated, "
    "medians).\n"
    "  --args LIST     one entry per parameter: a pointer's element count, a\n"
    "                  scalar's value (default: the manifests' --args)\n"
    "  --grid X,Y,Z    the grid (default: the manifests' launch)\n"
    "  --iters N       timed samples per kernel (default 50)\n"
    "  --warmup N      untimed launches per kernel first (default 5)\n"
    "  --batch N       launches per timed sample (default 10)\n"
    "  --seed N        the inputs' random seed (default 1)\n"
    "  --csv FILE      append the CSV row to FILE too\n"
    "Prints a MISMATCH line per output that differs, then a CSV header and\n"
    "row: date,device,kernel,entry,stages,grid,block,original_ms,\n"
    "rescheduled_ms,speedup,outputs,unwritten (outputs: equal or DIFFER;\n"
    "unwritten: output elements still holding the poison).\n"
    "Exit status: 0 outputs equal, 1 error or outputs differ, 2 usage\n";

namespace {

struct Options {
  std::string dir, args, csv;
  std::array<int64_t, 3> grid = {0, 0, 0};
  int iters = 50, warmup = 5, batch = 10;
  uint64_t seed = 1;
};

int usage(const std::string &message) {
  std::fprintf(stderr,
               "tcgen-gpu: reschedule-check: %s\n(run 'tcgen-gpu "
               "reschedule-check --help' for usage)\n",
               message.c_str());
  return 2;
}

bool parseInt(const std::string &s, int64_t min, int64_t max, int64_t &out) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || v < min || v > max)
    return false;
  out = v;
  return true;
}

int parseOptions(const std::vector<std::string> &args, Options &o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    bool hasValue = i + 1 < args.size();
    int64_t v = 0;
    if (a == "--help" || a == "-h") {
      std::fputs(kRescheduleCheckHelp, stdout);
      return 0;
    }
    if (a == "--args" && hasValue) {
      o.args = args[++i];
    } else if (a == "--csv" && hasValue) {
      o.csv = args[++i];
    } else if (a == "--grid" && hasValue) {
      std::string g = args[++i];
      size_t at = 0;
      for (int d = 0; d < 3; ++d) {
        size_t comma = g.find(',', at);
        std::string part = g.substr(at, comma - at);
        if (!parseInt(part, 1, (int64_t(1) << 31) - 1, o.grid[d]))
          return usage("--grid needs X,Y,Z (positive integers)");
        if (comma == std::string::npos) {
          for (int rest = d + 1; rest < 3; ++rest)
            o.grid[rest] = 1;
          break;
        }
        at = comma + 1;
      }
    } else if (a == "--iters" && hasValue) {
      if (!parseInt(args[++i], 1, 100000, v))
        return usage("--iters needs an integer in [1, 100000]");
      o.iters = static_cast<int>(v);
    } else if (a == "--warmup" && hasValue) {
      if (!parseInt(args[++i], 0, 100000, v))
        return usage("--warmup needs an integer in [0, 100000]");
      o.warmup = static_cast<int>(v);
    } else if (a == "--batch" && hasValue) {
      if (!parseInt(args[++i], 1, 10000, v))
        return usage("--batch needs an integer in [1, 10000]");
      o.batch = static_cast<int>(v);
    } else if (a == "--seed" && hasValue) {
      if (!parseInt(args[++i], 0, INT64_MAX, v))
        return usage("--seed needs a non-negative integer");
      o.seed = static_cast<uint64_t>(v);
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "'");
    } else if (o.dir.empty()) {
      o.dir = a;
    } else {
      return usage("one DIR only, got '" + a + "' too");
    }
  }
  if (o.dir.empty())
    return usage("missing DIR");
  return -1;
}

/// One loaded kernel with its own output buffers.
struct Loaded {
  RawKernel manifest;
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  std::vector<DeviceBuffer> buffers; // per parameter (empty for scalars)
  std::vector<std::vector<unsigned char>> scalars;
  std::vector<void *> pointers; // device addresses, per parameter
  std::vector<void *> argv;
  ~Loaded() {
    if (library)
      cudaLibraryUnload(library);
  }
};

std::string load(const Options &o, const std::string &variant, Loaded &k) {
  std::string path = o.dir + "/" + variant + ".json";
  std::string error = loadRawKernel(path, k.manifest);
  if (!error.empty())
    return error;
  if (!o.args.empty()) {
    error = applyRawArgs(o.args, k.manifest);
    if (!error.empty())
      return error;
  }
  if (o.grid[0])
    k.manifest.grid = o.grid;
  const RawKernel &m = k.manifest;
  std::string image = o.dir + "/" + (m.cubin.empty() ? m.ptx : m.cubin);
  error = formatCuda("cudaLibraryLoadFromFile",
                     cudaLibraryLoadFromFile(&k.library, image.c_str(), nullptr,
                                             nullptr, 0, nullptr, nullptr, 0));
  if (error.empty())
    error =
        formatCuda("cudaLibraryGetKernel",
                   cudaLibraryGetKernel(&k.kernel, k.library, m.entry.c_str()));
  return error.empty() ? "" : image + ": " + error;
}

/// Allocates `k`'s buffers: inputs from `inputs` (shared host data),
/// outputs poisoned; scalars from the manifest.
std::string prepare(Loaded &k,
                    const std::vector<std::vector<unsigned char>> &inputs) {
  const std::vector<RawParam> &params = k.manifest.params;
  k.buffers.resize(params.size());
  k.scalars.resize(params.size());
  k.pointers.assign(params.size(), nullptr);
  k.argv.assign(params.size(), nullptr);
  for (size_t i = 0; i < params.size(); ++i) {
    const RawParam &p = params[i];
    if (p.kind != "ptr") {
      std::vector<unsigned char> &s = k.scalars[i];
      s.resize(rawTypeBytes(p.kind));
      if (p.kind == "i32") {
        int32_t v = static_cast<int32_t>(*p.value);
        std::memcpy(s.data(), &v, 4);
      } else if (p.kind == "i64") {
        int64_t v = static_cast<int64_t>(*p.value);
        std::memcpy(s.data(), &v, 8);
      } else if (p.kind == "f32") {
        float v = static_cast<float>(*p.value);
        std::memcpy(s.data(), &v, 4);
      } else {
        double v = *p.value;
        std::memcpy(s.data(), &v, 8);
      }
      k.argv[i] = s.data();
      continue;
    }
    size_t bytes = rawBufferBytes(p);
    std::string error = k.buffers[i].allocate(bytes);
    if (error.empty())
      error = k.buffers[i].upload(p.access == "write" ? poisonBuffer(p).data()
                                                      : inputs[i].data(),
                                  bytes);
    if (!error.empty())
      return "parameter " + std::to_string(i + 1) + ": " + error;
    k.pointers[i] = k.buffers[i].get();
    k.argv[i] = &k.pointers[i];
  }
  return "";
}

std::string launch(Loaded &k, cudaStream_t stream) {
  const RawKernel &m = k.manifest;
  dim3 grid(m.grid[0], m.grid[1], m.grid[2]);
  dim3 block(m.block[0], m.block[1], m.block[2]);
  return formatCuda("cudaLaunchKernel",
                    cudaLaunchKernel(reinterpret_cast<const void *>(k.kernel),
                                     grid, block, k.argv.data(),
                                     m.dynamicSmemBytes, stream));
}

/// Runs both once and compares every output; prints what differs.
std::string compareOutputs(Loaded &a, Loaded &b, bool &equal,
                           int64_t &poisoned) {
  equal = true;
  poisoned = 0;
  std::string error = launch(a, nullptr);
  if (error.empty())
    error = launch(b, nullptr);
  if (error.empty())
    error = formatCuda("cudaDeviceSynchronize", cudaDeviceSynchronize());
  if (!error.empty())
    return error;
  const std::vector<RawParam> &params = a.manifest.params;
  for (size_t i = 0; i < params.size(); ++i) {
    const RawParam &p = params[i];
    if (p.kind != "ptr" || p.access == "read")
      continue;
    size_t bytes = rawBufferBytes(p);
    std::vector<unsigned char> ha(bytes), hb(bytes);
    error = a.buffers[i].download(ha.data(), bytes);
    if (error.empty())
      error = b.buffers[i].download(hb.data(), bytes);
    if (!error.empty())
      return error;
    BitComparison c = compareBits(p, ha, hb);
    poisoned += c.poisoned;
    if (c.mismatches) {
      equal = false;
      std::printf("MISMATCH parameter %zu: %lld of %lld elements differ; "
                  "first at %lld: original %s, rescheduled %s\n",
                  i + 1, static_cast<long long>(c.mismatches),
                  static_cast<long long>(*p.elements),
                  static_cast<long long>(c.firstMismatch),
                  formatElement(p, ha, c.firstMismatch).c_str(),
                  formatElement(p, hb, c.firstMismatch).c_str());
    }
  }
  return "";
}

/// Median milliseconds per launch of `a` and `b`, alternated.
std::string timeBoth(const Options &o, Loaded &a, Loaded &b, double &msA,
                     double &msB) {
  cudaEvent_t start = nullptr, stop = nullptr;
  std::string error = formatCuda("cudaEventCreate", cudaEventCreate(&start));
  if (error.empty())
    error = formatCuda("cudaEventCreate", cudaEventCreate(&stop));
  std::vector<double> samples[2];
  Loaded *kernels[2] = {&a, &b};
  for (int w = 0; w < o.warmup && error.empty(); ++w)
    for (Loaded *k : kernels)
      if (error.empty())
        error = launch(*k, nullptr);
  for (int it = 0; it < o.iters && error.empty(); ++it)
    for (int j = 0; j < 2 && error.empty(); ++j) {
      int which = (it + j) % 2; // alternate which goes first
      error = formatCuda("cudaEventRecord", cudaEventRecord(start, nullptr));
      for (int l = 0; l < o.batch && error.empty(); ++l)
        error = launch(*kernels[which], nullptr);
      if (error.empty())
        error = formatCuda("cudaEventRecord", cudaEventRecord(stop, nullptr));
      if (error.empty())
        error = formatCuda("cudaEventSynchronize", cudaEventSynchronize(stop));
      float ms = 0;
      if (error.empty())
        error = formatCuda("cudaEventElapsedTime",
                           cudaEventElapsedTime(&ms, start, stop));
      samples[which].push_back(ms / o.batch);
    }
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  msA = median(samples[0]);
  msB = median(samples[1]);
  return error;
}

} // namespace

int tcgen::bench::rescheduleCheckCommand(const std::vector<std::string> &args) {
  Options o;
  int status = parseOptions(args, o);
  if (status >= 0)
    return status;
  auto original = std::make_unique<Loaded>(),
       rescheduled = std::make_unique<Loaded>();
  // The manifests first: their errors need no GPU.
  std::string error =
      loadRawKernel(o.dir + "/original.json", original->manifest);
  if (error.empty())
    error = loadRawKernel(o.dir + "/rescheduled.json", rescheduled->manifest);
  for (Loaded *k : {original.get(), rescheduled.get()})
    if (error.empty() && !o.args.empty())
      error = applyRawArgs(o.args, k->manifest);
  if (error.empty())
    error = checkRawPair(original->manifest, rescheduled->manifest);
  if (!error.empty()) {
    std::fprintf(stderr, "tcgen-gpu: reschedule-check: %s\n", error.c_str());
    return 1;
  }
  error = initDevice();
  DeviceProps device;
  if (error.empty())
    error = getDeviceProps(device);
  int cc = device.ccMajor * 10 + device.ccMinor;
  const RawKernel &m = rescheduled->manifest;
  if (error.empty() &&
      (cc < m.minCC ||
       (!m.arch.empty() && m.arch.back() == 'a' && cc != m.minCC)))
    error = "the kernels are built for " + m.arch + "; the device (" +
            device.name + ") has compute capability " + std::to_string(cc);
  if (error.empty())
    error = load(o, "original", *original);
  if (error.empty())
    error = load(o, "rescheduled", *rescheduled);
  std::vector<std::vector<unsigned char>> inputs;
  for (size_t i = 0; i < m.params.size(); ++i)
    inputs.push_back(m.params[i].kind == "ptr" && m.params[i].access != "write"
                         ? randomBuffer(m.params[i], o.seed + i)
                         : std::vector<unsigned char>());
  if (error.empty())
    error = prepare(*original, inputs);
  if (error.empty())
    error = prepare(*rescheduled, inputs);
  bool equal = false;
  int64_t poisoned = 0;
  if (error.empty())
    error = compareOutputs(*original, *rescheduled, equal, poisoned);
  double msOriginal = 0, msRescheduled = 0;
  if (error.empty())
    error = timeBoth(o, *original, *rescheduled, msOriginal, msRescheduled);
  if (!error.empty()) {
    std::fprintf(stderr, "tcgen-gpu: reschedule-check: %s: %s\n", o.dir.c_str(),
                 error.c_str());
    return 1;
  }
  std::string header = "date,device,kernel,entry,stages,grid,block,"
                       "original_ms,rescheduled_ms,speedup,outputs,"
                       "unwritten";
  std::string grid = std::to_string(m.grid[0]) + "x" +
                     std::to_string(m.grid[1]) + "x" +
                     std::to_string(m.grid[2]);
  std::string block = std::to_string(m.block[0]) + "x" +
                      std::to_string(m.block[1]) + "x" +
                      std::to_string(m.block[2]);
  std::string row =
      utcNow() + "," + csvField(device.name) + "," + csvField(m.kernel) + "," +
      csvField(m.entry) + "," + std::to_string(m.stages) + "," + grid + "," +
      block + "," + fmt("%.6f", msOriginal) + "," + fmt("%.6f", msRescheduled) +
      "," + fmt("%.3f", msOriginal / msRescheduled) + "," +
      (equal ? "equal" : "DIFFER") + "," + std::to_string(poisoned);
  std::printf("%s\n%s\n", header.c_str(), row.c_str());
  if (!o.csv.empty()) {
    FILE *probe = std::fopen(o.csv.c_str(), "rb");
    bool fresh = !probe;
    if (probe)
      std::fclose(probe);
    FILE *f = std::fopen(o.csv.c_str(), "ab");
    if (!f || (fresh && std::fprintf(f, "%s\n", header.c_str()) < 0) ||
        std::fprintf(f, "%s\n", row.c_str()) < 0 || std::fclose(f) != 0) {
      std::fprintf(stderr, "tcgen-gpu: reschedule-check: cannot write %s\n",
                   o.csv.c_str());
      return 1;
    }
  }
  return equal ? 0 : 1;
}
