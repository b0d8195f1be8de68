// build/nvcc.h — how one emitted kernel becomes a shared library: the nvcc command line (one place for
// the flags) and the translation of nvcc's failures into something a spec author can act on.
#pragma once

#include <string>
#include <vector>

#include "build/toolchain.h"

namespace ucut {

/// The flags every kernel library is built with, for `gencode` (e.g. "arch=compute_90a,code=sm_90a").
std::vector<std::string> nvcc_flags(const Toolchain& tc, const std::string& gencode);

/// The full command: nvcc <flags> <extra flags> -o out cu -l<library>...
std::vector<std::string> nvcc_command(const Toolchain& tc, const std::string& gencode, const std::string& cu,
                                      const std::string& out, const std::vector<std::string>& libraries = {},
                                      const std::vector<std::string>& extra_flags = {});

/// The first error lines of an nvcc log (at most 12), indented, one per line.
std::string nvcc_error_lines(const std::string& log);

/// The first error of an nvcc log as one trimmed line: the first front-end (`f.cu(12): error: …`), host compiler
/// (`f.cu:12:3: error: …`), ptxas, nvcc or linker error line, its directory dropped and cut at 600 characters; ""
/// when the log has none.
std::string first_build_error(const std::string& log);

/// The first error lines of an nvcc log, with a verdict: every config `check` accepts must compile, so a
/// failure here is a ucutlass bug; known patterns (our own static_asserts) are named.
std::string summarize_nvcc_failure(const std::string& log);

}  // namespace ucut
