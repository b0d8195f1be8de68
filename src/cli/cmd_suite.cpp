// cli/cmd_suite.cpp — `ucutlass suite check PATH...`: validate suite problem files (docs/suites.md) and print each
// problem's output shape, FLOPs, minimum bytes and speed-of-light times; `ucutlass suite lower PATH... --out DIR`:
// write the problems the harness can run as its problem files (suite/lower.h), with `--seeds` each one's starting
// spec (engine/search/seed_spec.h). Needs no GPU.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "engine/search/seed_spec.h"
#include "problem/print.h"
#include "suite/check.h"
#include "suite/lower.h"
#include "support/diag_render.h"
#include "support/files.h"
#include "support/progress.h"

namespace ucut::cli {
namespace {

struct SuiteArgs {
  std::vector<std::string> paths;
  std::string gpu = "h200";
  std::string out;
  bool json = false;
  bool seeds = false;  // lower: also write each problem's starting spec
};

/// Every problem file under the paths, checked; diagnostics go to stderr (or into `failures` for --json).
struct Loaded {
  std::vector<suite::Checked> ok;
  size_t files = 0;
  bool missing = false;
  nlohmann::json failures = nlohmann::json::array();
};

/// Reads and checks every file, counting them on a terminal's status line.
std::optional<Loaded> load(const SuiteArgs& a, int* code) {
  Loaded l;
  std::vector<std::string> missing;
  std::vector<std::string> files = suite::problem_files(a.paths, &missing);
  for (const std::string& m : missing) std::cerr << fmt::format("ucutlass suite: no such file or folder: {}\n", m);
  if (files.empty()) {
    std::cerr << "ucutlass suite: no problem files (*.toml) found\n";
    *code = missing.empty() ? kUsage : kIoError;
    return std::nullopt;
  }
  l.files = files.size();
  l.missing = !missing.empty();
  bool color = isatty(fileno(stderr)) != 0;
  Progress progress = Progress::on_stderr(a.json);
  progress.stage("checking", files.size());
  for (const std::string& path : files) {
    std::string err, name = std::filesystem::path(path).filename().string();
    progress.start(name);
    auto f = suite::check_file(path, &err);
    if (!f) {
      progress.print("ucutlass suite: " + err);
      *code = kIoError;
      return std::nullopt;
    }
    if (!f->diags.diagnostics().empty()) {
      if (a.json) l.failures.push_back({{"path", path}, {"diagnostics", to_json(f->src, f->diags.diagnostics())}});
      else
        progress.print(render_text(f->src, f->diags.diagnostics(), color));
    }
    if (f->checked) l.ok.push_back(std::move(*f->checked));
    progress.finish(name);
  }
  return l;
}

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
  int code = kOk;
  auto loaded = load(a, &code);
  if (!loaded) return code;
  const std::vector<suite::Checked>& ok = loaded->ok;
  nlohmann::json& failures = loaded->failures;
  size_t bad = loaded->files - ok.size();
  bool missing = loaded->missing;
  if (a.json) {
    nlohmann::json j = suite::to_json(ok, *gpu);
    j["failed"] = failures;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << suite::render_table(ok, *gpu);
    if (bad) std::cout << fmt::format("{} of {} files have errors (above)\n", bad, loaded->files);
  }
  return bad || missing ? kSpecErrors : kOk;
}

/// `suite lower`: writes <out>/<problem>.toml for every problem the harness can run and says why not for the rest.
int run_suite_lower(const SuiteArgs& a) {
  int code = kOk;
  auto loaded = load(a, &code);
  if (!loaded) return code;
  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  if (ec) {
    std::cerr << fmt::format("ucutlass suite lower: cannot create {}: {}\n", a.out, ec.message());
    return kIoError;
  }
  size_t lowered = 0;
  for (const suite::Checked& c : loaded->ok) {
    auto result = suite::lower_to_problem(c);
    if (const auto* why = std::get_if<std::string>(&result)) {
      std::cout << fmt::format("{:<56} not lowered: {}\n", c.problem.stem, *why);
      continue;
    }
    const Problem& l = std::get<Problem>(result);
    std::string path = (std::filesystem::path(a.out) / (c.problem.stem + ".toml")).string();
    if (!write_problem_files(l, path)) {
      std::cerr << fmt::format("ucutlass suite lower: cannot write {}\n", path);
      return kIoError;
    }
    if (a.seeds) {  // the spec `optimize` starts from, beside the problem file
      auto seed = search::seed_spec(c, l);
      if (const auto* s = std::get_if<search::SeedSpec>(&seed)) {
        std::string seed_path = (std::filesystem::path(a.out) / (c.problem.stem + ".seed.ucut")).string();
        if (!write_file(seed_path, s->spec)) {
          std::cerr << fmt::format("ucutlass suite lower: cannot write {}\n", seed_path);
          return kIoError;
        }
      } else {
        std::cout << fmt::format("{:<56} no starting spec: {}\n", c.problem.stem, std::get<std::string>(seed));
      }
    }
    ++lowered;
    std::cout << fmt::format("{:<56} {} -> {}\n", c.problem.stem,
                             l.pipeline ? fmt::format("pipeline of {} stages", l.pipeline->stages.size())
                                        : std::string(op_name(l.semantics.op.value)),
                             path);
  }
  std::cout << fmt::format("{} of {} problems lowered to harness problems in {}\n", lowered, loaded->ok.size(), a.out);
  return loaded->ok.size() == loaded->files && !loaded->missing ? kOk : kSpecErrors;
}

}  // namespace

Command suite_command() {
  return {"suite", "problem suites (docs/suites.md): check files (shapes, FLOPs, bytes, SOL), lower them to harness problems",
          [](CLI::App& sub) {
            auto a = std::make_shared<SuiteArgs>();
            sub.require_subcommand(1);
            CLI::App* check = sub.add_subcommand(
                "check", "check suite problem files and print output shape, GFLOP, minimum MB and SOL per problem");
            check->add_option("paths", a->paths, "problem files or folders (searched recursively for *.toml)")
                ->required();
            check->add_option("--gpu", a->gpu, "a data/gpus.toml key or CUDA device name for the SOL times (default h200)");
            check->add_flag("--json", a->json, "answer {gpu, problems, failed} as JSON on stdout");
            CLI::App* lower = sub.add_subcommand(
                "lower", "write each problem the harness can run as a problem file for `ucutlass run` (docs/problems.md)");
            lower->add_option("paths", a->paths, "problem files or folders (searched recursively for *.toml)")
                ->required();
            lower->add_option("--out", a->out, "the folder to write <problem>.toml into")->required();
            lower->add_flag("--seeds", a->seeds,
                            "also write <problem>.seed.ucut: the spec `optimize` starts from (a pipeline problem's: its "
                            "pipeline with exact-FP32 GEMM stages and a padded first convolution), or say why none");
            return [a, lower]() -> int { return lower->parsed() ? run_suite_lower(*a) : run_suite_check(*a); };
          }};
}

}  // namespace ucut::cli
