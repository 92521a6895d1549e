//===- Elf.h - Structural checks of a cubin's ELF image ---------*- C++ -*-===//
//
// This file declares validateCubinImage(), the check the runtime runs on a
// bundle's cubin before it hands the image to cuModuleLoadData. The driver
// takes no size with the image: it trusts the sizes and offsets in the ELF
// headers, so a truncated or corrupted file makes it read past the buffer
// (a crash, or a silent fallback). No CUDA: a pure function of the bytes,
// unit-testable anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_ELF_H
#define TCGEN_RUNTIME_ELF_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tcgen {

/// e_machine of a CUDA cubin (ELF's EM_CUDA).
constexpr uint16_t kElfMachineCuda = 190;

/// Returns "" if the `size` bytes at `data` are a well-formed little-endian
/// ELF64 image for EM_CUDA whose every table and section lies within those
/// bytes: the magic, class (64-bit), data encoding (little-endian) and
/// version; e_machine = EM_CUDA (190); e_ehsize = 64; a section header table
/// of 64-byte entries (at least one section) and a program header table of
/// 56-byte entries (possibly empty) within the image; every section but
/// SHT_NOBITS ones and every segment's file bytes within the image; the
/// section-name string table a section of the image and every section's
/// name offset within it. Otherwise a message naming the first problem
/// found, e.g. "section 7 spans bytes [4096, 9000) of a 5000-byte image".
/// Reads nothing outside [data, data + size); `data` may be null when
/// `size` is 0.
std::string validateCubinImage(const void *data, size_t size);

} // namespace tcgen

#endif // TCGEN_RUNTIME_ELF_H
