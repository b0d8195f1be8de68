// dsl/parser.h — recursive-descent parser, one parse_* per production of docs/grammar.ebnf.
// It recovers from syntax errors (P0xx, each reported once) and marks what they cost in the tree (`incomplete`), so
// one run reports every independent error; see parser.cpp.
#pragma once

#include <optional>
#include <vector>

#include "dsl/ast.h"
#include "dsl/token.h"
#include "support/diag.h"

namespace ucut {

/// Deepest expression nesting accepted (P005); keeps recursion bounded for any input.
constexpr int kMaxNesting = 32;

/// The spec's tree, with what syntax errors cost marked `incomplete` (Arg, Call, KernelAst) or left empty (a name
/// or arch); nullopt only when there is no `kernel` or `pipeline` to read.
std::optional<SpecAst> parse(const std::vector<Token>& tokens, DiagEngine& diags);

/// lex + parse, keeping a partial tree after errors (compile_spec lowers what parsed).
std::optional<SpecAst> parse_with_recovery(const SourceFile& src, DiagEngine& diags);

/// lex + parse; nullopt once anything was reported (for callers that need a spec without errors).
std::optional<SpecAst> parse_source(const SourceFile& src, DiagEngine& diags);

/// Spec fragments inside another file (a problem file's string values), parsed from the bytes of `range` with spans
/// into the whole file. `chain`: epilogue stages joined by `>>` (none for an empty range); `operand type`: an
/// element type and its modifiers (`bf16 row`, `f8e4m3 row scaled`). nullopt after a P0xx diagnostic.
std::optional<std::vector<Call>> parse_chain(const SourceFile& src, Span range, DiagEngine& diags);
std::optional<TensorType> parse_operand_type(const SourceFile& src, Span range, DiagEngine& diags);

}  // namespace ucut
