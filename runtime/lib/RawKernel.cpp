//===- RawKernel.cpp - The manifest of a raw (rescheduled) kernel ---------===//
//
// This file implements parsing and printing of the raw-kernel manifest
// (RawKernel.h, docs/BUNDLE.md): every field checked, every error naming
// the field and what it expected.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/RawKernel.h"

#include "tcgen/Runtime/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace tcgen;
using json::Value;

namespace {

/// Reads fields of one object, recording the first error.
struct Reader {
  std::string error;

  const Value *field(const Value &obj, const std::string &path, const char *key,
                     bool required) {
    const Value *v = obj.get(key);
    if (!v && required && error.empty())
      error = "field '" + path + key + "': missing";
    return v;
  }
  bool string(const Value &obj, const std::string &path, const char *key,
              std::string &out, bool required) {
    const Value *v = field(obj, path, key, required);
    if (!v)
      return error.empty();
    if (!v->isString()) {
      error = "field '" + path + key + "': expected a string";
      return false;
    }
    out = v->getString();
    return true;
  }
  bool integer(const Value &obj, const std::string &path, const char *key,
               int64_t &out, bool required, int64_t min = 0) {
    const Value *v = field(obj, path, key, required);
    if (!v)
      return error.empty();
    if (!v->isInteger() || v->getInt() < min) {
      error = "field '" + path + key +
              "': expected an integer >= " + std::to_string(min);
      return false;
    }
    out = v->getInt();
    return true;
  }
  bool dims(const Value &obj, const std::string &path, const char *key,
            std::array<int64_t, 3> &out) {
    const Value *v = field(obj, path, key, true);
    if (!v)
      return false;
    if (!v->isArray() || v->getElements().size() != 3) {
      error = "field '" + path + key + "': expected 3 positive integers";
      return false;
    }
    for (size_t i = 0; i < 3; ++i) {
      const Value &e = v->getElements()[i];
      if (!e.isInteger() || e.getInt() < 1) {
        error = "field '" + path + key + "': expected 3 positive integers";
        return false;
      }
      out[i] = e.getInt();
    }
    return true;
  }
};

bool isScalarKind(std::string_view k) {
  return k == "i32" || k == "i64" || k == "f32" || k == "f64";
}

std::string parseParam(Reader &r, const Value &v, size_t i, RawParam &p) {
  std::string path = "params[" + std::to_string(i) + "].";
  if (!v.isObject())
    return "field 'params[" + std::to_string(i) + "]': expected an object";
  if (!r.string(v, path, "kind", p.kind, true))
    return r.error;
  if (p.kind == "ptr") {
    if (!r.string(v, path, "dtype", p.dtype, true) ||
        !r.string(v, path, "access", p.access, true))
      return r.error;
    if (!isScalarKind(p.dtype))
      return "field '" + path +
             "dtype': expected f32, f64, i32 or i64, got \"" + p.dtype + "\"";
    if (p.access != "read" && p.access != "write" && p.access != "readwrite")
      return "field '" + path +
             "access': expected read, write or readwrite, got \"" + p.access +
             "\"";
    int64_t elements = 0;
    if (v.get("elements")) {
      if (!r.integer(v, path, "elements", elements, true, 1))
        return r.error;
      p.elements = elements;
    }
    if (v.get("value"))
      return "field '" + path + "value': a pointer has no value";
    return "";
  }
  if (!isScalarKind(p.kind))
    return "field '" + path + "kind': expected ptr, i32, i64, f32 or f64, " +
           "got \"" + p.kind + "\"";
  if (v.get("dtype") || v.get("access") || v.get("elements"))
    return "field '" + path + "': a scalar has only kind and value";
  if (const Value *value = v.get("value")) {
    bool integral = p.kind[0] == 'i';
    if (!value->isNumber() || (integral && !value->isInteger()))
      return "field '" + path + "value': expected " +
             (integral ? "an integer" : "a number");
    p.value = value->getNumber();
  }
  return "";
}

} // namespace

int64_t tcgen::rawTypeBytes(std::string_view type) {
  if (type == "i32" || type == "f32")
    return 4;
  if (type == "i64" || type == "f64" || type == "ptr")
    return 8;
  return 0;
}

std::string tcgen::parseRawKernel(std::string_view text, RawKernel &out) {
  Value root;
  std::string error = json::parse(text, root);
  if (!error.empty())
    return error;
  if (!root.isObject())
    return "expected a JSON object";
  Reader r;
  std::string format;
  int64_t version = 0;
  if (!r.string(root, "", "format", format, true))
    return r.error;
  if (format != "tcgen.raw-kernel")
    return "field 'format': expected \"tcgen.raw-kernel\", got \"" + format +
           "\"";
  if (!r.integer(root, "", "version", version, true))
    return r.error;
  if (version != 1)
    return "field 'version': unsupported version " + std::to_string(version);
  RawKernel k;
  if (!r.string(root, "", "entry", k.entry, true) ||
      !r.string(root, "", "cubin", k.cubin, false) ||
      !r.string(root, "", "ptx", k.ptx, false) ||
      !r.string(root, "", "variant", k.variant, true) ||
      !r.string(root, "", "source", k.source, false) ||
      !r.string(root, "", "kernel", k.kernel, false))
    return r.error;
  if (k.entry.empty())
    return "field 'entry': empty";
  if (k.cubin.empty() && k.ptx.empty())
    return "fields 'cubin' and 'ptx': the manifest names neither";
  if (k.variant != "original" && k.variant != "rescheduled")
    return "field 'variant': expected original or rescheduled, got \"" +
           k.variant + "\"";
  const Value *target = r.field(root, "", "target", true);
  if (!target)
    return r.error;
  int64_t minCC = 0;
  if (!target->isObject())
    return "field 'target': expected an object";
  if (!r.string(*target, "target.", "arch", k.arch, true) ||
      !r.integer(*target, "target.", "min_cc", minCC, true, 10))
    return r.error;
  k.minCC = static_cast<int>(minCC);
  const Value *params = r.field(root, "", "params", true);
  if (!params)
    return r.error;
  if (!params->isArray())
    return "field 'params': expected an array";
  for (size_t i = 0; i < params->getElements().size(); ++i) {
    RawParam p;
    std::string e = parseParam(r, params->getElements()[i], i, p);
    if (!e.empty())
      return e;
    k.params.push_back(p);
  }
  const Value *launch = r.field(root, "", "launch", true);
  if (!launch)
    return r.error;
  if (!launch->isObject())
    return "field 'launch': expected an object";
  if (!r.dims(*launch, "launch.", "grid", k.grid) ||
      !r.dims(*launch, "launch.", "block", k.block) ||
      !r.integer(*launch, "launch.", "dynamic_smem_bytes", k.dynamicSmemBytes,
                 false))
    return r.error;
  if (k.block[0] * k.block[1] * k.block[2] > 1024)
    return "field 'launch.block': more than 1024 threads";
  if (const Value *schedule = root.get("schedule")) {
    if (!schedule->isObject())
      return "field 'schedule': expected an object";
    if (!r.integer(*schedule, "schedule.", "stages", k.stages, true, 2) ||
        !r.integer(*schedule, "schedule.", "stage_bytes", k.stageBytes, true,
                   1))
      return r.error;
  }
  if (k.variant == "rescheduled" && k.stages == 0)
    return "field 'schedule': a rescheduled kernel names its stages";
  if (const Value *res = root.get("resources")) {
    if (!res->isObject())
      return "field 'resources': expected an object";
    if (!r.integer(*res, "resources.", "registers", k.registers, false) ||
        !r.integer(*res, "resources.", "spill_bytes", k.spillBytes, false) ||
        !r.integer(*res, "resources.", "static_smem_bytes", k.staticSmemBytes,
                   false))
      return r.error;
  }
  out = std::move(k);
  return "";
}

std::string tcgen::applyRawArgs(std::string_view text, RawKernel &k) {
  std::vector<std::string> entries;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    entries.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  if (entries.size() != k.params.size())
    return "--args has " + std::to_string(entries.size()) +
           " entries; the kernel has " + std::to_string(k.params.size()) +
           " parameters";
  for (size_t i = 0; i < entries.size(); ++i) {
    RawParam &p = k.params[i];
    const std::string &e = entries[i];
    std::string where = "--args entry " + std::to_string(i + 1) + " ('" + e +
                        "', parameter of kind " + p.kind + "): ";
    char *end = nullptr;
    if (p.kind == "ptr" || p.kind[0] == 'i') {
      errno = 0;
      long long v = std::strtoll(e.c_str(), &end, 10);
      if (e.empty() || *end || errno)
        return where + "expected an integer";
      if (p.kind == "ptr") {
        if (v < 1)
          return where + "a buffer has at least one element";
        p.elements = v;
      } else {
        p.value = static_cast<double>(v);
      }
      continue;
    }
    double v = std::strtod(e.c_str(), &end);
    if (e.empty() || *end)
      return where + "expected a number";
    p.value = v;
  }
  return "";
}

std::string tcgen::loadRawKernel(const std::string &path, RawKernel &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open manifest";
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string error = parseRawKernel(buffer.str(), out);
  return error.empty() ? "" : path + ": " + error;
}

std::string tcgen::writeRawKernel(const RawKernel &k) {
  Value root = Value::object();
  root.set("format", "tcgen.raw-kernel");
  root.set("version", 1);
  root.set("entry", k.entry);
  if (!k.cubin.empty())
    root.set("cubin", k.cubin);
  if (!k.ptx.empty())
    root.set("ptx", k.ptx);
  root.set("variant", k.variant);
  if (!k.source.empty())
    root.set("source", k.source);
  if (!k.kernel.empty())
    root.set("kernel", k.kernel);
  Value target = Value::object();
  target.set("arch", k.arch);
  target.set("min_cc", k.minCC);
  root.set("target", target);
  Value params = Value::array();
  for (const RawParam &p : k.params) {
    Value v = Value::object();
    v.set("kind", p.kind);
    if (p.kind == "ptr") {
      v.set("dtype", p.dtype);
      v.set("access", p.access);
      if (p.elements)
        v.set("elements", *p.elements);
    } else if (p.value) {
      if (p.kind[0] == 'i')
        v.set("value", static_cast<int64_t>(*p.value));
      else
        v.set("value", *p.value);
    }
    params.push(v);
  }
  root.set("params", params);
  Value launch = Value::object();
  launch.set("grid", Value::intArray({k.grid.begin(), k.grid.end()}));
  launch.set("block", Value::intArray({k.block.begin(), k.block.end()}));
  launch.set("dynamic_smem_bytes", k.dynamicSmemBytes);
  root.set("launch", launch);
  if (k.stages) {
    Value schedule = Value::object();
    schedule.set("stages", k.stages);
    schedule.set("stage_bytes", k.stageBytes);
    root.set("schedule", schedule);
  }
  Value res = Value::object();
  res.set("registers", k.registers);
  res.set("spill_bytes", k.spillBytes);
  res.set("static_smem_bytes", k.staticSmemBytes);
  root.set("resources", res);
  return json::print(root) + "\n";
}
