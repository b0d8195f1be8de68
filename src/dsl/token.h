// dsl/token.h — the tokens of the .ucut language (docs/grammar.ebnf, "lexical" section).
#pragma once

#include <string_view>

#include "support/source.h"

namespace ucut {

enum class Tok {
  ident,     // [A-Za-z_][A-Za-z0-9_]*  (keywords such as `kernel` are identifiers the parser recognises)
  integer,   // 128
  number,    // 0.01, 1e-3, 2.5E+2
  colon,     // :
  comma,     // ,
  dot,       // .
  lparen,    // (
  rparen,    // )
  lbracket,  // [
  rbracket,  // ]
  shift,     // >>
  equals,    // =
  plus,      // +
  minus,     // -
  star,      // *
  slash,     // /
  eof,
  error,     // a malformed number (the lexer reported P002); the parser reads it as a value that did not parse
  stray,     // a character that starts no token (the lexer reported P001); the parser skips it
};

struct Token {
  Tok kind = Tok::eof;
  Span span;
  std::string_view text;  // points into the SourceFile's text
};

std::string_view tok_name(Tok t);

}  // namespace ucut
