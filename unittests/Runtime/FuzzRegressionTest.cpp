//===- FuzzRegressionTest.cpp - Inputs the fuzzers found ------------------===//
//
// This file implements regression tests for the problems the libFuzzer
// targets under fuzz/ found in the runtime's parsers and launch checks: each
// test is the smallest form of one finding (undefined behaviour or a broken
// round trip), now answered with a clear message or the right value.
//
//===----------------------------------------------------------------------===//

#include "SampleManifest.h"

#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Validate.h"

#include <gtest/gtest.h>

using namespace tcgen;
using tcgen::testing::dynamicManifestText;
using tcgen::testing::replaceFirst;
using tcgen::testing::sampleManifestText;

namespace {

/// specializeManifest computed A's dense strides as m * k in int64_t, which
/// overflowed for sizes a caller may pass.
TEST(FuzzRegressionTest, SpecializeRefusesStridesThatOverflow) {
  Manifest manifest, m;
  ASSERT_EQ(parseManifest(dynamicManifestText(), manifest), "");
  int64_t huge = int64_t(1) << 62;
  EXPECT_EQ(specializeManifest(manifest, huge, 512, 64, m),
            "operand 'A': dense strides of shape [4611686018427387904, 64] "
            "do not fit in 64 bits");
}

/// The product of op.batch_shape's extents overflowed int64_t before it was
/// compared with op.batch: 4 * (2^62 + 1) wrapped around to 4.
TEST(FuzzRegressionTest, BatchShapeProductOverflowIsAnError) {
  std::string text =
      replaceFirst(sampleManifestText(), R"("batch": 1,)",
                   R"("batch": 4, "batch_shape": [4, 4611686018427387905],)");
  Manifest m;
  EXPECT_EQ(parseManifest(text, m),
            "field 'op.batch_shape' must list two or three batch extents "
            "whose product is op.batch (4), got [4, 4611686018427387905]");
}

/// The threads of launch.block (and of a pack's block) were multiplied in
/// int64_t, which overflowed for huge extents.
TEST(FuzzRegressionTest, HugeBlockIsAnError) {
  Manifest m;
  std::string text =
      replaceFirst(sampleManifestText(), R"("block": [256, 1, 1])",
                   R"("block": [4294967296, 4294967296, 4])");
  EXPECT_EQ(parseManifest(text, m),
            "field 'launch.block': [4294967296, 4294967296, 4] has more than "
            "1024 threads per block");
  // Without overflow, the message gives the count.
  text = replaceFirst(sampleManifestText(), R"("block": [256, 1, 1])",
                      R"("block": [256, 8, 1])");
  EXPECT_EQ(parseManifest(text, m),
            "field 'launch.block': 2048 threads per block exceeds 1024");
  text = replaceFirst(sampleManifestText(), R"("launch": {)",
                      R"("packs": [ { "operand": "A", "entry": "pack",
                "strides": [1032, 1], "grid": [1, 1, 1],
                "block": [4294967296, 4294967296, 1] } ],
  "launch": {)");
  EXPECT_EQ(parseManifest(text, m),
            "field 'packs[0].block': [4294967296, 4294967296, 1] has more "
            "than 1024 threads per block");
}

/// validateLaunch added dynamic and static shared memory in int64_t.
TEST(FuzzRegressionTest, SharedMemorySumOverflowIsRefused) {
  std::string text =
      replaceFirst(sampleManifestText(), R"("dynamic_smem_bytes": 0,)",
                   R"("dynamic_smem_bytes": 9223372036854775807,)");
  Manifest m;
  ASSERT_EQ(parseManifest(text, m), "");
  std::vector<TensorArg> args;
  for (const Operand &o : m.operands)
    args.push_back({o.name, o.dtype, o.shape, o.strides, 0x10000});
  DeviceInfo h100{9, 0, 232448, "NVIDIA H100", 132};
  EXPECT_EQ(validateLaunch(m, args, h100),
            "launch: shared memory 9223372036854775807 B dynamic + 27648 B "
            "static exceeds the limit of 232448 B per block on device 'NVIDIA "
            "H100' (compute capability 9.0)");
}

/// With k = 1 at launch, A's extent-1 dimension takes the innermost place
/// of its tensor map, and a negative row stride (the caller's) was taken:
/// as a byte stride of 2^64 - 32, or, for INT64_MIN, with an overflow.
TEST(FuzzRegressionTest, NegativeTensorMapStrideIsRefused) {
  // A row-major with rows fixed at launch: strides [-1, 1].
  std::string text = replaceFirst(
      dynamicManifestText(), R"("strides": [1, -1])", R"("strides": [-1, 1])");
  Manifest manifest, bound;
  ASSERT_EQ(parseManifest(text, manifest), "");
  DeviceInfo h100{9, 0, 232448, "NVIDIA H100", 132};
  for (int64_t stride : {int64_t(-16), INT64_MIN}) {
    std::vector<TensorArg> args = {
        {"A", DType::F16, {1000, 1}, {stride, 1}, 0x10000},
        {"B", DType::F16, {1, 512}, {512, 1}, 0x20000},
        {"C", DType::F32, {1000, 512}, {512, 1}, 0x30000}};
    ASSERT_EQ(bindSizes(manifest, args, bound), "");
    EXPECT_EQ(validateLaunch(bound, args, h100),
              "operand 'A': TMA needs strides >= 0, got stride " +
                  std::to_string(stride) + " in dimension 0 (strides [" +
                  std::to_string(stride) + ", 1])");
  }
}

} // namespace
