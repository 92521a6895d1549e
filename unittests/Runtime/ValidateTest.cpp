//===- ValidateTest.cpp - Tests of launch validation ----------------------===//
//
// This file implements unit tests of validateLaunch() and validateDevice():
// one test per kind of rejected launch, each checking the full message.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Validate.h"
#include "SampleManifest.h"

#include <gtest/gtest.h>

using namespace tcgen;
using tcgen::testing::sampleManifestText;

namespace {

class ValidateTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(parseManifest(sampleManifestText(), manifest), "");
    manifest.target.arch = "sm_90a";
    manifest.target.minCC = 90;
    args = {{"A", DType::F16, {1024, 1024}, {1024, 1}, 0x10000},
            {"B", DType::F16, {1024, 1024}, {1024, 1}, 0x20000},
            {"C", DType::F32, {1024, 1024}, {1024, 1}, 0x30000}};
  }

  std::string validate() { return validateLaunch(manifest, args, h100); }

  Manifest manifest;
  std::vector<TensorArg> args;
  DeviceInfo h100{9, 0, 232448, "NVIDIA H100"};
};

TEST_F(ValidateTest, AcceptsMatchingArguments) { EXPECT_EQ(validate(), ""); }

TEST_F(ValidateTest, ArgumentCount) {
  args.pop_back();
  EXPECT_EQ(validate(), "argument count mismatch: kernel expects 3 tensors "
                        "(A, B, C), got 2");
}

TEST_F(ValidateTest, ArgumentName) {
  std::swap(args[0], args[1]);
  EXPECT_EQ(validate(), "argument 0: name mismatch: kernel expects operand "
                        "'A', got 'B' (pass tensors in order: A, B, C)");
}

TEST_F(ValidateTest, DType) {
  args[0].dtype = DType::F32;
  EXPECT_EQ(validate(),
            "operand 'A': dtype mismatch: kernel expects f16, got f32");
}

TEST_F(ValidateTest, Shape) {
  args[1].shape = {1024, 512};
  EXPECT_EQ(validate(), "operand 'B': shape mismatch: kernel expects "
                        "[1024, 1024], got [1024, 512]");
}

TEST_F(ValidateTest, Rank) {
  args[1].shape = {1024};
  EXPECT_EQ(validate(), "operand 'B': shape mismatch: kernel expects "
                        "[1024, 1024], got [1024]");
}

TEST_F(ValidateTest, Strides) {
  args[2].strides = {1, 1024}; // column-major C for a row-major kernel
  EXPECT_EQ(validate(), "operand 'C': strides mismatch: kernel expects "
                        "[1024, 1], got [1, 1024]");
}

TEST_F(ValidateTest, Alignment) {
  args[0].address = 0x10002; // base + 2 bytes
  EXPECT_EQ(validate(), "operand 'A': misaligned pointer: kernel expects "
                        "16-byte alignment, got 0x10002");
}

TEST_F(ValidateTest, NullPointer) {
  args[2].address = 0;
  EXPECT_EQ(validate(), "operand 'C': null device pointer");
}

TEST_F(ValidateTest, ComputeCapabilityTooLow) {
  manifest.target.arch = "sm_80";
  manifest.target.minCC = 80;
  DeviceInfo t4{7, 5, 65536, "Tesla T4"};
  EXPECT_EQ(validateLaunch(manifest, args, t4),
            "device 'Tesla T4' (compute capability 7.5) is below the "
            "kernel's min_cc 80 (target sm_80)");
  DeviceInfo a100{8, 0, 166912, "A100"};
  EXPECT_EQ(validateLaunch(manifest, args, a100), "");
  EXPECT_EQ(validateLaunch(manifest, args, h100), "");
}

TEST_F(ValidateTest, ArchSpecificTargetOnAnotherDevice) {
  manifest.target.minCC = 80; // min_cc alone would allow the device
  DeviceInfo b200{10, 0, 232448, "NVIDIA B200"};
  EXPECT_EQ(validateLaunch(manifest, args, b200),
            "device 'NVIDIA B200' (compute capability 10.0) cannot run a "
            "kernel built for sm_90a: it runs on compute capability 9.0 only");
  DeviceInfo a100{8, 0, 166912, "A100"};
  EXPECT_NE(validateLaunch(manifest, args, a100), "");
}

TEST_F(ValidateTest, ValidateDeviceAlone) {
  EXPECT_EQ(validateDevice(manifest, h100), "");
  manifest.target.arch = "sm_100a";
  manifest.target.minCC = 100;
  EXPECT_NE(validateDevice(manifest, h100), "");
}

TEST_F(ValidateTest, SharedMemory) {
  manifest.launch.dynamicSmemBytes = 210000;
  EXPECT_EQ(validate(), "launch: shared memory 210000 B dynamic + 27648 B "
                        "static exceeds the limit of 232448 B per block on "
                        "device 'NVIDIA H100' (compute capability 9.0)");
  manifest.launch.dynamicSmemBytes = 232448 - 27648;
  EXPECT_EQ(validate(), "");
}

TEST_F(ValidateTest, ChecksArgumentsInOperandOrder) {
  args[0].dtype = DType::BF16;
  args[2].address = 0;
  EXPECT_EQ(validate(),
            "operand 'A': dtype mismatch: kernel expects f16, got bf16");
}

} // namespace
