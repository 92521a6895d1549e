//===- PtxasTest.cpp - Reading ptxas -v reports ------------------*- C++
//-*-===//
//
// This file tests parsePtxasLog: resources, and the warnings and C75xx
// notes that `tcgen compile` turns into build-guard errors.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Driver/Ptxas.h"

#include "gtest/gtest.h"

using namespace mlir::tcgen;

namespace {

TEST(PtxasLog, ReadsResources) {
  PtxasReport r;
  parsePtxasLog("ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
                "ptxas info    : Function properties for k\n"
                "    8 bytes stack frame, 8 bytes spill stores, 4 bytes spill "
                "loads\n"
                "ptxas info    : Used 168 registers, used 1 barriers, 1024 "
                "bytes smem\n",
                r);
  EXPECT_EQ(r.resources.registers, 168);
  EXPECT_EQ(r.resources.spillBytes, 12);
  EXPECT_EQ(r.resources.staticSmemBytes, 1024);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(PtxasLog, CollectsSerializationNotesAndWarnings) {
  PtxasReport r;
  parsePtxasLog(
      "ptxas info    : (C7519) warpgroup.arrive is injected in around line "
      "321 by compiler to allow use of registers in GMMA in function 'k'\n"
      "ptxas warning : (C7520) wgmma.mma_async instructions are serialized\n"
      "ptxas info    : Used 96 registers, used 1 barriers\n",
      r);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_NE(r.warnings[0].find("C7519"), std::string::npos);
  EXPECT_NE(r.warnings[1].find("C7520"), std::string::npos);
  EXPECT_EQ(r.resources.registers, 96);
  EXPECT_EQ(r.resources.spillBytes, 0);
}

TEST(PtxasLog, FailingAssemblerIsAnError) {
  PtxasReport r;
  // /bin/false stands in for a ptxas that fails.
  std::string err = runPtxas("/bin/false", "sm_90a", "/nonexistent.ptx",
                             "/tmp/tcgen-unused.cubin", r);
  EXPECT_NE(err.find("ptxas failed"), std::string::npos) << err;
}

} // namespace
