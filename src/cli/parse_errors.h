// cli/parse_errors.h — what `ucutlass` says and exits with when CLI11 refuses the command line (main.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ucut::cli {

/// Prints what `e` means and returns the exit code (cli/exit_codes.h), never CLI11's own 100-127:
/// `--help` and `--version` print to `out` and return kOk; any other refusal (an unknown command or option, a
/// missing option, a value that does not convert or is outside its set) is one message on `err` naming the
/// command as far as it was recognized, with the nearest name for an unknown command or option, and returns
/// kUsage. `args` is argv without the program name.
int report_parse_error(CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& args,
                       std::ostream& out, std::ostream& err);

}  // namespace ucut::cli
