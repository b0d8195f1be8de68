// tests/unit/docs/cli_doc_test.cpp — docs/cli.md stays true: its exit-code table is cli/exit_codes.def row
// for row, and its command table lists every (sub)command the binary's `--help` lists, with the same one-line
// description, and no other. The README's command table links to it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../test_paths.h"
#include "cli/exit_codes.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

std::string read_source(const char* rel) {
  std::ifstream in(std::filesystem::path(ucut::test_paths::source_dir()) / rel, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The rows of the Markdown table that follows `heading` (each row's cells, trimmed), header and rule
/// excluded.
std::vector<std::vector<std::string>> table_after(const std::string& md, const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  size_t at = md.find("\n" + heading + "\n");
  if (at == std::string::npos) return rows;
  std::istringstream in(md.substr(at + heading.size() + 2));
  bool started = false;
  int skip = 2;  // the header row and the rule
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '|') {
      if (started) break;
      continue;
    }
    started = true;
    if (skip-- > 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
        cell += '|';
        ++i;
      } else if (line[i] == '|') {
        size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
        cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

/// The subcommands `ucutlass ARGS --help` lists: name and description.
std::vector<std::pair<std::string, std::string>> subcommands(std::vector<std::string> args) {
  args.insert(args.begin(), ucut::test_paths::cli_path());
  args.push_back("--help");
  ProcessResult r = run_process(args, ProcessOptions::with_timeout(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(r.out);
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "Subcommands:" || line == "SUBCOMMANDS:") {
      listing = true;
    } else if (listing && line.starts_with("  ")) {
      size_t name_end = line.find(' ', 2);
      size_t text = line.find_first_not_of(' ', name_end);
      out.push_back({line.substr(2, name_end - 2), text == std::string::npos ? "" : line.substr(text)});
    } else if (listing) {
      break;
    }
  }
  return out;
}

TEST(CliDoc, ExitCodesAreTheTable) {
  auto rows = table_after(read_source("docs/cli.md"), "## Exit codes");
  const auto& codes = cli::exit_codes();
  ASSERT_EQ(rows.size(), codes.size())
      << "docs/cli.md's exit-code table has a row per cli/exit_codes.def row";
  for (size_t i = 0; i < codes.size(); ++i) {
    SCOPED_TRACE(codes[i].code);
    ASSERT_EQ(rows[i].size(), 3u);
    EXPECT_EQ(rows[i][0], std::to_string(codes[i].code));
    EXPECT_EQ(rows[i][1], codes[i].name);
    EXPECT_EQ(rows[i][2], codes[i].meaning);
  }
}

TEST(CliDoc, EveryCommandHasItsLine) {
  std::vector<std::string> expected;
  for (const auto& [name, text] : subcommands({})) {
    auto nested = subcommands({name});
    if (nested.empty()) expected.push_back(fmt::format("`ucutlass {}` = {}", name, text));
    for (const auto& [sub, sub_text] : nested)
      expected.push_back(fmt::format("`ucutlass {} {}` = {}", name, sub, sub_text));
  }
  EXPECT_GE(expected.size(), 20u);
  std::vector<std::string> documented;
  for (const auto& row : table_after(read_source("docs/cli.md"), "## Commands")) {
    ASSERT_EQ(row.size(), 2u);
    documented.push_back(row[0] + " = " + row[1]);
  }
  EXPECT_EQ(documented, expected)
      << "docs/cli.md's command table: one row per command, its --help description";
}

TEST(CliDoc, TheReadmeLinksToIt) {
  EXPECT_NE(read_source("README.md").find("(docs/cli.md)"), std::string::npos);
}

}  // namespace
}  // namespace ucut
