//===- GroupedManifestTest.cpp - Grouped products in the manifest -*- C++
//-*-===//
//
// This file tests the manifest of a grouped product (op.groups, the
// operand of role "offsets", docs/BUNDLE.md): it parses and round-trips,
// the refusals name what is wrong, and a launch binds T from A and n from
// B's last dimension.
//
//===----------------------------------------------------------------------===//

#include "SampleManifest.h"

#include "tcgen/Runtime/Manifest.h"
#include "tcgen/Runtime/Validate.h"

#include "gtest/gtest.h"

using namespace tcgen;
using tcgen::testing::parseError;
using tcgen::testing::replaceFirst;

namespace {

/// The manifest `tcgen compile --einsum "tk,gnk->tn" --group g --sizes
/// t=?,n=4096,k=1024,g=8 --dtypes a=bf16,b=bf16,c=bf16` writes.
const char *kGrouped = R"json({
 "format": "tcgen.bundle",
 "version": 1,
 "entry": "einsum_kernel",
 "cubin": "einsum_kernel.cubin",
 "ptx": "einsum_kernel.ptx",
 "target": {
  "arch": "sm_90a",
  "backend": "sm90",
  "min_cc": 90
 },
 "op": {
  "kind": "matmul",
  "batch": 1,
  "groups": 8,
  "m": -1,
  "n": 4096,
  "k": 1024,
  "accumulate": false,
  "accumulator": "f32",
  "epilogue": {
   "matmul_dtype": "f32",
   "inputs": [],
   "ops": [
    {
     "op": "truncf",
     "args": [
      0
     ],
     "dtype": "bf16"
    }
   ],
   "result": 1
  }
 },
 "operands": [
  {
   "name": "A",
   "role": "lhs",
   "dtype": "bf16",
   "shape": [
    -1,
    1024
   ],
   "strides": [
    1024,
    1
   ],
   "align_bytes": 16
  },
  {
   "name": "B",
   "role": "rhs",
   "dtype": "bf16",
   "shape": [
    8,
    1024,
    4096
   ],
   "strides": [
    4194304,
    1,
    1024
   ],
   "align_bytes": 16
  },
  {
   "name": "offsets",
   "role": "offsets",
   "dtype": "i32",
   "shape": [
    9
   ],
   "strides": [
    1
   ],
   "align_bytes": 16
  },
  {
   "name": "C",
   "role": "out",
   "dtype": "bf16",
   "shape": [
    -1,
    4096
   ],
   "strides": [
    4096,
    1
   ],
   "align_bytes": 16
  }
 ],
 "params": [
  {
   "kind": "tensormap",
   "operand": "A",
   "box": [
    64,
    128
   ],
   "swizzle": "128B",
   "l2_promotion": "256B",
   "oob_fill": "zero"
  },
  {
   "kind": "tensormap",
   "operand": "B",
   "box": [
    64,
    256,
    1
   ],
   "swizzle": "128B",
   "l2_promotion": "256B",
   "oob_fill": "zero"
  },
  {
   "kind": "ptr",
   "operand": "C"
  },
  {
   "kind": "ptr",
   "operand": "offsets"
  }
 ],
 "launch": {
  "grid": [
   -1,
   1,
   1
  ],
  "block": [
   384,
   1,
   1
  ],
  "cluster": [
   1,
   1,
   1
  ],
  "dynamic_smem_bytes": 197632,
  "persistent": true,
  "grid_formula": [
   "one block per SM over the groups' sum of ceildiv(rows, 128) * ceildiv(n, 256) tiles",
   "1",
   "1"
  ]
 },
 "resources": {
  "registers": 168,
  "spill_bytes": 0,
  "static_smem_bytes": 64
 },
 "config": {
  "backend": "sm90",
  "block_tile": [
   128,
   256,
   64
  ],
  "warp_tile": [
   64,
   256,
   64
  ],
  "mma": [
   64,
   256,
   16
  ],
  "stages": 4,
  "padding": 0,
  "vector": 8,
  "raster": 8,
  "persistent": true,
  "streamk": false,
  "cluster": [
   1,
   1
  ],
  "store": "global"
 }
})json";

TEST(GroupedManifest, ParsesAndRoundTrips) {
  Manifest m;
  ASSERT_EQ(parseManifest(kGrouped, m), "");
  EXPECT_EQ(m.op.groups, 8);
  const Operand *offsets = m.findRole(OperandRole::Offsets);
  ASSERT_NE(offsets, nullptr);
  EXPECT_EQ(offsets->dtype, DType::I32);
  EXPECT_EQ(offsets->shape, (std::vector<int64_t>{9}));
  EXPECT_EQ(m.launch.grid[0], kDynamicSize);
  Manifest again;
  ASSERT_EQ(parseManifest(writeManifest(m), again), "");
  EXPECT_TRUE(again == m);
}

TEST(GroupedManifest, RefusesMalformedGroups) {
  std::string noGroups = replaceFirst(kGrouped, "\"groups\": 8,", "");
  EXPECT_NE(parseError(noGroups).find("has role 'offsets', but op has no "
                                      "groups"),
            std::string::npos)
      << parseError(noGroups);
  std::string shape =
      replaceFirst(kGrouped, "\"shape\": [\n    9\n   ]", "\"shape\": [10]");
  EXPECT_NE(parseError(shape).find("does not match [groups + 1] = [9]"),
            std::string::npos)
      << parseError(shape);
  std::string dtype =
      replaceFirst(kGrouped, "\"dtype\": \"i32\"", "\"dtype\": \"f32\"");
  EXPECT_NE(parseError(dtype).find("dtype must be i32 or i64"),
            std::string::npos)
      << parseError(dtype);
  std::string role =
      replaceFirst(kGrouped, "\"role\": \"offsets\"", "\"role\": \"in\"");
  EXPECT_NE(parseError(role).find("needs an operand of role 'offsets'"),
            std::string::npos)
      << parseError(role);
  std::string rhs =
      replaceFirst(kGrouped, "\"shape\": [\n    8,", "\"shape\": [\n    4,");
  EXPECT_NE(parseError(rhs).find("[groups, k, n]"), std::string::npos)
      << parseError(rhs);
}

TEST(GroupedManifest, BindsTheRowCountFromA) {
  Manifest m;
  ASSERT_EQ(parseManifest(kGrouped, m), "");
  std::vector<TensorArg> args = {
      {"A", DType::BF16, {300, 1024}, {1024, 1}, 0x10000},
      {"B", DType::BF16, {8, 1024, 4096}, {4194304, 1, 1024}, 0x20000},
      {"offsets", DType::I32, {9}, {1}, 0x30000},
      {"C", DType::BF16, {300, 4096}, {4096, 1}, 0x40000}};
  Manifest bound;
  ASSERT_EQ(bindSizes(m, args, bound), "");
  EXPECT_EQ(bound.op.m, 300);
  EXPECT_EQ(bound.op.n, 4096);
  EXPECT_EQ(bound.op.k, 1024);
  DeviceInfo h200{9, 0, 232448, "H200", 132};
  EXPECT_EQ(validateLaunch(bound, args, h200), "");
  // The offsets' shape is checked like any operand's.
  args[2].shape = {8};
  EXPECT_NE(validateLaunch(bound, args, h200).find("offsets"),
            std::string::npos);
}

} // namespace
