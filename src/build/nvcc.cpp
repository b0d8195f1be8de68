// build/nvcc.cpp — nvcc flags and failure summaries.
#include "build/nvcc.h"

#include <regex>
#include <sstream>

#include "ir/memop_library.h"

namespace ucut {

std::vector<std::string> nvcc_flags(const Toolchain& tc, const std::string& gencode) {
  return {"-std=c++17",
          "--expt-relaxed-constexpr",
          "-O3",
          "-DNDEBUG",  // CUTLASS asserts serialize the wgmma pipeline (ptxas C7510)
          "-DUCUT_DEFINE_ENTRY",
          "-gencode",
          gencode,
          "-I" + tc.cutlass_dir + "/include",
          "-I" + tc.cutlass_dir + "/tools/util/include",
          "-I" + tc.cutlass_dir + "/" + std::string(kCutlassAttentionDir),  // `attention`'s kernel_forward.h
          "-Xcompiler=-fPIC,-fvisibility=hidden",
          "-Xcudafe",
          "--diag_suppress=esa_on_defaulted_function_ignored",
          "-shared",
          "-cudart",
          "shared",  // one CUDA runtime per process: the worker and every kernel library share it
          "-lineinfo"};
}

std::vector<std::string> nvcc_command(const Toolchain& tc, const std::string& gencode, const std::string& cu,
                                      const std::string& out, const std::vector<std::string>& libraries,
                                      const std::vector<std::string>& extra_flags) {
  std::vector<std::string> cmd = {tc.nvcc};
  for (std::string& f : nvcc_flags(tc, gencode)) cmd.push_back(std::move(f));
  cmd.insert(cmd.end(), extra_flags.begin(), extra_flags.end());
  cmd.insert(cmd.end(), {"-o", out, cu});
  for (const std::string& l : libraries) cmd.push_back("-l" + l);
  return cmd;
}

std::string nvcc_error_lines(const std::string& log) {
  std::istringstream in(log);
  std::string line, errors;
  int n = 0;
  while (std::getline(in, line) && n < 12)
    if (line.find("error") != std::string::npos) {
      errors += "  " + line + "\n";
      ++n;
    }
  return errors.empty() ? "  (no error lines; see the full log)\n" : errors;
}

std::string first_build_error(const std::string& log) {
  // nvcc's own and its tools' error lines; a warning that merely mentions "error" is not one.
  static const std::regex error_line(
      R"(\):\s*(fatal )?error\b|:\d+(:\d+)?:\s*(fatal )?error\b|^\s*(ptxas|nvlink|nvcc)\s+(fatal|error)\b|)"
      R"(^\s*ptxas\b.*;\s*error\s*:|ld: cannot find|undefined reference to|^\s*error\b)",
      std::regex::icase);
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, error_line)) continue;
    size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t\r");
    line = line.substr(b, e - b + 1);
    // The cache builds in a per-process directory: keep the file's name, not where it was.
    size_t paren = line.find_first_of("(:");
    size_t slash = line.rfind('/', paren);
    if (paren != std::string::npos && slash != std::string::npos && line.find(' ') > slash) line.erase(0, slash + 1);
    return line.size() > 600 ? line.substr(0, 597) + "..." : line;
  }
  return "";
}

std::string summarize_nvcc_failure(const std::string& log) {
  std::string verdict =
      log.find("shared memory over the CTA limit") != std::string::npos
          ? "the kernel's shared memory exceeds the CTA limit although `check` accepted it: check's model in "
            "src/check/smem_model.cpp is wrong for this configuration"
          : "nvcc rejected a configuration that `check` accepted";
  return verdict + "; this is a bug in ucutlass, please report it with the spec\n" + nvcc_error_lines(log);
}

}  // namespace ucut
