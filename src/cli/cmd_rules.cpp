// cli/cmd_rules.cpp — `ucutlass rules` lists every diagnostic; `ucutlass explain ID` prints its page.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "support/diag_render.h"
#include "support/embedded.h"
#include "support/error.h"
#include "support/suggest.h"

namespace ucut::cli {

Command rules_command() {
  return {"rules", "list every diagnostic rule: id, severity, slug, summary", [](CLI::App& sub) {
            auto json = std::make_shared<bool>(false);
            sub.add_flag("--json", *json, "as a JSON array");
            return [json]() -> int {
              nlohmann::json arr = nlohmann::json::array();
              for (const RuleInfo& r : all_rules()) {
                if (*json) {
                  arr.push_back({{"rule", r.code}, {"severity", severity_name(r.severity)}, {"slug", r.slug},
                                 {"summary", r.summary}});
                } else {
                  std::cout << fmt::format("{}  {:<7}  {:<34}  {}\n", r.code, severity_name(r.severity), r.slug,
                                           r.summary);
                }
              }
              if (*json) std::cout << arr.dump(2) << "\n";
              return kOk;
            };
          }};
}

Command explain_command() {
  return {"explain", "print the page of a rule (why it exists, a failing example, the fix)", [](CLI::App& sub) {
            auto id = std::make_shared<std::string>();
            sub.add_option("rule", *id, "a rule id (C304) or slug (pingpong-cooperative-epilogue)")->required();
            return [id]() -> int {
              auto rule = find_rule(*id);
              if (!rule) {
                std::vector<std::string_view> known;
                for (const RuleInfo& r : all_rules()) known.push_back(r.code);
                auto best = closest_name(*id, known);
                std::cerr << fmt::format("ucutlass: no rule '{}'{}; `ucutlass rules` lists them\n", *id,
                                         best ? fmt::format(" (did you mean {}?)", *best) : "");
                return kUsage;
              }
              const RuleInfo& r = rule_info(*rule);
              auto page = embedded_file(fmt::format("{}.md", r.code));
              UC_ASSERT(page) << "rule " << r.code << " has no page (docs/rules/" << r.code << ".md)";
              std::cout << *page;
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
