//===- RawCheck.cpp - Host pieces of tcgen-gpu reschedule-check -----------===//
//
// This file implements RawCheck.h: the pair check, the inputs' random
// data, the outputs' poison and the bitwise comparison.
//
//===----------------------------------------------------------------------===//

#include "RawCheck.h"

#include <cstdio>
#include <cstring>
#include <random>

using namespace tcgen;
using namespace tcgen::bench;

std::string tcgen::bench::checkRawPair(const RawKernel &original,
                                       const RawKernel &rescheduled) {
  if (original.variant != "original" || rescheduled.variant != "rescheduled")
    return "expected an original and a rescheduled kernel, got " +
           original.variant + " and " + rescheduled.variant;
  if (original.entry != rescheduled.entry)
    return "the kernels differ: " + original.entry + " and " +
           rescheduled.entry;
  if (original.params.size() != rescheduled.params.size())
    return "the kernels take " + std::to_string(original.params.size()) +
           " and " + std::to_string(rescheduled.params.size()) + " parameters";
  for (size_t i = 0; i < original.params.size(); ++i) {
    const RawParam &a = original.params[i], &b = rescheduled.params[i];
    std::string which = "parameter " + std::to_string(i + 1);
    if (a.kind != b.kind || a.dtype != b.dtype || a.access != b.access)
      return which + " differs between the kernels";
    if (a.kind == "ptr" ? a.elements != b.elements : a.value != b.value)
      return which + " has different arguments in the two manifests";
    if (a.kind == "ptr" && !a.elements)
      return which + " (a pointer) has no element count: pass --args";
    if (a.kind != "ptr" && !a.value)
      return which + " (" + a.kind + ") has no value: pass --args";
  }
  if (original.grid != rescheduled.grid ||
      original.block != rescheduled.block ||
      original.dynamicSmemBytes != rescheduled.dynamicSmemBytes)
    return "the kernels' launch configurations differ";
  return "";
}

int64_t tcgen::bench::rawBufferBytes(const RawParam &p) {
  return p.elements.value_or(0) * rawTypeBytes(p.dtype);
}

std::vector<unsigned char> tcgen::bench::randomBuffer(const RawParam &p,
                                                      uint64_t seed) {
  std::vector<unsigned char> data(rawBufferBytes(p));
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(-8, 8);
  int64_t n = p.elements.value_or(0);
  for (int64_t i = 0; i < n; ++i) {
    if (p.dtype == "f32") {
      float v = static_cast<float>(real(gen));
      std::memcpy(&data[i * 4], &v, 4);
    } else if (p.dtype == "f64") {
      double v = real(gen);
      std::memcpy(&data[i * 8], &v, 8);
    } else if (p.dtype == "i32") {
      int32_t v = static_cast<int32_t>(integer(gen));
      std::memcpy(&data[i * 4], &v, 4);
    } else {
      int64_t v = integer(gen);
      std::memcpy(&data[i * 8], &v, 8);
    }
  }
  return data;
}

std::vector<unsigned char> tcgen::bench::poisonBuffer(const RawParam &p) {
  return std::vector<unsigned char>(rawBufferBytes(p), 0xff);
}

BitComparison tcgen::bench::compareBits(const RawParam &p,
                                        const std::vector<unsigned char> &a,
                                        const std::vector<unsigned char> &b) {
  BitComparison c;
  int64_t size = rawTypeBytes(p.dtype);
  int64_t n = size ? static_cast<int64_t>(a.size()) / size : 0;
  static const unsigned char ones[8] = {0xff, 0xff, 0xff, 0xff,
                                        0xff, 0xff, 0xff, 0xff};
  for (int64_t i = 0; i < n; ++i) {
    if (std::memcmp(&a[i * size], ones, size) == 0)
      ++c.poisoned;
    if (i * size + size > static_cast<int64_t>(b.size()) ||
        std::memcmp(&a[i * size], &b[i * size], size) != 0) {
      if (c.mismatches++ == 0)
        c.firstMismatch = i;
    }
  }
  return c;
}

std::string tcgen::bench::formatElement(const RawParam &p,
                                        const std::vector<unsigned char> &b,
                                        int64_t i) {
  char text[64];
  if (p.dtype == "f32") {
    float v;
    std::memcpy(&v, &b[i * 4], 4);
    std::snprintf(text, sizeof text, "%.9g", v);
  } else if (p.dtype == "f64") {
    double v;
    std::memcpy(&v, &b[i * 8], 8);
    std::snprintf(text, sizeof text, "%.17g", v);
  } else if (p.dtype == "i32") {
    int32_t v;
    std::memcpy(&v, &b[i * 4], 4);
    std::snprintf(text, sizeof text, "%d", v);
  } else {
    int64_t v;
    std::memcpy(&v, &b[i * 8], 8);
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v));
  }
  return text;
}
