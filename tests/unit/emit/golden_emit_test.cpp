// tests/unit/emit/golden_emit_test.cpp — full-file snapshots of every stage for every examples/*.ucut
// (STYLE.md §6.3 "every stage can be dumped", "emitted C++ is golden"):
//   tests/golden/parse/<name>.ast.txt      dump_ast
//   tests/golden/lower/<name>.ir.txt       dump_ir
//   tests/golden/emit/<backend>/<name>.cu  EmittedKernel::code (sm90 or sm80, the backend that emits it;
//                                          pipeline; memory, a memory-bound family's emitter), each pasted
//                                          template collapsed to its begin marker
// An emit golden shows what the backend wrote: a fixed template the kernel pastes (abi/, emit/templates/)
// stands as its one begin marker line, `// ---- begin template NAME (sha256 HASH) ----`
// (emit/template_paste.h), where the emitted file has that line, the template's text and an end marker. The
// comparison still fails when the kernel's own code changes, a template moves, goes or comes, or the pasted
// text is not the embedded file its marker names and hashes; an edit of a template changes its hash, one line
// in each golden that pastes it. tests/compile/ compiles each template once on its own.
// Compared byte for byte; a failure names the first differing line. `UCUT_UPDATE_GOLDEN=1 ctest -R golden`
// rewrites the snapshots instead (review the diff before committing it). The spec's display name is the
// repository-relative "examples/<name>.ucut", so nothing machine-specific can reach a snapshot. Test-only
// specs in tests/golden/specs are snapshotted the same way.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "emit/template_paste.h"
#include "ir/canonical.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() { return fs::path(ucut::test_paths::source_dir()); }

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Every examples/*.ucut, and the test-only specs of tests/golden/specs (kernels worth pinning that have no problem
/// file, so are not examples).
std::vector<fs::path> examples() {
  std::vector<fs::path> out;
  for (const fs::path& dir : {source_dir() / "examples", source_dir() / "tests" / "golden" / "specs"}) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".ucut") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool update_mode() {
  const char* v = std::getenv("UCUT_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

/// Empty when equal; otherwise "line N: ..." naming the first differing line (1-based) of `expected` and `actual`.
std::string first_difference(const std::string& expected, const std::string& actual) {
  if (expected == actual) return "";
  std::istringstream e(expected), a(actual);
  std::string le, la;
  for (int line = 1;; ++line) {
    bool he = static_cast<bool>(std::getline(e, le));
    bool ha = static_cast<bool>(std::getline(a, la));
    if (!he && !ha) break;
    if (he && ha && le == la) continue;
    return fmt::format("line {}:\n  golden: {}\n  actual: {}", line, he ? "`" + le + "`" : "(end of file)",
                       ha ? "`" + la + "`" : "(end of file)");
  }
  // Same lines, different bytes: only the final newline can differ.
  return fmt::format("the files differ only in their final newline (golden {} bytes, actual {} bytes)",
                     expected.size(), actual.size());
}

enum class Stage { ast, ir, cpp };

struct Param {
  fs::path example;
  Stage stage;
};

std::string stage_name(Stage s) { return s == Stage::ast ? "ast" : s == Stage::ir ? "ir" : "cpp"; }

void PrintTo(const Param& p, std::ostream* os) { *os << p.example.filename().string() << " (" << stage_name(p.stage) << ")"; }

fs::path golden_path(const fs::path& example, Stage s) {
  std::string name = example.stem().string();
  fs::path g = source_dir() / "tests" / "golden";
  switch (s) {
    case Stage::ast: return g / "parse" / (name + ".ast.txt");
    case Stage::ir: return g / "lower" / (name + ".ir.txt");
    case Stage::cpp: {
      SourceFile src(example.filename().string(), read_text(example));
      Compilation c = compile_spec(src, StopAfter::lower);
      bool sm80 = c.config && c.config->backend() == BackendKind::sm80;
      return g / "emit" /
             (c.pipeline ? "pipeline"
              : c.memop  ? "memory"
              : sm80     ? "sm80"
                         : "sm90") /
             (name + ".cu");
    }
  }
  return {};
}

/// The text the stage dumps for `example`, compiled under its repository-relative name.
std::string dump(const fs::path& example, Stage s, std::string* error) {
  SourceFile src(fs::relative(example, source_dir()).generic_string(), read_text(example));
  Compilation c = compile_spec(src, s == Stage::ast ? StopAfter::parse : s == Stage::ir ? StopAfter::lower : StopAfter::emit);
  bool lowered = c.config || c.memop || c.pipeline;
  if (!c.ok() || (s == Stage::ast && !c.ast) || (s == Stage::ir && !lowered) ||
      (s == Stage::cpp && !c.kernel)) {
    *error = fmt::format("{} does not compile to the {} stage ({} diagnostics)", src.name(), stage_name(s),
                         c.diags.diagnostics().size());
    for (const Diagnostic& d : c.diags.diagnostics()) *error += "\n  " + d.message;
    return "";
  }
  switch (s) {
    case Stage::ast: return dump_ast(src, *c.ast);
    case Stage::ir:
      return c.config  ? dump_ir(src, *c.config)
             : c.memop ? dump_memop_ir(src, *c.memop)
                       : dump_pipeline_ir(src, *c.pipeline);
    case Stage::cpp: return c.kernel->code;
  }
  return "";
}

/// What a snapshot holds of a stage's dump: emitted C++ with its pasted templates collapsed
/// (collapse_templates), any other stage as dumped. `error` names an unsound template marker.
TemplateText snapshot_of(Stage s, const std::string& dumped) {
  if (s != Stage::cpp) return {dumped, ""};
  TemplateText out = collapse_templates(dumped);
  if (!out.error.empty()) out.error = "the emitted code's " + out.error + " (an unsound template marker)";
  return out;
}

/// Empty when the stage's `dumped` text matches the snapshot `golden`; otherwise an unsound template marker or
/// the first differing line.
std::string snapshot_difference(Stage s, const std::string& golden, const std::string& dumped) {
  TemplateText actual = snapshot_of(s, dumped);
  return actual.error.empty() ? first_difference(golden, actual.text) : actual.error;
}

class GoldenSnapshot : public ::testing::TestWithParam<Param> {};

TEST_P(GoldenSnapshot, MatchesFile) {
  const Param& p = GetParam();
  std::string error;
  std::string dumped = dump(p.example, p.stage, &error);
  ASSERT_TRUE(error.empty()) << error;
  fs::path golden = golden_path(p.example, p.stage);
  std::string shown = fs::relative(golden, source_dir()).string();
  if (update_mode()) {
    TemplateText actual = snapshot_of(p.stage, dumped);
    ASSERT_TRUE(actual.error.empty()) << shown << ": " << actual.error;
    fs::create_directories(golden.parent_path());
    if (!fs::exists(golden) || read_text(golden) != actual.text) {
      std::ofstream out(golden, std::ios::binary | std::ios::trunc);
      out << actual.text;
      ASSERT_TRUE(out.good()) << "cannot write " << golden;
      std::cout << "[ UPDATED  ] " << shown << "\n";
    }
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << shown << " is missing; create it with `UCUT_UPDATE_GOLDEN=1 ctest -R golden` "
                                  << "and review it";
  std::string diff = snapshot_difference(p.stage, read_text(golden), dumped);
  EXPECT_TRUE(diff.empty()) << shown << " differs from what the compiler now produces at " << diff
                            << "\nIf the change is intended, rerun with UCUT_UPDATE_GOLDEN=1 and review the diff.";
}

std::vector<Param> all_params() {
  std::vector<Param> out;
  for (const fs::path& e : examples())
    for (Stage s : {Stage::ast, Stage::ir, Stage::cpp}) out.push_back({e, s});
  return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string name = info.param.example.stem().string() + "_" + stage_name(info.param.stage);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

// The lowercase prefix makes `ctest -R golden` select these.
INSTANTIATE_TEST_SUITE_P(golden, GoldenSnapshot, ::testing::ValuesIn(all_params()), param_name);

// A snapshot whose example was renamed or removed would otherwise rot unnoticed.
TEST(GoldenSnapshotFiles, golden_EveryFileHasAnExample) {
  std::vector<std::string> names;
  for (const fs::path& e : examples()) names.push_back(e.stem().string());
  ASSERT_FALSE(names.empty());
  struct Dir {
    fs::path path;
    std::string suffix;
  };
  fs::path g = source_dir() / "tests" / "golden";
  for (const Dir& d :
       {Dir{g / "parse", ".ast.txt"}, Dir{g / "lower", ".ir.txt"}, Dir{g / "emit" / "sm90", ".cu"},
        Dir{g / "emit" / "sm80", ".cu"}, Dir{g / "emit" / "memory", ".cu"}}) {
    if (!fs::is_directory(d.path)) continue;
    for (const auto& f : fs::directory_iterator(d.path)) {
      std::string file = f.path().filename().string();
      if (file.size() <= d.suffix.size() || file.compare(file.size() - d.suffix.size(), d.suffix.size(), d.suffix) != 0)
        continue;
      std::string stem = file.substr(0, file.size() - d.suffix.size());
      EXPECT_NE(std::find(names.begin(), names.end(), stem), names.end())
          << fs::relative(f.path(), source_dir()).string() << " has no examples/" << stem << ".ucut";
    }
  }
}

TEST(GoldenSnapshotFiles, golden_FirstDifferenceNamesTheLine) {
  EXPECT_EQ(first_difference("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(first_difference("a\nb\nc\n", "a\nX\nc\n"), "line 2:\n  golden: `b`\n  actual: `X`");
  EXPECT_EQ(first_difference("a\n", "a\nb\n"), "line 2:\n  golden: (end of file)\n  actual: `b`");
  EXPECT_NE(first_difference("a\n", "a"), "");
}

// The collapse hides only what its markers vouch for: each way an emitted kernel can drift from its golden is
// planted in a fresh one (an SM90 transposed convolution: four templates) and fails the comparison.
class GoldenCollapse : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    emitted_ = dump(source_dir() / "examples" / "conv_transpose2d_bias.ucut", Stage::cpp, &error);
    ASSERT_TRUE(error.empty()) << error;
    TemplateText golden = snapshot_of(Stage::cpp, emitted_);
    ASSERT_EQ(golden.error, "");
    golden_ = golden.text;
    ASSERT_EQ(difference(emitted_), "");
  }

  /// What the golden comparison says of `planted`.
  std::string difference(const std::string& planted) const {
    return snapshot_difference(Stage::cpp, golden_, planted);
  }

  /// Where template `name` was pasted in `code`: its begin marker to its end marker, inclusive.
  static std::pair<size_t, size_t> block(const std::string& code, const std::string& name) {
    size_t from = code.find("// ---- begin template " + name + " ");
    std::string end = "// ---- end template " + name + " ----\n";
    size_t to = code.find(end, from);
    EXPECT_NE(to, std::string::npos) << name;
    return {from, to + end.size()};
  }

  std::string emitted_;
  std::string golden_;
};

TEST_F(GoldenCollapse, golden_KernelCodeChangedFails) {
  auto [from, to] = block(emitted_, "transposed_runtime.inc");
  std::string after = emitted_;
  after.insert(to, "// planted\n");  // right after a template
  EXPECT_NE(difference(after).find("line "), std::string::npos);
  std::string before = emitted_;
  before.insert(from, "// planted\n");  // right before one
  EXPECT_NE(difference(before), "");
  std::string edited = emitted_;
  edited.replace(edited.find("ucut_phased<Adapter>"), 20, "ucut_phased<Other>");
  EXPECT_NE(difference(edited), "");
}

TEST_F(GoldenCollapse, golden_TemplateMovedMissingOrAddedFails) {
  auto [from, to] = block(emitted_, "transposed_runtime.inc");
  std::string text = emitted_.substr(from, to - from);
  std::string missing = emitted_;
  missing.erase(from, to - from);
  EXPECT_NE(difference(missing), "");
  std::string moved = missing;
  moved.insert(block(missing, "kernel_prologue.inc").first, text);  // pasted before the prologue instead
  EXPECT_NE(difference(moved), "");
  std::string twice = emitted_;
  twice.insert(to, text);
  EXPECT_NE(difference(twice), "");
}

TEST_F(GoldenCollapse, golden_TemplateTextOrHashChangedFails) {
  auto [from, to] = block(emitted_, "kernel_prologue.inc");
  std::string edited = emitted_;
  edited.insert(emitted_.find('\n', from) + 1, " ");  // the template's first line indented
  EXPECT_NE(difference(edited).find("is not that file"), std::string::npos) << difference(edited);
  std::string rehashed = emitted_;
  size_t hash = emitted_.find("(sha256 ", from) + 8;
  rehashed.replace(hash, 1, emitted_[hash] == '0' ? "1" : "0");
  EXPECT_NE(difference(rehashed).find("the marker says sha256"), std::string::npos) << difference(rehashed);
  std::string unended = emitted_;
  unended.erase(emitted_.rfind("// ---- end template", to - 2), std::string("// ---- end template").size());
  EXPECT_NE(difference(unended).find("has no end marker"), std::string::npos) << difference(unended);
}

}  // namespace
}  // namespace ucut
