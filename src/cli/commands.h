// cli/commands.h — the subcommand table (ninja's kTools): one row per subcommand, one file each.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string_view>
#include <vector>

#include "cli/exit_codes.h"

namespace ucut::cli {

struct Command {
  std::string_view name;
  std::string_view help;
  /// Adds the subcommand's options to `sub` and returns the function that runs it.
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

const std::vector<Command>& commands();

// One per file under cli/.
Command check_command();
Command compile_command();
Command build_command();
Command run_command();
Command calibrate_command();
Command emit_command();
Command rules_command();
Command targets_command();
Command explain_command();
Command sol_command();
Command suite_command();
Command bench_command();
Command mskb_command();
Command export_command();
Command optimize_command();
Command workspace_command();
Command report_command();
Command search_compare_command();
Command profile_command();
Command profile_corpus_command();
Command mcp_command();
Command llm_command();

/// `mskb optimize` (cmd_mskb_optimize.cpp), added under `mskb` by mskb_command: its options on a new
/// subcommand of `mskb`, and the function that runs it.
std::function<int()> mskb_optimize_subcommand(CLI::App& mskb);
/// `mskb tune` (cmd_mskb_tune.cpp), added under `mskb` the same way.
std::function<int()> mskb_tune_subcommand(CLI::App& mskb);

}  // namespace ucut::cli
