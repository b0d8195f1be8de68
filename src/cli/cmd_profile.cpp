// cli/cmd_profile.cpp — `ucutlass profile SPEC --problem FILE`: build the spec, profile its launch on the
// problem's first shape with Nsight Compute, and print the bottleneck class with the metrics that matter for
// it (workflow/profile_spec.h). Without counters it prints the degraded report and why, and exits 4.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "engine/profile/default_thresholds.h"
#include "suite/problem_file.h"
#include "workflow/profile_spec.h"

namespace ucut::cli {

Command profile_command() {
  return {
      "profile",
      "profile a spec's kernel with Nsight Compute: bottleneck class, the few metrics that matter for it, "
      "SOL % "
      "(GPU and ncu; without them, a report from SOL alone that says why)",
      [](CLI::App& sub) {
        auto spec = std::make_shared<std::string>();
        auto problem = std::make_shared<std::string>();
        auto thresholds = std::make_shared<std::string>();
        auto json = std::make_shared<bool>(false);
        auto all = std::make_shared<bool>(false);
        auto o = std::make_shared<ProfileOptions>();
        sub.add_option("spec", *spec, "the .ucut spec, or - for stdin")->required();
        sub.add_option(
               "--problem", *problem,
               "a harness problem file (as for `run`) or a suite problem (suites/...), profiled on its "
               "first shape")
            ->required();
        sub.add_flag("--json", *json, "print the report as JSON");
        sub.add_flag("--all", *all,
                     "also print every metric read, with its meaning, not only the filtered few");
        sub.add_option("--thresholds", *thresholds,
                       "the classifier's thresholds (JSON from `ucutlass profile-corpus`; default: "
                       "data/profile_thresholds.json when it exists, else the 30% prior)");
        add_profiling_options(sub, *o);
        return [=]() -> int {
          std::string error;
          auto t = profile::resolve_thresholds(*thresholds, &error);
          if (!t) {
            std::cerr << "ucutlass profile: " << error
                      << "\n  give a thresholds file written by `ucutlass profile-corpus`, or leave "
                         "--thresholds out\n";
            return kUsage;
          }
          o->thresholds = *t;
          auto p = load_problem_or_suite(*problem, &error);
          if (!p) {
            std::cerr << "ucutlass profile: " << error << "\n";
            return kUsage;
          }
          auto src = read_spec(*spec);
          if (!src) return kIoError;
          ProfileReport r = profile_spec(*src, *p, *o);
          if (*json)
            std::cout << profile_report_json(r, *all).dump(2) << "\n";
          else
            std::cout << profile_report_text(r, *all);
          if (r.stopped_at == MeasureStep::check || r.stopped_at == MeasureStep::problem) return kSpecErrors;
          if (r.stopped_at == MeasureStep::build) return kRunFailed;
          if (!r.counters()) {
            std::cerr
                << "ucutlass profile: no counters; the class comes from SOL alone (see the reason above)\n";
            return kNeedsGpu;
          }
          return kOk;
        };
      }};
}

}  // namespace ucut::cli
