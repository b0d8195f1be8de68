// tests/unit/docs/include_floors_test.cpp — the folders under src/ are floors of one building (README, "Layout"):
// a file may include its own folder and any floor below, never one above or a neighbour on its own floor. Read from
// the include lines of every file under src/, so an include that runs back up fails here with its file and line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "../test_paths.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

/// Bottom floor first. Folders on one floor know nothing of each other.
const std::vector<std::vector<std::string>> kFloors = {
    {"support", "abi"},  // diagnostics, files, hashing; the C ABI every emitted kernel exports
    {"llm"},             // the agents' model backend: the chat-completions client and the prompt packs
    {"dsl"},             // lexer, parser, syntax tree
    {"ir"},              // the typed IR and its tables; lowering
    {"problem"},         // what a kernel must compute: the typed Problem, its shapes, tolerance, input draws
    {"check"},           // static rules over the IR (and a kernel against a problem's shapes)
    {"emit"},            // CUTLASS C++ per backend
    {"build"},           // nvcc and the content-addressed kernel cache
    {"compiler"},        // the front door: parse, lower, check, emit in order; build failures mapped back
    {"eval"},            // the harness: worker protocol, verification, integrity, the GPU worker
    {"sol"},             // speed-of-light bounds
    {"suite"},           // suite problem files and their lowering to problems
    {"mskb"},            // the MSKB tasks
    {"store"},           // the SQLite workspace
    {"engine"},          // MANTIS, search, scheduler, profile filtering, the executor interface
    {"export"},          // PyTorch and KernelBench exports
    {"report"},          // workspace reports
    {"workflow"},        // the top-level workflows: measure, profile, optimize, benches, the local executor
    {"agent"},           // the tool table agents call (MCP server, LLM function calls)
    {"cli"},             // one file per subcommand
};

std::map<std::string, size_t> floor_of() {
  std::map<std::string, size_t> m;
  for (size_t i = 0; i < kFloors.size(); ++i)
    for (const std::string& f : kFloors[i]) m[f] = i;
  return m;
}

TEST(IncludeFloors, EveryFolderUnderSrcHasAFloor) {
  auto floors = floor_of();
  for (const auto& e : fs::directory_iterator(fs::path(ucut::test_paths::source_dir()) / "src"))
    if (e.is_directory())
      EXPECT_TRUE(floors.count(e.path().filename().string()))
          << "src/" << e.path().filename().string() << " has no floor: add it to kFloors (and to the README's layout)";
}

TEST(IncludeFloors, TheReadmesLayoutListsEveryFolderUnderSrc) {
  std::ifstream in(fs::path(ucut::test_paths::source_dir()) / "README.md");
  std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t layout = readme.find("\n## Layout");
  ASSERT_NE(layout, std::string::npos) << "README.md has no `## Layout` section";
  std::string section = readme.substr(layout, readme.find("\n## ", layout + 1) - layout);
  const fs::path src = fs::path(ucut::test_paths::source_dir()) / "src";
  for (const auto& e : fs::recursive_directory_iterator(src)) {
    if (!e.is_directory()) continue;
    std::string name = "src/" + fs::relative(e.path(), src).string();
    EXPECT_NE(section.find(name + " "), std::string::npos) << "README.md's layout does not list " << name;
  }
}

TEST(IncludeFloors, NoIncludeRunsBackUp) {
  auto floors = floor_of();
  static const std::regex include(R"(^\s*#\s*include\s+"([a-z_0-9]+)/[^"]+")");
  const fs::path src = fs::path(ucut::test_paths::source_dir()) / "src";
  int files = 0, includes = 0;
  std::vector<std::string> upward;
  for (const auto& e : fs::recursive_directory_iterator(src)) {
    if (!e.is_regular_file()) continue;
    const std::string folder = fs::relative(e.path(), src).begin()->string();
    auto from = floors.find(folder);
    if (from == floors.end()) continue;  // EveryFolderUnderSrcHasAFloor names it
    ++files;
    std::ifstream in(e.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      auto to = floors.find(m[1].str());
      if (to == floors.end() || m[1].str() == folder) continue;
      ++includes;
      if (to->second >= from->second)
        upward.push_back(fmt::format("{}:{}: {} (floor {}) includes {} (floor {})",
                                     fs::relative(e.path(), fs::path(ucut::test_paths::source_dir())).string(),
                                     n, folder, from->second, m[1].str(), to->second));
    }
  }
  EXPECT_GT(files, 300);     // the walk found the sources
  EXPECT_GT(includes, 300);  // and their cross-folder includes
  std::string all;
  for (const std::string& u : upward) all += "\n  " + u;
  EXPECT_TRUE(upward.empty()) << upward.size() << " includes run back up a floor or across one:" << all;
}

}  // namespace
}  // namespace ucut
