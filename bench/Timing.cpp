//===- Timing.cpp - Pieces shared by the timing loops ---------------------===//

#include "Timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <thread>

using namespace tcgen::bench;

namespace {
constexpr double kGateTimeoutS = 2.0; // Never deadlock on a closed gate.
constexpr int kMaxBufferSets = 64;
} // namespace

void CUDART_CB Gate::wait(void *p) {
  auto *gate = static_cast<Gate *>(p);
  auto start = std::chrono::steady_clock::now();
  while (!gate->isOpen.load(std::memory_order_acquire)) {
    std::this_thread::yield();
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() > kGateTimeoutS)
      break;
  }
}

double tcgen::bench::median(std::vector<double> v) {
  if (v.empty())
    return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int tcgen::bench::bufferSets(size_t bytesPerSet, const DeviceProps &device) {
  double l2 = double(std::max<int64_t>(device.l2Bytes, 1));
  if (double(bytesPerSet) >= 2.0 * l2)
    return 1;
  int sets =
      int(std::ceil(4.0 * l2 / double(std::max<size_t>(bytesPerSet, 1))));
  sets = std::clamp(sets, 2, kMaxBufferSets);
  size_t freeBytes = 0, totalBytes = 0;
  if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
    sets = std::max<int>(
        1, std::min<int64_t>(sets, int64_t(0.5 * freeBytes / bytesPerSet)));
  return sets;
}


std::string tcgen::bench::utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm;
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string tcgen::bench::csvField(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string tcgen::bench::fmt(const char *format, double v) {
  if (std::isnan(v))
    return "nan";
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}
