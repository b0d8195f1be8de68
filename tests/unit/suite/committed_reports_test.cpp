// tests/unit/suite/committed_reports_test.cpp — the results committed under bench/results read back into the
// typed reports and write the same JSON again: every `bench kernelbench` report's rows (statuses, flags,
// vendors) and every `bench mskb` pair (statuses, flags, reference kinds, timers, the candidates' source
// flags). Files written before a field existed lack its key; every key they have must come back with its
// value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
  for (const auto& e : fs::recursive_directory_iterator(fs::path(UCUT_SOURCE_DIR) / "bench/results"))
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
