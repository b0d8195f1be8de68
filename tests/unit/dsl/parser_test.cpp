// tests/unit/dsl/parser_test.cpp — dsl/parser.cpp: the AST of a real spec with its spans, exactly one P00x
// diagnostic, at the right line:col, for each kind of malformed input, and recovery: after an error the parser goes
// on at the next `,`, `)`, `.` or `>>`, reports each independent error once, and marks what it lost.
#include "dsl/parser.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "../test_paths.h"
#include "dsl/lexer.h"

namespace ucut {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string slice(const SourceFile& src, Span s) { return src.text().substr(s.begin, s.end - s.begin); }

std::string at(const SourceFile& src, Span s) {
  auto [l, c] = src.line_col(s.begin);
  return fmt::format("{}:{}", l, c);
}

struct Parsed {
  std::optional<SpecAst> ast;
  std::vector<Diagnostic> diags;
};

Parsed parse_text(const SourceFile& src) {
  DiagEngine d;
  auto ast = parse_source(src, d);
  return {std::move(ast), d.diagnostics()};
}

/// Parses `text`; expects exactly one diagnostic, `rule` at `line:col`, and no AST.
void expect_one(const std::string& text, RuleId rule, int line, int col) {
  SourceFile src("bad.ucut", text);
  Parsed p = parse_text(src);
  EXPECT_FALSE(p.ast.has_value()) << text;
  ASSERT_EQ(p.diags.size(), 1u) << text;
  EXPECT_EQ(rule_info(p.diags[0].rule).code, rule_info(rule).code) << p.diags[0].message << "\n" << text;
  auto [l, c] = src.line_col(p.diags[0].primary.begin);
  EXPECT_EQ(l, line) << p.diags[0].message << "\n" << text;
  EXPECT_EQ(c, col) << p.diags[0].message << "\n" << text;
  EXPECT_EQ(p.diags[0].severity, Severity::error);
  EXPECT_TRUE(p.diags[0].hint.has_value()) << "every parse error carries a hint: " << p.diags[0].message;
}

const char* kHeader = "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n";

TEST(Parser, MlpUpExampleAst) {
  SourceFile src("examples/mlp_up.ucut",
                 read_text(std::filesystem::path(ucut::test_paths::source_dir()) / "examples" / "mlp_up.ucut"));
  Parsed p = parse_text(src);
  ASSERT_TRUE(p.diags.empty());
  ASSERT_TRUE(p.ast.has_value());
  ASSERT_EQ(p.ast->kernels.size(), 1u);
  const KernelAst& k = p.ast->kernels[0];
  EXPECT_EQ(k.name.value, "mlp_up");
  EXPECT_EQ(k.arch.value, "sm90a");
  EXPECT_EQ(slice(src, k.span), "kernel mlp_up : sm90a");
  EXPECT_EQ(at(src, k.span), "2:1");
  EXPECT_EQ(at(src, k.name.span), "2:8");
  EXPECT_EQ(at(src, k.arch.span), "2:17");
  EXPECT_TRUE(slice(src, k.whole).starts_with("kernel mlp_up : sm90a\n"));
  EXPECT_TRUE(slice(src, k.whole).ends_with(">> store(D: bf16[M,N] row)"));

  // The operator call with its three declarations.
  EXPECT_EQ(k.op.name.value, "gemm");
  EXPECT_TRUE(k.op.has_parens);
  EXPECT_EQ(slice(src, k.op.span), "gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)");
  EXPECT_EQ(at(src, k.op.span), "3:3");
  ASSERT_EQ(k.op.args.size(), 3u);
  const char* keys[] = {"A", "B", "acc"};
  const char* texts[] = {"A: bf16[M,K] row", "B: bf16[K,N] col", "acc: f32"};
  const char* where[] = {"3:8", "3:26", "3:44"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(k.op.args[i].kind, Arg::Kind::declaration);
    EXPECT_EQ(k.op.args[i].key.value, keys[i]);
    EXPECT_EQ(slice(src, k.op.args[i].span), texts[i]);
    EXPECT_EQ(at(src, k.op.args[i].span), where[i]);
  }
  const auto* a = std::get_if<TensorType>(&k.op.args[0].value->node);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->dtype.value, "bf16");
  ASSERT_EQ(a->dims.size(), 2u);
  EXPECT_EQ(a->dims[0].symbol, "M");
  EXPECT_EQ(a->dims[1].symbol, "K");
  EXPECT_EQ(at(src, a->dims[0].span), "3:16");
  EXPECT_EQ(at(src, a->dims[1].span), "3:18");
  ASSERT_EQ(a->modifiers.size(), 1u);
  EXPECT_EQ(a->modifiers[0].name.value, "row");
  EXPECT_FALSE(a->modifiers[0].has_parens);
  EXPECT_EQ(slice(src, k.op.args[0].value->span), "bf16[M,K] row");
  const auto* acc = std::get_if<NameRef>(&k.op.args[2].value->node);
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->name, "f32");

  // Three configuration calls (spans start at the name, after the `.`).
  ASSERT_EQ(k.configs.size(), 3u);
  EXPECT_EQ(slice(src, k.configs[0].span), "with_threadblockshape(128, 256, 64)");
  EXPECT_EQ(at(src, k.configs[0].span), "4:6");
  ASSERT_EQ(k.configs[0].args.size(), 3u);
  const int64_t tile[] = {128, 256, 64};
  for (size_t i = 0; i < 3; ++i) {
    const auto* n = std::get_if<NumberLit>(&k.configs[0].args[i].value->node);
    ASSERT_NE(n, nullptr);
    EXPECT_TRUE(n->is_integer);
    EXPECT_EQ(n->int_value, tile[i]);
    EXPECT_EQ(k.configs[0].args[i].kind, Arg::Kind::positional);
  }
  EXPECT_EQ(at(src, k.configs[0].args[1].span), "4:33");
  EXPECT_EQ(slice(src, k.configs[1].span), "with_cluster(2, 1, 1)");
  EXPECT_EQ(at(src, k.configs[1].span), "5:6");
  EXPECT_EQ(slice(src, k.configs[2].span), "with_scheduler(tma_cooperative)");
  EXPECT_EQ(at(src, k.configs[2].span), "6:6");

  // Three stages: a call, a bare name, a call with a declaration.
  ASSERT_EQ(k.stages.size(), 3u);
  EXPECT_EQ(slice(src, k.stages[0].span), "bias(col)");
  EXPECT_EQ(at(src, k.stages[0].span), "7:6");
  EXPECT_TRUE(k.stages[0].has_parens);
  ASSERT_EQ(k.stages[0].args.size(), 1u);
  EXPECT_EQ(k.stages[0].args[0].kind, Arg::Kind::positional);
  EXPECT_EQ(slice(src, k.stages[1].span), "gelu_tanh");
  EXPECT_EQ(at(src, k.stages[1].span), "8:6");
  EXPECT_FALSE(k.stages[1].has_parens);
  EXPECT_TRUE(k.stages[1].args.empty());
  EXPECT_EQ(slice(src, k.stages[2].span), "store(D: bf16[M,N] row)");
  EXPECT_EQ(at(src, k.stages[2].span), "9:6");
  ASSERT_EQ(k.stages[2].args.size(), 1u);
  EXPECT_EQ(k.stages[2].args[0].key.value, "D");
}

TEST(Parser, ExpressionsKeepPrecedenceAndSpans) {
  SourceFile src("e.ucut", std::string(kHeader) + "  >> clamp(lo = -1 - 2 * 3, hi = (1 + 2) / 4) >> store(D: bf16[M,N] row)\n");
  Parsed p = parse_text(src);
  ASSERT_TRUE(p.ast) << (p.diags.empty() ? "" : p.diags[0].message);
  const Call& clamp = p.ast->kernels[0].stages[0];
  ASSERT_EQ(clamp.args.size(), 2u);
  EXPECT_EQ(clamp.args[0].kind, Arg::Kind::keyword);
  // lo = (-1) - (2 * 3)
  const auto* sub = std::get_if<Binary>(&clamp.args[0].value->node);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->op, '-');
  EXPECT_NE(std::get_if<Unary>(&sub->lhs->node), nullptr);
  const auto* mul = std::get_if<Binary>(&sub->rhs->node);
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->op, '*');
  EXPECT_EQ(slice(src, clamp.args[0].value->span), "-1 - 2 * 3");
  // hi = (1 + 2) / 4, the parenthesised span includes the parentheses
  const auto* div = std::get_if<Binary>(&clamp.args[1].value->node);
  ASSERT_NE(div, nullptr);
  EXPECT_EQ(div->op, '/');
  EXPECT_EQ(slice(src, div->lhs->span), "(1 + 2)");
  EXPECT_EQ(slice(src, clamp.args[1].span), "hi = (1 + 2) / 4");
}

TEST(Parser, NumberRunIntoANameIsOneP002) {
  expect_one(std::string(kHeader) + "    .with_threadblockshape(128, 2x, 64)\n  >> store(D: bf16[M,N] row)\n",
             RuleId::P002, 3, 33);
}

TEST(Parser, StrayCharacterIsOneP001) {
  expect_one("kernel k : sm90a\n  gemm(A: bf16[M,K] row @ B)\n", RuleId::P001, 2, 25);
}

TEST(Parser, UnterminatedParenthesisIsOneP003AtTheEnd) {
  // The argument list of `gemm` never closes: the error is at the end of the file (line 3, column 1).
  expect_one("kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col\n", RuleId::P003, 3, 1);
  // An unclosed group inside an argument: the next token that cannot continue it is the `>>` on the next line.
  expect_one(std::string(kHeader) + "  >> scale((1 + 2)\n  >> store(D: bf16[M,N] row)\n", RuleId::P003, 4, 3);
  // An unclosed extent list.
  expect_one("kernel k : sm90a\n  gemm(A: bf16[M,K row)\n", RuleId::P003, 2, 20);
}

TEST(Parser, NestingDeeperThan32IsOneP005) {
  auto nested = [](int depth) {
    return std::string(kHeader) + "  >> scale(" + std::string(depth, '(') + "1" + std::string(depth, ')') +
           ")\n  >> store(D: bf16[M,N] row)\n";
  };
  // 32 levels parse.
  SourceFile ok("ok.ucut", nested(32));
  Parsed p = parse_text(ok);
  EXPECT_TRUE(p.ast.has_value());
  EXPECT_TRUE(p.diags.empty());
  // 33 levels: the caret is at the first token past the limit, the `1` after the 33rd `(` (column 12 + 33).
  expect_one(nested(33), RuleId::P005, 3, 45);
  // 40 levels: the 34th `(` (tests/golden/check/P005.ucut puts it at the same place).
  expect_one(nested(40), RuleId::P005, 3, 45);
  // Nested calls and unary minus count too; nothing recurses without bound.
  std::string calls;
  for (int i = 0; i < 200; ++i) calls += "f(";
  calls += "1" + std::string(200, ')');
  SourceFile deep("deep.ucut", std::string(kHeader) + "  >> scale(" + calls + ")\n  >> store(D: bf16[M,N] row)\n");
  Parsed d = parse_text(deep);
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(d.diags[0].rule, RuleId::P005);
  SourceFile minus("minus.ucut", std::string(kHeader) + "  >> scale(" + std::string(500, '-') + "1)\n");
  Parsed m = parse_text(minus);
  ASSERT_EQ(m.diags.size(), 1u);
  EXPECT_EQ(m.diags[0].rule, RuleId::P005);
}

TEST(Parser, SecondKernelIsOneP007) {
  expect_one(std::string(kHeader) + "  >> store(D: bf16[M,N] row)\nkernel k2 : sm90a\n  gemm(A: f16[M,K] row)\n",
             RuleId::P007, 4, 1);
}

TEST(Parser, MissingKernelIsOneP004) {
  expect_one("# just a comment\n  gemm(A: bf16[M,K] row)\n", RuleId::P004, 2, 3);
  expect_one("", RuleId::P004, 1, 1);
  expect_one("# only comments\n", RuleId::P004, 2, 1);
}

TEST(Parser, TrailingGarbageIsOneP003) {
  expect_one(std::string(kHeader) + "  >> store(D: bf16[M,N] row) 42\n", RuleId::P003, 3, 30);
  expect_one(std::string(kHeader) + "  >> \n", RuleId::P003, 4, 1);
}

TEST(Parser, OversizedInputIsOneP006AtTheStart) {
  std::string text = std::string(kHeader) + "  >> store(D: bf16[M,N] row)\n";
  text += "#" + std::string(300 * 1024 - text.size() - 2, 'x') + "\n";
  ASSERT_EQ(text.size(), 300u * 1024u);
  expect_one(text, RuleId::P006, 1, 1);
}

TEST(Parser, IntegerTooLargeIsOneP002) {
  expect_one(std::string(kHeader) + "    .with_stages(99999999999999999999)\n  >> store(D: bf16[M,N] row)\n",
             RuleId::P002, 3, 18);
}

/// The recovering parse (what compile_spec runs): the partial tree and every diagnostic.
Parsed recover(const SourceFile& src) {
  DiagEngine d;
  auto ast = parse_with_recovery(src, d);
  return {std::move(ast), d.diagnostics()};
}

std::vector<std::string> places(const SourceFile& src, const Parsed& p) {
  std::vector<std::string> out;
  for (const Diagnostic& d : p.diags) out.push_back(std::string(rule_info(d.rule).code) + " " + at(src, d.primary));
  return out;
}

TEST(ParserRecovery, EachArgumentListGoesOnAtItsNextCommaOrParenthesis) {
  SourceFile src("r.ucut",
                 "kernel k : sm90a\n"
                 "  gemm(A: bf16[M,-K] row, B: bf16[K,N] col, acc: f32)\n"
                 "    .with_threadblockshape(128, , 64)\n"
                 "    .with_cluster(2, 1, 1)\n"
                 "  >> scale(alpha = )\n"
                 "  >> store(D: bf16[M,N] row)\n");
  Parsed p = recover(src);
  EXPECT_EQ(places(src, p), (std::vector<std::string>{"P003 2:18", "P003 3:33", "P003 5:20"}));
  ASSERT_TRUE(p.ast);
  const KernelAst& k = p.ast->kernels[0];
  EXPECT_FALSE(k.incomplete) << "no configuration call or stage was lost";
  EXPECT_TRUE(k.op.incomplete);
  ASSERT_EQ(k.op.args.size(), 2u);  // A is lost; B and acc parsed
  EXPECT_EQ(k.op.args[0].key.value, "B");
  EXPECT_FALSE(k.op.args[0].incomplete);
  EXPECT_EQ(k.op.args[1].key.value, "acc");
  ASSERT_EQ(k.configs.size(), 2u);
  EXPECT_TRUE(k.configs[0].incomplete);
  EXPECT_EQ(k.configs[0].args.size(), 2u);
  EXPECT_FALSE(k.configs[1].incomplete);
  ASSERT_EQ(k.stages.size(), 2u);
  EXPECT_TRUE(k.stages[0].incomplete);
  EXPECT_FALSE(k.stages[1].incomplete);
  EXPECT_EQ(slice(src, k.stages[1].span), "store(D: bf16[M,N] row)");
}

TEST(ParserRecovery, WhatFollowsAnErrorBeforeTheParserFindsItsFootingIsNotReported) {
  // `(1 + 2 3)`: the `3` ends nothing the parser opened; skipping to the `)` of `scale` leaves no second error.
  SourceFile src("r.ucut", std::string(kHeader) + "  >> scale((1 + 2 3))\n  >> store(D: bf16[M,N] row)\n");
  Parsed p = recover(src);
  EXPECT_EQ(places(src, p), (std::vector<std::string>{"P003 3:19"}));
  ASSERT_TRUE(p.ast);
  ASSERT_EQ(p.ast->kernels[0].stages.size(), 2u);
  EXPECT_TRUE(p.ast->kernels[0].stages[0].incomplete);
  // An unclosed list ends at the body's next `.` or `>>`; the rest of the body is read.
  SourceFile open("o.ucut", "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col\n    .with_cluster(2, 1, 1)\n"
                            "  >> store(D: bf16[M,N] row)\n");
  Parsed o = recover(open);
  EXPECT_EQ(places(open, o), (std::vector<std::string>{"P003 3:5"}));
  ASSERT_TRUE(o.ast);
  EXPECT_TRUE(o.ast->kernels[0].op.incomplete);
  EXPECT_EQ(o.ast->kernels[0].configs.size(), 1u);
  EXPECT_EQ(o.ast->kernels[0].stages.size(), 1u);
}

TEST(ParserRecovery, AStrayCharacterIsSkippedAndWhatTakesTheNextTokenIsIncomplete) {
  // Around the name, the header reads on: only the lexer's two P001s.
  SourceFile quoted("q.ucut", "kernel \"k\" : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n"
                              "  >> store(D: bf16[M,N] row)\n");
  Parsed q = recover(quoted);
  EXPECT_EQ(places(quoted, q), (std::vector<std::string>{"P001 1:8", "P001 1:10"}));
  ASSERT_TRUE(q.ast);
  EXPECT_EQ(q.ast->kernels[0].name.value, "k");
  EXPECT_FALSE(q.ast->kernels[0].incomplete);
  EXPECT_FALSE(q.ast->kernels[0].op.incomplete);
  // Between two tokens of an argument, `@` may have been a `,`: the argument that reads on past it is incomplete.
  SourceFile at_sign("a.ucut", "kernel k : sm90a\n  gemm(A: bf16[M,K] row @ B: bf16[K,N] col)\n");
  Parsed a = recover(at_sign);
  EXPECT_EQ(places(at_sign, a), (std::vector<std::string>{"P001 2:25"}));
  ASSERT_TRUE(a.ast);
  EXPECT_TRUE(a.ast->kernels[0].op.incomplete);
  // A lone `>` before a stage: the stage is lost and the kernel is incomplete, with no error beyond the P001.
  SourceFile gt("g.ucut", std::string(kHeader) + "  > store(D: bf16[M,N] row)\n");
  Parsed g = recover(gt);
  EXPECT_EQ(places(gt, g), (std::vector<std::string>{"P001 3:3"}));
  ASSERT_TRUE(g.ast);
  EXPECT_TRUE(g.ast->kernels[0].incomplete);
}

TEST(ParserRecovery, TheHeaderReadsOnPastAMissingPiece) {
  SourceFile colon("c.ucut", "kernel k sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n");
  Parsed c = recover(colon);
  EXPECT_EQ(places(colon, c), (std::vector<std::string>{"P003 1:10"}));
  ASSERT_TRUE(c.ast);
  EXPECT_EQ(c.ast->kernels[0].arch.value, "sm90a");  // as if the `:` were there
  SourceFile number("n.ucut", "kernel k : 90\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n");
  Parsed n = recover(number);
  EXPECT_EQ(places(number, n), (std::vector<std::string>{"P003 1:12"}));
  ASSERT_TRUE(n.ast);
  EXPECT_TRUE(n.ast->kernels[0].arch.value.empty());  // lowering skips what did not parse
  EXPECT_EQ(n.ast->kernels[0].op.name.value, "gemm");
  // `gemm(` right after the `:` is the operator: the arch is missing, not the operator.
  SourceFile no_arch("a.ucut", "kernel k :\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n");
  Parsed a = recover(no_arch);
  EXPECT_EQ(places(no_arch, a), (std::vector<std::string>{"P003 2:3"}));
  ASSERT_TRUE(a.ast);
  EXPECT_TRUE(a.ast->kernels[0].arch.value.empty());
  EXPECT_EQ(a.ast->kernels[0].op.name.value, "gemm");
  // An arch with a parenthesis on the next line is the arch: the operator's name is missing.
  SourceFile no_op("o.ucut", "kernel k : sm90a\n  (A: bf16[M,K] row, B: bf16[K,N] col)\n");
  Parsed o = recover(no_op);
  EXPECT_EQ(places(no_op, o), (std::vector<std::string>{"P003 2:3"}));
  ASSERT_TRUE(o.ast);
  EXPECT_EQ(o.ast->kernels[0].arch.value, "sm90a");
}

TEST(ParserRecovery, AMisspeltKeywordIsNamedAndReadAsTheKeyword) {
  SourceFile src("m.ucut", "kernal k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n");
  Parsed p = recover(src);
  ASSERT_EQ(p.diags.size(), 1u);
  EXPECT_EQ(p.diags[0].rule, RuleId::P004);
  ASSERT_TRUE(p.diags[0].hint && p.diags[0].hint->edit);
  EXPECT_EQ(p.diags[0].hint->text, "did you mean `kernel`?");
  EXPECT_EQ(p.diags[0].hint->edit->replacement, "kernel");
  EXPECT_EQ(p.diags[0].hint->applicability, Applicability::machine_applicable);
  ASSERT_TRUE(p.ast);
  EXPECT_EQ(p.ast->kernels[0].arch.value, "sm90a");
  // Prose is not a header: one P004, nothing read.
  Parsed prose = recover(SourceFile("p.ucut", "kernels are great\n"));
  ASSERT_EQ(prose.diags.size(), 1u);
  EXPECT_FALSE(prose.ast);
}

TEST(ParserRecovery, AnyInputEndsWithCountedErrors) {
  // Every byte value, in a pattern that defeats each recovery point: lexing and parsing end, the errors past the
  // cap are counted.
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919) & 0xff);
  DiagEngine d;
  parse_with_recovery(SourceFile("junk.ucut", std::string(kHeader) + "  >> scale(" + junk), d);
  EXPECT_EQ(d.diagnostics().size(), static_cast<size_t>(DiagEngine::kMaxErrors));
  EXPECT_GT(d.dropped(), 0);
  EXPECT_EQ(d.error_count(), DiagEngine::kMaxErrors + d.dropped());
}

}  // namespace
}  // namespace ucut
