// cli/io.cpp — spec input and result output for the subcommands.
#include "cli/io.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "support/diag_render.h"

namespace ucut::cli {

std::optional<SourceFile> read_spec(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (text.str().empty()) {
      std::fprintf(stderr, "ucutlass: stdin is empty: pipe a spec in, e.g. `ucutlass check - < spec.ucut`\n");
      return std::nullopt;
    }
    return SourceFile("<stdin>", text.str());
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::fprintf(stderr, "ucutlass: cannot read spec '%s': it is a directory; name a .ucut file in it\n",
                 printable(path).c_str());
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ucutlass: cannot read spec '%s': %s\n", printable(path).c_str(), std::strerror(errno));
    return std::nullopt;
  }
  text << in.rdbuf();
  return SourceFile(path, text.str());
}

bool write_text(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return static_cast<bool>(std::cout);
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) {
    std::fprintf(stderr, "ucutlass: cannot write '%s': %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

std::string json_text(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void print_diagnostics(const SourceFile& src, const Compilation& c) {
  std::string text = render_text(src, c.diags, isatty(fileno(stderr)) != 0);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

void add_profiling_options(CLI::App& sub, ProfileOptions& o) {
  sub.add_option("--ncu", o.ncu, "the Nsight Compute CLI (default: ncu on PATH, then the CUDA toolkit's)");
  sub.add_option("--timeout", o.timeout_s, "seconds before one profiling run is killed (default 600)");
  sub.add_option("--gpu", o.measure.gpu, "the GPU for SOL bounds until the worker names one (a data/gpus.toml key)");
  sub.add_option("--cache-dir", o.measure.cache_dir, "the kernel build cache");
  sub.add_option("-j,--jobs", o.measure.jobs, "parallel nvcc processes (default: by cores and memory)");
  sub.add_option("--cutlass", o.measure.cutlass_dir, "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
  sub.add_option("--worker", o.measure.worker, "the ucutlass-worker binary (default: beside ucutlass)");
}

void add_inputs_option(CLI::App& sub, bool& framework, const std::string& note) {
  sub.add_option_function<std::string>(
         "--inputs", [&framework](const std::string& v) { framework = v == "framework"; },
         "signed (default: uniform, normal and mixed-magnitude signed sets, the strict check) or framework (each "
         "operand drawn as the problem's framework_inputs say: KernelBench's torch.rand inputs, PyTorch's layer "
         "init)" + note)
      ->check(CLI::IsMember({"signed", "framework"}));
}

}  // namespace ucut::cli
