// cli/cmd_workspace.cpp — `ucutlass workspace export W OUT [--since RUN]` and `ucutlass workspace import W
// IN`: move an optimization run's results between machines (store/transfer.h); `ucutlass workspace show W`:
// its problems, runs and best attempts, and its model calls' tokens and cost by role when it has any;
// `ucutlass workspace best W... --out DIR`: each problem's best spec over several workspaces
// (workflow/best_specs.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "cli/commands.h"
#include "store/transfer.h"
#include "support/error.h"
#include "workflow/best_specs.h"

namespace ucut::cli {
namespace {

std::string counts_text(const store::TransferCounts& c) {
  auto one = [](const char* name, const store::TableCounts& t) {
    return fmt::format("{}: {} added, {} skipped, {} replaced", name, t.added, t.skipped, t.replaced);
  };
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n", one("problems", c.problems), one("runs", c.runs),
                     one("hypotheses", c.hypotheses), one("attempts", c.attempts), one("lessons", c.lessons),
                     one("stages", c.stages), one("model calls", c.llm_calls),
                     one("prompt packs", c.prompt_packs));
}

/// "model calls by role:" and a line per role and one for all, or "" when the workspace has no model call.
std::string usage_text(const store::LlmUsage& u) {
  if (u.roles.empty()) return "";
  auto line = [](const store::LlmRoleUsage& r) {
    return fmt::format(
        "  {:<10} {} calls ({} failed, {} pending), {} prompt + {} completion tokens, ${:.4f}\n",
        r.role.empty() ? "all" : r.role, r.calls, r.failed, r.pending, r.prompt_tokens, r.completion_tokens,
        r.cost_usd);
  };
  std::string out = "model calls by role:\n";
  for (const store::LlmRoleUsage& r : u.roles) out += line(r);
  return out + line(u.total());
}

}  // namespace

Command workspace_command() {
  return {"workspace",
          "show an optimization workspace, export/import its runs to move them between machines, or write "
          "the best specs of several",
          [](CLI::App& sub) -> std::function<int()> {
            sub.require_subcommand(1);
            auto path = std::make_shared<std::string>();
            auto file = std::make_shared<std::string>();
            auto since = std::make_shared<int64_t>(0);
            CLI::App* show = sub.add_subcommand(
                "show", "problems, runs, each problem's best attempt and model-call totals by role");
            show->add_option("workspace", *path, "the workspace file")->required()->check(CLI::ExistingFile);
            CLI::App* ex = sub.add_subcommand("export", "write the workspace's runs (or those after --since) to a new file");
            ex->add_option("workspace", *path, "the workspace file")->required()->check(CLI::ExistingFile);
            ex->add_option("out", *file, "the new workspace file to write")->required();
            ex->add_option("--since", *since, "only runs with a larger id (0: all)");
            CLI::App* im = sub.add_subcommand("import", "merge an exported file into the workspace (idempotent)");
            im->add_option("workspace", *path, "the workspace file (created when missing)")->required();
            im->add_option("in", *file, "the exported file")->required()->check(CLI::ExistingFile);
            auto many = std::make_shared<std::vector<std::string>>();
            CLI::App* best = sub.add_subcommand(
                "best",
                "write each problem's fastest counting attempt (measured, verified, not flagged) over the "
                "workspaces as DIR/<problem>.ucut, byte for byte, and DIR/provenance.json (per problem: "
                "workspace, attempt, time, GPU, date, precision change); the workspaces must share tolerance "
                "and inputs");
            best->add_option("workspaces", *many, "the workspace files")
                ->required()
                ->check(CLI::ExistingFile);
            best->add_option("--out", *file, "the folder to write (created when missing)")->required();
            return [=]() -> int {
              try {
                if (best->parsed()) {
                  BestSpecs b = write_best_specs(*many, *file);
                  std::cout << fmt::format(
                      "wrote {} specs to {} (tolerance {}, {} inputs); no counting attempt: {}\n",
                      b.best.size(), *file, b.tolerance ? fmt::format("{:g}", *b.tolerance) : "-",
                      b.inputs.value_or("-"),
                      b.none.empty() ? "—" : fmt::format("{}", fmt::join(b.none, ", ")));
                  return kOk;
                }
                // Only import writes the workspace; show and export leave the file as it is.
                store::Workspace ws =
                    im->parsed() ? store::Workspace::open(*path) : store::Workspace::open_read_only(*path);
                if (ex->parsed()) {
                  store::TransferCounts c = store::export_workspace(
                      ws, *file, *since > 0 ? std::optional<int64_t>(*since) : std::nullopt);
                  std::cout << fmt::format("wrote {}\n", *file) << counts_text(c);
                } else if (im->parsed()) {
                  std::cout << fmt::format("imported {} into {}\n", *file, *path)
                            << counts_text(store::import_workspace(ws, *file));
                } else {
                  for (const store::RunRow& r : ws.runs())
                    std::cout << fmt::format("run {}: {} .. {}  {}\n", r.id, r.started,
                                             r.finished.empty() ? "(unfinished)" : r.finished, r.command);
                  for (const store::ProblemRow& p : ws.problems()) {
                    auto best = ws.best_attempt(p.id);
                    std::cout << fmt::format("{}: {} attempts, best {}\n", p.id, ws.attempts(p.id).size(),
                                             best ? fmt::format("{:.4g} ms (attempt {})", *best->time_ms, best->id)
                                                  : "none yet");
                  }
                  std::cout << usage_text(ws.llm_usage());
                }
              } catch (const MixedConditionsError& e) {
                std::cerr << "ucutlass workspace best: " << e.what() << "\n";
                return kUsage;
              } catch (const InternalError&) {
                throw;  // a bug, not this command's failure: main says so (exit 70)
              } catch (const std::exception& e) {
                std::cerr << "ucutlass workspace: " << e.what() << "\n";
                return kIoError;
              }
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
