//===- EpilogueKernel.cpp - A manifest's epilogue as a CUDA kernel --------===//
//
// This file implements EpilogueKernel.h: the CUDA C++ writer (a prelude of
// dtype conversions and reads, one device function per epilogue whose
// variables are the value numbers, two kernels around it), the NVRTC
// compile and the launches.
//
//===----------------------------------------------------------------------===//

#include "EpilogueKernel.h"

#include "CudaUtil.h"
#include "EpilogueRef.h"

#include <nvrtc.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr int kVec = 8; // elements a thread of the vector kernel computes
constexpr int kThreads = 256;
constexpr int64_t kMaxGridX = 0x7fffffff; // cudaDeviceProp::maxGridSize[0]
constexpr int64_t kMaxGridY = 65535;      // cudaDeviceProp::maxGridSize[1]

/// Conversions between f32 and the 16-bit floats (round to nearest even;
/// the integer form of bf16 needs no sm_80 instruction), reads of one or 8
/// consecutive elements by dtype code (0 f16, 1 bf16, 2 f32), strided
/// reads of W elements of a row, writes, and the NaN-propagating max/min
/// of arith.maximumf/minimumf. NVRTC needs no header for any of it.
const char *kPrelude = R"cuda(
typedef unsigned short tcgen_u16;
__device__ __forceinline__ float tcgen_from_f16(tcgen_u16 h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
__device__ __forceinline__ tcgen_u16 tcgen_to_f16(float f) {
  tcgen_u16 h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}
__device__ __forceinline__ float tcgen_from_bf16(tcgen_u16 h) {
  return __uint_as_float(((unsigned)h) << 16);
}
__device__ __forceinline__ tcgen_u16 tcgen_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if (f != f)
    return (tcgen_u16)((u >> 16) | 0x40u); // a quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return (tcgen_u16)(u >> 16);
}
__device__ __forceinline__ float tcgen_f16(float x) {
  return tcgen_from_f16(tcgen_to_f16(x));
}
__device__ __forceinline__ float tcgen_bf16(float x) {
  return tcgen_from_bf16(tcgen_to_bf16(x));
}
__device__ __forceinline__ float tcgen_maximum(float a, float b) {
  if (a != a || b != b)
    return __int_as_float(0x7fc00000);
  if (a == b)
    return (__float_as_uint(a) >> 31) ? b : a;
  return a > b ? a : b;
}
__device__ __forceinline__ float tcgen_minimum(float a, float b) {
  if (a != a || b != b)
    return __int_as_float(0x7fc00000);
  if (a == b)
    return (__float_as_uint(a) >> 31) ? a : b;
  return a < b ? a : b;
}
__device__ __forceinline__ double tcgen_maximum(double a, double b) {
  if (a != a || b != b)
    return __longlong_as_double(0x7ff8000000000000LL);
  if (a == b)
    return (__double_as_longlong(a) < 0) ? b : a;
  return a > b ? a : b;
}
__device__ __forceinline__ double tcgen_minimum(double a, double b) {
  if (a != a || b != b)
    return __longlong_as_double(0x7ff8000000000000LL);
  if (a == b)
    return (__double_as_longlong(a) < 0) ? a : b;
  return a < b ? a : b;
}

template <int DT> struct tcgen_io;
template <> struct tcgen_io<0> {
  static __device__ __forceinline__ float ld(const void *p, long long e) {
    return tcgen_from_f16(((const tcgen_u16 *)p)[e]);
  }
  static __device__ __forceinline__ void st(void *p, long long e, float x) {
    ((tcgen_u16 *)p)[e] = tcgen_to_f16(x);
  }
};
template <> struct tcgen_io<1> {
  static __device__ __forceinline__ float ld(const void *p, long long e) {
    return tcgen_from_bf16(((const tcgen_u16 *)p)[e]);
  }
  static __device__ __forceinline__ void st(void *p, long long e, float x) {
    ((tcgen_u16 *)p)[e] = tcgen_to_bf16(x);
  }
};
template <> struct tcgen_io<2> {
  static __device__ __forceinline__ float ld(const void *p, long long e) {
    return ((const float *)p)[e];
  }
  static __device__ __forceinline__ void st(void *p, long long e, float x) {
    ((float *)p)[e] = x;
  }
};

/// 8 consecutive elements from a 16-byte aligned address.
template <int DT>
__device__ __forceinline__ void tcgen_ld8(const void *p, long long e,
                                          float (&x)[8]) {
  if constexpr (DT == 2) {
    const float4 *q = (const float4 *)((const float *)p + e);
    float4 lo = q[0], hi = q[1];
    x[0] = lo.x, x[1] = lo.y, x[2] = lo.z, x[3] = lo.w;
    x[4] = hi.x, x[5] = hi.y, x[6] = hi.z, x[7] = hi.w;
  } else {
    uint4 u = *(const uint4 *)((const tcgen_u16 *)p + e);
    unsigned w[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      tcgen_u16 lo = (tcgen_u16)(w[q] & 0xffffu), hi = (tcgen_u16)(w[q] >> 16);
      x[2 * q] = DT == 0 ? tcgen_from_f16(lo) : tcgen_from_bf16(lo);
      x[2 * q + 1] = DT == 0 ? tcgen_from_f16(hi) : tcgen_from_bf16(hi);
    }
  }
}

/// 8 consecutive elements to a 16-byte aligned address.
template <int DT>
__device__ __forceinline__ void tcgen_st8(void *p, long long e,
                                          const float (&x)[8]) {
  if constexpr (DT == 2) {
    float4 *q = (float4 *)((float *)p + e);
    q[0] = make_float4(x[0], x[1], x[2], x[3]);
    q[1] = make_float4(x[4], x[5], x[6], x[7]);
  } else {
    unsigned w[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      tcgen_u16 lo = DT == 0 ? tcgen_to_f16(x[2 * q]) : tcgen_to_bf16(x[2 * q]);
      tcgen_u16 hi =
          DT == 0 ? tcgen_to_f16(x[2 * q + 1]) : tcgen_to_bf16(x[2 * q + 1]);
      w[q] = (unsigned)lo | ((unsigned)hi << 16);
    }
    *(uint4 *)((tcgen_u16 *)p + e) = make_uint4(w[0], w[1], w[2], w[3]);
  }
}

/// The W values output elements (i, j..j+W) read from p: one broadcast
/// element (CS 0), 8 consecutive ones, or W strided ones.
template <int DT, long long RS, long long CS, int W>
__device__ __forceinline__ void tcgen_read(const void *p, long long i,
                                           long long j, float (&x)[W]) {
  if constexpr (CS == 0) {
    float v = tcgen_io<DT>::ld(p, i * RS);
#pragma unroll
    for (int q = 0; q < W; ++q)
      x[q] = v;
  } else if constexpr (CS == 1 && W == 8) {
    tcgen_ld8<DT>(p, i * RS + j, x);
  } else {
#pragma unroll
    for (int q = 0; q < W; ++q)
      x[q] = tcgen_io<DT>::ld(p, i * RS + (j + q) * CS);
  }
}

template <int DT, int W>
__device__ __forceinline__ void tcgen_write(void *p, long long e,
                                            const float (&x)[W]) {
  if constexpr (W == 8) {
    tcgen_st8<DT>(p, e, x);
  } else {
#pragma unroll
    for (int q = 0; q < W; ++q)
      tcgen_io<DT>::st(p, e + q, x[q]);
  }
}
)cuda";

/// The dtype code of the prelude's reads and writes; -1 for none.
int dtypeCode(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 0;
  case DType::BF16:
    return 1;
  case DType::F32:
    return 2;
  default:
    return -1;
  }
}

/// The C++ type holding an epilogue value of `dtype`: the 16-bit floats
/// and f32 in float (rounded to their dtype), f64 in double, i1 in bool.
const char *cType(const std::string &dtype) {
  if (dtype == "f64")
    return "double";
  if (dtype == "i1")
    return "bool";
  return "float";
}

/// `expr` (of C++ type `exprType`) rounded to `dtype` in its C++ type.
std::string rounded(const std::string &dtype, const std::string &expr,
                    const std::string &exprType) {
  bool isDouble = exprType == "double";
  std::string asFloat = isDouble ? "(float)(" + expr + ")" : expr;
  if (dtype == "f16")
    return "tcgen_f16(" + asFloat + ")";
  if (dtype == "bf16")
    return "tcgen_bf16(" + asFloat + ")";
  if (dtype == "f32")
    return asFloat;
  if (dtype == "f64")
    return isDouble ? expr : "(double)(" + expr + ")";
  return expr;
}

/// An exact literal of `value` (already rounded to the step's dtype).
std::string literal(double value, const std::string &type) {
  bool isDouble = type == "double";
  if (std::isnan(value))
    return isDouble ? "__longlong_as_double(0x7ff8000000000000LL)"
                    : "__int_as_float(0x7fc00000)";
  if (std::isinf(value)) {
    if (isDouble)
      return value > 0
                 ? "__longlong_as_double(0x7ff0000000000000LL)"
                 : "__longlong_as_double((long long)0xfff0000000000000ULL)";
    return value > 0 ? "__int_as_float(0x7f800000)"
                     : "__int_as_float((int)0xff800000u)";
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%a%s", value, isDouble ? "" : "f");
  return std::string("(") + buf + ")";
}

/// arith.cmpf's predicate on a and b (ordered predicates are false and
/// unordered ones true when either is NaN).
std::string comparison(const std::string &predicate, const std::string &a,
                       const std::string &b) {
  struct Entry {
    const char *name, *format; // A stands for a, B for b
  };
  static const Entry kEntries[] = {{"false", "false"},
                                   {"oeq", "(A == B)"},
                                   {"ogt", "(A > B)"},
                                   {"oge", "(A >= B)"},
                                   {"olt", "(A < B)"},
                                   {"ole", "(A <= B)"},
                                   {"one", "(A < B || A > B)"},
                                   {"ord", "(A == A && B == B)"},
                                   {"ueq", "!(A < B || A > B)"},
                                   {"ugt", "!(A <= B)"},
                                   {"uge", "!(A < B)"},
                                   {"ult", "!(A >= B)"},
                                   {"ule", "!(A > B)"},
                                   {"une", "(A != B)"},
                                   {"uno", "(A != A || B != B)"},
                                   {"true", "true"}};
  for (const Entry &e : kEntries) {
    if (predicate != e.name)
      continue;
    std::string out;
    for (const char *c = e.format; *c; ++c)
      out += *c == 'A' ? a : *c == 'B' ? b : std::string(1, *c);
    return out;
  }
  return "";
}

/// The float or double spelling of a math function ("exp" -> "expf").
std::string math(const char *name, const std::string &type) {
  return type == "double" ? std::string(name) : std::string(name) + "f";
}

/// The expression of one step over its args' variables, in the C++ type of
/// the args (`argType`); "" for an op the writer does not know.
std::string stepExpression(const EpilogueStep &step,
                           const std::vector<std::string> &args,
                           const std::string &argType) {
  const std::string &op = step.op;
  auto a = [&](size_t i) { return args[i]; };
  if (op == "addf")
    return a(0) + " + " + a(1);
  if (op == "subf")
    return a(0) + " - " + a(1);
  if (op == "mulf")
    return a(0) + " * " + a(1);
  if (op == "divf")
    return a(0) + " / " + a(1);
  if (op == "maximumf" || op == "minimumf")
    return "tcgen_" + op.substr(0, op.size() - 1) + "(" + a(0) + ", " + a(1) +
           ")";
  if (op == "maxnumf" || op == "minnumf")
    return math(op == "maxnumf" ? "fmax" : "fmin", argType) + "(" + a(0) +
           ", " + a(1) + ")";
  if (op == "powf")
    return math("pow", argType) + "(" + a(0) + ", " + a(1) + ")";
  if (op == "negf")
    return "-" + a(0);
  if (op == "absf")
    return math("fabs", argType) + "(" + a(0) + ")";
  for (const char *f : {"exp", "exp2", "log", "tanh", "erf", "sqrt", "rsqrt"})
    if (op == f)
      return math(f, argType) + "(" + a(0) + ")";
  if (op == "cmpf")
    return comparison(step.predicate, a(0), a(1));
  if (op == "select")
    return a(0) + " ? " + a(1) + " : " + a(2);
  if (op == "extf" || op == "truncf")
    return a(0); // the rounding converts
  return "";
}

/// The device function `tcgen_f(v0, ..., vk)` of the epilogue, one
/// variable per value number. Returns "" or why not.
std::string writeFunction(const Epilogue &epilogue, std::string &out) {
  size_t numInputs = epilogue.inputs.size();
  std::vector<std::string> types(1 + numInputs, "float");
  std::string body;
  for (size_t i = 0; i < epilogue.steps.size(); ++i) {
    const EpilogueStep &step = epilogue.steps[i];
    size_t number = 1 + numInputs + i;
    std::vector<std::string> args;
    for (int64_t arg : step.args) {
      if (arg < 0 || size_t(arg) >= number)
        return "op.epilogue.ops[" + std::to_string(i) + "]: value " +
               std::to_string(arg) + " is not defined before it";
      args.push_back("v" + std::to_string(arg));
    }
    // A float op computes in its args' type; select's condition is bool.
    std::string argType = args.empty()          ? std::string(cType(step.dtype))
                          : step.op == "select" ? types[step.args[1]]
                                                : types[step.args[0]];
    std::string type = cType(step.dtype);
    std::string expr;
    if (step.op == "constant") {
      std::optional<ValueType> t = parseValueType(step.dtype);
      expr = literal(t ? roundToType(step.value, *t) : step.value, type);
    } else {
      expr = stepExpression(step, args, argType);
    }
    if (expr.empty())
      return "op.epilogue.ops[" + std::to_string(i) + "]: cannot write '" +
             step.op + "'" +
             (step.op == "cmpf" ? " with predicate '" + step.predicate + "'"
                                : std::string());
    // A comparison is not rounded; a float result is, to its dtype.
    std::string value = step.dtype == "i1" || step.op == "select"
                            ? expr
                            : rounded(step.dtype, expr, argType);
    body += "  " + type + " v" + std::to_string(number) + " = " + value + ";\n";
    types.push_back(type);
  }
  if (epilogue.result < 0 || size_t(epilogue.result) >= types.size())
    return "op.epilogue.result is not defined";
  std::string params;
  for (size_t v = 0; v <= numInputs; ++v)
    params += std::string(v ? ", " : "") + "float v" + std::to_string(v);
  out = "__device__ __forceinline__ float tcgen_f(" + params + ") {\n" + body +
        "  return (float)v" + std::to_string(epilogue.result) + ";\n}\n";
  return "";
}
} // namespace

std::string tcgen::bench::epilogueKernelSource(const Epilogue &epilogue,
                                               const EwLayout &layout,
                                               std::string &source) {
  size_t reads = layout.values.size();
  if (reads != 1 + epilogue.inputs.size())
    return "the pointwise kernel reads the matmul result and " +
           std::to_string(epilogue.inputs.size()) + " inputs, got " +
           std::to_string(reads) + " reads";
  for (size_t r = 0; r < reads; ++r)
    if (dtypeCode(layout.values[r].dtype) < 0)
      return std::string("the pointwise kernel reads f16, bf16 or f32, not ") +
             dtypeName(layout.values[r].dtype) + " (value " +
             std::to_string(r) + ")";
  if (dtypeCode(layout.outType) < 0)
    return std::string("the pointwise kernel writes f16, bf16 or f32, not ") +
           dtypeName(layout.outType);
  std::string function;
  std::string error = writeFunction(epilogue, function);
  if (!error.empty())
    return error;
  // One body for both kernels: W elements of row i from column j.
  std::string params, args, loads, call;
  for (size_t r = 0; r < reads; ++r) {
    std::string n = std::to_string(r);
    const EwRead &read = layout.values[r];
    params += "const void *r" + n + ", ";
    args += "r" + n + ", ";
    loads += "      float x" + n + "[W];\n      tcgen_read<" +
             std::to_string(dtypeCode(read.dtype)) + ", " +
             std::to_string(read.rowStride) + "LL, " +
             std::to_string(read.colStride) + "LL, W>(r" + n + ", i, j, x" + n +
             ");\n";
    call += std::string(r ? ", " : "") + "x" + n + "[q]";
  }
  std::string signature =
      params + "void *out, long long rows, long long units, long long col0";
  std::string forward = args + "out, rows, units, col0";
  source = std::string("// The epilogue of a tcgen bundle, for the dual "
                       "GEMM baselines of tcgen-gpu bench.\n") +
           kPrelude + "\n" + function + "\ntemplate <int W>\n" +
           "__device__ __forceinline__ void tcgen_body(" + signature +
           ") {\n"
           "  const long long unitStride = (long long)gridDim.x * "
           "blockDim.x;\n"
           "  const long long rowStride = (long long)gridDim.y * blockDim.y;\n"
           "  for (long long i = (long long)blockIdx.y * blockDim.y + "
           "threadIdx.y; i < rows;\n"
           "       i += rowStride)\n"
           "    for (long long u = (long long)blockIdx.x * blockDim.x + "
           "threadIdx.x; u < units;\n"
           "         u += unitStride) {\n"
           "      const long long j = col0 + u * W;\n" +
           loads +
           "      float y[W];\n"
           "#pragma unroll\n"
           "      for (int q = 0; q < W; ++q)\n"
           "        y[q] = tcgen_f(" +
           call +
           ");\n"
           "      tcgen_write<" +
           std::to_string(dtypeCode(layout.outType)) + ", W>(out, i * " +
           std::to_string(layout.outLd) +
           "LL + j, y);\n"
           "    }\n"
           "}\n\n"
           "extern \"C\" __global__ void __launch_bounds__(" +
           std::to_string(kThreads) + ") " + kEpilogueKernelVector + "(" +
           signature + ") {\n  tcgen_body<" + std::to_string(kVec) + ">(" +
           forward + ");\n}\n\n" +
           "extern \"C\" __global__ void __launch_bounds__(" +
           std::to_string(kThreads) + ") " + kEpilogueKernelScalar + "(" +
           signature + ") {\n  tcgen_body<1>(" + forward + ");\n}\n";
  return "";
}

std::string tcgen::bench::compileEpilogueKernel(const std::string &source,
                                                int cc, std::string &cubin) {
  nvrtcProgram program;
  nvrtcResult status = nvrtcCreateProgram(
      &program, source.c_str(), "tcgen_epilogue.cu", 0, nullptr, nullptr);
  if (status != NVRTC_SUCCESS)
    return std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(status);
  std::string arch = "--gpu-architecture=sm_" + std::to_string(cc);
  const char *options[] = {arch.c_str(), "-std=c++17"};
  status = nvrtcCompileProgram(program, 2, options);
  std::string error;
  if (status != NVRTC_SUCCESS) {
    size_t logSize = 0;
    nvrtcGetProgramLogSize(program, &logSize);
    std::string log(logSize, '\0');
    if (logSize)
      nvrtcGetProgramLog(program, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
      log.pop_back();
    error = std::string("nvrtcCompileProgram (") + arch +
            "): " + nvrtcGetErrorString(status) + "\n" + log;
  } else {
    size_t size = 0;
    status = nvrtcGetCUBINSize(program, &size);
    cubin.assign(size, '\0');
    if (status == NVRTC_SUCCESS)
      status = nvrtcGetCUBIN(program, cubin.data());
    if (status != NVRTC_SUCCESS)
      error = std::string("nvrtcGetCUBIN: ") + nvrtcGetErrorString(status);
  }
  nvrtcDestroyProgram(&program);
  return error;
}

namespace {
bool aligned16(const void *p) {
  return (reinterpret_cast<uintptr_t>(p) & 15) == 0;
}
} // namespace

EpilogueKernel::~EpilogueKernel() {
  if (library)
    cudaLibraryUnload(library);
}

std::string EpilogueKernel::init(const Epilogue &epilogue,
                                 const EwLayout &kernelLayout) {
  layout = kernelLayout;
  std::string source, cubin;
  std::string e = epilogueKernelSource(epilogue, layout, source);
  if (!e.empty())
    return e;
  int device = 0, major = 0, minor = 0;
  if (!(e = formatCuda("cudaGetDevice", cudaGetDevice(&device))).empty() ||
      !(e = formatCuda("cudaDeviceGetAttribute",
                       cudaDeviceGetAttribute(
                           &major, cudaDevAttrComputeCapabilityMajor, device)))
           .empty() ||
      !(e = formatCuda("cudaDeviceGetAttribute",
                       cudaDeviceGetAttribute(
                           &minor, cudaDevAttrComputeCapabilityMinor, device)))
           .empty())
    return e;
  if (!(e = compileEpilogueKernel(source, major * 10 + minor, cubin)).empty())
    return e;
  if (!(e = formatCuda("cudaLibraryLoadData",
                       cudaLibraryLoadData(&library, cubin.data(), nullptr,
                                           nullptr, 0, nullptr, nullptr, 0)))
           .empty() ||
      !(e = formatCuda(
            "cudaLibraryGetKernel",
            cudaLibraryGetKernel(&vector, library, kEpilogueKernelVector)))
           .empty())
    return e;
  return formatCuda(
      "cudaLibraryGetKernel",
      cudaLibraryGetKernel(&scalar, library, kEpilogueKernelScalar));
}

std::string EpilogueKernel::run(const std::vector<const void *> &reads,
                                void *out, int64_t m, int64_t n,
                                cudaStream_t stream) const {
  if (!library)
    return "the epilogue kernel is not loaded";
  if (reads.size() != layout.values.size())
    return "the epilogue kernel takes " + std::to_string(layout.values.size()) +
           " reads, got " + std::to_string(reads.size());
  if (m <= 0 || n <= 0)
    return "";
  // The vector kernel's 16-byte accesses: aligned bases, rows a multiple
  // of 8 elements apart.
  bool vectorOk = aligned16(out) && layout.outLd % kVec == 0;
  for (size_t r = 0; r < reads.size(); ++r) {
    const EwRead &read = layout.values[r];
    if (read.colStride == 1)
      vectorOk = vectorOk && aligned16(reads[r]) && read.rowStride % kVec == 0;
  }
  auto launch = [&](cudaKernel_t kernel, int64_t units,
                    int64_t col0) -> std::string {
    if (units <= 0)
      return "";
    // x threads cover a row's units; narrow rows leave the rest to y.
    int bx = 32;
    while (bx < kThreads && bx < units)
      bx *= 2;
    int by = kThreads / bx;
    dim3 block(bx, by);
    dim3 grid(unsigned(std::min<int64_t>((units + bx - 1) / bx, kMaxGridX)),
              unsigned(std::min<int64_t>((m + by - 1) / by, kMaxGridY)));
    std::vector<const void *> pointers = reads;
    void *output = out;
    long long rows = m, count = units, first = col0;
    std::vector<void *> params;
    for (const void *&p : pointers)
      params.push_back(&p);
    params.push_back(&output);
    params.push_back(&rows);
    params.push_back(&count);
    params.push_back(&first);
    return formatCuda("cudaLaunchKernel (epilogue)",
                      cudaLaunchKernel(reinterpret_cast<const void *>(kernel),
                                       grid, block, params.data(), 0, stream));
  };
  int64_t vectors = vectorOk ? n / kVec : 0;
  std::string e = launch(vector, vectors, 0);
  if (e.empty())
    e = launch(scalar, n - vectors * kVec, vectors * kVec);
  return e;
}
