// eval/elf_imports.h — what a prebuilt shared library (a `run --library` candidate) asks the dynamic loader
// for: its DT_NEEDED libraries and the dynamic symbols it leaves undefined, read from the 64-bit ELF file
// itself, and whether it carries device code of its own (an nvcc fat binary). No external tool: <elf.h> only.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ucut {

struct ElfImports {
  std::vector<std::string> needed;     // DT_NEEDED: "libcublas.so.13", "libcudart.so.13", ...
  std::vector<std::string> undefined;  // undefined dynamic symbols: "cublasGemmEx", "_ZN2at6matmul...", ...
  bool device_code = false;            // a .nv_fatbin section: kernels compiled into the library
};

/// Reads `path`; nullopt with `error` naming the file and what is wrong (unreadable, not ELF, not 64-bit
/// little-endian, a table outside the file, no dynamic section).
std::optional<ElfImports> read_elf_imports(const std::string& path, std::string* error);

}  // namespace ucut
