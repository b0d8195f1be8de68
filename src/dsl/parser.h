// dsl/parser.h — recursive-descent parser, one parse_* per production of docs/grammar.ebnf.
// On the first syntax error it reports a P0xx diagnostic and returns std::nullopt.
#pragma once

#include <optional>
#include <vector>

#include "dsl/ast.h"
#include "dsl/token.h"
#include "support/diag.h"

namespace ucut {

/// Deepest expression nesting accepted (P005); keeps recursion bounded for any input.
constexpr int kMaxNesting = 32;

std::optional<SpecAst> parse(const SourceFile& src, const std::vector<Token>& tokens, DiagEngine& diags);

/// lex + parse.
std::optional<SpecAst> parse_source(const SourceFile& src, DiagEngine& diags);

/// Spec fragments inside another file (a problem file's string values), parsed from the bytes of `range` with spans
/// into the whole file. `chain`: epilogue stages joined by `>>` (none for an empty range); `operand type`: an
/// element type and its modifiers (`bf16 row`, `f8e4m3 row scaled`). nullopt after a P0xx diagnostic.
std::optional<std::vector<Call>> parse_chain(const SourceFile& src, Span range, DiagEngine& diags);
std::optional<TensorType> parse_operand_type(const SourceFile& src, Span range, DiagEngine& diags);

}  // namespace ucut
