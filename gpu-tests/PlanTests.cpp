//===- PlanTests.cpp - Launch plans, fresh pointers, graphs, threads ------===//
//
// This file implements the tests of the runtime's launch path as programs
// use it: tcgen_rt_launch with fresh pointers each call (the handle's
// recent plans re-pointed by address), caller-owned plans
// (tcgen_rt_plan_*), CUDA-graph capture and replay of both, and launches
// from several threads at once. Each result is checked against a float64
// host reference, with the output NaN-poisoned before every launch:
//   GpuPlan.*     on a pointer-param bundle (ref_f32_f32_ragged) and a
//                 tensor-map one (ref_batched_tma_f16_f32_ta, sm_90);
//   RuntimeHost.Plan*  the plan calls' argument checks (no device needed).
//
//===----------------------------------------------------------------------===//

#include "CudaUtil.h"
#include "DeviceSkip.h"
#include "Gemm.h"
#include "tcgen/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <thread>

using namespace tcgen;
using namespace tcgen::bench;
namespace fs = std::filesystem;

namespace {
constexpr int kSets = 4;

/// One set of operands: host values, device copies and the C arguments.
struct Set {
  std::vector<HostMatrix> host;
  DeviceOperands dev;
  std::vector<tcgen_tensor_arg> args;
  std::vector<CUdeviceptr> addresses;
};

class GpuPlan : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    std::string bundle = refBundlesDir() + "/" + GetParam();
    if (!fs::exists(bundle))
      GTEST_SKIP() << bundle << " not found (set TCGEN_REF_BUNDLES)";
    std::string error = kernel.load(bundle);
    if (kernel.status() == TCGEN_ERROR_UNSUPPORTED_DEVICE)
      GTEST_SKIP() << error;
    ASSERT_EQ(error, "");
    ASSERT_EQ(describeGemm(kernel.manifest(), spec), "");
    ASSERT_FALSE(spec.accumulate); // The reference below writes C = A B.
    for (int s = 0; s < kSets; ++s) {
      Set &set = sets[s];
      set.host = makeHostOperands(kernel.manifest(), spec, /*seed=*/11 + s);
      ASSERT_EQ(set.dev.create(kernel.manifest(), set.host), "");
      for (const TensorArg &t : set.dev.args) {
        set.args.push_back({t.name.c_str(), static_cast<tcgen_dtype>(t.dtype),
                            static_cast<int>(t.shape.size()), t.shape.data(),
                            t.strides.data(),
                            static_cast<CUdeviceptr>(t.address)});
        set.addresses.push_back(static_cast<CUdeviceptr>(t.address));
      }
    }
  }
  void TearDown() override { tcgen_rt_plan_destroy(plan); }

  int nargs() const { return static_cast<int>(sets[0].args.size()); }

  /// Creates `plan` over set `s`.
  void makePlan(int s) {
    ASSERT_EQ(tcgen_rt_plan_create(kernel.get(), sets[s].args.data(), nargs(),
                                   &plan),
              TCGEN_OK)
        << tcgen_rt_last_error();
  }

  /// Poisons set `s`'s C with NaNs on the device.
  void poison(int s) {
    HostMatrix c = sets[s].host[spec.cIndex];
    c.poisonNaN();
    ASSERT_EQ(sets[s].dev.buffers[spec.cIndex].upload(c.bytes.data(),
                                                      c.bytes.size()),
              "");
  }

  /// Expects set `s`'s C to be A B of the set's host values (float64
  /// reference, error within 1e-3 of sum |a b|), or untouched (all NaN).
  void expectC(int s, bool written = true) {
    ASSERT_EQ(formatCuda("cudaDeviceSynchronize", cudaDeviceSynchronize()), "");
    const Set &set = sets[s];
    HostMatrix out = set.host[spec.cIndex];
    ASSERT_EQ(set.dev.buffers[spec.cIndex].download(out.bytes.data(),
                                                    out.bytes.size()),
              "");
    const HostMatrix &a = set.host[spec.aIndex], &b = set.host[spec.bIndex];
    int64_t bad = 0;
    for (int64_t m = 0; m < spec.batch; ++m)
      for (int64_t i = 0; i < spec.m; ++i)
        for (int64_t j = 0; j < spec.n; ++j) {
          double got = out.get(m, i, j);
          if (!written) {
            bad += !std::isnan(got);
            continue;
          }
          double ref = 0, scale = 0;
          for (int64_t k = 0; k < spec.k; ++k) {
            double p = a.get(m, i, k) * b.get(m, k, j);
            ref += p;
            scale += std::fabs(p);
          }
          bad += !(std::fabs(got - ref) <= 1e-3 * scale + 1e-6);
        }
    EXPECT_EQ(bad, 0) << "set " << s << (written ? ": wrong elements"
                                                  : ": written elements");
  }

  rt::Kernel kernel;
  GemmSpec spec;
  Set sets[kSets];
  tcgen_plan *plan = nullptr;
};

// The handle's plan, re-pointed: every call with other pointers computes
// on its own operands and leaves the others alone.
TEST_P(GpuPlan, LaunchWithFreshPointersComputesEachSet) {
  for (int round = 0; round < 2; ++round)
    for (int s = 0; s < kSets; ++s) {
      poison(s);
      ASSERT_EQ(tcgen_rt_launch(kernel.get(), sets[s].args.data(), nargs(),
                                nullptr),
                TCGEN_OK)
          << tcgen_rt_last_error();
      expectC(s);
    }
}

TEST_P(GpuPlan, PlanLaunchWithRepointsEveryOperand) {
  makePlan(0);
  for (int s = 0; s < kSets; ++s)
    poison(s);
  ASSERT_EQ(tcgen_rt_plan_launch_with(plan, sets[2].addresses.data(), nargs(),
                                      nullptr),
            TCGEN_OK)
      << tcgen_rt_last_error();
  expectC(2);
  expectC(0, /*written=*/false);
  ASSERT_EQ(tcgen_rt_plan_launch(plan, nullptr), TCGEN_OK); // still set 2
  expectC(2);
  expectC(1, /*written=*/false);
  for (int i = 0; i < nargs(); ++i)
    ASSERT_EQ(tcgen_rt_plan_set_address(plan, i, sets[1].addresses[i]),
              TCGEN_OK);
  ASSERT_EQ(tcgen_rt_plan_launch(plan, nullptr), TCGEN_OK);
  expectC(1);
}

TEST_P(GpuPlan, RefusedAddressesLaunchNothing) {
  makePlan(0);
  poison(0);
  EXPECT_EQ(tcgen_rt_plan_set_address(plan, 0, 0), TCGEN_ERROR_VALIDATION);
  EXPECT_NE(std::string(tcgen_rt_last_error()).find("null device pointer"),
            std::string::npos)
      << tcgen_rt_last_error();
  std::vector<CUdeviceptr> misaligned = sets[0].addresses;
  misaligned[0] += 2;
  EXPECT_EQ(tcgen_rt_plan_launch_with(plan, misaligned.data(), nargs(),
                                      nullptr),
            TCGEN_ERROR_VALIDATION);
  EXPECT_NE(std::string(tcgen_rt_last_error()).find("misaligned pointer"),
            std::string::npos)
      << tcgen_rt_last_error();
  EXPECT_EQ(tcgen_rt_plan_launch_with(plan, sets[0].addresses.data(),
                                      nargs() - 1, nullptr),
            TCGEN_ERROR_INVALID_ARGUMENT);
  std::vector<tcgen_tensor_arg> args = sets[0].args;
  args[0].data += 2;
  EXPECT_EQ(tcgen_rt_launch(kernel.get(), args.data(), nargs(), nullptr),
            TCGEN_ERROR_VALIDATION);
  expectC(0, /*written=*/false);
  // Nothing half-changed: the plan still computes on set 0.
  ASSERT_EQ(tcgen_rt_plan_launch_with(plan, sets[0].addresses.data(), nargs(),
                                      nullptr),
            TCGEN_OK);
  expectC(0);
}

// A graph captured once replays on the addresses it captured, reading the
// values there at each replay.
TEST_P(GpuPlan, CapturedLaunchesReplayOnNewValues) {
  makePlan(0);
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
            cudaSuccess);
  // Warm: the handle's own plan for set 1 exists before capture.
  ASSERT_EQ(tcgen_rt_launch(kernel.get(), sets[1].args.data(), nargs(),
                            stream),
            TCGEN_OK);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
            cudaSuccess);
  tcgen_status planStatus = tcgen_rt_plan_launch(plan, stream);
  tcgen_status launchStatus = tcgen_rt_launch(
      kernel.get(), sets[1].args.data(), nargs(), stream);
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  ASSERT_EQ(planStatus, TCGEN_OK) << tcgen_rt_last_error();
  ASSERT_EQ(launchStatus, TCGEN_OK) << tcgen_rt_last_error();
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int replay = 0; replay < 2; ++replay) {
    // New values at the captured addresses: set 0 gets set 2's, set 1
    // set 3's on the second replay.
    if (replay == 1)
      for (int s : {0, 1}) {
        Set &to = sets[s];
        const Set &from = sets[s + 2];
        for (size_t i : {spec.aIndex, spec.bIndex}) {
          to.host[i] = from.host[i];
          ASSERT_EQ(to.dev.buffers[i].upload(to.host[i].bytes.data(),
                                             to.host[i].bytes.size()),
                    "");
        }
      }
    poison(0);
    poison(1);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    expectC(0);
    expectC(1);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

// Threads launching at once: each with its own plan and stream, and each
// through the shared handle's tcgen_rt_launch.
TEST_P(GpuPlan, ThreadsLaunchAtOnce) {
  for (bool usePlans : {true, false}) {
    for (int s = 0; s < kSets; ++s)
      poison(s);
    std::vector<std::thread> threads;
    std::vector<tcgen_status> status(kSets, TCGEN_OK);
    for (int s = 0; s < kSets; ++s)
      threads.emplace_back([&, s] {
        cudaStream_t stream;
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        tcgen_plan *own = nullptr;
        if (usePlans)
          status[s] = tcgen_rt_plan_create(kernel.get(), sets[s].args.data(),
                                           nargs(), &own);
        for (int i = 0; i < 50 && status[s] == TCGEN_OK; ++i)
          status[s] = usePlans
                          ? tcgen_rt_plan_launch(own, stream)
                          : tcgen_rt_launch(kernel.get(), sets[s].args.data(),
                                            nargs(), stream);
        cudaStreamSynchronize(stream);
        tcgen_rt_plan_destroy(own);
        cudaStreamDestroy(stream);
      });
    for (std::thread &t : threads)
      t.join();
    for (int s = 0; s < kSets; ++s) {
      EXPECT_EQ(status[s], TCGEN_OK) << "set " << s;
      expectC(s);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(RefBundles, GpuPlan,
                         ::testing::Values("ref_f32_f32_ragged",
                                           "ref_batched_tma_f16_f32_ta"));

TEST(RuntimeHost, PlanCallsRefuseNullArguments) {
  tcgen_plan *plan = reinterpret_cast<tcgen_plan *>(1);
  EXPECT_EQ(tcgen_rt_plan_create(nullptr, nullptr, 0, &plan),
            TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(plan, nullptr);
  EXPECT_EQ(tcgen_rt_plan_create(nullptr, nullptr, 0, nullptr),
            TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgen_rt_plan_set_address(nullptr, 0, 256),
            TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgen_rt_plan_launch(nullptr, nullptr),
            TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgen_rt_plan_launch_with(nullptr, nullptr, 0, nullptr),
            TCGEN_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcgen_rt_last_error()), "");
  tcgen_rt_plan_destroy(nullptr); // A no-op.
  EXPECT_EQ(tcgen_rt_version(), TCGEN_RT_VERSION_MAJOR * 10000 +
                                    TCGEN_RT_VERSION_MINOR * 100 +
                                    TCGEN_RT_VERSION_PATCH);
}
} // namespace
