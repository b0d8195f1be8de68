// cli/cmd_bench.cpp — `ucutlass bench kernelbench --impl DIR|--best WORKSPACE|--combine REPORT...`: our kernels (or an optimization
// workspace's best ones) on the KernelBench-derived suite next to PyTorch eager and torch.compile in the same run, with KernelBench's scores (workflow/suite_bench.h); and
// `ucutlass bench mskb [--impl DIR]`: MSKB's naive, vendor and candidate launchers with MSKB's scores
// (workflow/mskb_bench.h).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/io.h"
#include "suite/check.h"
#include "support/diag_render.h"
#include "support/error.h"
#include "support/files.h"
#include "support/progress.h"
#include "workflow/best_specs.h"
#include "workflow/mskb_bench.h"
#include "workflow/suite_bench.h"

namespace ucut::cli {
namespace {

struct BenchArgs {
  std::string suite = "suites/kernelbench";
  std::string best;  // an optimization workspace whose best specs are measured instead of --impl
  std::vector<std::string> combine;  // reports of earlier runs to join into one, instead of measuring
  bool newest_wins = false;          // --combine: a problem in several runs takes its newest run's row
  std::vector<std::string> only;
  bool json = false;
  SuiteBenchOptions o;
};

bool selected(const std::string& stem, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const std::string& s : only)
    if (stem.find(s) != std::string::npos) return true;
  return false;
}

/// kernelbench.json and kernelbench.md in --out, and the report on stdout; false (said on stderr) when a file
/// cannot be written.
bool write_report(SuiteBenchReport r, const BenchArgs& a) {
  namespace fs = std::filesystem;
  r.command = invocation();  // kept in the JSON, so that a combine of this report names it
  std::string md = suite_bench_markdown(r, r.command), json = suite_bench_json(r).dump(2) + "\n";
  if (!write_text((fs::path(a.o.out_dir) / "kernelbench.json").string(), json) ||
      !write_text((fs::path(a.o.out_dir) / "kernelbench.md").string(), md))
    return false;
  if (a.json) std::cout << json;
  else std::cout << md << fmt::format("\nwrote {}/kernelbench.md and kernelbench.json\n", a.o.out_dir);
  return true;
}

/// --combine: one report (rows and scores) over the reports of runs that measured different problems.
int combine_reports(const BenchArgs& a) {
  std::vector<SuiteBenchReport> runs;
  try {
    for (const std::string& path : a.combine) {
      auto text = read_file(path);
      if (!text) throw std::runtime_error(fmt::format("cannot read {}", path));
      auto j = nlohmann::json::parse(*text, nullptr, false);
      if (j.is_discarded()) throw std::runtime_error(fmt::format("{} is not JSON", path));
      try {
        runs.push_back(suite_bench_from_json(j));
      } catch (const InternalError&) {
        throw;  // a bug, not this command's failure: main says so (exit 70)
      } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
      }
      std::erase_if(runs.back().rows, [&](const SuiteBenchRow& row) { return !selected(row.problem, a.only); });
    }
    SuiteBenchReport r = combine_suite_bench(runs, a.newest_wins);
    std::error_code ec;
    std::filesystem::create_directories(a.o.out_dir, ec);
    if (ec) {
      std::cerr << fmt::format("ucutlass bench kernelbench --combine: cannot create {}: {}\n", a.o.out_dir, ec.message());
      return kIoError;
    }
    return write_report(r, a) ? kOk : kIoError;
  } catch (const InternalError&) {
    throw;  // a bug, not this command's failure: main says so (exit 70)
  } catch (const std::exception& e) {
    std::cerr << "ucutlass bench kernelbench --combine: " << e.what() << "\n";
    return kUsage;
  }
}

int run_bench(BenchArgs a) {
  namespace fs = std::filesystem;
  if (!a.combine.empty()) return combine_reports(a);
  if (!a.best.empty()) {
    a.o.impl_dir = (fs::path(a.o.out_dir) / "best-specs").string();
    try {
      BestSpecs best = write_best_specs({a.best}, a.o.impl_dir);
      if (best.best.empty()) {
        std::cerr << fmt::format("ucutlass bench: {} has no verified attempt yet\n", a.best);
        return kUsage;
      }
      // The workspace's problems, narrowed by --only: problems outside the workspace are not this run's.
      std::vector<std::string> chosen;
      for (const auto& [problem, source] : best.best)
        if (selected(problem, a.only)) chosen.push_back(problem);
      if (chosen.empty()) {
        std::cerr << fmt::format("ucutlass bench: no problem of {} matches --only {}\n", a.best, fmt::join(a.only, " "));
        return kUsage;
      }
      a.only = chosen;
      // The specs are measured under the conditions they were verified under in the workspace.
      if (a.o.tolerance && *a.o.tolerance != *best.tolerance) {
        std::cerr << fmt::format("ucutlass bench: {} was verified at tolerance {:g}, not --tolerance {:g}\n", a.best,
                                 *best.tolerance, *a.o.tolerance);
        return kUsage;
      }
      a.o.tolerance = best.tolerance;
      a.o.measure.framework_inputs = *best.inputs == "framework";
      std::cerr << fmt::format(
          "ucutlass bench: the best specs of {} ({} problems; none yet for {}) are in {}\n", a.best,
          best.best.size(), best.none.empty() ? "—" : fmt::format("{}", fmt::join(best.none, ", ")),
          a.o.impl_dir);
    } catch (const InternalError&) {
      throw;  // a bug, not this command's failure: main says so (exit 70)
    } catch (const std::exception& e) {
      std::cerr << "ucutlass bench: " << e.what() << "\n";
      return kIoError;
    }
  }
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
  SuiteBenchReport r;
  {
    Progress progress = Progress::on_stderr(a.json);
    r = bench_suite(problems, a.o, &progress);
  }
  if (!write_report(r, a)) return kIoError;
  if (r.needs_gpu) {
    std::cerr << "ucutlass bench: this machine has no usable CUDA GPU; the specs were checked and built, but "
                 "verifying and timing need one\n";
    return kNeedsGpu;
  }
  return kOk;
}

struct MskbArgs {
  MskbBenchOptions o;
  std::vector<std::string> precisions;
  bool json = false;
};

int run_mskb(MskbArgs& a) {
  namespace fs = std::filesystem;
  a.o.precisions.clear();
  for (const std::string& p : a.precisions) a.o.precisions.push_back(p == "fp32" ? mskb::Precision::fp32 : mskb::Precision::bf16);
  if (!a.o.impl_dir.empty() && !fs::is_directory(a.o.impl_dir)) {
    std::cerr << fmt::format("ucutlass bench mskb: --impl {} is not a folder of <task>.cu launchers\n", a.o.impl_dir);
    return kUsage;
  }
  MskbBenchReport r;
  try {
    std::error_code ec;
    fs::create_directories(a.o.out_dir, ec);
    r = bench_mskb(a.o);
  } catch (const InternalError&) {
    throw;  // a bug, not this command's failure: main says so (exit 70)
  } catch (const std::exception& e) {
    std::cerr << "ucutlass bench mskb: " << e.what() << "\n";
    return kUsage;
  }
  std::string md = mskb_bench_markdown(r, invocation());
  if (!write_text((fs::path(a.o.out_dir) / "mskb.json").string(), mskb_bench_json(r).dump(1) + "\n") ||
      !write_text((fs::path(a.o.out_dir) / "mskb.md").string(), md))
    return kIoError;
  if (a.json) std::cout << mskb_bench_json(r).dump(2) << "\n";
  else std::cout << md << fmt::format("\nwrote {}/mskb.md and mskb.json\n", a.o.out_dir);
  bool not_built = false;
  for (const MskbPairReport& p : r.pairs) not_built |= !p.build_errors.empty();
  if (not_built) {
    for (const MskbPairReport& p : r.pairs)
      for (const auto& [role, e] : p.build_errors) std::cerr << fmt::format("ucutlass bench mskb: {} {}: {}\n", p.name, role, e);
    return kRunFailed;
  }
  if (r.needs_gpu && !a.o.build_only) {
    std::cerr << "ucutlass bench mskb: this machine has no usable CUDA GPU; the launchers were built and the SOL bounds "
                 "computed, but verifying and timing need one\n";
    return kNeedsGpu;
  }
  return kOk;
}

}  // namespace

Command bench_command() {
  return {"bench", "run a problem suite: our kernels on KernelBench-derived problems next to PyTorch, or MSKB's launchers (GPU)",
          [](CLI::App& sub) {
            auto a = std::make_shared<BenchArgs>();
            a->o.out_dir = "out/bench";
            sub.require_subcommand(1);
            CLI::App* kb = sub.add_subcommand(
                "kernelbench",
                "measure IMPL/PROBLEM.ucut on each lowerable problem of the KernelBench-derived suite; print "
                "per-problem speedup vs eager and torch.compile, % of SOL, correctness, flags, fast_p and "
                "geomean, with and without integrity filtering");
            CLI::Option* impl =
                kb->add_option("--impl", a->o.impl_dir, "a folder with one spec per implemented problem: <problem>.ucut");
            CLI::Option* best = kb->add_option("--best", a->best,
                                               "an optimization workspace (`ucutlass optimize`): measure each of its "
                                               "problems' best verified spec, next to PyTorch in this run");
            CLI::Option* combine = kb->add_option(
                "--combine", a->combine,
                "kernelbench.json reports of earlier runs (one GPU and driver, one tolerance and input choice, "
                "different problems): write one report over all their rows, each ratio from its own run; measures "
                "nothing");
            impl->excludes(best);
            combine->excludes(impl)->excludes(best);
            kb->add_flag("--newest-wins", a->newest_wins,
                         "with --combine: a problem that several runs measured takes the row of the newest run "
                         "(whatever its result), and the report lists the rows it replaced")
                ->needs(combine);
            kb->callback([impl, best, combine]() {
              if (impl->count() + best->count() + combine->count() == 0)
                throw CLI::RequiredError("--impl, --best or --combine");
            });
            kb->add_option("--suite", a->suite, "the suite folder or files (default suites/kernelbench)");
            kb->add_option("--only", a->only, "only problems whose name contains one of these (with --best: of the "
                                              "workspace's problems; with --combine: of the reports' rows)");
            kb->add_option("--out", a->o.out_dir, "where the lowered problems, PyTorch timings and the report go (default out/bench)");
            kb->add_option("--python", a->o.python, "the Python with torch that times PyTorch (default python3)");
            kb->add_option("--torch-script", a->o.torch_script, "the PyTorch timing script (default bench/kernelbench/baseline.py)");
            kb->add_flag("!--no-torch", a->o.torch, "do not time PyTorch (no speedups are reported)");
            kb->add_flag("!--no-compile", a->o.torch_compile, "time PyTorch eager only, not torch.compile (no "
                                                              "inductor compiles: minutes shorter)");
            kb->add_flag("!--no-vendor", a->o.measure.time_cublas,
                         "do not time cuBLAS or cuDNN beside each kernel (the vs vendor column stays empty)");
            kb->add_option("--trials", a->o.measure.trials, "timed runs per problem for our kernels (default 100)");
            kb->add_option("-j,--jobs", a->o.measure.jobs, "parallel nvcc processes: every spec is built first, at "
                                                          "once (default: by cores and memory)");
            kb->add_option("--tolerance", a->o.tolerance, "replace every problem's atol = rtol (e.g. 1e-2, KernelBench's "
                                                          "original; with --best: the workspace's)");
            add_inputs_option(*kb, a->o.measure.framework_inputs, "; with --best: the workspace's");
            kb->add_option("--cache-dir", a->o.measure.cache_dir, "the kernel build cache");
            kb->add_option("--cutlass", a->o.measure.cutlass_dir, "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
            kb->add_option("--worker", a->o.measure.worker, "the ucutlass-worker binary (default: beside ucutlass)");
            kb->add_flag("--json", a->json, "print the report as JSON instead of Markdown");
            auto m = std::make_shared<MskbArgs>();
            m->precisions = {"fp32", "bf16"};
            CLI::App* mk = sub.add_subcommand(
                "mskb",
                "build, verify and time the MSKB launchers (naive, vendor, and --impl candidates) on every size case; "
                "print per-pair scores vs the naive launcher (complexity-weighted P, log-weighted geometric G), % of "
                "SOL, integrity flags and success rates");
            mk->add_option("--impl", m->o.impl_dir,
                           "candidates: <name>.cu or <precision>/<name>.cu defining extern \"C\" <name>_optimized");
            mk->add_option("--task", m->o.tasks, "only these tasks (default: all 50)");
            mk->add_option("--precision", m->precisions, "fp32 and/or bf16 (default both)")
                ->check(CLI::IsMember({"fp32", "bf16"}));
            mk->add_option("--suite", m->o.suite_dir, "the MSKB launcher folder (default suites/mskb)");
            mk->add_option("--out", m->o.out_dir, "where pairs/*.json, mskb.json and mskb.md go (default out/mskb)");
            mk->add_flag("--resume", m->o.resume, "reuse the pair results already in OUT/pairs");
            mk->add_flag("-v,--verbose", m->o.verbose,
                         "print the worker's progress (case, role, phase, seconds so far) to stderr as it runs");
            mk->add_flag("--build-only", m->o.build_only, "only build the launchers (and print SOL bounds)");
            mk->add_option("--time-limit", m->o.time_limit_s, "start no new pair after this many seconds");
            mk->add_option("--gencode", m->o.gencode, "nvcc -gencode value (default arch=compute_90a,code=sm_90a)");
            mk->add_option("--gpu", m->o.gpu, "the GPU table entry for SOL bounds when no GPU answers (default h200)");
            CLI::Option* calibration = mk->add_option(
                "--calibration", m->o.calibration,
                "the calibration file (`ucutlass calibrate`) whose latency floor % SOL is measured against "
                "(default: the calibration store's newest for the measuring GPU)");
            mk->add_flag("--no-calibration", m->o.no_calibration,
                         "no latency floor: % SOL against the datasheet bound alone")
                ->excludes(calibration);
            mk->add_option("-j,--jobs", m->o.jobs, "parallel nvcc processes (default: by cores and memory)");
            mk->add_option("--trial-seconds", m->o.knobs.trial_seconds, "cold-L2 timing budget per launcher and case (default 1)");
            mk->add_option("--max-trials", m->o.knobs.max_trials, "at most this many cold-L2 trials (default 50)");
            mk->add_option("--compat-seconds", m->o.knobs.compat_seconds,
                           "MSKB-compatible timing budget: fewer than 50 calls (at least 3) when they would take longer (default 3)");
            mk->add_option("--cpu-reference-limit", m->o.knobs.cpu_reference_limit,
                           "cases whose CPU reference costs more operations are judged against the vendor launcher (default 4e9)");
            mk->add_option("--cache-dir", m->o.cache_dir, "the build cache");
            mk->add_option("--worker", m->o.worker, "the ucutlass-mskb-worker binary (default: beside ucutlass)");
            mk->add_flag("--json", m->json, "print the report as JSON instead of Markdown");
            return [a, m, mk]() -> int { return mk->parsed() ? run_mskb(*m) : run_bench(*a); };
          }};
}

}  // namespace ucut::cli
