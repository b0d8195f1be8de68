// dsl/lexer.h — turns a spec's text into tokens. Comments (`#` or `//` to end of line) and
// whitespace are skipped. Bad characters become Tok::error tokens with a P001/P002 diagnostic.
#pragma once

#include <vector>

#include "dsl/token.h"
#include "support/diag.h"

namespace ucut {

/// Largest spec the compiler reads (P006): specs are 10–20 lines; this bounds fuzzer inputs.
constexpr size_t kMaxSpecBytes = 256 * 1024;

/// Lexes the whole file; the last token is always Tok::eof.
std::vector<Token> lex(const SourceFile& src, DiagEngine& diags);
/// Lexes the bytes of `range` only (a spec fragment inside another file, such as a problem file's `epilogue`
/// string); spans are offsets into the whole file, and Tok::eof sits at range.end.
std::vector<Token> lex(const SourceFile& src, Span range, DiagEngine& diags);

}  // namespace ucut
