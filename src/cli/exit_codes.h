// cli/exit_codes.h — the exit codes every subcommand shares, from cli/exit_codes.def (docs/cli.md lists
// them).
#pragma once

#include <string_view>
#include <vector>

namespace ucut::cli {

/// What `ucutlass` exits with: one row of cli/exit_codes.def each.
enum Exit : int {
#define EXIT(id, code, name, meaning) id = code,
#include "cli/exit_codes.def"
#undef EXIT
};

/// One row of the table, for `--help` and the docs.
struct ExitCodeInfo {
  int code;
  std::string_view name, meaning;
};

/// Every exit code, in the table's order.
inline const std::vector<ExitCodeInfo>& exit_codes() {
  static const std::vector<ExitCodeInfo> table = {
#define EXIT(id, code, name, meaning) {code, name, meaning},
#include "cli/exit_codes.def"
#undef EXIT
  };
  return table;
}

}  // namespace ucut::cli
