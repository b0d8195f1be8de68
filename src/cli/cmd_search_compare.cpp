// cli/cmd_search_compare.cpp — `ucutlass search-compare RECORDED.db`: the built-in proposer against random
// and exhaustive search on a recorded exhaustive run (workflow/search_compare.h); Markdown, or JSON with
// --json; -o writes both next to each other. What the recording lacks is said first, with the command that
// records it (exit 2).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "store/workspace.h"
#include "workflow/search_compare.h"

namespace ucut::cli {

Command search_compare_command() {
  return {"search-compare",
          "compare the built-in proposer with random and exhaustive search on a recorded exhaustive run (no GPU "
          "needed): attempts to reach 95% of the best-known speedup",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<SearchCompareOptions>();
            auto json = std::make_shared<bool>(false);
            auto out = std::make_shared<std::string>();
            sub.add_option("recorded", o->recorded,
                           "the workspace of `ucutlass optimize ... --search exhaustive --knobs ...`")
                ->required();
            sub.add_option("--budget", o->budget, "the proposer's attempts per problem (default 40)");
            sub.add_option("--random-seeds", o->random_seeds, "random orders averaged (default 200)");
            sub.add_option("--target", o->target, "the fraction of the best-known speedup that counts (default 0.95)")
                ->check(CLI::Range(0.01, 1.0));
            sub.add_option("--workdir", o->workdir, "where the proposer's replay workspace goes (default: a temporary folder); "
                                                    "`ucutlass report` on it replays the scheduler's policies");
            sub.add_option("--baseline", o->baseline, "recorded eager times given to the replay workspace (default "
                                                      "bench/results/kernelbench/baseline.json; \"\" for none)");
            sub.add_option("--gpu", o->gpu, "the GPU for SOL bounds (a data/gpus.toml key, default h200)");
            sub.add_flag("--json", *json, "print JSON instead of Markdown");
            sub.add_option("-o,--out", *out, "write search_compare.json and search_compare.md into this folder");
            return [o, json, out]() -> int {
              // Read only (the file stays as it is); a file that is no workspace goes to main (exit 3).
              store::Workspace recorded = store::Workspace::open_read_only(o->recorded);
              if (std::string why = search_compare_unready(*o, recorded); !why.empty()) {
                std::cerr << "ucutlass search-compare: " << why << "\n";
                return kUsage;
              }
              SearchCompareReport r = search_compare(*o, recorded);
              if (!r.compared_any()) {
                std::cerr << fmt::format("ucutlass search-compare: no problem of '{}' can be compared:\n",
                                         o->recorded);
                for (const SearchCompareRow& row : r.rows)
                  std::cerr << fmt::format("  {}: {}\n", row.problem, row.skipped);
                return kUsage;
              }
              if (!r.error.empty()) {
                std::cerr << "ucutlass search-compare: the proposer's replay failed: " << r.error << "\n";
                return kRunFailed;
              }
              r.command =
                  fmt::format("ucutlass search-compare {} --budget {} --random-seeds {} --target {:g}",
                              o->recorded, o->budget, o->random_seeds, o->target);
              std::string md = search_compare_markdown(r), js = search_compare_json(r).dump(2) + "\n";
              if (!out->empty()) {
                std::filesystem::create_directories(*out);
                if (!write_text(*out + "/search_compare.json", js) || !write_text(*out + "/search_compare.md", md))
                  return kIoError;
              }
              std::cout << (*json ? js : md);
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
