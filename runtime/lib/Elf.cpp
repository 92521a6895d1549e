//===- Elf.cpp - Structural checks of a cubin's ELF image -----------------===//
//
// This file implements validateCubinImage(): the ELF64 header, the section
// and program header tables and every section's bytes checked against the
// image's size before the driver, which trusts them, reads the image.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Elf.h"

namespace {
// ELF64 layout (the System V gABI, "ELF Header", "Sections", "Program
// Header"): offsets of the fields read here.
constexpr size_t kEhdrSize = 64;
constexpr size_t kShdrSize = 64;
constexpr size_t kPhdrSize = 56;
constexpr uint8_t kElfClass64 = 2;
constexpr uint8_t kElfData2Lsb = 1;
constexpr uint8_t kEvCurrent = 1;
constexpr uint32_t kShtNobits = 8;
constexpr uint16_t kShnXindex = 0xffff; // e_shstrndx in section 0's sh_link
constexpr uint16_t kPnXnum = 0xffff;    // e_phnum in section 0's sh_info

/// Reads an unsigned little-endian field of `bytes` bytes at `at`; the
/// caller has checked that it lies within the image.
uint64_t readLE(const uint8_t *image, size_t at, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = bytes; i-- > 0;)
    v = (v << 8) | image[at + i];
  return v;
}

/// Whether [offset, offset + length) lies within [0, size), without
/// overflow.
bool within(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

std::string span(uint64_t offset, uint64_t length) {
  // offset + length may wrap; print the end only when it does not.
  std::string end =
      length <= UINT64_MAX - offset
          ? std::to_string(offset + length)
          : std::to_string(offset) + " + " + std::to_string(length);
  return "bytes [" + std::to_string(offset) + ", " + end + ")";
}

std::string ofImage(size_t size) {
  return " of a " + std::to_string(size) + "-byte image";
}
} // namespace

std::string tcgen::validateCubinImage(const void *data, size_t size) {
  const auto *image = static_cast<const uint8_t *>(data);
  if (!image || size < kEhdrSize)
    return "not an ELF image: " + std::to_string(size) +
           " bytes, fewer than the 64 of an ELF64 header";
  if (image[0] != 0x7f || image[1] != 'E' || image[2] != 'L' || image[3] != 'F')
    return "not an ELF image (no \\x7fELF magic)";
  if (image[4] != kElfClass64)
    return "ELF class " + std::to_string(image[4]) +
           ", not 2 (64-bit) as a cubin";
  if (image[5] != kElfData2Lsb)
    return "ELF data encoding " + std::to_string(image[5]) +
           ", not 1 (little-endian) as a cubin";
  if (image[6] != kEvCurrent)
    return "ELF version " + std::to_string(image[6]) + ", not 1";
  uint64_t machine = readLE(image, 18, 2);
  if (machine != kElfMachineCuda)
    return "ELF machine " + std::to_string(machine) + ", not " +
           std::to_string(kElfMachineCuda) + " (EM_CUDA): not a cubin";
  uint64_t ehsize = readLE(image, 52, 2);
  if (ehsize != kEhdrSize)
    return "ELF header size " + std::to_string(ehsize) + ", not 64";

  // Section headers: a cubin has some (its code and the kernel's info).
  uint64_t shoff = readLE(image, 40, 8);
  uint64_t shentsize = readLE(image, 58, 2);
  uint64_t shnum = readLE(image, 60, 2);
  uint64_t shstrndx = readLE(image, 62, 2);
  if (shoff == 0)
    return "the ELF image has no section header table";
  if (shentsize != kShdrSize)
    return "ELF section header size " + std::to_string(shentsize) + ", not 64";
  // Extended numbering: section 0 holds the counts that do not fit.
  if (!within(shoff, kShdrSize, size))
    return "the section header table at " + span(shoff, kShdrSize) +
           " lies outside" + ofImage(size);
  uint64_t phnum = readLE(image, 56, 2);
  if (shnum == 0)
    shnum = readLE(image, shoff + 32, 8);
  if (shstrndx == kShnXindex)
    shstrndx = readLE(image, shoff + 40, 4);
  if (phnum == kPnXnum)
    phnum = readLE(image, shoff + 44, 4);
  if (shnum == 0 || shnum > size / kShdrSize ||
      !within(shoff, shnum * kShdrSize, size))
    return "the section header table (" + std::to_string(shnum) +
           " entries at offset " + std::to_string(shoff) + ") lies outside" +
           ofImage(size);

  // Program headers (segments), if any.
  uint64_t phoff = readLE(image, 32, 8);
  uint64_t phentsize = readLE(image, 54, 2);
  if (phnum != 0) {
    if (phentsize != kPhdrSize)
      return "ELF program header size " + std::to_string(phentsize) +
             ", not 56";
    if (phnum > size / kPhdrSize || !within(phoff, phnum * kPhdrSize, size))
      return "the program header table (" + std::to_string(phnum) +
             " entries at offset " + std::to_string(phoff) + ") lies outside" +
             ofImage(size);
    for (uint64_t i = 0; i < phnum; ++i) {
      uint64_t at = phoff + i * kPhdrSize;
      uint64_t offset = readLE(image, at + 8, 8);
      uint64_t filesz = readLE(image, at + 32, 8);
      if (!within(offset, filesz, size))
        return "segment " + std::to_string(i) + " spans " +
               span(offset, filesz) + ofImage(size);
    }
  }

  // Every section's bytes (SHT_NOBITS ones have none in the file).
  for (uint64_t i = 0; i < shnum; ++i) {
    uint64_t at = shoff + i * kShdrSize;
    uint64_t type = readLE(image, at + 4, 4);
    uint64_t offset = readLE(image, at + 24, 8);
    uint64_t length = readLE(image, at + 32, 8);
    if (i != 0 && type != kShtNobits && !within(offset, length, size))
      return "section " + std::to_string(i) + " spans " + span(offset, length) +
             ofImage(size);
  }
  // The section names: a string table within the image that holds each
  // name's offset.
  if (shstrndx == 0 || shstrndx >= shnum)
    return "the section-name string table index " + std::to_string(shstrndx) +
           " names no section of " + std::to_string(shnum);
  uint64_t strAt = shoff + shstrndx * kShdrSize;
  uint64_t strType = readLE(image, strAt + 4, 4);
  uint64_t strSize = readLE(image, strAt + 32, 8);
  if (strType == kShtNobits || strSize == 0)
    return "the section-name string table (section " +
           std::to_string(shstrndx) + ") has no bytes";
  for (uint64_t i = 1; i < shnum; ++i) {
    uint64_t name = readLE(image, shoff + i * kShdrSize, 4);
    if (name >= strSize)
      return "section " + std::to_string(i) + "'s name at offset " +
             std::to_string(name) + " lies past the " +
             std::to_string(strSize) + "-byte section-name string table";
  }
  return "";
}
