// dsl/token_stream.cpp — lookahead, consuming, error reporting and recovery skips for the parser.
#include "dsl/token_stream.h"

#include <fmt/format.h>

namespace ucut {

TokenStream::TokenStream(const std::vector<Token>& toks, DiagEngine& diags) : diags_(diags) {
  bool stray = false;
  for (const Token& t : toks) {
    if (t.kind == Tok::stray) {
      stray = true;
      continue;
    }
    toks_.push_back(t);
    stray_before_.push_back(stray);
    stray = false;
  }
  quiet_ = stray_before_.front();
}

const Token& TokenStream::peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

const Token& TokenStream::previous() const { return toks_[pos_ > 0 ? pos_ - 1 : 0]; }

bool TokenStream::at_ident(std::string_view word) const { return peek().kind == Tok::ident && peek().text == word; }

Token TokenStream::advance() {
  Token t = peek();
  if (t.kind == Tok::comma || t.kind == Tok::rparen || t.kind == Tok::dot || t.kind == Tok::shift) quiet_ = false;
  if (t.kind == Tok::lparen || t.kind == Tok::lbracket) ++depth_;
  if ((t.kind == Tok::rparen || t.kind == Tok::rbracket) && depth_ > 0) --depth_;
  skip();
  return t;
}

void TokenStream::skip() {
  if (pos_ + 1 >= toks_.size()) return;  // the end of file stays in front
  if (stray_before_[pos_]) ++failures_;
  ++pos_;
  if (stray_before_[pos_]) quiet_ = true;
}

Token TokenStream::expect(Tok kind, std::string what, std::string_view hint) {
  if (peek().kind == kind) return advance();
  error(peek(), RuleId::P003, fmt::format("expected {}, found {}", what, describe(peek())), hint);
}

Diagnostic* TokenStream::fail(const Token& at, RuleId rule, std::string message, std::string_view hint) {
  ++failures_;
  bool report = !quiet_ && at.kind != Tok::error;
  quiet_ = true;
  return report ? &diags_.report(rule, at.span, std::move(message), std::string(hint)) : nullptr;
}

void TokenStream::error(const Token& at, RuleId rule, std::string message, std::string_view hint) {
  fail(at, rule, std::move(message), hint);
  throw ParseError{};
}

std::string TokenStream::describe(const Token& t) const {
  if (t.kind == Tok::eof) return "end of file";
  if (t.kind == Tok::ident || t.kind == Tok::integer || t.kind == Tok::number) return fmt::format("`{}`", t.text);
  return std::string(tok_name(t.kind));
}

void TokenStream::sync_args(int base) {
  int depth = depth_ - base;
  for (;; skip()) {
    Tok k = peek().kind;
    if (k == Tok::eof || k == Tok::dot || k == Tok::shift) break;
    if (depth <= 0 && (k == Tok::comma || k == Tok::rparen)) break;
    if (k == Tok::lparen || k == Tok::lbracket) ++depth;
    if ((k == Tok::rparen || k == Tok::rbracket) && depth > 0) --depth;
  }
  depth_ = base;
}

void TokenStream::sync_body() {
  int depth = 0;
  do {
    Tok k = peek().kind;
    if (k == Tok::lparen || k == Tok::lbracket) ++depth;
    if ((k == Tok::rparen || k == Tok::rbracket) && depth > 0) --depth;
    skip();
  } while (peek().kind != Tok::eof && !(depth == 0 && (peek().kind == Tok::dot || peek().kind == Tok::shift ||
                                                      at_ident("stage") || at_ident("kernel"))));
  depth_ = 0;
}

}  // namespace ucut
