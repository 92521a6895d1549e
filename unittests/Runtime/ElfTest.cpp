//===- ElfTest.cpp - Tests of the cubin's ELF checks ----------------------===//
//
// This file implements unit tests of validateCubinImage(): a small ELF64
// image built here and, where the build made one, a real cubin (a
// reference bundle's), each accepted whole and refused when truncated at
// every length or when a header field is corrupted; no input reads outside
// the image.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Elf.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

using namespace tcgen;

namespace {

using Bytes = std::vector<uint8_t>;

void put(Bytes &b, size_t at, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}

/// Where the fields that the corruption tests change lie in tinyCubin().
constexpr size_t kShoff = 40, kShnum = 60, kShstrndx = 62, kPhoff = 32;
constexpr size_t kSectionTable = 256, kProgramTable = 192;

/// A minimal ELF64 image for EM_CUDA laid out like a cubin: the header,
/// the section names at 64, a 32-byte ".text" at 128, one program header
/// at 192 and the section header table last (null, .shstrtab, .text and a
/// SHT_NOBITS .nv.shared whose offset lies past the end, as cubins have).
Bytes tinyCubin() {
  const char names[] = "\0.shstrtab\0.text\0.nv.shared";
  Bytes b(kSectionTable + 4 * 64, 0);
  const uint8_t magic[] = {0x7f, 'E', 'L', 'F'};
  std::memcpy(b.data(), magic, 4);
  b[4] = 2, b[5] = 1, b[6] = 1;
  put(b, 16, 2, 2);                 // e_type: ET_EXEC
  put(b, 18, kElfMachineCuda, 2);   // e_machine
  put(b, 20, 1, 4);                 // e_version
  put(b, kPhoff, kProgramTable, 8); // e_phoff
  put(b, kShoff, kSectionTable, 8); // e_shoff
  put(b, 52, 64, 2);                // e_ehsize
  put(b, 54, 56, 2);                // e_phentsize
  put(b, 56, 1, 2);                 // e_phnum
  put(b, 58, 64, 2);                // e_shentsize
  put(b, kShnum, 4, 2);             // e_shnum
  put(b, kShstrndx, 1, 2);          // e_shstrndx
  std::memcpy(b.data() + 64, names, sizeof(names));
  for (size_t i = 0; i < 32; ++i)
    b[128 + i] = uint8_t(i);
  put(b, kProgramTable, 1, 4);       // p_type: PT_LOAD
  put(b, kProgramTable + 8, 128, 8); // p_offset
  put(b, kProgramTable + 32, 32, 8); // p_filesz
  auto section = [&](size_t i, uint64_t name, uint64_t type, uint64_t offset,
                     uint64_t size) {
    size_t at = kSectionTable + 64 * i;
    put(b, at, name, 4);
    put(b, at + 4, type, 4);
    put(b, at + 24, offset, 8);
    put(b, at + 32, size, 8);
  };
  section(1, 1, 3, 64, sizeof(names)); // .shstrtab: SHT_STRTAB
  section(2, 11, 1, 128, 32);          // .text: SHT_PROGBITS
  section(3, 17, 8, 1 << 20, 1 << 16); // .nv.shared: SHT_NOBITS
  return b;
}

std::string check(const Bytes &b) {
  return validateCubinImage(b.data(), b.size());
}

/// Every proper prefix of `image` is refused. Each is copied into a buffer
/// of exactly its length, so a read past it would be a heap overflow that
/// the sanitizers (or valgrind) report.
void expectEveryTruncationRefused(const Bytes &image) {
  for (size_t n = 0; n < image.size(); ++n) {
    Bytes prefix(image.begin(), image.begin() + n);
    EXPECT_NE(check(prefix), "") << "truncated to " << n << " bytes";
  }
}

TEST(CubinImage, AcceptsAWellFormedImage) { EXPECT_EQ(check(tinyCubin()), ""); }

TEST(CubinImage, RefusesEveryTruncation) {
  expectEveryTruncationRefused(tinyCubin());
  Bytes b = tinyCubin();
  b.resize(200);
  EXPECT_EQ(check(b), "the section header table at bytes [256, 320) lies "
                      "outside of a 200-byte image");
  EXPECT_EQ(validateCubinImage(nullptr, 0),
            "not an ELF image: 0 bytes, fewer than the 64 of an ELF64 header");
}

TEST(CubinImage, NamesTheCorruptedHeaderField) {
  struct Case {
    size_t at, bytes;
    uint64_t value;
    const char *message;
  } cases[] = {
      {0, 1, 0x7e, "not an ELF image (no \\x7fELF magic)"},
      {4, 1, 1, "ELF class 1, not 2 (64-bit) as a cubin"},
      {5, 1, 2, "ELF data encoding 2, not 1 (little-endian) as a cubin"},
      {6, 1, 0, "ELF version 0, not 1"},
      {18, 2, 62, "ELF machine 62, not 190 (EM_CUDA): not a cubin"},
      {52, 2, 52, "ELF header size 52, not 64"},
      {58, 2, 40, "ELF section header size 40, not 64"},
      {54, 2, 32, "ELF program header size 32, not 56"},
      {kShoff, 8, 0, "the ELF image has no section header table"},
      {kShoff, 8, ~uint64_t(0),
       "the section header table at bytes [18446744073709551615, "
       "18446744073709551615 + 64) lies outside of a 512-byte image"},
      {kShnum, 2, 5,
       "the section header table (5 entries at offset 256) lies outside of "
       "a 512-byte image"},
      {kShnum, 2, 0xfffe,
       "the section header table (65534 entries at offset 256) lies outside "
       "of a 512-byte image"},
      {kPhoff, 8, 480,
       "the program header table (1 entries at offset 480) lies outside of "
       "a 512-byte image"},
      {kProgramTable + 32, 8, 1000,
       "segment 0 spans bytes [128, 1128) of a 512-byte image"},
      // .text's size, then an offset whose end wraps around 2^64.
      {kSectionTable + 2 * 64 + 32, 8, 400,
       "section 2 spans bytes [128, 528) of a 512-byte image"},
      {kSectionTable + 2 * 64 + 24, 8, ~uint64_t(0) - 15,
       "section 2 spans bytes [18446744073709551600, 18446744073709551600 "
       "+ 32) of a 512-byte image"},
      {kShstrndx, 2, 9,
       "the section-name string table index 9 names no section of 4"},
      {kShstrndx, 2, 3,
       "the section-name string table (section 3) has no bytes"},
      {kSectionTable + 2 * 64, 4, 700,
       "section 2's name at offset 700 lies past the 28-byte section-name "
       "string table"},
  };
  for (const Case &c : cases) {
    Bytes b = tinyCubin();
    put(b, c.at, c.value, c.bytes);
    EXPECT_EQ(check(b), c.message) << "byte " << c.at;
  }
}

TEST(CubinImage, ExtendedSectionNumbering) {
  // e_shnum = 0: the count is section 0's sh_size; e_shstrndx = SHN_XINDEX:
  // the index is section 0's sh_link.
  Bytes b = tinyCubin();
  put(b, kShnum, 0, 2);
  put(b, kShstrndx, 0xffff, 2);
  put(b, kSectionTable + 32, 4, 8);
  put(b, kSectionTable + 40, 1, 4);
  EXPECT_EQ(check(b), "");
  put(b, kSectionTable + 32, uint64_t(1) << 60, 8);
  EXPECT_EQ(check(b), "the section header table (1152921504606846976 "
                      "entries at offset 256) lies outside of a 512-byte "
                      "image");
}

TEST(CubinImage, AnyByteOfTheHeadersSetToAnyOfSomeValuesIsSafe) {
  // Whatever the verdict, the check reads nothing outside the image (the
  // buffer is exactly the image's size) and refuses whatever moves a
  // table or a section out of it: checked by the cases above.
  const Bytes good = tinyCubin();
  for (size_t at = 0; at < good.size(); ++at) {
    if (at >= 64 && at < kProgramTable)
      continue; // names and code: not read as headers
    for (uint8_t v : {0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xfe, 0xff}) {
      Bytes b = good;
      b[at] = v;
      (void)check(b);
    }
  }
}

#ifdef TCGEN_TEST_CUBIN
/// The bytes of the reference bundle's cubin (nvcc -cubin).
Bytes realCubin() {
  std::ifstream in(TCGEN_TEST_CUBIN, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in),
               std::istreambuf_iterator<char>());
}

TEST(CubinImage, RealCubinIsAcceptedWholeAndRefusedTruncated) {
  Bytes image = realCubin();
  ASSERT_GT(image.size(), 64u) << TCGEN_TEST_CUBIN;
  EXPECT_EQ(check(image), "");
  expectEveryTruncationRefused(image);
}

TEST(CubinImage, RealCubinWithACorruptedSectionIsRefused) {
  Bytes image = realCubin();
  ASSERT_GT(image.size(), 64u) << TCGEN_TEST_CUBIN;
  uint64_t shoff = 0, shnum = 0;
  for (size_t i = 0; i < 8; ++i)
    shoff |= uint64_t(image[kShoff + i]) << (8 * i);
  shnum = image[kShnum] | image[kShnum + 1] << 8;
  ASSERT_GT(shnum, 1u);
  ASSERT_LE(shoff + shnum * 64, image.size());
  // Each section (but SHT_NOBITS ones) grown past the end is refused.
  int grown = 0;
  for (uint64_t i = 1; i < shnum; ++i) {
    size_t at = shoff + i * 64;
    if (image[at + 4] == 8)
      continue;
    Bytes b = image;
    put(b, at + 32, image.size() + 1, 8);
    EXPECT_NE(check(b).find("section " + std::to_string(i) + " spans"),
              std::string::npos)
        << check(b);
    ++grown;
  }
  EXPECT_GT(grown, 2);
}
#else
TEST(CubinImage, RealCubinIsAcceptedWholeAndRefusedTruncated) {
  GTEST_SKIP() << "no reference cubin in this build (no nvcc)";
}
#endif

} // namespace
