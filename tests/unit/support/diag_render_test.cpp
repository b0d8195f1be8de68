// tests/unit/support/diag_render_test.cpp — support/diag_render.cpp: what reaches a terminal is safe (control bytes
// and invalid UTF-8 escaped as \xNN, valid UTF-8 kept), the caret stays under the bytes it marks (tabs repeated,
// escapes counted at their printed width), and an engine that dropped errors says how many.
#include "support/diag_render.h"

#include <gtest/gtest.h>

namespace ucut {
namespace {

/// The two snippet lines of a diagnostic's rendering: the source line and the caret line, without the gutters.
std::pair<std::string, std::string> snippet(const std::string& text, const Diagnostic& d) {
  SourceFile src("s.ucut", text);
  std::string out = render_text(src, d);
  size_t a = out.find('\n') + 1, b = out.find('\n', a) + 1, c = out.find('\n', b);
  return {out.substr(a + 7, b - a - 8), out.substr(b + 7, c - b - 7)};
}

Diagnostic at(uint32_t begin, uint32_t end) {
  return Diagnostic{RuleId::P001, Severity::error, {begin, end}, "m", {}, {}};
}

TEST(DiagRender, PrintableEscapesWhatATerminalWouldActOn) {
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x1b[2J\x7f"), "\\x1b[2J\\x7f");
  EXPECT_EQ(printable("tab\there\nnext"), "tab\there\nnext");
  EXPECT_EQ(printable("caf\xc3\xa9 \xc3 \x80"), "caf\xc3\xa9 \\xc3 \\x80");  // é kept; a cut sequence escaped
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");                  // a surrogate is not UTF-8
}

TEST(DiagRender, TheCaretStaysUnderEscapedBytes) {
  auto [line, caret] = snippet(std::string("ab\0\x1b" "cd\n", 7), at(3, 4));  // the ESC after a NUL
  EXPECT_EQ(line, "ab\\x00\\x1bcd");
  EXPECT_EQ(caret, "      ^^^^");
}

TEST(DiagRender, TheCaretFollowsTabsAndCountsACharacterOnce) {
  auto [line, caret] = snippet("\tx \xc3\x97 y @\n", at(8, 9));  // `@` after a tab and a ×
  EXPECT_EQ(line, "\tx \xc3\x97 y @");
  EXPECT_EQ(caret, "\t      ^");
  auto [l2, c2] = snippet("a \xc3\x97 b\n", at(2, 4));  // the × itself: one column
  EXPECT_EQ(c2, "  ^");
}

TEST(DiagRender, EveryDiagnosticIsPrintedPastANul) {
  SourceFile src("s.ucut", std::string("\0 \x01\n", 4));
  std::vector<Diagnostic> ds = {at(0, 1), at(2, 3)};
  std::string out = render_text(src, ds);
  EXPECT_EQ(out.find('\0'), std::string::npos);
  EXPECT_NE(out.find("s.ucut:1:1: error[P001]"), std::string::npos) << out;
  EXPECT_NE(out.find("s.ucut:1:3: error[P001]"), std::string::npos) << out;
}

TEST(DiagRender, DroppedErrorsAreCounted) {
  SourceFile src("s.ucut", "x\n");
  DiagEngine diags;
  for (int i = 0; i < DiagEngine::kMaxErrors + 7; ++i) diags.report(RuleId::P001, Span{0, 1}, "m");
  EXPECT_EQ(diags.diagnostics().size(), static_cast<size_t>(DiagEngine::kMaxErrors));
  EXPECT_EQ(diags.dropped(), 7);
  std::string out = render_text(src, diags);
  EXPECT_TRUE(out.ends_with("... and 7 more errors (the first 50 are shown)\n")) << out;
}

}  // namespace
}  // namespace ucut
