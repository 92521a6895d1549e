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
using tcgen::testing::batchedManifestText;
using tcgen::testing::dynamicManifestText;
using tcgen::testing::epilogueManifestText;
using tcgen::testing::packManifestText;
using tcgen::testing::sampleManifestText;
using tcgen::testing::streamKManifestText;
using tcgen::testing::tensorMapManifestText;

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

//===----------------------------------------------------------------------===//
// tensormap params
//===----------------------------------------------------------------------===//

/// The sample with tensormap params for A (box [64, 128]) and B.
class TensorMapValidateTest : public ValidateTest {
protected:
  void SetUp() override {
    ValidateTest::SetUp();
    ASSERT_EQ(parseManifest(tensorMapManifestText(), manifest), "");
  }
};

TEST_F(TensorMapValidateTest, AcceptsMatchingArguments) {
  EXPECT_EQ(validate(), "");
}

TEST_F(TensorMapValidateTest, LayoutOfRowMajorOperand) {
  TensorMapLayout layout;
  ASSERT_EQ(tensorMapLayout(manifest.params[0], manifest.operands[0], 0x10000,
                            layout),
            "");
  EXPECT_EQ(layout.globalAddress, 0x10000u);
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{1024, 1024}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{2048}));
  EXPECT_EQ(layout.boxDim, (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(layout.elementStrides, (std::vector<uint32_t>{1, 1}));
}

TEST(TensorMapLayoutTest, InnermostFirstByStride) {
  Param p{"tensormap", "A", ""};
  p.box = {64, 32};
  TensorMapLayout layout;
  // Column-major A[256, 64] (bf16): dimension 0 is the contiguous one.
  Operand colMajor{"A", OperandRole::Lhs, DType::BF16, {256, 64}, {1, 256}, 16};
  ASSERT_EQ(tensorMapLayout(p, colMajor, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{256, 64}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{512}));
  EXPECT_EQ(layout.boxDim, (std::vector<uint32_t>{64, 32}));
  // Padded rows: the stride, not the extent, gives the byte stride.
  Operand padded{"A", OperandRole::Lhs, DType::F16, {100, 1000}, {1024, 1}, 16};
  ASSERT_EQ(tensorMapLayout(p, padded, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{1000, 100}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{2048}));
  // Rank 3 (f32) and rank 1 (i8).
  Param p3{"tensormap", "T", ""};
  p3.box = {32, 8, 2};
  Operand t3{"T", OperandRole::Lhs, DType::F32, {4, 32, 64}, {2048, 64, 1}, 16};
  ASSERT_EQ(tensorMapLayout(p3, t3, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{64, 32, 4}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{256, 8192}));
  EXPECT_EQ(layout.boxDim, (std::vector<uint32_t>{32, 8, 2}));
  EXPECT_EQ(layout.elementStrides, (std::vector<uint32_t>{1, 1, 1}));
  Param p1{"tensormap", "V", ""};
  p1.box = {256};
  Operand v{"V", OperandRole::Lhs, DType::I8, {4096}, {1}, 16};
  ASSERT_EQ(tensorMapLayout(p1, v, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{4096}));
  EXPECT_TRUE(layout.globalStrides.empty());
}

TEST(TensorMapLayoutTest, BoxRankMustMatch) {
  Param p{"tensormap", "A", ""};
  p.box = {64};
  Operand a{"A", OperandRole::Lhs, DType::F16, {64, 64}, {64, 1}, 16};
  TensorMapLayout layout;
  EXPECT_EQ(tensorMapLayout(p, a, 0x1000, layout),
            "operand 'A': tensormap box [64] has 1 entries but the operand "
            "has rank 2");
}

TEST_F(TensorMapValidateTest, MisalignedAddress) {
  manifest.operands[0].alignBytes = 2; // the operand alone would allow it
  args[0].address = 0x10002;
  EXPECT_EQ(validate(), "operand 'A': TMA needs a 16-byte aligned global "
                        "address, got 0x10002");
  // A ptr param of the same operand has no such rule.
  ASSERT_EQ(parseManifest(sampleManifestText(), manifest), "");
  manifest.target.minCC = 90;
  manifest.operands[0].alignBytes = 2;
  EXPECT_EQ(validate(), "");
}

TEST_F(TensorMapValidateTest, RowStrideNotAMultipleOf16Bytes) {
  manifest.operands[1].strides = {1028, 1}; // 2056 bytes of f16
  args[1].strides = {1028, 1};
  EXPECT_EQ(validate(), "operand 'B': TMA needs byte strides that are "
                        "multiples of 16, got stride 1028 (2056 bytes of f16) "
                        "in dimension 0 (strides [1028, 1])");
  manifest.operands[1].strides = args[1].strides = {1032, 1}; // 2064 bytes
  EXPECT_EQ(validate(), "");
}

TEST_F(TensorMapValidateTest, PackedOperandsUseThePackStrides) {
  // B's rows are 2056 bytes apart: TMA reads the runtime's copy instead,
  // with the pack's strides (2176 bytes).
  ASSERT_EQ(parseManifest(packManifestText(), manifest), "");
  args[1].strides = {1028, 1};
  EXPECT_EQ(validate(), "");
  // The caller's tensor is still checked against the operand.
  args[1].strides = {1024, 1};
  EXPECT_NE(validate().find("operand 'B'"), std::string::npos);
  // A pack whose strides TMA cannot take is refused like an operand.
  args[1].strides = {1028, 1};
  manifest.packs[0].strides = {1030, 1};
  EXPECT_EQ(validate(), "operand 'B': TMA needs byte strides that are "
                        "multiples of 16, got stride 1030 (2060 bytes of f16) "
                        "in dimension 0 (strides [1030, 1])");
}

TEST(TensorMapLayoutTest, PackCopyOrdersExtentOneDimensionsByStride) {
  // tf32 B [k, n] with n = 1, copied k-major by a transposing pack: the
  // copy's strides [1, k] put k innermost, where the kernel's box [32, 64]
  // lists it. As a caller's tensor the extent-1 n keeps its place (entry
  // 0), and k's stride of 4 bytes is then refused.
  Param p{"tensormap", "B", ""};
  p.box = {32, 64};
  Operand copy{"B", OperandRole::Rhs, DType::F32, {64, 1}, {1, 64}, 16};
  TensorMapLayout layout;
  ASSERT_EQ(tensorMapLayout(p, copy, 0x1000, layout, /*packCopy=*/true), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{64, 1}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{0}));
  EXPECT_EQ(layout.boxDim, (std::vector<uint32_t>{32, 64}));
  EXPECT_EQ(tensorMapLayout(p, copy, 0x1000, layout),
            "operand 'B': TMA needs byte strides that are multiples of 16, "
            "got stride 1 (4 bytes of f32) in dimension 0 (strides [1, 64])");
  // A row-major copy of the same B, strides [64, 1]: n innermost either way.
  Operand rows{"B", OperandRole::Rhs, DType::F16, {64, 1}, {64, 1}, 16};
  ASSERT_EQ(tensorMapLayout(p, rows, 0x1000, layout, /*packCopy=*/true), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{1, 64}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{128}));
  // A broadcast dimension keeps its place in a copy too.
  Param p3{"tensormap", "B", ""};
  p3.box = {32, 64, 1};
  Operand b3{"B", OperandRole::Rhs, DType::F32, {4, 64, 1}, {0, 1, 64}, 16};
  ASSERT_EQ(tensorMapLayout(p3, b3, 0x1000, layout, /*packCopy=*/true), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{64, 1, 4}));
}

TEST(PackBytesTest, LastElementRoundedUpTo256) {
  Operand b{"B", OperandRole::Rhs, DType::F16, {1024, 1000}, {1000, 1}, 16};
  Pack p{"B", "pack", {1024, 1}, {1, 1, 1}, {256, 1, 1}};
  // (1023 * 1024 + 999 + 1) * 2 bytes = 2097152 - 48, rounded up.
  EXPECT_EQ(packBytes(b, p), 2097152);
  EXPECT_EQ(packedOperand(b, p).strides, (std::vector<int64_t>{1024, 1}));
  // A transposed operand: logical [k, n] with strides [1, k_padded].
  Operand t{"B", OperandRole::Rhs, DType::F16, {100, 30}, {1, 104}, 16};
  Pack tp{"B", "pack", {1, 128}, {1, 1, 1}, {256, 1, 1}};
  EXPECT_EQ(packBytes(t, tp), (99 + 29 * 128 + 1) * 2 / 256 * 256 + 256);
}

TEST_F(TensorMapValidateTest, InnermostStrideNotOne) {
  manifest.operands[0].strides = {2048, 2};
  args[0].strides = {2048, 2};
  EXPECT_EQ(validate(), "operand 'A': TMA needs a dimension of stride 1 (the "
                        "innermost), got strides [2048, 2]");
}

TEST_F(TensorMapValidateTest, StrideOf2To40Bytes) {
  int64_t big = int64_t(1) << 39; // 2^40 bytes of f16
  manifest.operands[0].strides = args[0].strides = {big, 1};
  EXPECT_EQ(validate(), "operand 'A': TMA needs byte strides below 2^40, got "
                        "stride 549755813888 in dimension 0 (strides "
                        "[549755813888, 1], f16)");
  manifest.operands[0].strides = args[0].strides = {big - 8, 1};
  EXPECT_EQ(validate(), "");
}

TEST_F(TensorMapValidateTest, ColumnMajorOperand) {
  // Column-major B: its contiguous dimension is k, box[0] runs along it.
  manifest.operands[1].strides = args[1].strides = {1, 1024};
  EXPECT_EQ(validate(), "");
}

TEST_F(TensorMapValidateTest, ArgumentChecksComeFirst) {
  args[0].dtype = DType::BF16;
  args[0].address = 0x10002;
  EXPECT_EQ(validate(),
            "operand 'A': dtype mismatch: kernel expects f16, got bf16");
}

TEST_F(TensorMapValidateTest, NeedsComputeCapability90) {
  manifest.target.arch = "sm_80";
  manifest.target.minCC = 80;
  DeviceInfo a100{8, 0, 166912, "A100"};
  EXPECT_EQ(validateLaunch(manifest, args, a100),
            "device 'A100' (compute capability 8.0) cannot take params[0] of "
            "kind tensormap: TMA needs compute capability 9.0 or higher");
  EXPECT_EQ(validateLaunch(manifest, args, h100), "");
}

//===----------------------------------------------------------------------===//
// Batched matmuls: rank-3 tensors, tensormaps of three dimensions
//===----------------------------------------------------------------------===//

/// The batched sample: A [3, 64, 32] transposed, B and C row-major, A and
/// B through tensormaps with boxes [64, 32, 1].
class BatchedValidateTest : public ValidateTest {
protected:
  void SetUp() override {
    ValidateTest::SetUp();
    ASSERT_EQ(parseManifest(batchedManifestText(), manifest), "");
    args = {{"A", DType::F16, {3, 64, 32}, {2048, 1, 64}, 0x10000},
            {"B", DType::F16, {3, 32, 128}, {4096, 128, 1}, 0x20000},
            {"C", DType::F32, {3, 64, 128}, {8192, 128, 1}, 0x30000}};
  }
};

TEST_F(BatchedValidateTest, AcceptsMatchingArguments) {
  EXPECT_EQ(validate(), "");
}

TEST_F(BatchedValidateTest, OneMatrixForABatchIsRefused) {
  args[2].shape = {64, 128};
  args[2].strides = {128, 1};
  EXPECT_EQ(validate(), "operand 'C': shape mismatch: kernel expects "
                        "[3, 64, 128], got [64, 128]");
}

TEST_F(BatchedValidateTest, BatchExtent) {
  args[1].shape = {2, 32, 128};
  EXPECT_EQ(validate(), "operand 'B': shape mismatch: kernel expects "
                        "[3, 32, 128], got [2, 32, 128]");
}

TEST_F(BatchedValidateTest, BatchStride) {
  args[2].strides = {8448, 128, 1}; // padded matrices for a dense kernel
  EXPECT_EQ(validate(), "operand 'C': strides mismatch: kernel expects "
                        "[8192, 128, 1], got [8448, 128, 1]");
}

TEST_F(BatchedValidateTest, TensorMapOfATransposedBatch) {
  // A [3, 64, 32] stored k-major per matrix: m innermost, then k, then the
  // batch, which is what box [64, 32, 1] lists.
  TensorMapLayout layout;
  ASSERT_EQ(tensorMapLayout(manifest.params[0], manifest.operands[0], 0x10000,
                            layout),
            "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{64, 32, 3}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{128, 4096}));
  EXPECT_EQ(layout.boxDim, (std::vector<uint32_t>{64, 32, 1}));
  EXPECT_EQ(layout.elementStrides, (std::vector<uint32_t>{1, 1, 1}));
  // B [3, 32, 128] row-major: n, k, batch.
  ASSERT_EQ(tensorMapLayout(manifest.params[1], manifest.operands[1], 0x20000,
                            layout),
            "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{128, 32, 3}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{256, 8192}));
}

TEST_F(BatchedValidateTest, TensorMapBatchStrideNotAMultipleOf16Bytes) {
  // Matrices of B 4100 f16 apart: 8200 bytes.
  manifest.operands[1].strides = args[1].strides = {4100, 128, 1};
  EXPECT_EQ(validate(), "operand 'B': TMA needs byte strides that are "
                        "multiples of 16, got stride 4100 (8200 bytes of f16) "
                        "in dimension 0 (strides [4100, 128, 1])");
}

TEST(TensorMapLayoutTest, ExtentOneKeepsItsPlace) {
  Param p{"tensormap", "A", ""};
  p.box = {64, 1, 1};
  TensorMapLayout layout;
  // A [4, 1, 256] (m = 1): the m stride ties with the batch stride, and
  // would tie with k's in the transposed layout [256, 1, 1]. Whatever the
  // stride of the extent-1 dimension, it stays in the middle, and its
  // global stride, never used, is 0.
  for (int64_t stride :
       {int64_t(256), int64_t(1), int64_t(3), int64_t(1) << 50}) {
    Operand a{"A",         OperandRole::Lhs, DType::F16,
              {4, 1, 256}, {256, stride, 1}, 16};
    ASSERT_EQ(tensorMapLayout(p, a, 0x1000, layout), "") << stride;
    EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{256, 1, 4})) << stride;
    EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{0, 512})) << stride;
    EXPECT_EQ(layout.boxDim, (std::vector<uint32_t>{64, 1, 1})) << stride;
  }
  // An extent-1 innermost dimension needs no stride 1: B [2, 64, 1] with
  // n = 1 has its k rows 16 elements apart.
  Operand column{"B",        OperandRole::Rhs, DType::F16,
                 {2, 64, 1}, {1024, 16, 8},    16};
  p.box = {8, 64, 1};
  ASSERT_EQ(tensorMapLayout(p, column, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{1, 64, 2}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{32, 2048}));
  // Rank 2 as before: [1, k] column-major (strides [1, 1]) is {k, 1}.
  Param p2{"tensormap", "A", ""};
  p2.box = {64, 1};
  Operand row{"A", OperandRole::Lhs, DType::F16, {1, 512}, {1, 1}, 16};
  ASSERT_EQ(tensorMapLayout(p2, row, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{512, 1}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{0}));
}

TEST(TensorMapLayoutTest, BatchMustNotBeInnermost) {
  Param p{"tensormap", "A", ""};
  p.box = {64, 1, 64};
  TensorMapLayout layout;
  // A summed batch of 848 over A stored [k][b][m] with m = 1 (bf16): the
  // batch is the contiguous dimension, and ordered by stride the map would
  // be {b, 1, k}, with the batch under the kernel's k coordinate.
  Operand a{"A", OperandRole::Lhs, DType::BF16, {848, 1, 16}, {1, 1, 848}, 16};
  EXPECT_EQ(tensorMapLayout(p, a, 0x1000, layout),
            "operand 'A': the kernel reads one of the matrix dimensions (the "
            "last two) contiguously, but batch dimension 0 is the innermost "
            "(shape [848, 1, 16], strides [1, 1, 848])");
  // B stored [n][b][k] with k = 1: [b, 1, n] with strides [1, 1, b].
  Operand b{"B", OperandRole::Rhs, DType::F16, {8, 1, 64}, {1, 1, 8}, 16};
  EXPECT_EQ(tensorMapLayout(p, b, 0x1000, layout),
            "operand 'B': the kernel reads one of the matrix dimensions (the "
            "last two) contiguously, but batch dimension 0 is the innermost "
            "(shape [8, 1, 64], strides [1, 1, 8])");
  // Two batch dimensions, the second stored innermost.
  Param p4{"tensormap", "A", ""};
  p4.box = {64, 64, 1, 1};
  Operand a4{
      "A", OperandRole::Lhs, DType::F16, {2, 8, 64, 64}, {32768, 1, 512, 8},
      16};
  EXPECT_EQ(tensorMapLayout(p4, a4, 0x1000, layout),
            "operand 'A': the kernel reads one of the matrix dimensions (the "
            "last two) contiguously, but batch dimension 1 is the innermost "
            "(shape [2, 8, 64, 64], strides [32768, 1, 512, 8])");
  // With m = 2 the batch is 2 elements (4 bytes) apart, behind m: a step
  // TMA cannot take.
  Operand a2{"A", OperandRole::Lhs, DType::F16, {848, 2, 16}, {2, 1, 1696}, 16};
  EXPECT_EQ(tensorMapLayout(p, a2, 0x1000, layout),
            "operand 'A': TMA needs byte strides that are multiples of 16, "
            "got stride 2 (4 bytes of f16) in dimension 0 (strides [2, 1, "
            "1696])");
  // Its batch-between form that TMA reads ([k][b][m], m = 8): {m, b, k}.
  Operand a8{"A", OperandRole::Lhs, DType::F16, {848, 8, 16}, {8, 1, 6784}, 16};
  ASSERT_EQ(tensorMapLayout(p, a8, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{8, 848, 16}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{16, 13568}));
}

TEST(TensorMapLayoutTest, BroadcastDimensionKeepsItsPlace) {
  // One A for every matrix of the batch (batch stride 0), row-major and
  // transposed: the batch stays outermost.
  Param p{"tensormap", "A", ""};
  p.box = {64, 64, 1};
  TensorMapLayout layout;
  Operand rowMajor{"A",          OperandRole::Lhs, DType::F16,
                   {3, 64, 128}, {0, 128, 1},      16};
  ASSERT_EQ(tensorMapLayout(p, rowMajor, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{128, 64, 3}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{256, 0}));
  Operand transposed{"A",          OperandRole::Lhs, DType::F16,
                     {3, 64, 128}, {0, 1, 64},       16};
  ASSERT_EQ(tensorMapLayout(p, transposed, 0x1000, layout), "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{64, 128, 3}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{128, 0}));
  // A broadcast cannot be the contiguous dimension.
  Operand rows{"A",          OperandRole::Lhs, DType::F16,
               {3, 64, 128}, {8192, 128, 0},   16};
  EXPECT_EQ(tensorMapLayout(p, rows, 0x1000, layout),
            "operand 'A': TMA needs a dimension of stride 1 (the innermost), "
            "got strides [8192, 128, 0]");
}

//===----------------------------------------------------------------------===//
// Launched grid, workspace params
//===----------------------------------------------------------------------===//

Launch tileLaunch(int64_t tiles, bool persistent, bool streamK) {
  Launch l;
  l.grid = {tiles, 1, 1};
  l.block = {384, 1, 1};
  l.persistent = persistent;
  l.streamK = streamK;
  return l;
}

TEST(LaunchedGridTest, PersistentTakesAtMostOneBlockPerSM) {
  using Grid = std::array<int64_t, 3>;
  EXPECT_EQ(launchedGrid(tileLaunch(72, true, false), 132), (Grid{72, 1, 1}));
  EXPECT_EQ(launchedGrid(tileLaunch(1024, true, false), 132),
            (Grid{132, 1, 1}));
  // Not persistent: the manifest's grid.
  EXPECT_EQ(launchedGrid(tileLaunch(1024, false, false), 132),
            (Grid{1024, 1, 1}));
}

TEST(LaunchedGridTest, StreamKTakesExactlyOneBlockPerSM) {
  using Grid = std::array<int64_t, 3>;
  // Fewer tiles than SMs: every SM still gets a share of the k-iterations.
  EXPECT_EQ(launchedGrid(tileLaunch(72, true, true), 132), (Grid{132, 1, 1}));
  EXPECT_EQ(launchedGrid(tileLaunch(1024, true, true), 132), (Grid{132, 1, 1}));
  EXPECT_EQ(launchedGrid(tileLaunch(1, true, true), 114), (Grid{114, 1, 1}));
  // y and z stay as they are.
  Launch l = tileLaunch(72, true, true);
  l.grid = {72, 2, 3};
  EXPECT_EQ(launchedGrid(l, 132), (Grid{132, 2, 3}));
}

TEST(LaunchedGridTest, StreamKBlocksCapTheGrid) {
  using Grid = std::array<int64_t, 3>;
  // Few tiles: stream_k_blocks blocks (four a tile), never more than SMs.
  Launch l = tileLaunch(6, true, true);
  l.streamKBlocks = 24;
  EXPECT_EQ(launchedGrid(l, 132), (Grid{24, 1, 1}));
  EXPECT_EQ(launchedGrid(l, 16), (Grid{16, 1, 1}));
  // The workspace follows the launched grid: one slot per block.
  Manifest m;
  m.launch = l;
  Param w;
  w.kind = "workspace";
  w.bytesPerBlock = 16400;
  m.params.push_back(w);
  EXPECT_EQ(workspaceBytes(m, 132), 24 * 16400);
  EXPECT_EQ(workspaceBytes(m, 16), 16 * 16400);
}

TEST(LaunchedGridTest, UnknownSMCountKeepsTheManifestGrid) {
  using Grid = std::array<int64_t, 3>;
  EXPECT_EQ(launchedGrid(tileLaunch(72, true, true), 0), (Grid{72, 1, 1}));
  EXPECT_EQ(launchedGrid(tileLaunch(200, true, false), 0), (Grid{200, 1, 1}));
}

TEST(LaunchedGridTest, WholeClusters) {
  using Grid = std::array<int64_t, 3>;
  // 114 SMs hold 28 clusters of 4: a grid of 114 would not launch.
  Launch l = tileLaunch(256, true, true);
  l.cluster = {4, 1, 1};
  EXPECT_EQ(launchedGrid(l, 114), (Grid{112, 1, 1}));
  l.streamK = false;
  EXPECT_EQ(launchedGrid(l, 114), (Grid{112, 1, 1}));
  l.grid[0] = 8; // fewer tiles than SMs: already whole clusters
  EXPECT_EQ(launchedGrid(l, 114), (Grid{8, 1, 1}));
  l.cluster = {2, 1, 1};
  EXPECT_EQ(launchedGrid(l, 1), (Grid{2, 1, 1})); // at least one cluster
}

TEST(WorkspaceBytesTest, BytesPerBlockTimesLaunchedBlocks) {
  Manifest m;
  ASSERT_EQ(parseManifest(streamKManifestText(), m), "");
  // The sample's grid is [8, 16, 1]: stream-K launches [132, 16, 1].
  EXPECT_EQ(workspaceBytes(m, 132), int64_t(131584) * 132 * 16);
  m.launch.streamK = false; // persistent: min(8, 132) blocks along x
  EXPECT_EQ(workspaceBytes(m, 132), int64_t(131584) * 8 * 16);
  // Without a workspace param there is no buffer.
  m.params.pop_back();
  EXPECT_EQ(workspaceBytes(m, 132), 0);
}

TEST(WorkspaceBytesTest, Overflow) {
  Manifest m;
  ASSERT_EQ(parseManifest(streamKManifestText(), m), "");
  m.params[3].bytesPerBlock = int64_t(1) << 58;
  EXPECT_EQ(workspaceBytes(m, 132), -1);
}

/// The stream-K sample: ptr params for A, B and C, then a workspace.
class WorkspaceValidateTest : public ValidateTest {
protected:
  void SetUp() override {
    ValidateTest::SetUp();
    ASSERT_EQ(parseManifest(streamKManifestText(), manifest), "");
    manifest.target.minCC = 90;
  }
};

TEST_F(WorkspaceValidateTest, TakesNoTensorArgument) {
  EXPECT_EQ(validate(), "");
  args.push_back({"workspace", DType::I8, {1024}, {1}, 0x40000});
  EXPECT_EQ(validate(), "argument count mismatch: kernel expects 3 tensors "
                        "(A, B, C), got 4");
  args.resize(2);
  EXPECT_EQ(validate(), "argument count mismatch: kernel expects 3 tensors "
                        "(A, B, C), got 2");
}

//===----------------------------------------------------------------------===//
// Epilogue inputs (operands of role "in")
//===----------------------------------------------------------------------===//

/// The epilogue sample: A, B, an f16 C, then the inputs E0 (row, f16
/// [1024]), E1 (matrix, f16 [1024, 1024]) and E2 (scalar, f32, rank 0,
/// 4-byte aligned), each a ptr param.
class EpilogueValidateTest : public ValidateTest {
protected:
  void SetUp() override {
    ValidateTest::SetUp();
    ASSERT_EQ(parseManifest(epilogueManifestText(), manifest), "");
    args[2].dtype = DType::F16;
    args.push_back({"E0", DType::F16, {1024}, {1}, 0x40000});
    args.push_back({"E1", DType::F16, {1024, 1024}, {1024, 1}, 0x50000});
    args.push_back({"E2", DType::F32, {}, {}, 0x60004});
  }
};

TEST_F(EpilogueValidateTest, AcceptsMatchingArguments) {
  EXPECT_EQ(validate(), "");
}

TEST_F(EpilogueValidateTest, InputsAreArguments) {
  args.resize(3);
  EXPECT_EQ(validate(), "argument count mismatch: kernel expects 6 tensors "
                        "(A, B, C, E0, E1, E2), got 3");
}

TEST_F(EpilogueValidateTest, InputsComeInOperandOrder) {
  std::swap(args[3], args[4]);
  EXPECT_EQ(validate(), "argument 3: name mismatch: kernel expects operand "
                        "'E0', got 'E1' (pass tensors in order: A, B, C, E0, "
                        "E1, E2)");
}

TEST_F(EpilogueValidateTest, InputDType) {
  args[3].dtype = DType::F32;
  EXPECT_EQ(validate(),
            "operand 'E0': dtype mismatch: kernel expects f16, got f32");
}

TEST_F(EpilogueValidateTest, RowInputShape) {
  args[3].shape = {1, 1024}; // a [1, n] matrix is not a row vector
  args[3].strides = {1024, 1};
  EXPECT_EQ(validate(), "operand 'E0': shape mismatch: kernel expects "
                        "[1024], got [1, 1024]");
}

TEST_F(EpilogueValidateTest, ScalarInputIsRankZero) {
  args[5].shape = {1};
  args[5].strides = {1};
  EXPECT_EQ(validate(), "operand 'E2': shape mismatch: kernel expects [], got "
                        "[1]");
}

TEST_F(EpilogueValidateTest, MatrixInputStrides) {
  args[4].strides = {1, 1024}; // column-major residual
  EXPECT_EQ(validate(), "operand 'E1': strides mismatch: kernel expects "
                        "[1024, 1], got [1, 1024]");
}

TEST_F(EpilogueValidateTest, InputAlignment) {
  args[4].address = 0x50008;
  EXPECT_EQ(validate(), "operand 'E1': misaligned pointer: kernel expects "
                        "16-byte alignment, got 0x50008");
  args[4].address = 0x50000;
  args[5].address = 0x60002; // the scalar needs 4 bytes
  EXPECT_EQ(validate(), "operand 'E2': misaligned pointer: kernel expects "
                        "4-byte alignment, got 0x60002");
}

TEST_F(EpilogueValidateTest, NullInput) {
  args[5].address = 0;
  EXPECT_EQ(validate(), "operand 'E2': null device pointer");
}

} // namespace

class DynamicValidateTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(parseManifest(dynamicManifestText(), manifest), "");
    // A stored [k][m] = [256][1000] with rows 1024 apart; C rows 520 apart.
    args = {{"A", DType::F16, {1000, 256}, {1, 1024}, 0x10000},
            {"B", DType::F16, {256, 512}, {512, 1}, 0x20000},
            {"C", DType::F32, {1000, 512}, {520, 1}, 0x30000}};
  }

  std::string bindAndValidate() {
    std::string error = bindSizes(manifest, args, bound);
    return error.empty() ? validateLaunch(bound, args, h100) : error;
  }

  Manifest manifest, bound;
  std::vector<TensorArg> args;
  DeviceInfo h100{9, 0, 232448, "NVIDIA H100", 132};
};

TEST_F(DynamicValidateTest, BindsSizesAndStridesFromTheTensors) {
  EXPECT_EQ(bindAndValidate(), "");
  EXPECT_FALSE(bound.isDynamic());
  EXPECT_EQ(bound.op.m, 1000);
  EXPECT_EQ(bound.op.n, 512);
  EXPECT_EQ(bound.op.k, 256);
  EXPECT_EQ(bound.operands[0].shape, (std::vector<int64_t>{1000, 256}));
  EXPECT_EQ(bound.operands[0].strides, (std::vector<int64_t>{1, 1024}));
  EXPECT_EQ(bound.operands[2].shape, (std::vector<int64_t>{1000, 512}));
  EXPECT_EQ(bound.operands[2].strides, (std::vector<int64_t>{520, 1}));
  // The tensor maps' layout follows the bound strides.
  TensorMapLayout layout;
  ASSERT_EQ(tensorMapLayout(bound.params[0], bound.operands[0], 0x10000,
                            layout),
            "");
  EXPECT_EQ(layout.globalDim, (std::vector<uint64_t>{1000, 256}));
  EXPECT_EQ(layout.globalStrides, (std::vector<uint64_t>{2048}));
}

TEST_F(DynamicValidateTest, FixedSizesAndStridesAreStillChecked) {
  args[1].shape = {256, 500}; // n is 512 at compile time
  EXPECT_EQ(bindAndValidate(), "operand 'B': shape mismatch: kernel expects "
                               "[256, 512], got [256, 500]");
  SetUp();
  args[2].shape = {999, 512}; // C's m must be A's
  EXPECT_EQ(bindAndValidate(), "operand 'C': shape mismatch: kernel expects "
                               "[1000, 512], got [999, 512]");
  SetUp();
  args[2].strides = {520, 2}; // C's inner stride is fixed
  EXPECT_EQ(bindAndValidate(), "operand 'C': strides mismatch: kernel "
                               "expects [520, 1], got [520, 2]");
  SetUp();
  args[0].shape = {0, 256};
  EXPECT_EQ(bindAndValidate(), "operand 'A': size m must be at least 1, got 0");
}

TEST_F(DynamicValidateTest, TmaRulesApplyToTheBoundStrides) {
  args[2].strides = {515, 1}; // 2060-byte rows: not a multiple of 16
  std::string error = bindAndValidate();
  EXPECT_NE(error.find("operand 'C'"), std::string::npos) << error;
  EXPECT_NE(error.find("multiples of 16"), std::string::npos) << error;
}

TEST_F(DynamicValidateTest, WrongRankIsNamedWithUnknownSizes) {
  args[0].shape = {1000, 256, 1};
  args[0].strides = {1, 1024, 1};
  EXPECT_EQ(bindAndValidate(), "operand 'A': shape mismatch: kernel expects "
                               "[?, ?], got [1000, 256, 1]");
}

TEST_F(DynamicValidateTest, SpecializeGivesDenseStrides) {
  Manifest m;
  ASSERT_EQ(specializeManifest(manifest, 300, 512, 64, m), "");
  EXPECT_EQ(m.op.m, 300);
  EXPECT_EQ(m.op.k, 64);
  // A [m, k] stored [k][m]: strides [1, m].
  EXPECT_EQ(m.operands[0].shape, (std::vector<int64_t>{300, 64}));
  EXPECT_EQ(m.operands[0].strides, (std::vector<int64_t>{1, 300}));
  EXPECT_EQ(m.operands[2].strides, (std::vector<int64_t>{512, 1}));
  EXPECT_EQ(specializeManifest(manifest, 0, 512, 64, m),
            "size m is fixed at launch and must be given (at least 1), got 0");
  // The fixed n need not be given.
  EXPECT_EQ(specializeManifest(manifest, 300, 0, 64, m), "");
}

TEST(DynamicLaunchTest, OneBlockPerSM) {
  Launch l;
  l.grid = {kDynamicSize, 1, 1};
  l.persistent = true;
  EXPECT_EQ(launchedGrid(l, 132), (std::array<int64_t, 3>{132, 1, 1}));
  l.cluster = {2, 1, 1};
  EXPECT_EQ(launchedGrid(l, 132), (std::array<int64_t, 3>{132, 1, 1}));
  EXPECT_EQ(launchedGrid(l, 0), (std::array<int64_t, 3>{2, 1, 1}));
}

TEST(LaunchableTest, AcceptsWhatSomeLaunchSatisfies) {
  Manifest m;
  ASSERT_EQ(parseManifest(tensorMapManifestText(), m), "");
  EXPECT_EQ(validateLaunchable(m, 232448), "");
  // Sizes fixed at launch: dense tensors of a nominal size.
  ASSERT_EQ(parseManifest(dynamicManifestText(), m), "");
  EXPECT_EQ(validateLaunchable(m, 232448), "");
}

TEST(LaunchableTest, RefusesATensorMapOverRowsNoLaunchCanHave) {
  // A bf16 C of N = 100 (200-byte rows) written through a tensor map: the
  // manifest fixes the strides, and TMA refuses them at every launch.
  Manifest m;
  ASSERT_EQ(parseManifest(tensorMapManifestText(), m), "");
  m.operands[2].dtype = DType::BF16;
  m.operands[2].shape = {1024, 100};
  m.operands[2].strides = {100, 1};
  m.operands[1].shape = {1024, 100};
  m.operands[1].strides = {100, 1};
  m.op.n = 100;
  m.params[1] = {"ptr", "B", ""};
  m.params[2] = {"tensormap", "C", ""};
  m.params[2].box = {64, 64};
  EXPECT_EQ(validateLaunchable(m, 232448),
            "operand 'C': TMA needs byte strides that are multiples of 16, got "
            "stride 100 (200 bytes of bf16) in dimension 0 (strides [100, 1])");
  // With C's pointer there is nothing to refuse.
  m.params[2] = {"ptr", "C", ""};
  EXPECT_EQ(validateLaunchable(m, 232448), "");
}

TEST(LaunchableTest, RefusesMoreSharedMemoryThanTheTargetHas) {
  Manifest m;
  ASSERT_EQ(parseManifest(sampleManifestText(), m), "");
  m.launch.dynamicSmemBytes = 200000;
  EXPECT_EQ(validateLaunchable(m, 163 * 1024),
            "launch: shared memory 200000 B dynamic + 27648 B static exceeds "
            "the limit of 166912 B per block on device 'nominal sm_90a' "
            "(compute capability 9.0)");
}
