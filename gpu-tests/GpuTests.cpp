//===- GpuTests.cpp - Tests that launch kernel bundles --------------------===//
//
// This file implements tcgen-gpu-tests:
//   GpuBundles.<dir>  checks every bundle under $TCGEN_GPU_BUNDLES like
//                     `tcgen-gpu run --check` (one test per subdirectory);
//   RefBundles.<dir>  the same for the hand-made reference bundles of
//                     bench/refbundles ($TCGEN_REF_BUNDLES overrides where);
//   RefBundlesExpectFail.<dir>  the reference bundles whose kernel gets its
//                     fused epilogue or a matrix of its batch wrong: the
//                     check must FAIL them
//                     ($TCGEN_REF_FAIL_BUNDLES overrides where);
//   GpuRuntime.*      rejected launches (misaligned pointer, wrong dtype),
//                     also after launches that reused their plan
//                     return the runtime's error and launch nothing;
//   GpuCubin.*        a truncated cubin is refused at load, naming it;
//   GpuWorkspace.*    a hand-written kernel with a workspace param sees a
//                     zeroed, per-handle buffer and the stream-K grid;
//   RuntimeHost.*     runtime errors raised before the driver is touched;
//   BenchHost.*       tcgen-gpu logic that needs no device (compute types,
//                     batched matmuls' layouts, cuBLAS plans and lines);
//   GpuCublas.*       the cuBLAS and cuBLASLt calls of a batched matmul
//                     against a float64 host reference.
// Tests that need a device skip with the reason when there is none; the
// program exits with 77 when every test it ran was skipped.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "Bench.h"
#include "Check.h"
#include "CublasGemm.h"
#include "CudaUtil.h"
#include "DeviceSkip.h"
#include "Gemm.h"
#include "tcgen/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

using namespace tcgen;
using namespace tcgen::bench;
namespace fs = std::filesystem;

namespace {
constexpr int kAllSkipped = 77; // ctest SKIP_RETURN_CODE

std::string refFailBundlesDir() {
  const char *env = std::getenv("TCGEN_REF_FAIL_BUNDLES");
  return env && *env ? env : TCGEN_REF_FAIL_BUNDLES_DEFAULT;
}

/// Subdirectories of `dir`, sorted; empty if `dir` is not a directory.
std::vector<fs::path> bundleDirs(const std::string &dir) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->is_directory(ec))
      dirs.push_back(it->path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

/// Runs the `tcgen-gpu run --check` check on one bundle and expects it to
/// pass, or with `expectPass` false to fail (a wrong kernel).
class BundleCheckTest : public ::testing::Test {
public:
  BundleCheckTest(fs::path bundle, bool expectPass)
      : bundle(std::move(bundle)), expectPass(expectPass) {}
  void TestBody() override {
    SKIP_WITHOUT_GPU();
    rt::Kernel kernel;
    ASSERT_EQ(kernel.load(bundle.string()), "") << bundle;
    if (kernel.isDynamic())
      return checkDynamic(kernel);
    CheckResult r = checkKernel(kernel, CheckOptions());
    ASSERT_EQ(r.error, "") << bundle;
    EXPECT_EQ(r.pass, expectPass) << r.line(true);
    EXPECT_NE(r.reference, "none");
    std::printf("%s\n", r.line(true).c_str());
  }

  /// A kernel whose sizes are fixed at launch: one loaded handle is checked
  /// at several sizes (edge tiles along every dimension, M = 1, a prime M
  /// where M is not a row length, K shorter than a k-tile), then a launch
  /// whose rows TMA cannot address must be refused, naming the operand.
  void checkDynamic(rt::Kernel &kernel) {
    const Manifest &dynamic = kernel.manifest();
    const Operand *a = dynamic.findRole(OperandRole::Lhs);
    bool wide = a->dtype == DType::F32; // tf32: 4-byte elements
    // A stored [k][m] (stride 1 on m) has rows of M elements.
    bool mIsRow = a->strides.size() >= 2 && a->strides[a->strides.size() - 2] == 1;
    // Row lengths round up to 16 bytes (8 16-bit, 16 fp8 elements).
    int64_t g = 16 / dtypeSize(a->dtype);
    auto row = [&](int64_t v) { return (v + g - 1) / g * g; };
    auto rowM = [&](int64_t v) { return mIsRow ? row(v) : v; };
    std::vector<LaunchSizes> sizes = {{row(8), row(8), row(8)},
                                      {rowM(1), row(264), row(64)},
                                      {rowM(1009), row(264), row(40)},
                                      {136, row(1000), row(1032)},
                                      {rowM(777), row(520), row(4104)}};
    for (const LaunchSizes &s : sizes) {
      ASSERT_EQ(kernel.bindSizes(s[0], s[1], s[2]), "");
      CheckResult r = checkKernel(kernel, CheckOptions());
      ASSERT_EQ(r.error, "") << bundle << " at " << s[0] << "x" << s[1]
                             << "x" << s[2];
      EXPECT_EQ(r.pass, expectPass) << r.line(true);
      std::printf("%s\n", r.line(true).c_str());
    }
    // Rows of 6 or 12 elements: 24 bytes, not a multiple of 16. Refused
    // where a size fixed at launch is the row length of an operand.
    int64_t odd = wide ? 6 : 12;
    bool rowIsDynamic = false;
    for (const Operand &o : dynamic.operands) {
      // Epilogue inputs are plain pointers, not tensor maps.
      if (o.role == OperandRole::In)
        continue;
      size_t rank = o.strides.size();
      // The innermost dimension (stride 1) is the row: lhs [m, k], rhs
      // [k, n], out [m, n] (the batch first).
      int64_t sizes[2][2] = {{dynamic.op.m, dynamic.op.k},
                             {dynamic.op.k, dynamic.op.n}};
      const int64_t *dims = o.role == OperandRole::Lhs   ? sizes[0]
                            : o.role == OperandRole::Rhs ? sizes[1]
                                                         : nullptr;
      int64_t out[2] = {dynamic.op.m, dynamic.op.n};
      if (!dims)
        dims = out;
      int64_t row = o.strides[rank - 1] == 1 ? dims[1] : dims[0];
      rowIsDynamic |= row == kDynamicSize;
    }
    ASSERT_EQ(kernel.bindSizes(odd, odd, odd), "");
    CheckResult r = checkKernel(kernel, CheckOptions());
    if (rowIsDynamic) {
      EXPECT_NE(
          r.error.find("TMA needs byte strides that are multiples of 16"),
          std::string::npos)
          << r.error;
    } else {
      ASSERT_EQ(r.error, "");
      EXPECT_EQ(r.pass, expectPass) << r.line(true);
    }
  }

private:
  fs::path bundle;
  bool expectPass;
};

class SkipTest : public ::testing::Test {
public:
  explicit SkipTest(std::string reason) : reason(std::move(reason)) {}
  void TestBody() override { GTEST_SKIP() << reason; }

private:
  std::string reason;
};

/// Registers one test per bundle directory under `dir` (expecting each
/// check to pass, or with `expectPass` false to fail), or one skipping test
/// saying why there are none.
void registerBundleTests(const char *suite, const std::string &dir,
                         const std::string &unsetReason,
                         bool expectPass = true) {
  if (dir.empty()) {
    ::testing::RegisterTest(
        suite, "NoBundles", nullptr, nullptr, __FILE__, __LINE__,
        [=]() -> ::testing::Test * { return new SkipTest(unsetReason); });
    return;
  }
  std::vector<fs::path> dirs = bundleDirs(dir);
  if (dirs.empty()) {
    std::string why = dir + " holds no bundle directories";
    ::testing::RegisterTest(
        suite, "NoBundles", nullptr, nullptr, __FILE__, __LINE__,
        [=]() -> ::testing::Test * { return new SkipTest(why); });
    return;
  }
  for (const fs::path &d : dirs)
    ::testing::RegisterTest(suite, d.filename().string().c_str(), nullptr,
                            d.string().c_str(), __FILE__, __LINE__,
                            [=]() -> ::testing::Test * {
                              return new BundleCheckTest(d, expectPass);
                            });
}

//===----------------------------------------------------------------------===//
// Rejected launches on a real device.
//===----------------------------------------------------------------------===//

class GpuRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    // PTX only and min_cc 80, so it loads on any tensor-core GPU.
    std::string bundle = refBundlesDir() + "/ref_f32_f32_ragged";
    if (!fs::exists(bundle))
      GTEST_SKIP() << bundle << " not found (set TCGEN_REF_BUNDLES)";
    ASSERT_EQ(kernel.load(bundle), "");
    ASSERT_EQ(describeGemm(kernel.manifest(), spec), "");
    host = makeHostOperands(kernel.manifest(), spec, /*seed=*/7);
    ASSERT_EQ(dev.create(kernel.manifest(), host), "");
  }

  /// Counts C elements that are not NaN (C starts NaN-poisoned).
  int64_t writtenElements() {
    HostMatrix out = host[spec.cIndex];
    EXPECT_EQ(formatCuda("cudaDeviceSynchronize", cudaDeviceSynchronize()), "");
    EXPECT_EQ(
        dev.buffers[spec.cIndex].download(out.bytes.data(), out.bytes.size()),
        "");
    int64_t written = 0;
    for (int64_t i = 0; i < out.rows; ++i)
      for (int64_t j = 0; j < out.cols; ++j)
        written += !std::isnan(out.get(i, j));
    return written;
  }

  rt::Kernel kernel;
  GemmSpec spec;
  std::vector<HostMatrix> host;
  DeviceOperands dev;
};

TEST_F(GpuRuntime, MisalignedPointerIsRejectedAndNotLaunched) {
  std::vector<TensorArg> args = dev.args;
  args[0].address += 2; // base + 2 bytes; the manifest wants 16
  std::string error = kernel.launch(args);
  EXPECT_EQ(kernel.status(), TCGEN_ERROR_VALIDATION);
  EXPECT_NE(error.find("operand 'A': misaligned pointer: kernel expects "
                       "16-byte alignment"),
            std::string::npos)
      << error;
  EXPECT_EQ(writtenElements(), 0);
}

TEST_F(GpuRuntime, WrongDTypeIsRejectedAndNotLaunched) {
  std::vector<TensorArg> args = dev.args;
  args[1].dtype = DType::F16;
  std::string error = kernel.launch(args);
  EXPECT_EQ(kernel.status(), TCGEN_ERROR_VALIDATION);
  EXPECT_NE(error.find("operand 'B': dtype mismatch: kernel expects f32, got "
                       "f16"),
            std::string::npos)
      << error;
  EXPECT_EQ(writtenElements(), 0);
}

TEST_F(GpuRuntime, ValidLaunchWritesEveryElement) {
  ASSERT_EQ(kernel.launch(dev.args), "");
  EXPECT_EQ(writtenElements(), spec.m * spec.n);
}

// A handle reuses the validation and tensor maps of its last launch when
// the next passes the same tensors; any other tensors are validated again.
TEST_F(GpuRuntime, RepeatedLaunchesAreValidatedWhenTheTensorsChange) {
  ASSERT_EQ(kernel.launch(dev.args), "");
  ASSERT_EQ(kernel.launch(dev.args), "");
  std::vector<TensorArg> misaligned = dev.args;
  misaligned[0].address += 2;
  std::string error = kernel.launch(misaligned);
  EXPECT_EQ(kernel.status(), TCGEN_ERROR_VALIDATION);
  EXPECT_NE(error.find("operand 'A': misaligned pointer"), std::string::npos)
      << error;
  std::vector<TensorArg> wrongDType = dev.args;
  wrongDType[1].dtype = DType::F16;
  EXPECT_NE(kernel.launch(wrongDType), "");
  // And the first tensors still launch (and write every element).
  ASSERT_EQ(kernel.launch(dev.args), "");
  EXPECT_EQ(writtenElements(), spec.m * spec.n);
}

TEST_F(GpuRuntime, MissingEntryNamesTheEntry) {
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-gpu-tests-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  Manifest m = kernel.manifest();
  fs::copy_file(fs::path(tcgen_rt_manifest_path(kernel.get())).parent_path() /
                    m.ptx,
                dir / m.ptx);
  m.entry = "no_such_kernel";
  std::ofstream(dir / "k.json") << writeManifest(m);
  rt::Kernel other;
  std::string error = other.load(dir.string());
  fs::remove_all(dir);
  EXPECT_EQ(other.status(), TCGEN_ERROR_CUDA);
  EXPECT_NE(error.find("CUDA_ERROR_NOT_FOUND"), std::string::npos) << error;
  EXPECT_NE(error.find("entry 'no_such_kernel'"), std::string::npos) << error;
}

/// A cubin cut short, or with a section moved past its end, is refused
/// before the driver reads it (which trusts the image's sizes): an error
/// naming the file, not a crash and not a silent fallback to the PTX. The
/// whole cubin loads, with no note.
TEST(GpuCubin, TruncatedCubinIsAnErrorNotAFallback) {
  SKIP_WITHOUT_GPU();
  fs::path from = fs::path(refBundlesDir()) / "ref_f16_f32_rowmajor";
  if (!fs::exists(from))
    GTEST_SKIP() << from << " not found (set TCGEN_REF_BUNDLES)";
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-gpu-cubin-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char *ext : {".json", ".ptx", ".cubin"})
    fs::copy_file(from / (std::string("ref_f16_f32_rowmajor") + ext),
                  dir / (std::string("ref_f16_f32_rowmajor") + ext));
  fs::path cubin = dir / "ref_f16_f32_rowmajor.cubin";
  rt::Kernel whole;
  ASSERT_EQ(whole.load(dir.string()), "");
  if (std::string(whole.binaryKind()) == "cubin")
    EXPECT_STREQ(whole.loadNote(), "");
  else // A device the sm_90 cubin does not fit: the note says why.
    EXPECT_NE(std::string(whole.loadNote()), "");
  uintmax_t size = fs::file_size(cubin);
  for (uintmax_t keep : {size / 2, size - 1, uintmax_t(100), uintmax_t(10)}) {
    fs::resize_file(cubin, keep);
    rt::Kernel cut;
    std::string error = cut.load(dir.string());
    EXPECT_EQ(cut.status(), TCGEN_ERROR_MANIFEST) << keep << ": " << error;
    EXPECT_NE(error.find(cubin.string() + ": truncated or corrupt cubin: "),
              std::string::npos)
        << error;
    fs::remove(cubin);
    fs::copy_file(from / "ref_f16_f32_rowmajor.cubin", cubin);
  }
  fs::remove_all(dir);
}

//===----------------------------------------------------------------------===//
// Workspace params on a real device.
//===----------------------------------------------------------------------===//

constexpr int64_t kProbeBytesPerBlock = 4096;
constexpr int64_t kProbeOutWords = 1024; // More than any GPU's SM count.

/// ws_probe(out, ws): thread 0 of block b stores the last 32-bit word of
/// its workspace slice, ws[(b + 1) * 4096 - 4], to out[b], then b + 1 into
/// that word; block 0 stores %nctaid.x to out[1023]. A first launch reads
/// zeros, a second one of the same handle what the first left.
constexpr const char *kWorkspaceProbePtx = R"ptx(
.version 7.0
.target sm_80
.address_size 64

.visible .entry ws_probe(.param .u64 out, .param .u64 ws)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [ws];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %nctaid.x;
  add.u32 %r4, %r2, 1;
  mul.wide.u32 %rd3, %r4, 4096;
  add.u64 %rd3, %rd2, %rd3;
  ld.global.u32 %r5, [%rd3+-4];
  mul.wide.u32 %rd4, %r2, 4;
  add.u64 %rd4, %rd1, %rd4;
  st.global.u32 [%rd4], %r5;
  st.global.u32 [%rd3+-4], %r4;
  setp.ne.u32 %p2, %r2, 0;
  @%p2 bra DONE;
  st.global.u32 [%rd1+4092], %r3;
DONE:
  ret;
}
)ptx";

/// Writes the ws_probe bundle for `tiles` tiles to a fresh directory.
class GpuWorkspace : public ::testing::Test {
protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ASSERT_EQ(getDeviceProps(props), "");
    ASSERT_LT(props.smCount, kProbeOutWords);
    dir = fs::temp_directory_path() /
          ("tcgen-gpu-tests-ws-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "ws_probe.ptx") << kWorkspaceProbePtx;
    ASSERT_EQ(out.allocate(kProbeOutWords * 4), "");
  }
  void TearDown() override { fs::remove_all(dir); }

  /// Loads the probe as a persistent (and stream-K) kernel of `tiles`
  /// tiles into `kernel`.
  void load(int64_t tiles, bool streamK) {
    Manifest m;
    m.entry = "ws_probe";
    m.ptx = "ws_probe.ptx";
    m.target = {"sm_80", "test", 80};
    m.op = {"probe", 1, 1, 1, 1, false};
    m.operands = {
        {"out", OperandRole::Out, DType::I32, {kProbeOutWords}, {1}, 16}};
    Param workspace{"workspace", "", ""};
    workspace.bytesPerBlock = kProbeBytesPerBlock;
    m.params = {{"ptr", "out", ""}, workspace};
    m.launch.grid = {tiles, 1, 1};
    m.launch.block = {32, 1, 1};
    m.launch.persistent = true;
    m.launch.streamK = streamK;
    std::ofstream(dir / "ws_probe.json") << writeManifest(m);
    ASSERT_EQ(kernel.load(dir.string()), "");
  }

  /// Launches the probe once on the default stream; returns out.
  std::vector<int32_t> launch() {
    std::vector<int32_t> words(kProbeOutWords, -1);
    EXPECT_EQ(out.upload(words.data(), words.size() * 4), "");
    TensorArg arg{"out", DType::I32, {kProbeOutWords}, {1}};
    arg.address = reinterpret_cast<uintptr_t>(out.get());
    EXPECT_EQ(kernel.launch({arg}), "");
    EXPECT_EQ(formatCuda("cudaDeviceSynchronize", cudaDeviceSynchronize()), "");
    EXPECT_EQ(out.download(words.data(), words.size() * 4), "");
    return words;
  }

  DeviceProps props;
  fs::path dir;
  DeviceBuffer out;
  rt::Kernel kernel;
};

TEST_F(GpuWorkspace, StreamKGetsOneBlockPerSMAndAZeroedWorkspace) {
  load(/*tiles=*/4, /*streamK=*/true);
  std::vector<int32_t> first = launch();
  EXPECT_EQ(first[kProbeOutWords - 1], props.smCount); // %nctaid.x
  for (int b = 0; b < props.smCount; ++b)
    ASSERT_EQ(first[b], 0) << "block " << b;
  // The same buffer, not zeroed again: each slice holds what its block
  // left there.
  std::vector<int32_t> second = launch();
  for (int b = 0; b < props.smCount; ++b)
    ASSERT_EQ(second[b], b + 1) << "block " << b;
}

TEST_F(GpuWorkspace, PersistentSizesTheWorkspaceForItsGrid) {
  load(/*tiles=*/4, /*streamK=*/false);
  std::vector<int32_t> first = launch();
  EXPECT_EQ(first[kProbeOutWords - 1], 4); // min(tiles, SMs)
  for (int b = 0; b < 4; ++b)
    EXPECT_EQ(first[b], 0) << "block " << b;
  EXPECT_EQ(first[4], -1); // No fifth block.
  // A new handle owns a new, zeroed buffer.
  rt::Kernel other = std::move(kernel);
  load(/*tiles=*/4, /*streamK=*/false);
  std::vector<int32_t> again = launch();
  for (int b = 0; b < 4; ++b)
    EXPECT_EQ(again[b], 0) << "block " << b;
}

//===----------------------------------------------------------------------===//
// Runtime errors that need no driver.
//===----------------------------------------------------------------------===//

TEST(RuntimeHost, MissingBundle) {
  tcgen_kernel *k = reinterpret_cast<tcgen_kernel *>(1);
  EXPECT_EQ(tcgen_rt_load("/nonexistent/bundle", &k), TCGEN_ERROR_NOT_FOUND);
  EXPECT_EQ(k, nullptr);
  EXPECT_STREQ(tcgen_rt_last_error(), "/nonexistent/bundle: bundle not found");
}

TEST(RuntimeHost, BadManifest) {
  tcgen_kernel *k = nullptr;
  std::string dir = std::string(TCGEN_GPU_TESTS_INPUTS) + "/missing-entry";
  EXPECT_EQ(tcgen_rt_load(dir.c_str(), &k), TCGEN_ERROR_MANIFEST);
  EXPECT_EQ(std::string(tcgen_rt_last_error()),
            dir + "/k.json: missing required field 'entry'");
}

/// Writes a 16x16x16 sm_90a matmul manifest with `params` to `dir`/k.json;
/// the PTX it names does not exist.
void writeHostManifest(const fs::path &dir, std::vector<Param> params) {
  fs::create_directories(dir);
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx";
  m.target = {"sm_90a", "sm90", 90};
  m.op = {"matmul", 1, 16, 16, 16, false};
  m.operands = {{"A", OperandRole::Lhs, DType::F16, {16, 16}, {16, 1}, 16},
                {"B", OperandRole::Rhs, DType::F16, {16, 16}, {16, 1}, 16},
                {"C", OperandRole::Out, DType::F32, {16, 16}, {16, 1}, 16}};
  m.params = std::move(params);
  std::ofstream(dir / "k.json") << writeManifest(m);
}

/// Loads the bundle in `dir` and expects it to get past the manifest and the
/// param plan: what fails then is the driver (none on a CPU machine) or the
/// missing PTX, never "not supported".
void expectLoadPassesThePlan(const fs::path &dir) {
  tcgen_kernel *k = nullptr;
  tcgen_status s = tcgen_rt_load(dir.c_str(), &k);
  EXPECT_TRUE(s == TCGEN_ERROR_NO_DRIVER || s == TCGEN_ERROR_NO_DEVICE ||
              s == TCGEN_ERROR_NOT_FOUND || s == TCGEN_ERROR_UNSUPPORTED_DEVICE)
      << tcgen_rt_status_name(s) << ": " << tcgen_rt_last_error();
  EXPECT_EQ(std::string(tcgen_rt_last_error()).find("not supported"),
            std::string::npos)
      << tcgen_rt_last_error();
  EXPECT_EQ(k, nullptr);
}

TEST(RuntimeHost, UnsupportedParamKind) {
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-host-tests-" + std::to_string(::getpid()));
  writeHostManifest(
      dir,
      {{"i32", "", "m"}, {"ptr", "A", ""}, {"ptr", "B", ""}, {"ptr", "C", ""}});
  tcgen_kernel *k = nullptr;
  EXPECT_EQ(tcgen_rt_load(dir.c_str(), &k), TCGEN_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(tcgen_rt_last_error())
                .find("params[0]: kind 'i32' is not supported by this "
                      "runtime (supported: ptr, tensormap, workspace, size, "
                      "stride)"),
            std::string::npos)
      << tcgen_rt_last_error();
  fs::remove_all(dir);
}

TEST(RuntimeHost, TensorMapParamsAreAccepted) {
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-host-tests-tma-" + std::to_string(::getpid()));
  Param a{"tensormap", "A", ""};
  a.box = {16, 16};
  a.swizzle = "32B";
  Param b{"tensormap", "B", ""};
  b.box = {16, 8};
  b.swizzle = "none";
  b.l2Promotion = "256B";
  writeHostManifest(dir, {a, b, {"ptr", "C", ""}});
  expectLoadPassesThePlan(dir);
  fs::remove_all(dir);
}

TEST(RuntimeHost, WorkspaceParamsAreAccepted) {
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-host-tests-ws-" + std::to_string(::getpid()));
  Param workspace{"workspace", "", ""};
  workspace.bytesPerBlock = 4096;
  writeHostManifest(
      dir, {{"ptr", "A", ""}, {"ptr", "B", ""}, {"ptr", "C", ""}, workspace});
  expectLoadPassesThePlan(dir);
  fs::remove_all(dir);
}

TEST(RuntimeHost, EpilogueInputsPassThePlan) {
  // C = A*B + bias[j] in f16; the bias is a fourth operand and ptr param.
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-host-tests-epi-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx";
  m.target = {"sm_80", "wmma", 80};
  m.op = {"matmul", 1, 16, 16, 16, false};
  m.operands = {{"A", OperandRole::Lhs, DType::F16, {16, 16}, {16, 1}, 16},
                {"B", OperandRole::Rhs, DType::F16, {16, 16}, {16, 1}, 16},
                {"C", OperandRole::Out, DType::F16, {16, 16}, {16, 1}, 16},
                {"bias", OperandRole::In, DType::F16, {16}, {1}, 16}};
  m.params = {{"ptr", "A", ""},
              {"ptr", "B", ""},
              {"ptr", "C", ""},
              {"ptr", "bias", ""}};
  Epilogue e;
  e.matmulDType = DType::F16;
  e.inputs = {{"bias", EpilogueInputKind::Row}};
  e.steps = {{"addf", {0, 1}, "f16"}};
  e.result = 2;
  m.op.epilogue = e;
  std::ofstream(dir / "k.json") << writeManifest(m);
  expectLoadPassesThePlan(dir);
  fs::remove_all(dir);
}

TEST(RuntimeHost, BatchedTensorMapsPassThePlan) {
  // Rank-3 operands, A and B through tensor maps with three box entries.
  fs::path dir = fs::temp_directory_path() /
                 ("tcgen-host-tests-batch-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx";
  m.target = {"sm_90a", "sm90", 90};
  m.op = {"matmul", 4, 64, 64, 32, false};
  m.operands = {
      {"A", OperandRole::Lhs, DType::F16, {4, 64, 32}, {2048, 1, 64}, 16},
      {"B", OperandRole::Rhs, DType::F16, {4, 32, 64}, {2048, 64, 1}, 16},
      {"C", OperandRole::Out, DType::F32, {4, 64, 64}, {4096, 64, 1}, 16}};
  Param a{"tensormap", "A", ""};
  a.box = {64, 32, 1};
  a.swizzle = "128B";
  Param b{"tensormap", "B", ""};
  b.box = {64, 32, 1};
  b.swizzle = "128B";
  m.params = {a, b, {"ptr", "C", ""}};
  m.launch.grid = {1, 1, 4};
  std::ofstream(dir / "k.json") << writeManifest(m);
  expectLoadPassesThePlan(dir);
  fs::remove_all(dir);
}

TEST(RuntimeHost, NullArguments) {
  EXPECT_EQ(tcgen_rt_load(nullptr, nullptr), TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgen_rt_launch(nullptr, nullptr, 0, nullptr),
            TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgen_rt_entry(nullptr), nullptr);
  EXPECT_EQ(tcgen_rt_num_operands(nullptr), 0);
  tcgen_rt_unload(nullptr);
  EXPECT_STREQ(tcgen_rt_status_name(TCGEN_ERROR_VALIDATION),
               "TCGEN_ERROR_VALIDATION");
  EXPECT_STREQ(tcgen_rt_dtype_name(TCGEN_DTYPE_BF16), "bf16");
  // A grouped product's i64 row offsets.
  EXPECT_STREQ(tcgen_rt_dtype_name(TCGEN_DTYPE_I64), "i64");
}

TEST(RuntimeHost, NoDeviceIsAnErrorNotACrash) {
  if (gpuUnavailable().empty())
    GTEST_SKIP() << "a CUDA device is present";
  tcgen_kernel *k = nullptr;
  std::string bundle = refBundlesDir() + "/ref_f32_f32_ragged";
  if (!fs::exists(bundle))
    GTEST_SKIP() << bundle << " not found";
  tcgen_status s = tcgen_rt_load(bundle.c_str(), &k);
  EXPECT_TRUE(s == TCGEN_ERROR_NO_DRIVER || s == TCGEN_ERROR_NO_DEVICE)
      << tcgen_rt_status_name(s) << ": " << tcgen_rt_last_error();
  EXPECT_EQ(k, nullptr);
}
//===----------------------------------------------------------------------===//
// tcgen-gpu logic that needs no device.
//===----------------------------------------------------------------------===//

/// A 16x16x16 f16 x f16 matmul manifest with C of dtype `cType`.
Manifest smallMatmul(DType cType, DType accumulator) {
  Manifest m;
  m.entry = "k";
  m.ptx = "k.ptx";
  m.target = {"sm_80", "wmma", 80};
  m.op = {"matmul", 1, 16, 16, 16, false};
  m.op.accumulator = accumulator;
  m.operands = {{"A", OperandRole::Lhs, DType::F16, {16, 16}, {16, 1}, 16},
                {"B", OperandRole::Rhs, DType::F16, {16, 16}, {16, 1}, 16},
                {"C", OperandRole::Out, cType, {16, 16}, {16, 1}, 16}};
  m.params = {{"ptr", "A", ""}, {"ptr", "B", ""}, {"ptr", "C", ""}};
  return m;
}

TEST(BenchHost, FP8RoundTripsEveryValue) {
  for (DType t : {DType::E4M3, DType::E5M2})
    for (int code = 0; code < 256; ++code) {
      double v = fp8ToDouble(uint8_t(code), t);
      if (std::isnan(v) || std::isinf(v))
        continue;
      // -0 and +0 keep their codes (the sign bit).
      EXPECT_EQ(doubleToFP8(v, t), uint8_t(code))
          << dtypeName(t) << " code " << code << " value " << v;
    }
}

TEST(BenchHost, FP8RoundsToNearestEvenAndSaturates) {
  EXPECT_EQ(fp8ToDouble(0x38, DType::E4M3), 1.0);
  EXPECT_EQ(fp8ToDouble(0x3c, DType::E5M2), 1.0);
  EXPECT_EQ(fp8ToDouble(0x7e, DType::E4M3), 448.0);
  EXPECT_EQ(fp8ToDouble(0x01, DType::E4M3), std::ldexp(1.0, -9));
  EXPECT_EQ(fp8ToDouble(0x7b, DType::E5M2), 57344.0);
  EXPECT_TRUE(std::isnan(fp8ToDouble(0x7f, DType::E4M3)));
  EXPECT_TRUE(std::isinf(fp8ToDouble(0x7c, DType::E5M2)));
  // Ties to even: 1.0625 lies between 1.0 (mantissa 0) and 1.125 (1).
  EXPECT_EQ(fp8ToDouble(doubleToFP8(1.0625, DType::E4M3), DType::E4M3), 1.0);
  EXPECT_EQ(fp8ToDouble(doubleToFP8(1.1875, DType::E4M3), DType::E4M3), 1.25);
  EXPECT_EQ(fp8ToDouble(doubleToFP8(-0.3, DType::E4M3), DType::E4M3),
            -0.3125);
  // Subnormals, and the smallest normal reached by rounding up.
  EXPECT_EQ(doubleToFP8(std::ldexp(1.0, -10), DType::E4M3), 0x00); // tie
  EXPECT_EQ(doubleToFP8(std::ldexp(3.0, -10), DType::E4M3), 0x02); // tie
  EXPECT_EQ(doubleToFP8(std::ldexp(3.0, -11), DType::E4M3), 0x01);
  EXPECT_EQ(doubleToFP8(std::ldexp(15.5, -10), DType::E4M3), 0x08);
  // Saturation (satfinite) and NaN.
  EXPECT_EQ(doubleToFP8(1000.0, DType::E4M3), 0x7e);
  EXPECT_EQ(doubleToFP8(-1e9, DType::E5M2), 0xfb);
  EXPECT_EQ(doubleToFP8(std::nan(""), DType::E4M3), 0x7f);
  // A host matrix of e4m3 stores and reads its elements, and poisons with
  // NaN.
  HostMatrix h;
  h.allocate(DType::E4M3, 2, 3, 3, 1);
  h.set(1, 2, 0.5);
  EXPECT_EQ(h.get(1, 2), 0.5);
  h.poisonNaN();
  EXPECT_TRUE(std::isnan(h.get(0, 0)));
}

TEST(BenchHost, ComputeTypeFollowsTheAccumulator) {
  EXPECT_EQ(computeTypeFor(DType::F16), CUBLAS_COMPUTE_16F);
  EXPECT_EQ(computeTypeFor(DType::F32), CUBLAS_COMPUTE_32F);
  EXPECT_TRUE(isHalfCompute(CUBLAS_COMPUTE_16F));
  EXPECT_TRUE(isHalfCompute(CUBLAS_COMPUTE_16F_PEDANTIC));
  EXPECT_FALSE(isHalfCompute(CUBLAS_COMPUTE_32F));
  EXPECT_FALSE(isHalfCompute(CUBLAS_COMPUTE_32F_PEDANTIC));
  EXPECT_STREQ(computeTypeName(CUBLAS_COMPUTE_16F), "CUBLAS_COMPUTE_16F");
  EXPECT_STREQ(computeTypeName(CUBLAS_COMPUTE_32F), "CUBLAS_COMPUTE_32F");
  EXPECT_EQ(checkComputeType(CUBLAS_COMPUTE_16F, DType::F16, DType::F16), "");
  EXPECT_EQ(checkComputeType(CUBLAS_COMPUTE_16F, DType::F16, DType::F32),
            "CUBLAS_COMPUTE_16F (f16 accumulation) needs f16 A, B and C, got "
            "f16 -> f32");
  EXPECT_EQ(checkComputeType(CUBLAS_COMPUTE_32F, DType::F16, DType::F32), "");
  EXPECT_EQ(checkComputeType(CUBLAS_COMPUTE_32F, DType::BF16, DType::BF16), "");
}

TEST(BenchHost, DescribeGemmTakesTheAccumulator) {
  GemmSpec spec;
  ASSERT_EQ(describeGemm(smallMatmul(DType::F16, DType::F16), spec), "");
  EXPECT_EQ(spec.accumulator, DType::F16);
  ASSERT_EQ(describeGemm(smallMatmul(DType::F32, DType::F32), spec), "");
  EXPECT_EQ(spec.accumulator, DType::F32);
  EXPECT_EQ(describeGemm(smallMatmul(DType::F32, DType::F64), spec),
            "op.accumulator 'f64' is not supported by tcgen-gpu (f16 or f32)");
}

TEST(BenchHost, F32OutputFrobeniusBoundGrowsWithK) {
  GemmSpec spec; // f16 x f16 -> f32, f32 accumulation
  CheckResult r;
  spec.k = 1024;
  setBounds(spec, r);
  EXPECT_EQ(r.maxNormBound, 1e-4);
  EXPECT_EQ(r.frobBound, 1e-5);
  spec.k = 16384;
  setBounds(spec, r);
  EXPECT_EQ(r.maxNormBound, 1e-4);
  EXPECT_DOUBLE_EQ(r.frobBound, 16384.0 / (1 << 29)); // 3.05e-5
  spec.cType = DType::F16; // 16-bit outputs keep their fixed bounds
  setBounds(spec, r);
  EXPECT_EQ(r.frobBound, 5e-3);
}

TEST(BenchHost, CheckLineShowsTheAccumulator) {
  CheckResult r;
  r.entry = "k";
  r.m = r.n = r.k = 16;
  r.pass = true;
  r.reference = "host-f64";
  r.accumulator = "f16";
  std::string line = r.line(true);
  EXPECT_EQ(line.rfind("CHECK k 16 16 16 PASS maxnorm=", 0), 0u) << line;
  EXPECT_NE(line.find(" ref=host-f64 acc=f16"), std::string::npos) << line;
}
//===----------------------------------------------------------------------===//
// Batched matmuls (op.batch > 1) without a device.
//===----------------------------------------------------------------------===//

/// A batch of 3 f16 x f16 -> f32 matmuls, m = 5, n = 6, k = 4: A [3, 5, 4]
/// transposed (strides [20, 1, 5]), B [3, 4, 6] row-major, C [3, 5, 6]
/// row-major with its matrices padded 32 elements apart.
Manifest smallBatchedMatmul() {
  Manifest m;
  m.entry = "bk";
  m.ptx = "bk.ptx";
  m.target = {"sm_80", "wmma", 80};
  m.op = {"matmul", 3, 5, 6, 4, false};
  m.operands = {{"A", OperandRole::Lhs, DType::F16, {3, 5, 4}, {20, 1, 5}, 16},
                {"B", OperandRole::Rhs, DType::F16, {3, 4, 6}, {24, 6, 1}, 16},
                {"C", OperandRole::Out, DType::F32, {3, 5, 6}, {32, 6, 1}, 16}};
  m.params = {{"ptr", "A", ""}, {"ptr", "B", ""}, {"ptr", "C", ""}};
  m.launch.grid = {1, 1, 3};
  return m;
}

TEST(BenchHost, DescribeGemmTakesTheBatch) {
  Manifest m = smallBatchedMatmul();
  ASSERT_EQ(parseManifest(writeManifest(m), m), ""); // a valid manifest
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  EXPECT_EQ(spec.batch, 3);
  EXPECT_EQ(spec.m, 5);
  EXPECT_EQ(spec.n, 6);
  EXPECT_EQ(spec.k, 4);
  // Each operand's matrix layout and batch stride.
  EXPECT_EQ(spec.a.rows, 5);
  EXPECT_EQ(spec.a.cols, 4);
  EXPECT_EQ(spec.a.stride0, 1);
  EXPECT_EQ(spec.a.stride1, 5);
  EXPECT_EQ(spec.a.batchStride, 20);
  EXPECT_EQ(spec.b.batchStride, 24);
  EXPECT_EQ(spec.c.rows, 5);
  EXPECT_EQ(spec.c.cols, 6);
  EXPECT_EQ(spec.c.stride0, 6);
  EXPECT_EQ(spec.c.batchStride, 32);
  // describeCheckedGemm() takes it too; batch 1 keeps batchStride 0.
  ASSERT_EQ(describeCheckedGemm(m, spec), "");
  EXPECT_EQ(spec.batch, 3);
  ASSERT_EQ(describeGemm(smallMatmul(DType::F32, DType::F32), spec), "");
  EXPECT_EQ(spec.batch, 1);
  EXPECT_EQ(spec.a.batchStride, 0);
}

TEST(BenchHost, DescribeGemmRefusesBatchesOfTheWrongShape) {
  GemmSpec spec;
  Manifest m = smallBatchedMatmul();
  m.operands[1].shape = {4, 6};
  m.operands[1].strides = {6, 1};
  EXPECT_EQ(describeGemm(m, spec),
            "operand 'B' has rank 2; tcgen-gpu needs rank 3 for a batched "
            "matmul (op.batch 3)");
  m = smallBatchedMatmul();
  m.operands[2].shape = {2, 5, 6};
  EXPECT_EQ(describeGemm(m, spec), "operand 'C' holds a batch of 2 matrices, "
                                   "but op.batch is 3");
  m = smallMatmul(DType::F32, DType::F32);
  m.operands[0].shape = {1, 16, 16};
  m.operands[0].strides = {256, 16, 1};
  EXPECT_EQ(describeGemm(m, spec),
            "operand 'A' has rank 3; tcgen-gpu needs rank 2");
  m = smallBatchedMatmul();
  m.op.batch = 0;
  EXPECT_EQ(describeGemm(m, spec), "op.batch 0 is not a batch size");
}

Manifest smallTwoBatchMatmul();

TEST(BenchHost, BatchedEpiloguesAreCheckedAndBaselinesRefused) {
  // An epilogue of a batch is checked, of one or two batch dimensions.
  Manifest m = smallBatchedMatmul();
  Epilogue e;
  e.matmulDType = DType::F32;
  e.result = 0;
  m.op.epilogue = e;
  GemmSpec spec;
  EXPECT_EQ(describeCheckedGemm(m, spec), "");
  Manifest parsed;
  EXPECT_EQ(parseManifest(writeManifest(m), parsed), "");
  Manifest two = smallTwoBatchMatmul();
  two.op.epilogue = e;
  EXPECT_EQ(describeCheckedGemm(two, spec), "");
  // No fusion baseline takes a batch (permute+cublas a summed one only).
  m = smallBatchedMatmul();
  for (BaselineKind kind : allBaselines()) {
    BaselinePlan plan;
    if (kind == BaselineKind::PermuteGemm) {
      EXPECT_EQ(planBaseline(m, kind, plan),
                "baseline permute+cublas: needs a bundle that sums a batch "
                "(op.batch_reduce: a contraction over two K dimensions)");
      continue;
    }
    EXPECT_EQ(planBaseline(m, kind, plan),
              std::string("baseline ") + baselineName(kind) +
                  ": a batched matmul (batch 3) has no baseline yet");
  }
}

TEST(BenchHost, BatchedHostOperands) {
  Manifest m = smallBatchedMatmul();
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  std::vector<HostMatrix> host = makeHostOperands(m, spec, /*seed=*/5);
  ASSERT_EQ(host.size(), 3u);
  const HostMatrix &a = host[0], &c = host[2];
  EXPECT_EQ(a.batch, 3);
  EXPECT_EQ(a.batchStride, 20);
  // The whole span: the last element of the last matrix, plus one.
  EXPECT_EQ(a.bytes.size(), size_t((2 * 20 + 4 * 1 + 3 * 5 + 1) * 2));
  EXPECT_EQ(c.bytes.size(), size_t((2 * 32 + 4 * 6 + 5 + 1) * 4));
  // C is NaN-poisoned everywhere, the padding between matrices included.
  for (size_t i = 0; i < c.bytes.size() / 4; ++i) {
    float f;
    std::memcpy(&f, &c.bytes[i * 4], 4);
    ASSERT_TRUE(std::isnan(f)) << i;
  }
  // Matrix 0 holds what a plain matrix of its layout holds (the values of
  // batch-1 bundles stay as they were); the other matrices differ.
  HostMatrix plain;
  plain.allocate(DType::F16, 5, 4, 1, 5);
  plain.fillRandom(5, /*stream=*/0);
  bool differs = false;
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      EXPECT_EQ(a.get(0, i, j), plain.get(i, j));
      EXPECT_EQ(a.get(i, j), plain.get(i, j));
      double x = a.get(1, i, j), y = a.get(2, i, j);
      EXPECT_GE(x, -1.0);
      EXPECT_LT(y, 1.0);
      differs = differs || x != plain.get(i, j);
    }
  EXPECT_TRUE(differs);
  // Element (b, i, j) at b*20 + i + 5*j; dense copies batch by batch.
  EXPECT_EQ(a.offset(2, 3, 1), 2 * 20 + 3 + 5);
  std::vector<float> dense = a.toDenseFloat();
  ASSERT_EQ(dense.size(), size_t(3 * 5 * 4));
  EXPECT_EQ(dense[(2 * 5 + 3) * 4 + 1], float(a.get(2, 3, 1)));
}

TEST(BenchHost, PlanCublasTakesTheBatchStrides) {
  Manifest m = smallBatchedMatmul();
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  // Row-major C: C^T = B^T A^T, so cuBLAS's A is our B.
  CublasPlan plan;
  ASSERT_EQ(planCublas(spec.a, spec.b, spec.c, plan, spec.batch), "");
  EXPECT_TRUE(plan.swapped);
  EXPECT_EQ(plan.batch, 3);
  EXPECT_EQ(plan.m, 6);
  EXPECT_EQ(plan.n, 5);
  EXPECT_EQ(plan.k, 4);
  EXPECT_EQ(plan.strideA, 24); // B's
  EXPECT_EQ(plan.strideB, 20); // A's
  EXPECT_EQ(plan.strideC, 32);
  EXPECT_EQ(plan.ldc, 6);
  EXPECT_STREQ(gemmExName(plan), "cublasGemmStridedBatchedEx");
  // Column-major C: not swapped.
  MatrixLayout colMajor{5, 6, 1, 5, 40};
  ASSERT_EQ(planCublas(spec.a, spec.b, colMajor, plan, spec.batch), "");
  EXPECT_FALSE(plan.swapped);
  EXPECT_EQ(plan.strideA, 20);
  EXPECT_EQ(plan.strideB, 24);
  EXPECT_EQ(plan.strideC, 40);
  EXPECT_EQ(plan.ldc, 5);
  // One matrix: cublasGemmEx, no batch strides.
  ASSERT_EQ(planCublas(spec.a, spec.b, spec.c, plan), "");
  EXPECT_EQ(plan.batch, 1);
  EXPECT_EQ(plan.strideA, 0);
  EXPECT_EQ(plan.strideC, 0);
  EXPECT_STREQ(gemmExName(plan), "cublasGemmEx");
  EXPECT_EQ(planCublas(spec.a, spec.b, spec.c, plan, int64_t(1) << 31),
            "matrix too large for cuBLAS's 32-bit sizes");
  EXPECT_EQ(planCublas(spec.a, spec.b, spec.c, plan, 0),
            "a batch of 0 matrices");
}

TEST(BenchHost, CheckLineShowsTheBatch) {
  CheckResult r;
  r.entry = "k";
  r.m = r.n = r.k = 16;
  r.pass = false;
  r.maxNorm = 0.5;
  r.reference = "host-f64";
  r.worstRow = 2, r.worstCol = 3, r.worstOut = 1, r.worstRef = 2;
  // Batch 1: as it always was.
  EXPECT_EQ(r.line(true),
            "CHECK k 16 16 16 FAIL maxnorm=5.000e-01 frob=0.000e+00 "
            "nonfinite=0 ref=host-f64 acc=f32 worst=(2,3) out=1 ref=2");
  EXPECT_EQ(r.line(false), "RUN k 16 16 16 FAIL ms=0.0000 nonfinite=0");
  // A batch: its size, and the worst element's matrix.
  r.batch = 3;
  r.worstBatch = 1;
  EXPECT_EQ(r.line(true),
            "CHECK k 16 16 16 FAIL maxnorm=5.000e-01 frob=0.000e+00 "
            "nonfinite=0 ref=host-f64 acc=f32 batch=3 worst=(1,2,3) out=1 "
            "ref=2");
  EXPECT_EQ(r.line(false), "RUN k 16 16 16 FAIL ms=0.0000 nonfinite=0 batch=3");
  r.pass = true;
  EXPECT_EQ(r.line(true), "CHECK k 16 16 16 PASS maxnorm=5.000e-01 "
                          "frob=0.000e+00 nonfinite=0 ref=host-f64 acc=f32 "
                          "batch=3");
}

TEST(BenchHost, BenchRowCountsTheBatchsFlops) {
  BenchRow row;
  row.m = 64, row.n = 32, row.k = 16;
  EXPECT_EQ(row.flops(), 2.0 * 64 * 32 * 16);
  row.batch = 5;
  EXPECT_EQ(row.flops(), 5 * 2.0 * 64 * 32 * 16);
  EXPECT_DOUBLE_EQ(row.tflops(1.0), 5 * 2.0 * 64 * 32 * 16 / 1e9);
}

//===----------------------------------------------------------------------===//
// cuBLAS and cuBLASLt on a batch, on a real device.
//===----------------------------------------------------------------------===//

/// Runs the batched sample through `run` (which writes C on the device)
/// and compares every element with the float64 host reference.
void expectBatchedCublasMatches(
    const std::function<std::string(const GemmSpec &, const CublasPlan &,
                                    DeviceOperands &)> &run) {
  Manifest m = smallBatchedMatmul();
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  std::vector<HostMatrix> host = makeHostOperands(m, spec, /*seed=*/3);
  DeviceOperands dev;
  ASSERT_EQ(dev.create(m, host), "");
  CublasPlan plan;
  ASSERT_EQ(planCublas(spec.a, spec.b, spec.c, plan, spec.batch), "");
  ASSERT_EQ(run(spec, plan, dev), "");
  ASSERT_EQ(formatCuda("cudaDeviceSynchronize", cudaDeviceSynchronize()), "");
  HostMatrix out = host[spec.cIndex];
  ASSERT_EQ(
      dev.buffers[spec.cIndex].download(out.bytes.data(), out.bytes.size()),
      "");
  const HostMatrix &a = host[spec.aIndex], &b = host[spec.bIndex];
  for (int64_t batch = 0; batch < spec.batch; ++batch)
    for (int64_t i = 0; i < spec.m; ++i)
      for (int64_t j = 0; j < spec.n; ++j) {
        double ref = 0;
        for (int64_t p = 0; p < spec.k; ++p)
          ref += a.get(batch, i, p) * b.get(batch, p, j);
        EXPECT_NEAR(out.get(batch, i, j), ref, 1e-5)
            << "(" << batch << "," << i << "," << j << ")";
      }
  // The padding between C's matrices is not written.
  EXPECT_TRUE(std::isnan(out.get(0, spec.m, 0)));
}

TEST(GpuCublas, StridedBatchedGemmExComputesEveryMatrix) {
  SKIP_WITHOUT_GPU();
  expectBatchedCublasMatches(
      [](const GemmSpec &spec, const CublasPlan &plan, DeviceOperands &dev) {
        cublasHandle_t handle;
        std::string e = formatCublas("cublasCreate", cublasCreate(&handle));
        if (!e.empty())
          return e;
        e = runGemmEx(handle, plan, dev.buffers[spec.aIndex].get(),
                      dev.buffers[spec.bIndex].get(),
                      dev.buffers[spec.cIndex].get(), spec.aType, spec.cType,
                      0.0f, CUBLAS_COMPUTE_32F_PEDANTIC);
        cublasDestroy(handle);
        return e;
      });
}

TEST(GpuCublas, LtMatmulComputesEveryMatrix) {
  SKIP_WITHOUT_GPU();
  expectBatchedCublasMatches([](const GemmSpec &spec, const CublasPlan &plan,
                                DeviceOperands &dev) {
    LtGemm lt;
    // The benchmark's compute type.
    std::string e =
        lt.init(plan, spec.aType, spec.cType, 0.0f, CUBLAS_COMPUTE_32F);
    if (e.empty())
      e = lt.run(dev.buffers[spec.aIndex].get(), dev.buffers[spec.bIndex].get(),
                 dev.buffers[spec.cIndex].get(), nullptr);
    return e;
  });
}
// The fastest of several heuristic algorithms (what tcgen-gpu bench times)
// still computes the product.
TEST(GpuCublas, LtKeepFastestKeepsAnAlgorithmThatComputes) {
  SKIP_WITHOUT_GPU();
  expectBatchedCublasMatches([](const GemmSpec &spec, const CublasPlan &plan,
                                DeviceOperands &dev) {
    LtGemm lt;
    std::string e = lt.init(plan, spec.aType, spec.cType, 0.0f,
                            CUBLAS_COMPUTE_32F, LtEpilogue::None, nullptr, 8);
    std::string summary;
    if (e.empty())
      e = lt.keepFastest(dev.buffers[spec.aIndex].get(),
                         dev.buffers[spec.bIndex].get(),
                         dev.buffers[spec.cIndex].get(), nullptr, 3, summary);
    if (e.empty() && summary.find("heuristic algorithms: #") ==
                         std::string::npos)
      e = "no summary of the algorithm kept: '" + summary + "'";
    if (e.empty() && (lt.algorithmCount() < 1 || lt.algorithmCount() > 8))
      e = "algorithms: " + std::to_string(lt.algorithmCount());
    // The output the comparison reads: one more run with the one kept.
    if (e.empty())
      e = lt.run(dev.buffers[spec.aIndex].get(), dev.buffers[spec.bIndex].get(),
                 dev.buffers[spec.cIndex].get(), nullptr);
    return e;
  });
}

/// smallBatchedMatmul() with its batch summed into one C [5, 6].
Manifest smallSummedMatmul() {
  Manifest m = smallBatchedMatmul();
  m.op.batchReduce = true;
  m.operands[2].shape = {5, 6};
  m.operands[2].strides = {6, 1};
  m.launch.grid = {1, 1, 1};
  return m;
}

TEST(BenchHost, DescribeGemmTakesASummedBatch) {
  Manifest m = smallSummedMatmul();
  ASSERT_EQ(parseManifest(writeManifest(m), m), "");
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  EXPECT_TRUE(spec.batchReduce);
  EXPECT_EQ(spec.batch, 3);
  EXPECT_EQ(spec.k, 4);
  EXPECT_EQ(spec.a.batchStride, 20);
  EXPECT_EQ(spec.c.rows, 5);
  EXPECT_EQ(spec.c.batchStride, 0);
  ASSERT_EQ(describeCheckedGemm(m, spec), "");
  // A C with the batch is refused.
  m = smallSummedMatmul();
  m.operands[2].shape = {3, 5, 6};
  m.operands[2].strides = {30, 6, 1};
  EXPECT_EQ(describeGemm(m, spec),
            "operand 'C' has rank 3; tcgen-gpu needs rank 2 for the one C of "
            "a summed batch (op.batch_reduce)");
}

/// Q[b][s][h][d] as A [b, h, s, d] (2 x 3 matrices of 5 x 4, rows 12
/// apart), K likewise as B [b, h, d, t], C [b, h, s, t] contiguous.
Manifest smallTwoBatchMatmul() {
  Manifest m = smallBatchedMatmul();
  m.op.batch = 6;
  m.op.batchShape = {2, 3};
  m.operands = {
      {"A", OperandRole::Lhs, DType::F16, {2, 3, 5, 4}, {60, 4, 12, 1}, 16},
      {"B", OperandRole::Rhs, DType::F16, {2, 3, 4, 6}, {72, 4, 1, 12}, 16},
      {"C", OperandRole::Out, DType::F32, {2, 3, 5, 6}, {90, 30, 6, 1}, 16}};
  m.launch.grid = {1, 1, 6};
  return m;
}

TEST(BenchHost, TwoBatchDimensionsAddressEveryMatrix) {
  Manifest m = smallTwoBatchMatmul();
  ASSERT_EQ(parseManifest(writeManifest(m), m), "");
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  EXPECT_EQ(spec.batch, 6);
  EXPECT_EQ(spec.a.batchDims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(spec.a.batchStride, 4);
  EXPECT_EQ(spec.a.batchDimStrides, (std::vector<int64_t>{60, 4}));
  // Matrix 4 is (1, 1): 60 + 4 elements in.
  std::vector<HostMatrix> host = makeHostOperands(m, spec, 3);
  EXPECT_EQ(host[0].offset(4, 2, 3), 60 + 4 + 2 * 12 + 3);
  EXPECT_EQ(host[0].spanElements(), 120);
  EXPECT_EQ(host[1].offset(5, 3, 5), 72 + 2 * 4 + 3 + 5 * 12);
  // cuBLAS takes one batch stride: the layout is refused, not misread.
  CublasPlan plan;
  EXPECT_EQ(planCublas(spec.a, spec.b, spec.c, plan, spec.batch),
            "cuBLAS's strided batches take one batch stride per operand, "
            "not several batch dimensions");
  // The batch extents must be op.batch_shape's.
  m = smallTwoBatchMatmul();
  m.operands[1].shape = {3, 2, 4, 6};
  EXPECT_EQ(describeGemm(m, spec), "operand 'B' holds a batch of 3 x 2 "
                                   "matrices, but op.batch_shape is [2, 3]");
  m = smallTwoBatchMatmul();
  m.operands[2].shape = {6, 5, 6};
  m.operands[2].strides = {30, 6, 1};
  EXPECT_EQ(describeGemm(m, spec), "operand 'C' has rank 3; tcgen-gpu needs "
                                   "rank 4 for a batched matmul (op.batch 6)");
}

TEST(BenchHost, BroadcastBatchIsTimedAsOneFlattenedMatmul) {
  // C[b,h,s,e] = X[b,s,d] W[d,h,e] with b = 2, h = 3, s = 5, e = 6, d = 4:
  // X lacks h (stride 0), W lacks b. A caller runs X[b s, d] W[d, h e].
  MatrixLayout a{5, 4, 4, 1, 20}, b{4, 6, 18, 1, 0}, c{5, 6, 6, 1, 30};
  a.batchDims = b.batchDims = c.batchDims = {2, 3};
  a.batchDimStrides = {20, 0};
  b.batchDimStrides = {0, 6};
  c.batchDimStrides = {90, 30};
  MatrixLayout fa, fb, fc;
  int64_t batch = 0;
  ASSERT_TRUE(flattenBroadcast(a, b, c, 6, fa, fb, fc, batch));
  EXPECT_EQ(batch, 1);
  EXPECT_EQ(fa.rows, 10);
  EXPECT_EQ(fa.cols, 4);
  EXPECT_EQ(fb.rows, 4);
  EXPECT_EQ(fb.cols, 18);
  EXPECT_EQ(fc.rows, 10);
  EXPECT_EQ(fc.cols, 18);
  EXPECT_EQ(fc.stride0, 18);
  CublasPlan plan;
  EXPECT_EQ(planCublas(fa, fb, fc, plan, batch), "");
  // One broadcast dimension and one both hold: a batch of the latter.
  MatrixLayout a1{5, 4, 4, 1, 0}, b1{4, 6, 6, 1, 0};
  a1.batchDims = b1.batchDims = {2, 3};
  a1.batchDimStrides = {20, 0};
  b1.batchDimStrides = {72, 24};
  MatrixLayout c1{5, 6, 6, 1, 0};
  c1.batchDims = {2, 3};
  c1.batchDimStrides = {90, 30};
  ASSERT_TRUE(flattenBroadcast(a1, b1, c1, 6, fa, fb, fc, batch));
  EXPECT_EQ(batch, 2);
  EXPECT_EQ(fa.rows, 5);
  EXPECT_EQ(fb.cols, 18);
  EXPECT_EQ(fb.batchStride, 72);
  // One batch stride of 0 (rank 3): X shared by 3 matrices of W.
  MatrixLayout a2{5, 4, 4, 1, 0}, b2{4, 6, 18, 1, 6}, c2{5, 6, 6, 1, 30};
  ASSERT_TRUE(flattenBroadcast(a2, b2, c2, 3, fa, fb, fc, batch));
  EXPECT_EQ(batch, 1);
  EXPECT_EQ(fa.rows, 5);
  EXPECT_EQ(fb.cols, 18);
  // Every input holds every dimension: no broadcast.
  MatrixLayout a3{5, 4, 4, 1, 20}, b3{4, 6, 6, 1, 24};
  EXPECT_FALSE(flattenBroadcast(a3, b3, c2, 3, fa, fb, fc, batch));
  // C's bytes too few for the flattened matrix: not flattened.
  MatrixLayout small{5, 6, 6, 1, 0};
  EXPECT_FALSE(flattenBroadcast(a2, b2, small, 3, fa, fb, fc, batch));
}

TEST(BenchHost, ThreeBatchDimensionsAddressEveryMatrix) {
  // The two-batch matmul with its 2 x 3 matrices as 2 x 3 x 1 of A and C,
  // and B's [b0][b1][k][n] read through a third batch dimension of 1.
  Manifest m = smallTwoBatchMatmul();
  m.op.batchShape = {2, 1, 3};
  m.operands[0].shape = {2, 1, 3, 5, 4};
  m.operands[0].strides = {60, 60, 4, 12, 1};
  m.operands[1].shape = {2, 1, 3, 4, 6};
  m.operands[1].strides = {72, 72, 4, 1, 12};
  m.operands[2].shape = {2, 1, 3, 5, 6};
  m.operands[2].strides = {90, 90, 30, 6, 1};
  GemmSpec spec;
  ASSERT_EQ(describeGemm(m, spec), "");
  EXPECT_EQ(spec.batch, 6);
  EXPECT_EQ(spec.a.batchDims, (std::vector<int64_t>{2, 1, 3}));
  std::vector<HostMatrix> host = makeHostOperands(m, spec, 3);
  // Matrix 4 is (1, 0, 1): 60 + 4 elements in, as with two dimensions.
  EXPECT_EQ(host[0].offset(4, 2, 3), 60 + 4 + 2 * 12 + 3);
  EXPECT_EQ(host[0].spanElements(), 120);
  m.operands[1].shape = {2, 3, 1, 4, 6};
  EXPECT_EQ(describeGemm(m, spec), "operand 'B' holds a batch of 2 x 3 x 1 "
                                   "matrices, but op.batch_shape is [2, 1, "
                                   "3]");
}

TEST(BenchHost, DescribePointwiseNamesWhatIsMissing) {
  // A pointwise bundle: Y = relu(X) over 4 x 8.
  Manifest m = smallMatmul(DType::F32, DType::F32);
  m.op.kind = "pointwise";
  m.op.m = 4, m.op.n = 8, m.op.k = 0;
  Epilogue e;
  e.matmulDType = DType::F32;
  e.result = 0;
  m.op.epilogue = e;
  m.operands = {{"X", OperandRole::Lhs, DType::F32, {4, 8}, {8, 1}, 16},
                {"Y", OperandRole::Out, DType::F32, {4, 8}, {8, 1}, 16}};
  GemmSpec spec;
  ASSERT_EQ(describePointwise(m, spec), "");
  EXPECT_EQ(spec.m, 4);
  EXPECT_EQ(spec.n, 8);
  EXPECT_EQ(spec.aIndex, 0u);
  EXPECT_EQ(spec.cIndex, 1u);
  const std::string why = "a pointwise bundle needs op kind 'pointwise', "
                          "op.epilogue, an operand X and an out operand, both "
                          "[m, n]";
  Manifest noX = m;
  noX.operands[0].name = "A";
  EXPECT_EQ(describePointwise(noX, spec), why);
  Manifest noEpilogue = m;
  noEpilogue.op.epilogue.reset();
  EXPECT_EQ(describePointwise(noEpilogue, spec), why);
  EXPECT_EQ(describePointwise(smallMatmul(DType::F32, DType::F32), spec), why);
}

TEST(BenchHost, PermuteBaselineTakesASummedBatchOnly) {
  Manifest m = smallSummedMatmul();
  BaselinePlan plan;
  ASSERT_EQ(planBaseline(m, BaselineKind::PermuteGemm, plan), "");
  // One matmul over K' = batch k.
  EXPECT_EQ(plan.batch, 3);
  EXPECT_EQ(plan.k, 12);
  EXPECT_EQ(plan.m, 5);
  EXPECT_EQ(plan.n, 6);
  // The fusion baselines refuse it; so does permute+cublas with an epilogue.
  EXPECT_EQ(planBaseline(m, BaselineKind::AddRelu, plan),
            "baseline cublas+add-relu: a batched matmul (batch 3) has no "
            "baseline yet");
  Epilogue e;
  e.matmulDType = DType::F32;
  e.result = 0;
  m.op.epilogue = e;
  EXPECT_EQ(planBaseline(m, BaselineKind::PermuteGemm, plan),
            "baseline permute+cublas: needs a bundle without an epilogue, "
            "this one has op.epilogue with inputs []");
  // The benchmark's host operands hold the whole batch.
  std::vector<HostMatrix> host =
      makeBaselineHostOperands(smallSummedMatmul(), 1);
  EXPECT_EQ(host[0].batch, 3);
  EXPECT_EQ(host[0].batchStride, 20);
  EXPECT_EQ(host[2].batch, 1);
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char *bundles = std::getenv("TCGEN_GPU_BUNDLES");
  registerBundleTests("GpuBundles", bundles ? bundles : "",
                      "TCGEN_GPU_BUNDLES is not set (a directory whose "
                      "subdirectories are kernel bundles)");
  registerBundleTests("RefBundles", refBundlesDir(),
                      "no reference bundles (built with "
                      "TCGEN_BUILD_REF_BUNDLES=OFF; set TCGEN_REF_BUNDLES)");
  registerBundleTests("RefBundlesExpectFail", refFailBundlesDir(),
                      "no reference bundles (built with "
                      "TCGEN_BUILD_REF_BUNDLES=OFF; set "
                      "TCGEN_REF_FAIL_BUNDLES)",
                      /*expectPass=*/false);
  int rc = RUN_ALL_TESTS();
  const ::testing::UnitTest &unit = *::testing::UnitTest::GetInstance();
  if (rc == 0 && unit.test_to_run_count() > 0 &&
      unit.skipped_test_count() == unit.test_to_run_count())
    return kAllSkipped;
  return rc;
}
