// cli/cmd_bench.cpp — `ucutlass bench kernelbench --impl DIR`: our kernels on the KernelBench-derived suite next to
// PyTorch eager and torch.compile in the same run, with KernelBench's scores (driver/suite_bench.h).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "driver/suite_bench.h"
#include "suite/check.h"
#include "support/diag_render.h"

namespace ucut::cli {
namespace {

struct BenchArgs {
  std::string suite = "suites/kernelbench";
  std::vector<std::string> only;
  bool json = false;
  std::string command;
  SuiteBenchOptions o;
};

bool selected(const std::string& stem, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const std::string& s : only)
    if (stem.find(s) != std::string::npos) return true;
  return false;
}

int run_bench(const BenchArgs& a) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(a.o.impl_dir)) {
    std::cerr << fmt::format("ucutlass bench: --impl {} is not a folder of <problem>.ucut specs\n", a.o.impl_dir);
    return kUsage;
  }
  std::vector<std::string> missing;
  std::vector<suite::Checked> problems;
  for (const std::string& path : suite::problem_files({a.suite}, &missing)) {
    std::string err;
    auto f = suite::check_file(path, &err);
    if (!f) {
      std::cerr << "ucutlass bench: " << err << "\n";
      return kIoError;
    }
    if (!f->checked) {
      std::cerr << render_text(f->src, f->diags.diagnostics(), false)
                << fmt::format("ucutlass bench: {} has errors; fix it first ('ucutlass suite check')\n", path);
      return kSpecErrors;
    }
    if (selected(f->checked->problem.stem, a.only)) problems.push_back(std::move(*f->checked));
  }
  if (!missing.empty() || problems.empty()) {
    std::cerr << fmt::format("ucutlass bench: no suite problems under {}{}\n", a.suite,
                             a.only.empty() ? "" : " matching --only");
    return kUsage;
  }
  std::error_code ec;
  fs::create_directories(a.o.out_dir, ec);
  if (ec) {
    std::cerr << fmt::format("ucutlass bench: cannot create {}: {}\n", a.o.out_dir, ec.message());
    return kIoError;
  }
  SuiteBenchReport r = bench_suite(problems, a.o);
  std::string md = suite_bench_markdown(r, a.command);
  std::ofstream(fs::path(a.o.out_dir) / "kernelbench.json") << suite_bench_json(r).dump(2) << "\n";
  std::ofstream(fs::path(a.o.out_dir) / "kernelbench.md") << md;
  if (a.json) std::cout << suite_bench_json(r).dump(2) << "\n";
  else std::cout << md << fmt::format("\nwrote {}/kernelbench.md and kernelbench.json\n", a.o.out_dir);
  if (r.needs_gpu) {
    std::cerr << "ucutlass bench: this machine has no usable CUDA GPU; the specs were checked and built, but "
                 "verifying and timing need one\n";
    return kNeedsGpu;
  }
  return kOk;
}

}  // namespace

Command bench_command() {
  return {"bench", "run our kernels on a problem suite next to PyTorch eager and torch.compile, with KernelBench's scores (GPU)",
          [](CLI::App& sub) {
            auto a = std::make_shared<BenchArgs>();
            a->o.out_dir = "out/bench";
            sub.require_subcommand(1);
            CLI::App* kb = sub.add_subcommand(
                "kernelbench",
                "measure <impl>/<problem>.ucut on each lowerable problem of the KernelBench-derived suite; print "
                "per-problem speedup vs eager and torch.compile, % of SOL, correctness, flags, fast_p and geomean, "
                "with and without integrity filtering");
            kb->add_option("--impl", a->o.impl_dir, "a folder with one spec per implemented problem: <problem>.ucut")
                ->required();
            kb->add_option("--suite", a->suite, "the suite folder or files (default suites/kernelbench)");
            kb->add_option("--only", a->only, "only problems whose name contains one of these");
            kb->add_option("--out", a->o.out_dir, "where the lowered problems, PyTorch timings and the report go (default out/bench)");
            kb->add_option("--python", a->o.python, "the Python with torch that times PyTorch (default python3)");
            kb->add_option("--torch-script", a->o.torch_script, "the PyTorch timing script (default bench/kernelbench/baseline.py)");
            kb->add_flag("!--no-torch", a->o.torch, "do not time PyTorch (no speedups are reported)");
            kb->add_option("--trials", a->o.measure.trials, "timed runs per problem for our kernels (default 100)");
            kb->add_option("--cache-dir", a->o.measure.cache_dir, "the kernel build cache");
            kb->add_option("--cutlass", a->o.measure.cutlass_dir, "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
            kb->add_option("--worker", a->o.measure.worker, "the ucutlass-worker binary (default: beside ucutlass)");
            kb->add_flag("--json", a->json, "print the report as JSON instead of Markdown");
            return [a]() -> int {
              a->command = "ucutlass bench kernelbench --impl " + a->o.impl_dir + " --suite " + a->suite +
                           (a->only.empty() ? "" : fmt::format(" --only {}", fmt::join(a->only, " ")));
              return run_bench(*a);
            };
          }};
}

}  // namespace ucut::cli
