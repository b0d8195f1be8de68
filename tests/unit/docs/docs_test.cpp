// tests/unit/docs/docs_test.cpp — the docs agents read stay true: every ```ucut block of docs/dsl-guide.md checks
// clean and compiles; docs/grammar.ebnf stays short; every epilogue stage of ir/epilogues.def (aliases included) is
// documented in both; every C rule of support/rules.def is annotated in the grammar.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "ir/epilogue_ops.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

std::string read_doc(const char* rel) {
  fs::path p = fs::path(ucut::test_paths::source_dir()) / rel;
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in.good()) << p;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Block {
  int line;  // 1-based line of the opening fence
  std::string text;
};

std::vector<Block> ucut_blocks(const std::string& md) {
  std::vector<Block> out;
  static const std::regex fence(R"(```ucut\n([\s\S]*?)```)");
  for (auto it = std::sregex_iterator(md.begin(), md.end(), fence); it != std::sregex_iterator(); ++it) {
    int line = 1 + static_cast<int>(std::count(md.begin(), md.begin() + it->position(0), '\n'));
    out.push_back({line, (*it)[1]});
  }
  return out;
}

/// True when `word` occurs in `text` as a whole identifier (not inside a longer one).
bool has_word(const std::string& text, std::string_view word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t p = text.find(word); p != std::string::npos; p = text.find(word, p + 1)) {
    bool left = p == 0 || !ident(text[p - 1]);
    bool right = p + word.size() >= text.size() || !ident(text[p + word.size()]);
    if (left && right) return true;
  }
  return false;
}

std::string diagnostics(const SourceFile& src, const Compilation& c) {
  std::string out;
  for (const Diagnostic& d : c.diags.diagnostics()) {
    auto [l, col] = src.line_col(d.primary.begin);
    out += fmt::format("\n  {}:{}: {}: {}", l, col, rule_info(d.rule).code, d.message);
  }
  return out;
}

TEST(Docs, GuideHasUcutBlocks) { EXPECT_GE(ucut_blocks(read_doc("docs/dsl-guide.md")).size(), 5u); }

TEST(Docs, EveryGuideBlockChecksCleanAndCompiles) {
  for (const Block& b : ucut_blocks(read_doc("docs/dsl-guide.md"))) {
    SourceFile src(fmt::format("docs/dsl-guide.md:{}", b.line), b.text);
    Compilation checked = compile_spec(src, StopAfter::check);
    EXPECT_TRUE(checked.diags.diagnostics().empty())
        << "the ```ucut block at docs/dsl-guide.md:" << b.line << " has diagnostics:" << diagnostics(src, checked);
    Compilation emitted = compile_spec(src, StopAfter::emit);
    ASSERT_TRUE(emitted.kernel.has_value()) << "docs/dsl-guide.md:" << b.line << " does not compile to C++";
    // A GEMM's or convolution's host API is the kernel ABI's table; a family kernel's (map, reduce, rownorm, scan,
    // window, library call, sparse), its run function (emit/memory/<family>.cpp).
    const char* api = !emitted.memop          ? "ucut_kernel_api kApi"
                      : emitted.memop->reduce ? "int run_reduce("
                      : emitted.memop->norm   ? "int run_rownorm("
                      : emitted.memop->scan   ? "int run_scan("
                      : emitted.memop->window ? "int run_window("
                      : emitted.memop->library ? "int run_library("
                      : emitted.memop->sparse ? "int run_sparse("
                                              : "int run_map(";
    EXPECT_NE(emitted.kernel->code.find(api), std::string::npos);
  }
}

TEST(Docs, GrammarIsAtMost200Lines) {
  std::string g = read_doc("docs/grammar.ebnf");
  long lines = std::count(g.begin(), g.end(), '\n') + (!g.empty() && g.back() != '\n' ? 1 : 0);
  EXPECT_LE(lines, 200) << "docs/grammar.ebnf is meant to be read whole by an agent";
  EXPECT_GT(lines, 0);
}

TEST(Docs, EveryEpilogueStageIsInTheGuideAndTheGrammar) {
  std::string guide = read_doc("docs/dsl-guide.md");
  std::string grammar = read_doc("docs/grammar.ebnf");
  std::vector<std::string_view> names = epilogue_spellings();  // every row of epilogues.def, aliases included
  ASSERT_GE(names.size(), all_epilogues().size() + 1);
  EXPECT_NE(std::find(names.begin(), names.end(), "swish"), names.end());
  std::string missing_guide, missing_grammar;
  for (std::string_view n : names) {
    if (!has_word(guide, n)) missing_guide += fmt::format(" `{}`", n);
    if (!has_word(grammar, n)) missing_grammar += fmt::format(" `{}`", n);
  }
  EXPECT_TRUE(missing_guide.empty()) << "docs/dsl-guide.md does not mention:" << missing_guide;
  EXPECT_TRUE(missing_grammar.empty()) << "docs/grammar.ebnf does not mention:" << missing_grammar;
}

TEST(Docs, EveryCRuleIsAnnotatedInTheGrammar) {
  // P (syntax), L (lowering) and W (warning) rules need no annotation; every C rule is a constraint of the grammar's
  // constructs and is written `[Cxxx]` next to the construct it constrains.
  std::string grammar = read_doc("docs/grammar.ebnf");
  std::vector<std::string> missing;
  for (const RuleInfo& r : all_rules()) {
    if (r.code.empty() || r.code[0] != 'C') continue;
    if (!has_word(grammar, r.code)) missing.emplace_back(r.code);
  }
  std::string list;
  for (const std::string& m : missing) list += " " + m;
  EXPECT_TRUE(missing.empty()) << "docs/grammar.ebnf does not annotate these check rules:" << list;
}

TEST(Docs, GrammarMentionsNoUnknownRule) {
  // The reverse direction: an annotation naming a retired or mistyped id would send a reader nowhere.
  std::string grammar = read_doc("docs/grammar.ebnf");
  static const std::regex id(R"(\b([PLCW]\d{3})\b)");
  std::string unknown;
  for (auto it = std::sregex_iterator(grammar.begin(), grammar.end(), id); it != std::sregex_iterator(); ++it)
    if (!find_rule((*it)[1].str())) unknown += " " + (*it)[1].str();
  EXPECT_TRUE(unknown.empty()) << "docs/grammar.ebnf names rules that rules.def lacks:" << unknown;
}

}  // namespace
}  // namespace ucut
