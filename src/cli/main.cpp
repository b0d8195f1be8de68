// cli/main.cpp — the `ucutlass` driver: builds the CLI from the command table and runs one subcommand.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/uncaught.h"
#include "support/suggest.h"
#include "support/version.h"

int main(int argc, char** argv) {
  using namespace ucut::cli;
  CLI::App app{"ucutlass — a compact kernel DSL that compiles to CUTLASS, with speed-of-light analysis"};
  app.set_version_flag("--version", std::string("ucutlass ") + UCUTLASS_VERSION);
  app.require_subcommand(1);
  std::function<int()> run;
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.help));
    auto fn = c.setup(*sub);
    sub->callback([&run, fn] { run = fn; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // An unknown subcommand gets a suggestion (ninja's SpellcheckString).
    std::vector<std::string_view> names;
    for (const Command& c : commands()) names.push_back(c.name);
    if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      auto best = ucut::closest_name(argv[1], names);
      std::cerr << fmt::format("ucutlass: unknown command '{}'{}\nRun 'ucutlass --help' for the list.\n", argv[1],
                               best ? fmt::format(", did you mean '{}'?", *best) : "");
      return kUsage;
    }
    return app.exit(e);
  }
  try {
    return run ? run() : kUsage;
  } catch (...) {
    return report_uncaught(std::current_exception(), std::cerr);
  }
}
