// cli/cmd_suite.cpp — `ucutlass suite check PATH...`: validate suite problem files (docs/suites.md) and print each
// problem's output shape, FLOPs, minimum bytes and speed-of-light times. Needs no GPU.
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "suite/check.h"
#include "support/diag_render.h"

namespace ucut::cli {
namespace {

struct SuiteArgs {
  std::vector<std::string> paths;
  std::string gpu = "h200";
  bool json = false;
};

int run_suite_check(const SuiteArgs& a) {
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  if (!table) {
    std::cerr << "ucutlass suite: " << err << "\n";
    return kIoError;
  }
  const sol::GpuSpec* gpu = table->find(a.gpu);
  if (!gpu) {
    std::cerr << fmt::format("ucutlass suite: unknown GPU `{}`; 'ucutlass sol --gpus' lists the table\n", a.gpu);
    return kUsage;
  }
  std::vector<std::string> missing;
  std::vector<std::string> files = suite::problem_files(a.paths, &missing);
  for (const std::string& m : missing) std::cerr << fmt::format("ucutlass suite: no such file or folder: {}\n", m);
  if (files.empty()) {
    std::cerr << "ucutlass suite: no problem files (*.toml) found\n";
    return missing.empty() ? kUsage : kIoError;
  }
  std::vector<suite::Checked> ok;
  nlohmann::json failures = nlohmann::json::array();
  bool color = isatty(fileno(stderr)) != 0;
  for (const std::string& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      std::cerr << fmt::format("ucutlass suite: cannot read {}\n", path);
      return kIoError;
    }
    SourceFile src(path, text.str());
    DiagEngine diags;
    auto checked = suite::check_problem(src, diags);
    if (!diags.diagnostics().empty()) {
      if (a.json) failures.push_back({{"path", path}, {"diagnostics", to_json(src, diags.diagnostics())}});
      else std::cerr << render_text(src, diags.diagnostics(), color);
    }
    if (checked) ok.push_back(std::move(*checked));
  }
  size_t bad = files.size() - ok.size();
  if (a.json) {
    nlohmann::json j = suite::to_json(ok, *gpu);
    j["failed"] = failures;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << suite::render_table(ok, *gpu);
    if (bad) std::cout << fmt::format("{} of {} files have errors (above)\n", bad, files.size());
  }
  return bad || !missing.empty() ? kSpecErrors : kOk;
}

}  // namespace

Command suite_command() {
  return {"suite", "validate problem-suite files (docs/suites.md): shapes, FLOPs, minimum bytes, SOL times",
          [](CLI::App& sub) {
            auto a = std::make_shared<SuiteArgs>();
            sub.require_subcommand(1);
            CLI::App* check = sub.add_subcommand(
                "check", "check suite problem files and print output shape, GFLOP, minimum MB and SOL per problem");
            check->add_option("paths", a->paths, "problem files or folders (searched recursively for *.toml)")
                ->required();
            check->add_option("--gpu", a->gpu, "a data/gpus.toml key or CUDA device name for the SOL times (default h200)");
            check->add_flag("--json", a->json, "answer {gpu, problems, failed} as JSON on stdout");
            return [a]() -> int { return run_suite_check(*a); };
          }};
}

}  // namespace ucut::cli
