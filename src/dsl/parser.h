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

}  // namespace ucut
