// cli/cmd_mskb.cpp — `ucutlass mskb list`: the MSKB tasks (mskb/task.h) with their launchers, size cases,
// complexity, tolerance and vendor reference, as a table, Markdown or JSON; `mskb optimize`
// (cmd_mskb_optimize.cpp) and `mskb tune` (cmd_mskb_tune.cpp).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "mskb/signature.h"
#include "mskb/task.h"

namespace ucut::cli {
namespace {

nlohmann::json task_json(const mskb::Task& t) {
  nlohmann::json cases = nlohmann::json::array();
  for (const mskb::Case& c : t.cases) cases.push_back({{"sizes", c.label()}, {"complexity", t.complexity(c)}});
  return {{"name", t.name},
          {"category", t.category},
          {"fp32", t.signature_fp32},
          {"bf16", t.signature_bf16},
          {"outputs", t.outputs},
          {"tolerance", {{"kind", t.tolerance.kind == mskb::Tolerance::Kind::absolute ? "absolute" : "relative"},
                         {"value", t.tolerance.value}}},
          {"vendor", t.vendor},
          {"cases", cases}};
}

std::string markdown() {
  std::string md = "| # | task | category | cases | T(N) largest | tolerance | vendor reference |\n|---|---|---|---|---|---|---|\n";
  int i = 0;
  for (const mskb::Task& t : mskb::all_tasks())
    md += fmt::format("| {} | `{}` | {} | {} | {:.3g} | {} {:g} | {} |\n", ++i, t.name, t.category, t.cases.size(),
                      t.complexity(t.cases.back()),
                      t.tolerance.kind == mskb::Tolerance::Kind::absolute ? "abs" : "rel", t.tolerance.value,
                      t.vendor.empty() ? "— (CPU FP64)" : t.vendor);
  return md;
}

}  // namespace

Command mskb_command() {
  return {"mskb",
          "the MSKB tasks (MSKernelBench: 50 tasks x FP32/BF16): list them, optimize them with CUDAMaster's "
          "roles, or tune family specs' launches with the built-in search",
          [](CLI::App& sub) {
            auto format = std::make_shared<std::string>("text");
            sub.require_subcommand(1);
            CLI::App* list = sub.add_subcommand("list", "print every task");
            list->add_option("--format", *format, "text | markdown | json")->check(CLI::IsMember({"text", "markdown", "json"}));
            std::function<int()> optimize = mskb_optimize_subcommand(sub);
            std::function<int()> tune = mskb_tune_subcommand(sub);
            CLI::App* tune_app = sub.get_subcommand("tune");
            return [format, list, optimize, tune, tune_app]() -> int {
              if (tune_app->parsed()) return tune();
              if (!list->parsed()) return optimize();
              if (*format == "json") {
                nlohmann::json all = nlohmann::json::array();
                for (const mskb::Task& t : mskb::all_tasks()) all.push_back(task_json(t));
                std::cout << all.dump(2) << "\n";
              } else if (*format == "markdown") {
                std::cout << markdown();
              } else {
                for (const mskb::Task& t : mskb::all_tasks())
                  std::cout << fmt::format("{:<24} {:<15} {:>3} cases  {}\n", t.name, t.category, t.cases.size(),
                                           t.signature_fp32);
              }
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
