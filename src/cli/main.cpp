// cli/main.cpp — the `ucutlass` driver: builds the CLI from the command table and runs one subcommand; every
// way out is a code of cli/exit_codes.def.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/parse_errors.h"
#include "cli/uncaught.h"
#include "support/version.h"

int main(int argc, char** argv) {
  using namespace ucut::cli;
  record_invocation(argc, argv);
  CLI::App app{"ucutlass — a compact kernel DSL that compiles to CUTLASS, with speed-of-light analysis"};
  std::string_view commit = ucut::build_commit();
  app.set_version_flag("--version", fmt::format("ucutlass {}{}", UCUTLASS_VERSION,
                                                commit.empty() ? "" : fmt::format(" (commit {})", commit)));
  app.require_subcommand(1);
  std::string codes;
  for (const ExitCodeInfo& e : exit_codes())
    codes += fmt::format("{}{} {}", codes.empty() ? "" : ", ", e.code, e.name);
  app.footer(fmt::format("Exit codes: {} (docs/cli.md).", codes));
  std::function<int()> run;
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.help));
    auto fn = c.setup(*sub);
    sub->callback([&run, fn] { run = fn; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return report_parse_error(app, e, std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
  }
  try {
    return run ? run() : kUsage;
  } catch (...) {
    return report_uncaught(std::current_exception(), std::cerr);
  }
}
