// cli/cmd_run.cpp — `ucutlass run SPEC --problem FILE`: build, verify, time next to the vendor library (cuBLAS;
// cuDNN for convolutions), and report SOL.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "suite/problem_file.h"
#include "support/files.h"
#include "workflow/measure.h"

namespace ucut::cli {

Command run_command() {
  return {"run", "build a spec, verify it against an independent reference and time it next to cuBLAS or cuDNN (GPU)",
          [](CLI::App& sub) {
            auto spec = std::make_shared<std::string>();
            auto problem = std::make_shared<std::string>();
            auto json = std::make_shared<bool>(false);
            auto out = std::make_shared<std::string>();
            auto o = std::make_shared<MeasureOptions>();
            auto library = std::make_shared<std::string>();
            auto reference = std::make_shared<std::string>();
            auto sources = std::make_shared<std::vector<std::string>>();
            sub.add_option("spec", *spec, "the .ucut spec, or - for stdin");
            sub.add_option("--library", *library,
                           "measure a prebuilt kernel library (exports ucut_entry; see abi/kernel_abi.h) "
                           "instead of a spec; its imports are checked for cuBLAS, cuDNN, cuSPARSE, cuFFT or "
                           "PyTorch (a hand-off disqualifies)");
            sub.add_option(
                "--source", *sources,
                "with --library: a source file of the library (repeatable), scanned for calls that hand "
                "the work to such a library");
            sub.add_option("--problem", *problem,
                           "the problem: a problem file (docs/problems.md) or a suite problem (docs/suites.md)")
                ->required();
            sub.add_flag("--json", *json, "print the full report as JSON");
            sub.add_option("-o,--output", *out, "also write the JSON report to this file");
            sub.add_option("--trials", o->trials, "timed runs per shape (at least 100 for reported numbers)");
            sub.add_option("--warmup", o->warmup, "untimed runs first");
            sub.add_option("--input-sets", o->input_sets, "seeded input sets, 2 to 8, verified and used in a random order while timing (default 3)");
            sub.add_option("--seed", o->seed, "base seed of the inputs (recorded in the report)");
            add_inputs_option(sub, o->framework_inputs, "");
            sub.add_option("--reference", *reference,
                           "GEMMs: auto | gpu (cuBLAS FP32) | cpu (FP64); convolutions always use a direct "
                           "FP64-accumulating GPU kernel (default: the problem's)")
                ->check(CLI::IsMember(enum_name_views<Reference>()));
            sub.add_flag("!--no-cublas", o->time_cublas, "skip the vendor baseline (cuBLAS; cuDNN for convolutions)");
            sub.add_option("--gpu", o->gpu, "the GPU for SOL bounds when none is present (a data/gpus.toml key)");
            sub.add_option("--clock-mhz", o->clock_mhz, "scale datasheet peaks to this SM clock");
            sub.add_option("--timeout-per-shape", o->seconds_per_shape, "seconds before a hung kernel is killed");
            sub.add_option("--cache-dir", o->cache_dir, "the kernel build cache");
            sub.add_option("--cutlass", o->cutlass_dir, "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
            sub.add_option("--worker", o->worker, "the ucutlass-worker binary (default: beside ucutlass)");
            return [=]() -> int {
              if (spec->empty() == library->empty()) {
                std::cerr << "ucutlass run: give a spec or --library, not both or neither\n";
                return kUsage;
              }
              std::string error;
              auto p = load_problem_or_suite(*problem, &error);
              if (!p) {
                std::cerr << "ucutlass run: " << error << "\n";
                return kUsage;
              }
              if (!reference->empty()) o->reference = parse_enum<Reference>(*reference);
              if (o->trials < 1 || o->input_sets < 2 || o->input_sets > 8) {
                std::cerr << "ucutlass run: --trials must be at least 1 and --input-sets 2 to 8 (a verdict rests on "
                             "at least two input sets at different addresses)\n";
                return kUsage;
              }
              MeasureReport r;
              if (!sources->empty() && library->empty()) {
                std::cerr << "ucutlass run: --source goes with --library (a spec's kernels are our own)\n";
                return kUsage;
              }
              if (!library->empty()) {
                std::vector<CandidateSource> texts;
                for (const std::string& path : *sources) {
                  std::optional<std::string> text = read_file(path);
                  if (!text) {
                    std::cerr << "ucutlass run: cannot read --source " << path << "\n";
                    return kIoError;
                  }
                  texts.push_back({path, *text});
                }
                r = measure_library(*library, texts, *p, *o);
              } else {
                auto src = read_spec(*spec);
                if (!src) return kIoError;
                r = measure_spec(*src, *p, *o);
              }
              nlohmann::json j = report_json(r);
              if (!out->empty() && !write_text(*out, j.dump(2) + "\n")) return kIoError;
              if (*json)
                std::cout << j.dump(2) << "\n";
              else
                std::cout << report_text(r);
              if (r.stopped_at == MeasureStep::check || r.stopped_at == MeasureStep::problem)
                return kSpecErrors;
              if (r.stopped_at == MeasureStep::gpu) {
                std::cerr << "ucutlass run: stopped before timing; checking, building and SOL bounds are done\n";
                return kNeedsGpu;
              }
              if (r.stopped_at == MeasureStep::build) return kRunFailed;
              for (const ShapeReport& s : r.shapes)
                if (!s.counts) return kRunFailed;
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
