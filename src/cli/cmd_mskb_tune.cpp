// cli/cmd_mskb_tune.cpp — `ucutlass mskb tune TASK... [--specs DIR] [--out DIR]`: the built-in launch search of
// family specs on MSKB pairs, no model needed (workflow/mskb_tune.h). Writes OUT/tune.json, OUT/tune.md and each
// pair's best spec and launcher (OUT/<precision>/<name>.ucut, .cu).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/io.h"
#include "support/error.h"
#include "support/files.h"
#include "workflow/mskb_tune.h"

namespace ucut::cli {
namespace {

struct TuneArgs {
  MskbTuneOptions o;
  std::vector<std::string> precisions = {"fp32", "bf16"};
  bool json = false;
};

int run(TuneArgs& a) {
  a.o.bench.precisions.clear();
  for (const std::string& p : a.precisions)
    a.o.bench.precisions.push_back(p == "fp32" ? mskb::Precision::fp32 : mskb::Precision::bf16);
  MskbTuneReport r;
  try {
    r = tune_mskb(a.o);
  } catch (const InternalError&) {
    throw;  // a bug: main says so (exit 70)
  } catch (const std::invalid_argument& e) {
    std::cerr << "ucutlass mskb tune: " << e.what() << "\n";
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "ucutlass mskb tune: " << e.what() << "\n";
    return kIoError;
  }
  const std::string md = mskb_tune_markdown(r, invocation());
  const std::string json = json_text(mskb_tune_json(r));
  std::filesystem::create_directories(a.o.out_dir);
  for (const auto& [file, text] : {std::pair{"tune.md", md}, std::pair{"tune.json", json}})
    if (!write_file((std::filesystem::path(a.o.out_dir) / file).string(), text))
      std::cerr << fmt::format("ucutlass mskb tune: cannot write {}/{}\n", a.o.out_dir, file);
  std::cout << (a.json ? json : md);
  if (r.needs_gpu()) {
    std::cerr << "ucutlass mskb tune: measuring the variants needs a GPU this machine lacks; the first round was "
                 "checked, exported and built\n";
    return kNeedsGpu;
  }
  return r.failed() ? kRunFailed : kOk;
}

}  // namespace

std::function<int()> mskb_tune_subcommand(CLI::App& mskb) {
  auto a = std::make_shared<TuneArgs>();
  CLI::App* sub = mskb.add_subcommand(
      "tune",
      "the built-in search for family specs (map, reduce, ...) on MSKB tasks: rounds of launch variants "
      "(vector, block, items, grid), each measured beside the naive launcher, until the best is near SOL, stops "
      "improving or the budget ends; writes the best spec and launcher per pair");
  sub->add_option("tasks", a->o.bench.tasks, "MSKB task names (`ucutlass mskb list`)")->required();
  sub->add_option("--precision", a->precisions, "fp32 and/or bf16 (default both)")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  sub->add_option("--specs", a->o.specs_dir, "the folder of <name>.ucut specs to start from (default examples/mskb)");
  sub->add_option("--out", a->o.out_dir,
                  "where tune.md, tune.json, <precision>/<name>.ucut and .cu (the best) and work/ go (default "
                  "out/mskb-tune)");
  sub->add_option("--budget", a->o.budget, "distinct variants measured per pair, the spec as written included (default 16)")
      ->check(CLI::Range(1, 256));
  sub->add_option("--rounds", a->o.rounds, "measuring runs per pair (default 3)")->check(CLI::Range(1, 32));
  sub->add_option("--batch", a->o.batch, "new variants per round (default 7)")->check(CLI::Range(1, 64));
  sub->add_option("--stop-at", a->o.stop_at,
                  "stop once the best reaches this share of t_SOL_eff on the largest case (default 0.9)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--min-gain", a->o.min_gain, "stop when a round improves P by less than this share (default 0.01)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--time-limit", a->o.bench.time_limit_s, "start no new pair after this many seconds");
  sub->add_option("--suite", a->o.bench.suite_dir, "the MSKB launcher folder (default suites/mskb)");
  sub->add_option("--gencode", a->o.bench.gencode, "nvcc -gencode value (default arch=compute_90a,code=sm_90a)");
  sub->add_option("--gpu", a->o.bench.gpu, "the GPU table entry for SOL bounds when no GPU answers (default h200)");
  sub->add_option("--calibration", a->o.bench.calibration,
                  "the calibration file whose latency floor t_SOL_eff uses (default: the store's for the GPU)");
  sub->add_option("-j,--jobs", a->o.bench.jobs, "parallel nvcc processes (default: by cores and memory)");
  a->o.bench.knobs.trial_seconds = 0.15;
  a->o.bench.knobs.compat_seconds = 0.2;
  sub->add_option("--trial-seconds", a->o.bench.knobs.trial_seconds,
                  "cold-L2 timing budget per launcher and case (default 0.15: ranking variants; `bench mskb` "
                  "measures the result)");
  sub->add_option("--compat-seconds", a->o.bench.knobs.compat_seconds,
                  "MSKB-compatible timing budget per launcher and case (default 0.2)");
  sub->add_option("--cache-dir", a->o.bench.cache_dir, "the build cache");
  sub->add_option("--cutlass", a->o.bench.cutlass_dir, "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
  sub->add_option("--worker", a->o.bench.worker, "the ucutlass-mskb-worker binary (default: beside ucutlass)");
  sub->add_flag("-v,--verbose", a->o.bench.verbose, "print the worker's progress to stderr as it runs");
  sub->add_flag("--json", a->json, "print the report as JSON instead of Markdown");
  return [a]() -> int { return run(*a); };
}

}  // namespace ucut::cli
