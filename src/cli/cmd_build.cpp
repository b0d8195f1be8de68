// cli/cmd_build.cpp — `ucutlass build SPEC...`: check, emit and build kernel libraries with nvcc through the
// content-addressed cache, several at once. Every spec that passes `check` must build; a failure is a bug.
#include <fmt/format.h>

#include <iostream>

#include "build/cache.h"
#include "cli/commands.h"
#include "cli/io.h"
#include "compiler/build_errors.h"

namespace ucut::cli {

Command build_command() {
  return {"build", "check specs and build their kernel libraries with nvcc (cached, in parallel)", [](CLI::App& sub) {
            auto paths = std::make_shared<std::vector<std::string>>();
            auto cache_dir = std::make_shared<std::string>(default_cache_dir());
            auto cutlass = std::make_shared<std::string>();
            auto jobs = std::make_shared<int>(default_build_jobs());
            auto json = std::make_shared<bool>(false);
            sub.add_option("specs", *paths, "one or more .ucut specs")->required();
            sub.add_option("--cache-dir", *cache_dir, "the build cache (default: $UCUT_CACHE_DIR or ~/.cache/ucutlass)");
            sub.add_option("--cutlass", *cutlass, "CUTLASS root (default: $CUTLASS_DIR or the one scripts/setup.sh installs)");
            sub.add_option("-j,--jobs", *jobs, "parallel nvcc processes (default: what cores and memory allow)");
            sub.add_flag("--json", *json, "one JSON object per spec: {spec, ok, cached, library, seconds, error}");
            return [=]() -> int {
              std::string error;
              auto tc = find_toolchain(*cutlass, &error);
              if (!tc) {
                std::cerr << "ucutlass build: " << error << "\n";
                return kIoError;
              }
              std::vector<EmittedKernel> kernels;
              std::vector<std::string> names;
              std::vector<SourceFile> sources;
              std::vector<Compilation> compilations;
              int status = kOk;
              for (const std::string& p : *paths) {
                auto src = read_spec(p);
                if (!src) return kIoError;
                Compilation c = compile_spec(*src);
                print_diagnostics(*src, c);
                if (!c.ok()) {
                  status = kSpecErrors;
                  continue;
                }
                kernels.push_back(*c.kernel);
                names.push_back(p);
                sources.push_back(*src);
                compilations.push_back(std::move(c));
              }
              KernelCache cache(*cache_dir, *tc);
              std::vector<BuildResult> results;
              {
                Progress progress = Progress::on_stderr(*json);
                results = cache.build_all(kernels, *jobs, kBuildTimeoutSeconds, &progress, names);
              }
              nlohmann::json out = nlohmann::json::array();
              for (size_t i = 0; i < results.size(); ++i) {
                const BuildResult& r = results[i];
                if (!r.ok) status = kRunFailed;
                if (*json) {
                  out.push_back({{"spec", names[i]},   {"ok", r.ok},           {"cached", r.cached},
                                 {"library", r.library}, {"seconds", r.seconds}, {"log", r.log_path},
                                 {"error", r.error}});
                } else if (r.ok) {
                  std::cout << fmt::format("{}: {} ({})\n", names[i], r.library,
                                           r.cached ? "cached" : fmt::format("built in {:.0f} s", r.seconds));
                } else {
                  std::cerr << render_build_failure(sources[i], compilations[i], r);
                }
              }
              if (*json) std::cout << out.dump(2) << "\n";
              return status;
            };
          }};
}

}  // namespace ucut::cli
