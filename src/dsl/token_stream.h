// dsl/token_stream.h — the parser's view of the tokens (dsl/parser.cpp): lookahead past the stray characters,
// consuming, syntax errors reported once, and the skips that recover from them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/token.h"
#include "support/diag.h"

namespace ucut {

/// Unwinds the parser to its nearest recovery point; the diagnostic is already reported (or held back).
struct ParseError {};

/// A syntax error is reported unless the stream is recovering from an earlier one ("quiet"): from that error, or
/// from a skipped stray character, until a `,`, `)`, `.` or `>>` is consumed. Every error, reported or not, counts
/// as a failure; a parse_* that sees the count grow marks its node incomplete.
class TokenStream {
 public:
  TokenStream(const std::vector<Token>& toks, DiagEngine& diags);

 protected:
  const Token& peek(size_t ahead = 0) const;
  const Token& previous() const;
  bool at_ident(std::string_view word) const;

  /// Consumes the token in front; consuming `,`, `)`, `.` or `>>` ends the recovery, and brackets are counted.
  Token advance();
  /// Consumes the token in front while recovering: brackets are the caller's to count, errors stay quiet. A token
  /// that follows a stray character counts as a failure for the node that takes it (`row @ B`: was `@` a `,`?).
  void skip();
  /// advance() when the token in front is `kind`; otherwise a P003 naming `what` was expected.
  Token expect(Tok kind, std::string what, std::string_view hint);

  /// Records a syntax error at `at`: reported unless the stream is recovering, or `at` is a token the lexer already
  /// reported. Returns the diagnostic when it was reported.
  Diagnostic* fail(const Token& at, RuleId rule, std::string message, std::string_view hint);
  /// fail(), then unwind to the nearest recovery point.
  [[noreturn]] void error(const Token& at, RuleId rule, std::string message, std::string_view hint);
  /// "`gemm`", "`,`", "end of file".
  std::string describe(const Token& t) const;

  /// Skips to the next `,` or `)` of the argument list whose `(` left the depth at `base`; stops at the body's next
  /// `.` or `>>` (or the end) when the list never closes.
  void sync_args(int base);
  /// Skips the token in front and those after it up to the body's next `.`, `>>`, `stage` or `kernel` outside
  /// brackets (or the end).
  void sync_body();

  DiagEngine& diags_;
  int depth_ = 0;       // `(` and `[` consumed and not yet closed
  int failures_ = 0;    // syntax errors so far, reported or not: what makes a node incomplete
  bool quiet_ = false;  // recovering: syntax errors are not reported

 private:
  std::vector<Token> toks_;         // the lexer's tokens without the stray characters
  std::vector<bool> stray_before_;  // whether a stray character came just before toks_[i]
  size_t pos_ = 0;
};

}  // namespace ucut
