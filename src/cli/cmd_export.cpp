// cli/cmd_export.cpp — `ucutlass export --torch SPEC [-o DIR]`: a PyTorch C++/CUDA extension around the
// spec's kernel (export/torch_extension.h); `ucutlass export --kernelbench PROBLEM SPEC [-o FILE]`:
// KernelBench's ModelNew running it on a suite problem (export/kernelbench_module.h); `ucutlass export --mskb TASK
// SPEC [-o DIR]`: MSKB's `<name>_optimized` launcher around it (export/mskb_launcher.h). Needs no GPU and no nvcc:
// PyTorch (or MSKB's build) compiles the result where it runs.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "export/export.h"
#include "suite/check.h"
#include "support/diag_render.h"

namespace ucut::cli {
namespace {

struct ExportArgs {
  std::string spec;
  bool torch = false;
  std::string problem;  // --kernelbench
  std::string mskb;     // --mskb TASK
  std::string out;
  bool json = false;
};

/// Writes the files: into folder `out` for --torch and --mskb, to file `out` (stdout for "" or "-") for
/// --kernelbench.
bool write_files(const ExportArgs& a, const std::vector<interop::ExportedFile>& files,
                 std::vector<std::string>* paths) {
  if (!a.torch && a.mskb.empty()) {
    std::string path = a.out.empty() ? "-" : a.out;
    if (path != "-") paths->push_back(path);
    return write_text(path, files.front().text);
  }
  std::filesystem::path dir = a.out.empty() ? "." : a.out;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << fmt::format("ucutlass export: cannot create {}: {}\n", dir.string(), ec.message());
    return false;
  }
  for (const interop::ExportedFile& f : files) {
    paths->push_back((dir / f.name).string());
    if (!write_text(paths->back(), f.text)) return false;
  }
  return true;
}

int run_export(const ExportArgs& a) {
  if (int(a.torch) + int(!a.problem.empty()) + int(!a.mskb.empty()) != 1) {
    std::cerr << "ucutlass export: give exactly one of --torch, --kernelbench PROBLEM or --mskb TASK (see --help)\n";
    return kUsage;
  }
  std::optional<suite::FileCheck> problem;
  if (!a.problem.empty()) {
    std::string err;
    problem = suite::check_file(a.problem, &err);
    if (!problem) {
      std::cerr << "ucutlass export: " << err << "\n";
      return kIoError;
    }
    if (!problem->checked) {  // the problem file's own diagnostics (S rules)
      std::cerr << render_text(problem->src, problem->diags.diagnostics(), isatty(fileno(stderr)) != 0);
      return kSpecErrors;
    }
  }
  auto src = read_spec(a.spec);
  if (!src) return kIoError;
  interop::ExportResult r = a.torch            ? interop::export_torch(*src)
                             : !a.mskb.empty() ? interop::export_mskb(*src, a.mskb)
                                               : interop::export_kernelbench(*src, *problem->checked);
  std::vector<std::string> paths;
  // --json with --kernelbench and no -o answers the source in the JSON rather than beside it on stdout.
  bool inline_source = a.json && !a.problem.empty() && (a.out.empty() || a.out == "-");
  bool written = r.ok() && (inline_source || write_files(a, r.files, &paths));
  if (a.json) {
    nlohmann::json j = {
        {"ok", written}, {"files", paths}, {"diagnostics", to_json(*src, r.comp.diags.diagnostics())}};
    if (inline_source && written) j["source"] = r.files.front().text;
    std::cout << j.dump(2) << "\n";
  } else {
    print_diagnostics(*src, r.comp);
    for (const std::string& p : paths) std::cerr << "ucutlass export: wrote " << p << "\n";
  }
  if (!r.ok()) return kSpecErrors;
  return written ? kOk : kIoError;
}

}  // namespace

Command export_command() {
  return {"export",
          "export a spec's kernel: a PyTorch C++/CUDA extension (--torch), KernelBench's ModelNew for a suite "
          "problem (--kernelbench PROBLEM) or MSKB's launcher for a task (--mskb TASK)",
          [](CLI::App& sub) {
            auto a = std::make_shared<ExportArgs>();
            sub.add_option("spec", a->spec, "the .ucut spec, or - for stdin")->required();
            auto* torch = sub.add_flag(
                "--torch", a->torch,
                "write ucut_<kernel>.py (the function ucut_<kernel>(...)), ucut_<kernel>_binding.cpp and "
                "ucut_<kernel>_kernel.cu: an extension torch.utils.cpp_extension.load builds on first call (GEMMs, "
                "convolutions, and the map, reduce, rownorm and scan families)");
            auto* kb = sub.add_option(
                "--kernelbench", a->problem,
                "write KernelBench's `class ModelNew` running the kernel (for a pipeline problem, the "
                "pipeline) on this suite problem file (suites/kernelbench/...); refused unless the spec "
                "computes it, as `ucutlass run --problem` decides");
            auto* mskb = sub.add_option(
                "--mskb", a->mskb,
                "write MSKB's <name>.cu: the kernel and MSKB's <name>_optimized launcher for this task: a "
                "GEMM spec's matrix_mul, square_matrix_mul or matrix_power (FP32 or BF16 by the spec's "
                "types); a map spec's task whose parameters it names (examples/mskb/: RELU, leaky_RELU, "
                "SwiGLU, ...; TASK_bf16 for the BF16 launcher)");
            torch->excludes(kb);
            mskb->excludes(kb);
            mskb->excludes(torch);
            sub.add_option("-o,--output", a->out,
                           "--torch, --mskb: the folder to write into (default .); --kernelbench: the file (default "
                           "stdout)");
            sub.add_flag(
                "--json", a->json,
                "answer {ok, files, diagnostics} as JSON on stdout (--kernelbench without -o: and `source`)");
            return [a]() -> int { return run_export(*a); };
          }};
}

}  // namespace ucut::cli
