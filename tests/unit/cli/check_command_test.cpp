// tests/unit/cli/check_command_test.cpp — `ucutlass check` as a user runs it, through the binary:
//   - text goldens: each tests/golden/check_output/<name>.ucut, piped in as `check -`, prints exactly <name>.txt
//     on stderr (the exit code on its first line): every diagnostic, each source line shown with its bytes escaped
//     (NUL, ESC) and the caret under them; `UCUT_UPDATE_GOLDEN=1 ctest -R CheckOutput` rewrites them (review the
//     diff). `check --json` lists the same diagnostics as the text, in the same order.
//   - a random 4 KB file: text and JSON list the same diagnostics, capped alike, and the text holds no raw control
//     byte;
//   - a folder, and `-` with nothing on stdin, are named as such;
//   - `check --json` of a valid spec fills `namespace` and `config_hash` (the values `compile --json` gives) and of
//     an invalid one leaves them out.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>

#include "../check/golden_cases.h"
#include "../temp_dir.h"
#include "../test_paths.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

fs::path output_golden_dir() { return golden::source_dir() / "tests" / "golden" / "check_output"; }

ProcessResult ucutlass(std::vector<std::string> args, std::optional<std::string> stdin_text = std::nullopt) {
  args.insert(args.begin(), ucut::test_paths::cli_path());
  ProcessOptions o = ProcessOptions::with_timeout(60);
  o.stdin_text = std::move(stdin_text);
  return run_process(args, o);
}

bool update_mode() {
  const char* v = std::getenv("UCUT_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

/// (rule, line, col) of every diagnostic: from the text's `<stdin>:L:C: severity[RULE]:` lines, or the JSON's array.
using Keys = std::vector<std::string>;

Keys text_keys(const std::string& text) {
  static const std::regex head(R"(^<stdin>:(\d+):(\d+): (?:error|warning)\[([A-Z]\d{3})\]: )");
  Keys out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, head)) out.push_back(fmt::format("{} {}:{}", m[3].str(), m[1].str(), m[2].str()));
  }
  return out;
}

Keys json_keys(const nlohmann::json& j) {
  Keys out;
  for (const auto& d : j.at("diagnostics"))
    out.push_back(
        fmt::format("{} {}:{}", d.at("rule").get<std::string>(), d.at("line").get<int>(), d.at("col").get<int>()));
  return out;
}

/// Bytes a terminal would act on: C0 controls other than newline and tab, and DEL.
bool has_raw_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char ch) {
    auto c = static_cast<unsigned char>(ch);
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
  });
}

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) { return golden::file_param_name(info.param); }

class CheckOutput : public ::testing::TestWithParam<fs::path> {};

TEST_P(CheckOutput, TextIsTheGoldenAndJsonListsTheSame) {
  std::string spec = golden::read_text(GetParam());
  ProcessResult text = ucutlass({"check", "-"}, spec);
  ProcessResult json = ucutlass({"check", "--json", "-"}, spec);
  ASSERT_TRUE(text.started && json.started) << text.error << json.error;
  std::string got = fmt::format("exit {}\n{}", text.exit_code, text.err);
  fs::path golden = fs::path(GetParam()).replace_extension(".txt");
  if (update_mode()) {
    ASSERT_TRUE(write_file(golden.string(), got)) << golden;
  } else {
    ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; create it with UCUT_UPDATE_GOLDEN=1";
    EXPECT_EQ(got, golden::read_text(golden)) << golden << " differs; if intended, rerun with UCUT_UPDATE_GOLDEN=1";
  }
  EXPECT_FALSE(has_raw_control(text.err)) << "raw control bytes reach the terminal";
  nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(json.exit_code, text.exit_code);
  EXPECT_EQ(text_keys(text.err), json_keys(j));
  EXPECT_EQ(j.at("more_errors").get<int>() > 0, text.err.find("more error") != std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Check, CheckOutput, ::testing::ValuesIn(golden::files_with_ext(output_golden_dir(), ".ucut")),
                         test_name);

TEST(CheckOutputFiles, ThereAreGoldens) {
  EXPECT_FALSE(golden::files_with_ext(output_golden_dir(), ".ucut").empty());
}

TEST(CheckCommand, ARandomFileListsTheSameDiagnosticsAsTextAndJson) {
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 gen(seed);
    std::string bytes(4096, '\0');
    for (char& c : bytes) c = static_cast<char>(gen() & 0xff);
    ProcessResult text = ucutlass({"check", "-"}, bytes);
    ProcessResult json = ucutlass({"check", "--json", "-"}, bytes);
    EXPECT_EQ(text.exit_code, 1) << "seed " << seed << ": " << text.describe() << "\n" << text.err;
    EXPECT_EQ(json.exit_code, 1) << "seed " << seed << ": " << json.describe();
    nlohmann::json j = nlohmann::json::parse(json.out);
    Keys keys = text_keys(text.err);
    EXPECT_GT(keys.size(), 1u) << "seed " << seed;
    EXPECT_EQ(keys, json_keys(j)) << "seed " << seed;
    EXPECT_FALSE(has_raw_control(text.err)) << "seed " << seed << ": raw control bytes reach the terminal";
    int more = j.at("more_errors").get<int>();
    if (more > 0)
      EXPECT_NE(text.err.find(fmt::format("... and {} more error", more)), std::string::npos) << "seed " << seed;
  }
}

TEST(CheckCommand, AFolderIsNamedAsOne) {
  ucut::testing::TempDir dir{"ucut-check-dir"};
  ProcessResult r = ucutlass({"check", dir.path().string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err, fmt::format("ucutlass: cannot read spec '{}': it is a directory; name a .ucut file in it\n",
                               dir.path().string()));
}

TEST(CheckCommand, EmptyStdinIsNamedAsSuch) {
  ProcessResult r = ucutlass({"check", "-"}, std::string());
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err, "ucutlass: stdin is empty: pipe a spec in, e.g. `ucutlass check - < spec.ucut`\n");
  // A spec of blanks and comments is read, and says what it lacks.
  ProcessResult blank = ucutlass({"check", "-"}, std::string("# a comment\n\n"));
  EXPECT_EQ(blank.exit_code, 1) << blank.err;
  EXPECT_NE(blank.err.find("error[P004]: the spec holds only comments and blank lines"), std::string::npos)
      << blank.err;
}

TEST(CheckCommand, JsonNamesTheKernelOnceItChecksClean) {
  std::string spec = golden::read_text(golden::source_dir() / "examples" / "mlp_up.ucut");
  ProcessResult check = ucutlass({"check", "--json", "-"}, spec);
  ProcessResult compile = ucutlass({"compile", "--json", "-"}, spec);
  ASSERT_EQ(check.exit_code, 0) << check.err;
  ASSERT_EQ(compile.exit_code, 0) << compile.err;
  nlohmann::json c = nlohmann::json::parse(check.out), e = nlohmann::json::parse(compile.out);
  EXPECT_EQ(c.at("ok"), true);
  EXPECT_TRUE(c.at("diagnostics").empty());
  EXPECT_EQ(c.at("more_errors"), 0);
  EXPECT_EQ(c.at("namespace").get<std::string>().rfind("ucut_", 0), 0u) << c.dump();
  EXPECT_EQ(c.at("config_hash").get<std::string>().size(), 64u) << c.dump();
  EXPECT_EQ(c.at("namespace"), e.at("namespace"));
  EXPECT_EQ(c.at("config_hash"), e.at("config_hash"));
  EXPECT_FALSE(c.contains("code")) << "check emits no code";
  EXPECT_FALSE(e.at("code").get<std::string>().empty());
  // A pipeline too.
  std::string pipe = golden::read_text(golden::source_dir() / "examples" / "ampere_conv_pipeline.ucut");
  nlohmann::json p = nlohmann::json::parse(ucutlass({"check", "--json", "-"}, pipe).out);
  EXPECT_EQ(p.at("ok"), true) << p.dump();
  EXPECT_EQ(p.at("namespace").get<std::string>().rfind("ucut_pipe_", 0), 0u) << p.dump();
  // An invalid spec has no such values: the keys are left out, not empty.
  std::string invalid = "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n    .with_stages(1)\n"
                        "  >> store(D: bf16[M,N] row)\n";
  nlohmann::json bad = nlohmann::json::parse(ucutlass({"check", "--json", "-"}, invalid).out);
  EXPECT_EQ(bad.at("ok"), false);
  EXPECT_FALSE(bad.contains("namespace") || bad.contains("config_hash") || bad.contains("code")) << bad.dump();
}

}  // namespace
}  // namespace ucut
