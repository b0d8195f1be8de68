// tests/unit/dsl/lexer_test.cpp — dsl/lexer.cpp: token kinds, texts, byte spans and line:col; comments; number
// forms; and the P001/P002/P006 diagnostics for malformed input.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "dsl/lexer.h"

namespace ucut {
namespace {

struct Lexed {
  std::vector<Token> tokens;
  std::vector<Diagnostic> diags;
};

Lexed lex_text(const SourceFile& src) {
  DiagEngine d;
  std::vector<Token> toks = lex(src, d);
  return {toks, d.diagnostics()};
}

struct Expect {
  Tok kind;
  std::string text;
  int line, col;
};

std::string show(const SourceFile& src, const Token& t) {
  auto [l, c] = src.line_col(t.span.begin);
  return fmt::format("{} '{}' @{}:{}", tok_name(t.kind), t.text, l, c);
}

TEST(Lexer, MultiLineSpecWithCommentsGivesTokensWithSpans) {
  const std::string text =
      "# header comment: kernel x : sm80 ( is ignored\n"
      "kernel k : sm90a // trailing >> comment\n"
      "  gemm(A: bf16[M,K] row)\n"
      "// a whole-line comment\n"
      "  >> leaky_relu(1e-3) >> x(.5, 2.5E+2, 128)  # after\n";
  SourceFile src("lex.ucut", text);
  Lexed l = lex_text(src);
  EXPECT_TRUE(l.diags.empty());
  const std::vector<Expect> want = {
      {Tok::ident, "kernel", 2, 1},     {Tok::ident, "k", 2, 8},         {Tok::colon, ":", 2, 10},
      {Tok::ident, "sm90a", 2, 12},     {Tok::ident, "gemm", 3, 3},      {Tok::lparen, "(", 3, 7},
      {Tok::ident, "A", 3, 8},          {Tok::colon, ":", 3, 9},         {Tok::ident, "bf16", 3, 11},
      {Tok::lbracket, "[", 3, 15},      {Tok::ident, "M", 3, 16},        {Tok::comma, ",", 3, 17},
      {Tok::ident, "K", 3, 18},         {Tok::rbracket, "]", 3, 19},     {Tok::ident, "row", 3, 21},
      {Tok::rparen, ")", 3, 24},        {Tok::shift, ">>", 5, 3},        {Tok::ident, "leaky_relu", 5, 6},
      {Tok::lparen, "(", 5, 16},        {Tok::number, "1e-3", 5, 17},    {Tok::rparen, ")", 5, 21},
      {Tok::shift, ">>", 5, 23},        {Tok::ident, "x", 5, 26},        {Tok::lparen, "(", 5, 27},
      {Tok::number, ".5", 5, 28},       {Tok::comma, ",", 5, 30},        {Tok::number, "2.5E+2", 5, 32},
      {Tok::comma, ",", 5, 38},         {Tok::integer, "128", 5, 40},    {Tok::rparen, ")", 5, 43},
      {Tok::eof, "", 6, 1},
  };
  ASSERT_EQ(l.tokens.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const Token& t = l.tokens[i];
    auto [line, col] = src.line_col(t.span.begin);
    EXPECT_EQ(t.kind, want[i].kind) << i << ": " << show(src, t);
    EXPECT_EQ(t.text, want[i].text) << i << ": " << show(src, t);
    EXPECT_EQ(line, want[i].line) << i << ": " << show(src, t);
    EXPECT_EQ(col, want[i].col) << i << ": " << show(src, t);
    // The span covers exactly the token's text.
    EXPECT_EQ(text.substr(t.span.begin, t.span.end - t.span.begin), t.text) << i;
    EXPECT_FALSE(t.span.implied);
  }
  EXPECT_EQ(l.tokens.back().span.begin, text.size());
  EXPECT_EQ(l.tokens.back().span.end, text.size());
}

TEST(Lexer, NumberForms) {
  SourceFile src("n.ucut", "1e-3 .5 2.5E+2 128 0.01 7e2 3.25e-1 1E5");
  Lexed l = lex_text(src);
  EXPECT_TRUE(l.diags.empty());
  std::vector<std::pair<Tok, std::string>> got;
  for (const Token& t : l.tokens) got.emplace_back(t.kind, std::string(t.text));
  EXPECT_EQ(got, (std::vector<std::pair<Tok, std::string>>{{Tok::number, "1e-3"},
                                                           {Tok::number, ".5"},
                                                           {Tok::number, "2.5E+2"},
                                                           {Tok::integer, "128"},
                                                           {Tok::number, "0.01"},
                                                           {Tok::number, "7e2"},
                                                           {Tok::number, "3.25e-1"},
                                                           {Tok::number, "1E5"},
                                                           {Tok::eof, ""}}));
}

TEST(Lexer, NumberEdgesSplitWithoutErrors) {
  // `1.` is an integer then a dot (a call may follow); `1.5.2` is `1.5` then `.2`.
  SourceFile src("n.ucut", "1. a.b 1.5.2");
  Lexed l = lex_text(src);
  EXPECT_TRUE(l.diags.empty());
  std::vector<std::pair<Tok, std::string>> got;
  for (const Token& t : l.tokens) got.emplace_back(t.kind, std::string(t.text));
  EXPECT_EQ(got, (std::vector<std::pair<Tok, std::string>>{{Tok::integer, "1"},
                                                           {Tok::dot, "."},
                                                           {Tok::ident, "a"},
                                                           {Tok::dot, "."},
                                                           {Tok::ident, "b"},
                                                           {Tok::number, "1.5"},
                                                           {Tok::number, ".2"},
                                                           {Tok::eof, ""}}));
}

TEST(Lexer, ExponentWithoutDigitsIsP002) {
  // `2e` and `2e+` (no exponent digits): the number runs into the name `e`, one P002 over `2e`.
  for (const char* text : {"2e", "2e+1x", "2e+"}) {
    SourceFile src("n.ucut", text);
    Lexed l = lex_text(src);
    ASSERT_EQ(l.diags.size(), 1u) << text;
    EXPECT_EQ(l.diags[0].rule, RuleId::P002) << text;
    EXPECT_EQ(l.diags[0].primary.begin, 0u) << text;
  }
  SourceFile src("n.ucut", "2e+");
  Lexed l = lex_text(src);
  ASSERT_EQ(l.tokens.size(), 3u);
  EXPECT_EQ(l.tokens[0].text, "2e");
  EXPECT_EQ(l.tokens[1].kind, Tok::plus);
}

TEST(Lexer, OperatorsAndShift) {
  SourceFile src("o.ucut", ">> >>>> : , . ( ) [ ] = + - * / _x9");
  Lexed l = lex_text(src);
  EXPECT_TRUE(l.diags.empty());
  std::vector<Tok> kinds;
  for (const Token& t : l.tokens) kinds.push_back(t.kind);
  EXPECT_EQ(kinds, (std::vector<Tok>{Tok::shift, Tok::shift, Tok::shift, Tok::colon, Tok::comma, Tok::dot,
                                     Tok::lparen, Tok::rparen, Tok::lbracket, Tok::rbracket, Tok::equals, Tok::plus,
                                     Tok::minus, Tok::star, Tok::slash, Tok::ident, Tok::eof}));
  EXPECT_EQ(l.tokens[2].span.begin, 5u);  // `>>>>` is two shifts
}

TEST(Lexer, CommentsRunToEndOfLineOnly) {
  SourceFile src("c.ucut", "a # b c\nd // e\n//\n#\nf/g");
  Lexed l = lex_text(src);
  EXPECT_TRUE(l.diags.empty());
  std::vector<std::string> texts;
  for (const Token& t : l.tokens) texts.emplace_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "d", "f", "/", "g", ""}));
  auto [line, col] = src.line_col(l.tokens[2].span.begin);
  EXPECT_EQ(line, 5);
  EXPECT_EQ(col, 1);
}

TEST(Lexer, NumberRunIntoANameIsOneP002) {
  SourceFile src("e.ucut", "kernel k : sm90a\n  x(2x, 3)\n");
  Lexed l = lex_text(src);
  ASSERT_EQ(l.diags.size(), 1u);
  EXPECT_EQ(l.diags[0].rule, RuleId::P002);
  auto [line, col] = src.line_col(l.diags[0].primary.begin);
  EXPECT_EQ(line, 2);
  EXPECT_EQ(col, 5);
  EXPECT_EQ(l.diags[0].primary.end - l.diags[0].primary.begin, 2u);  // covers `2x`
  // The bad token becomes one error token; lexing goes on.
  EXPECT_EQ(l.tokens[6].kind, Tok::error);
  EXPECT_EQ(l.tokens[6].text, "2x");
  EXPECT_EQ(l.tokens[7].kind, Tok::comma);
}

TEST(Lexer, StrayCharacterIsOneP001) {
  SourceFile src("e.ucut", "kernel k : sm90a\n  gemm(A @ B)\n");
  Lexed l = lex_text(src);
  ASSERT_EQ(l.diags.size(), 1u);
  EXPECT_EQ(l.diags[0].rule, RuleId::P001);
  auto [line, col] = src.line_col(l.diags[0].primary.begin);
  EXPECT_EQ(line, 2);
  EXPECT_EQ(col, 10);
  EXPECT_NE(l.diags[0].message.find("`@`"), std::string::npos) << l.diags[0].message;
}

TEST(Lexer, SingleGreaterThanHintsAtShift) {
  SourceFile src("e.ucut", "a > b");
  Lexed l = lex_text(src);
  ASSERT_EQ(l.diags.size(), 1u);
  EXPECT_EQ(l.diags[0].rule, RuleId::P001);
  EXPECT_EQ(l.diags[0].primary.begin, 2u);
  ASSERT_TRUE(l.diags[0].hint);
  EXPECT_NE(l.diags[0].hint->text.find("`>>`"), std::string::npos);
}

TEST(Lexer, NonAsciiCharacterIsOneTokenAndOneP001) {
  SourceFile src("e.ucut", "a \xc3\xa9 b");  // é
  Lexed l = lex_text(src);
  ASSERT_EQ(l.diags.size(), 1u);
  EXPECT_EQ(l.diags[0].rule, RuleId::P001);
  EXPECT_EQ(l.diags[0].primary.begin, 2u);
  EXPECT_EQ(l.diags[0].primary.end, 4u);  // both bytes of the UTF-8 sequence
  EXPECT_NE(l.diags[0].message.find("`\xc3\xa9` (U+00E9)"), std::string::npos) << l.diags[0].message;
  ASSERT_EQ(l.tokens.size(), 4u);
  EXPECT_EQ(l.tokens[1].kind, Tok::stray);  // the parser skips it
  EXPECT_EQ(l.tokens[2].text, "b");
}

TEST(Lexer, ControlAndInvalidBytesAreOneP001EachNamedByValue) {
  SourceFile src("e.ucut", std::string("a \x00\x1b \xc3 \x80 b", 10));
  Lexed l = lex_text(src);
  ASSERT_EQ(l.diags.size(), 4u);  // NUL, ESC, a lead byte with no continuation, a lone continuation byte
  const char* named[] = {"byte 0x00", "byte 0x1b", "byte 0xc3", "byte 0x80"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(l.diags[i].rule, RuleId::P001);
    EXPECT_NE(l.diags[i].message.find(named[i]), std::string::npos) << l.diags[i].message;
    EXPECT_EQ(l.diags[i].primary.end - l.diags[i].primary.begin, 1u);
  }
  EXPECT_EQ(l.tokens.back().kind, Tok::eof);
}

TEST(Lexer, OversizedInputIsOneP006AtTheStart) {
  std::string text = "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n  >> store(D: bf16[M,N] row)\n";
  text += "#" + std::string(300 * 1024 - text.size() - 2, 'x') + "\n";
  ASSERT_EQ(text.size(), 300u * 1024u);
  SourceFile src("big.ucut", text);
  Lexed l = lex_text(src);
  ASSERT_EQ(l.diags.size(), 1u);
  EXPECT_EQ(l.diags[0].rule, RuleId::P006);
  EXPECT_EQ(l.diags[0].primary.begin, 0u);
  ASSERT_EQ(l.tokens.size(), 1u);
  EXPECT_EQ(l.tokens[0].kind, Tok::eof);
  // The limit itself is accepted.
  std::string at_limit = text.substr(0, kMaxSpecBytes - 1) + "\n";
  ASSERT_EQ(at_limit.size(), kMaxSpecBytes);
  EXPECT_TRUE(lex_text(SourceFile("limit.ucut", at_limit)).diags.empty());
}

}  // namespace
}  // namespace ucut
