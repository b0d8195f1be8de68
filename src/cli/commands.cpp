// cli/commands.cpp — the table of subcommands.
#include "cli/commands.h"

namespace ucut::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      check_command(),     compile_command(),        build_command(),
      run_command(),       calibrate_command(),      emit_command(),
      rules_command(),     explain_command(),        targets_command(),
      sol_command(),       suite_command(),          bench_command(),
      mskb_command(),      export_command(),         optimize_command(),
      workspace_command(), report_command(),         search_compare_command(),
      profile_command(),   profile_corpus_command(), mcp_command(),
      llm_command(),
  };
  return table;
}

}  // namespace ucut::cli
