// tests/unit/suite/committed_reports_test.cpp — the results committed under bench/results read back into the
// typed reports and write the same JSON again: every `bench kernelbench` report's rows (statuses, flags,
// vendors) and every `bench mskb` pair (statuses, flags, reference kinds, timers, the candidates' source
// flags). Files written before a field existed lack its key; every key they have must come back with its
// value. Every `bench kernelbench` page is what the writer makes of the JSON beside it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "../test_paths.h"
#include "workflow/mskb_bench.h"
#include "workflow/suite_bench.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

/// Whether `rewritten` holds everything `original` does, unchanged (older files lack keys added since).
bool keeps(const nlohmann::json& original, const nlohmann::json& rewritten) {
  if (original.is_object()) {
    if (!rewritten.is_object()) return false;
    for (const auto& [k, v] : original.items())
      if (!rewritten.contains(k) || !keeps(v, rewritten.at(k))) return false;
    return true;
  }
  if (original.is_array()) {
    if (!rewritten.is_array() || rewritten.size() != original.size()) return false;
    for (size_t i = 0; i < original.size(); ++i)
      if (!keeps(original[i], rewritten[i])) return false;
    return true;
  }
  return original == rewritten;
}

/// Every .json under bench/results whose path contains `part` and `pred` accepts.
template <class Pred>
std::vector<fs::path> committed(const std::string& part, Pred pred) {
  std::vector<fs::path> out;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(ucut::test_paths::source_dir()) / "bench/results"))
    if (e.is_regular_file() && e.path().extension() == ".json" &&
        e.path().string().find(part) != std::string::npos && pred(e.path()))
      out.push_back(e.path());
  return out;
}

TEST(CommittedResults, KernelbenchReportsReadAndWriteTheSameRows) {
  auto reports = committed("", [](const fs::path& p) {
    nlohmann::json j = read_json(p);
    return j.is_object() && j.contains("statistic") && j.contains("conditions");
  });
  EXPECT_GT(reports.size(), 10u);
  for (const fs::path& p : reports) {
    SCOPED_TRACE(p.string());
    nlohmann::json j = read_json(p);
    EXPECT_TRUE(keeps(j["rows"], suite_bench_json(suite_bench_from_json(j))["rows"]));
  }
}

/// The command a `bench kernelbench` page names on its "Command: `...`" line.
std::optional<std::string> command_of(const std::string& md) {
  size_t at = md.find("\nCommand: `");
  if (at == std::string::npos) return std::nullopt;
  at += 11;
  size_t end = md.find("`\n", at);
  if (end == std::string::npos) return std::nullopt;
  return md.substr(at, end - at);
}

// Every committed `bench kernelbench` page (X.md beside X.json) is what the writer makes of its JSON and the
// command it names, so its numbers are the JSON's and its provenance is readable. UCUT_UPDATE_GOLDEN=1
// rewrites the pages (never the JSON): review the diff.
TEST(CommittedResults, KernelbenchPagesAreTheirJsonRendered) {
  auto reports = committed("", [](const fs::path& p) {
    nlohmann::json j = read_json(p);
    return j.is_object() && j.contains("statistic") && j.contains("conditions") &&
           fs::exists(fs::path(p).replace_extension(".md"));
  });
  EXPECT_GT(reports.size(), 50u);
  bool update = std::getenv("UCUT_UPDATE_GOLDEN") != nullptr;
  for (const fs::path& p : reports) {
    fs::path page = fs::path(p).replace_extension(".md");
    SCOPED_TRACE(page.string());
    std::ifstream in(page, std::ios::binary);
    std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto command = command_of(md);
    ASSERT_TRUE(command) << "no Command: line";
    std::string want = suite_bench_markdown(suite_bench_from_json(read_json(p)), *command);
    EXPECT_EQ(want.find("{\""), std::string::npos) << "no JSON inline: the provenance is a table";
    if (update)
      std::ofstream(page, std::ios::binary) << want;
    else
      EXPECT_EQ(md, want) << "UCUT_UPDATE_GOLDEN=1 rewrites it";
  }
}

TEST(CommittedResults, MskbPairsReadAndWriteTheSameJson) {
  auto pairs =
      committed("/pairs/", [](const fs::path& p) { return p.string().find("mskb") != std::string::npos; });
  EXPECT_GT(pairs.size(), 100u);
  for (const fs::path& p : pairs) {
    SCOPED_TRACE(p.string());
    nlohmann::json j = read_json(p);
    EXPECT_TRUE(keeps(j, nlohmann::json(j.get<MskbPairReport>())));
  }
}

}  // namespace
}  // namespace ucut
