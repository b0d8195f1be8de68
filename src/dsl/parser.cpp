// dsl/parser.cpp — recursive-descent parser for .ucut specs. Each parse_* names its production.
// Error recovery (as in Clang and rustc): a syntax error is reported, then the parser skips to where it can go on —
// the next `,` or `)` of the argument list it was reading, or the next `.`, `>>` or `stage` of the kernel body —
// and marks what it lost (Arg, Call, KernelAst `incomplete`), so lowering reports the independent errors of the
// rest and nothing about the gaps. A stray character (P001) is skipped. Until the parser has its footing again (it
// consumes a `,`, `)`, `.` or `>>`), a further syntax error would be a consequence of the first and is not reported.
#include "dsl/parser.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "dsl/lexer.h"
#include "dsl/token_stream.h"
#include "support/suggest.h"

namespace ucut {
namespace {

class Parser : TokenStream {
 public:
  using TokenStream::TokenStream;

  /// spec := ( kernel | pipeline ) EOF
  std::optional<SpecAst> parse_spec() {
    SpecAst spec;
    std::string_view keyword = at_ident("pipeline") ? "pipeline" : at_ident("kernel") ? "kernel" : misspelt_keyword();
    if (keyword.empty()) return std::nullopt;
    if (keyword == "pipeline") {
      parse_pipeline(spec);
      if (spec.kernels.empty()) return std::nullopt;
    } else {
      spec.kernels.push_back(parse_kernel());
    }
    if (at_ident("kernel"))
      fail(peek(), RuleId::P007,
           spec.pipeline ? "a `kernel` after the pipeline's stages" : "a second `kernel` in the same file",
           "put each kernel in its own .ucut file, or chain kernels as the `stage`s of a `pipeline`");
    return spec;  // a second kernel is not read: its errors would be another spec's
  }

  /// chain := [ call { ">>" call } ] EOF   (a problem file's `epilogue`: the stages before the store)
  std::vector<Call> parse_chain_fragment() {
    std::vector<Call> stages;
    if (peek().kind == Tok::eof) return stages;
    stages.push_back(parse_stage("an epilogue stage such as `relu` or `bias(col)`"));
    while (peek().kind == Tok::shift) {
      advance();
      stages.push_back(parse_stage("an epilogue stage after `>>`"));
    }
    expect_end("`>>` between epilogue stages", "chain the stages with `>>`, e.g. `bias(col) >> relu`");
    return stages;
  }

  /// operand_type := IDENT { call } EOF   (a problem file's `a = "bf16 row"`: the type and modifiers, no extents)
  TensorType parse_operand_fragment() {
    TensorType tt;
    Token dtype = expect(Tok::ident, "an element type such as `bf16`", "write the type, then the layout: `bf16 row`");
    tt.dtype = {std::string(dtype.text), dtype.span};
    while (peek().kind == Tok::ident) tt.modifiers.push_back(parse_call_nested(0));
    expect_end("a modifier such as `row`, `col`, `align(8)` or `scaled`", "write the type, then its modifiers: `bf16 row`");
    return tt;
  }

 private:
  /// P004: the spec does not start with `kernel` or `pipeline`. A near miss followed by a header (`kernal k : sm90a`)
  /// is read as the keyword it misspells, so the rest is still checked; anything else ends the parse (returns "").
  std::string_view misspelt_keyword() {
    const Token& t = peek();
    std::optional<std::string> near =
        t.kind == Tok::ident ? closest_name(t.text, {"kernel", "pipeline"}) : std::nullopt;
    bool header_follows = peek(1).kind == Tok::ident && peek(2).kind == Tok::colon && peek(3).kind == Tok::ident;
    std::string message =
        t.kind != Tok::eof  ? fmt::format("expected `kernel` or `pipeline` to start the spec, found {}", describe(t))
        : t.span.begin == 0 ? "the spec is empty: it needs a `kernel` or `pipeline` header"
                            : "the spec holds only comments and blank lines: it needs a `kernel` or `pipeline` header";
    Diagnostic* d = fail(t, RuleId::P004, message,
                         near ? fmt::format("did you mean `{}`?", *near)
                              : std::string("start with a header such as `kernel my_gemm : sm90a`"));
    if (!near) return "";
    if (d) {
      d->hint->edit = Edit{t.span, *near};
      d->hint->applicability = header_follows ? Applicability::machine_applicable : Applicability::maybe_incorrect;
    }
    if (!header_follows) return "";
    return *near == "kernel" ? "kernel" : "pipeline";
  }

  Call parse_stage(std::string_view what) {
    if (peek().kind != Tok::ident)
      error(peek(), RuleId::P003, fmt::format("expected {}, found {}", what, describe(peek())),
            "write e.g. `relu` or `bias(col) >> gelu_tanh`");
    return parse_call();
  }

  void expect_end(std::string_view what, std::string_view hint) {
    if (peek().kind == Tok::eof) return;
    error(peek(), RuleId::P003, fmt::format("expected {} or the end, found {}", what, describe(peek())), hint);
  }

  /// kernel := "kernel" IDENT ":" IDENT body
  KernelAst parse_kernel() {
    KernelAst k;
    Header h = parse_header("kernel", "mlp_up");
    k.name = h.name;
    k.arch = h.arch;
    k.span = h.span;
    parse_body(k, h.span, false);
    return k;
  }

  struct Header {
    Span span;
    Spanned<std::string> name, arch;
  };

  /// header := KEYWORD IDENT ":" IDENT   (`kernel NAME : ARCH`, `pipeline NAME : ARCH`)
  /// A missing piece is reported and left empty; the parser goes on with the body (the operator, or `stage`), so
  /// `kernel k sm90a` reads as `kernel k : sm90a` after its error.
  Header parse_header(std::string_view keyword, std::string_view example) {
    Header h;
    Token kw = advance();
    h.span = kw.span;
    // `gemm(` (no space before the `(`) or `stage` starts the body: the header lacks the name or arch in front of it.
    // `sm90a` then `(A: ...)` on the next line is the arch of a body that lacks its operator's name.
    auto body_starts = [&] {
      return (peek(1).kind == Tok::lparen && peek(1).span.begin == peek().span.end) || at_ident("stage");
    };
    if (peek().kind == Tok::ident && !body_starts()) {
      Token name = advance();
      h.name = {std::string(name.text), name.span};
    } else {
      fail(peek(), RuleId::P003, fmt::format("expected a {} name after `{}`, found {}", keyword, keyword, describe(peek())),
           fmt::format("name the {}, e.g. `{} {} : sm90a`", keyword, keyword, example));
      if (peek().kind == Tok::error) advance();
    }
    if (peek().kind == Tok::colon) {
      advance();
    } else {
      fail(peek(), RuleId::P003,
           fmt::format("expected `:` between the {} name and its architecture, found {}", keyword, describe(peek())),
           fmt::format("write `{} NAME : sm90a`", keyword));
    }
    if (peek().kind == Tok::ident && !body_starts()) {
      Token arch = advance();
      h.arch = {std::string(arch.text), arch.span};
    } else {
      fail(peek(), RuleId::P003, fmt::format("expected an architecture such as `sm90a`, found {}", describe(peek())),
           fmt::format("write `{} NAME : sm90a`", keyword));
      if (peek().kind != Tok::ident && peek().kind != Tok::eof) advance();  // `kernel k : 90`: skip the `90`
    }
    h.span = h.span.to(previous().span);
    return h;
  }

  /// pipeline := "pipeline" IDENT ":" IDENT stage_decl { stage_decl }
  /// stage_decl := "stage" IDENT "=" body        (each stage is a kernel on the pipeline's arch)
  void parse_pipeline(SpecAst& spec) {
    PipelineHeader h;
    Header head = parse_header("pipeline", "mlp_block");
    h.name = head.name;
    h.arch = head.arch;
    h.span = head.span;
    if (!at_ident("stage")) {
      fail(peek(), RuleId::P003, fmt::format("expected `stage` after the pipeline header, found {}", describe(peek())),
           "declare each stage as `stage NAME = gemm(...) >> ... >> store(...)`");
      while (peek().kind != Tok::eof && !at_ident("stage") && !at_ident("kernel")) skip();
    }
    while (at_ident("stage")) {
      KernelAst k;
      Token skw = advance();
      if (peek().kind == Tok::ident && peek(1).kind != Tok::lparen) {
        Token sname = advance();
        k.name = {std::string(sname.text), sname.span};
      } else {
        fail(peek(), RuleId::P003, fmt::format("expected a stage name after `stage`, found {}", describe(peek())),
             "write `stage up = gemm(...)`");
      }
      if (peek().kind == Tok::equals) {
        advance();
      } else {
        fail(peek(), RuleId::P003,
             fmt::format("expected `=` between the stage name and its operator, found {}", describe(peek())),
             "write `stage up = gemm(...)`");
      }
      k.arch = h.arch;
      k.span = skw.span.to(previous().span);
      parse_body(k, skw.span, true);
      spec.kernels.push_back(std::move(k));
    }
    if (!spec.kernels.empty()) h.whole = h.span.to(spec.kernels.back().whole);
    spec.pipeline = std::move(h);
  }

  /// body := call { "." call } { ">>" call }
  /// A configuration call after the chain is reported and kept (its place is all that is wrong); anything else the
  /// body cannot read is reported and skipped to the next `.` or `>>`, and the kernel is incomplete.
  void parse_body(KernelAst& k, Span start, bool in_pipeline) {
    if (peek().kind == Tok::ident && !at_body_end(in_pipeline)) {
      k.op = parse_call();
    } else {
      fail(peek(), RuleId::P003, fmt::format("expected an operator such as `gemm(...)`, found {}", describe(peek())),
           "follow the header with the operator, e.g. `gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)`");
      k.op.span = peek().span;
      k.op.incomplete = true;
      k.incomplete = true;
      if (!at_body_end(in_pipeline)) sync_body();
    }
    while (!at_body_end(in_pipeline)) {
      if (peek().kind == Tok::dot) {
        Token dot = advance();
        if (!k.stages.empty() && !quiet_)  // reported, and read as if it were in place
          diags_.report(RuleId::P003, dot.span, "a configuration call after the epilogue chain",
                        "move the `.with_...` call before the first `>>`: the chain ends the kernel");
        if (peek().kind == Tok::ident) {
          k.configs.push_back(parse_call());
          continue;
        }
        fail(peek(), RuleId::P003, fmt::format("expected a configuration call after `.`, found {}", describe(peek())),
             "write e.g. `.with_threadblockshape(128, 128, 64)`");
      } else if (peek().kind == Tok::shift) {
        advance();
        if (peek().kind == Tok::ident) {
          k.stages.push_back(parse_call());
          continue;
        }
        fail(peek(), RuleId::P003, fmt::format("expected an epilogue stage after `>>`, found {}", describe(peek())),
             "write e.g. `>> relu` or `>> store(D: bf16[M,N] row)`");
      } else {
        fail(peek(), RuleId::P003,
             fmt::format("expected {}`.with_...`, `>>` or end of file, found {}", in_pipeline ? "`stage`, " : "",
                         describe(peek())),
             "configuration calls start with `.` and epilogue stages with `>>`");
      }
      k.incomplete = true;
      if (!at_body_end(in_pipeline) && peek().kind != Tok::dot && peek().kind != Tok::shift) sync_body();
    }
    k.whole = start.to(previous().span);
  }

  /// Where a body ends: the end of the file, a second `kernel`, or a pipeline's next `stage`.
  bool at_body_end(bool in_pipeline) const {
    return peek().kind == Tok::eof || at_ident("kernel") || (in_pipeline && at_ident("stage"));
  }

  /// call := IDENT [ "(" [ arg { "," arg } ] ")" ]
  Call parse_call() {
    Call c;
    int failures = failures_;
    Token name = advance();
    c.name = {std::string(name.text), name.span};
    c.span = name.span;
    if (peek().kind == Tok::lparen) {
      int outer = depth_;
      advance();
      c.has_parens = true;
      if (peek().kind != Tok::rparen) parse_args(c, depth_);
      if (peek().kind == Tok::rparen) {
        Token close = advance();
        c.span = name.span.to(close.span);
      } else {
        c.span = name.span.to(previous().span);  // never closed: parse_args reported it
        depth_ = outer;
      }
    }
    c.incomplete = failures_ > failures;
    return c;
  }

  /// The arguments of `c`, whose `(` left the bracket depth at `base`. An argument that does not parse is dropped
  /// (the call is incomplete) and parsing goes on at the list's next `,` or `)`.
  void parse_args(Call& c, int base) {
    while (true) {
      int failures = failures_;
      try {
        Arg a = parse_arg();
        a.incomplete = failures_ > failures;
        c.args.push_back(std::move(a));
      } catch (const ParseError&) {
        sync_args(base);
      }
      if (peek().kind == Tok::comma) {
        advance();
        continue;
      }
      if (peek().kind == Tok::rparen) return;
      fail(peek(), RuleId::P003,
           fmt::format("expected `,` or `)` in the arguments of `{}`, found {}", c.name.value, describe(peek())),
           "close the argument list with `)`");
      if (!c.args.empty()) c.args.back().incomplete = true;  // where it was meant to end is unclear
      sync_args(base);
      if (peek().kind != Tok::comma) return;  // `)`, or the list never closes
      advance();
    }
  }

  /// arg := IDENT ":" expr | IDENT "=" expr | expr
  Arg parse_arg() {
    Arg a;
    if (peek().kind == Tok::ident && (peek(1).kind == Tok::colon || peek(1).kind == Tok::equals)) {
      Token key = advance();
      Token sep = advance();
      a.kind = sep.kind == Tok::colon ? Arg::Kind::declaration : Arg::Kind::keyword;
      a.key = {std::string(key.text), key.span};
      a.value = parse_expr(0);
      a.span = key.span.to(a.value->span);
    } else {
      a.value = parse_expr(0);
      a.span = a.value->span;
    }
    return a;
  }

  /// expr := term { ("+" | "-") term }
  ExprPtr parse_expr(int depth) {
    guard_depth(depth);
    ExprPtr lhs = parse_term(depth);
    while (peek().kind == Tok::plus || peek().kind == Tok::minus) {
      char op = advance().kind == Tok::plus ? '+' : '-';
      ExprPtr rhs = parse_term(depth);
      lhs = binary(op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  /// term := unary { ("*" | "/") unary }
  ExprPtr parse_term(int depth) {
    ExprPtr lhs = parse_unary(depth);
    while (peek().kind == Tok::star || peek().kind == Tok::slash) {
      char op = advance().kind == Tok::star ? '*' : '/';
      ExprPtr rhs = parse_unary(depth);
      lhs = binary(op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  /// unary := ("-" | "+") unary | primary
  ExprPtr parse_unary(int depth) {
    if (peek().kind == Tok::minus || peek().kind == Tok::plus) {
      guard_depth(depth + 1);
      Token op = advance();
      ExprPtr operand = parse_unary(depth + 1);
      if (op.kind == Tok::plus) {
        operand->span = op.span.to(operand->span);
        return operand;
      }
      auto e = std::make_unique<Expr>();
      e->span = op.span.to(operand->span);
      e->node = Unary{'-', std::move(operand)};
      return e;
    }
    return parse_primary(depth);
  }

  /// primary := INTEGER | NUMBER | "(" expr ")" | tensor_type | call
  /// tensor_type := IDENT "[" dim { "," dim } "]" { call }
  ExprPtr parse_primary(int depth) {
    auto e = std::make_unique<Expr>();
    const Token& t = peek();
    switch (t.kind) {
      case Tok::integer:
      case Tok::number:
      case Tok::error: {  // a malformed number (P002 is reported): the argument is incomplete
        Token n = advance();
        e->span = n.span;
        e->node = number_literal(n);
        return e;
      }
      case Tok::lparen: {
        Token open = advance();
        guard_depth(depth + 1);
        ExprPtr inner = parse_expr(depth + 1);
        if (peek().kind == Tok::comma) {  // a tuple: `(N, C)`
          Tuple tuple;
          tuple.items.push_back(std::move(inner));
          while (peek().kind == Tok::comma) {
            advance();
            tuple.items.push_back(parse_expr(depth + 1));
          }
          Token close = expect(Tok::rparen, "`)` to close the tuple", "balance the parentheses");
          e->span = open.span.to(close.span);
          e->node = std::move(tuple);
          return e;
        }
        Token close = expect(Tok::rparen, "`)` to close the parenthesis", "balance the parentheses");
        inner->span = open.span.to(close.span);
        return inner;
      }
      case Tok::ident: {
        if (peek(1).kind == Tok::lbracket) return parse_tensor_type(depth);
        Call c = parse_call_nested(depth);
        e->span = c.span;
        if (!c.has_parens) {
          e->node = NameRef{c.name.value};
        } else {
          e->node = std::move(c);
        }
        return e;
      }
      default:
        error(t, RuleId::P003, fmt::format("expected a value, found {}", describe(t)),
              "values are numbers, names such as `row` or `auto`, calls such as `split_k(4)`, "
              "or tensor types such as `bf16[M,K] row`");
    }
  }

  ExprPtr parse_tensor_type(int depth) {
    auto e = std::make_unique<Expr>();
    TensorType tt;
    Token dtype = advance();
    tt.dtype = {std::string(dtype.text), dtype.span};
    advance();  // [
    do {
      if (peek().kind == Tok::comma) advance();
      Token d = peek();
      if (d.kind == Tok::ident) {
        advance();
        tt.dims.push_back(Dim{std::string(d.text), 0, d.span});
      } else if (d.kind == Tok::integer || d.kind == Tok::error) {
        advance();
        tt.dims.push_back(Dim{"", number_literal(d).int_value, d.span});
      } else {
        error(d, RuleId::P003, fmt::format("expected an extent such as `M` or `4096`, found {}", describe(d)),
              "tensor extents are symbols (`M`, `N`, `K`, `L`) or positive integers, e.g. `bf16[M,K]`");
      }
    } while (peek().kind == Tok::comma);
    Token close = expect(Tok::rbracket, "`,` or `]` in the tensor extents", "close the extents with `]`");
    Span span = dtype.span.to(close.span);
    while (peek().kind == Tok::ident) {
      tt.modifiers.push_back(parse_call_nested(depth));
      span = span.to(tt.modifiers.back().span);
    }
    e->span = span;
    e->node = std::move(tt);
    return e;
  }

  Call parse_call_nested(int depth) {
    guard_depth(depth + 1);
    ++nesting_;
    Call c = parse_call();
    --nesting_;
    return c;
  }

  /// The value of a number token. One that cannot be read (P002: reported here, or by the lexer for a Tok::error)
  /// counts as a failure, so the argument holding it is incomplete, and reads as 0.
  NumberLit number_literal(const Token& t) {
    NumberLit n;
    std::string text(t.text);
    if (t.kind == Tok::error) {
      ++failures_;
    } else if (t.kind == Tok::integer) {
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n.int_value);
      n.is_integer = true;
      if (ec != std::errc()) {
        ++failures_;
        n.int_value = 0;
        diags_.report(RuleId::P002, t.span, fmt::format("integer `{}` is too large", text),
                      "integers in specs are tile sizes, extents or counts; use a value below 2^63");
      }
      n.value = static_cast<double>(n.int_value);
    } else {
      char* end = nullptr;
      n.value = std::strtod(text.c_str(), &end);
      if (end != text.c_str() + text.size() || !std::isfinite(n.value)) {
        ++failures_;
        n.value = 0;
        diags_.report(RuleId::P002, t.span, fmt::format("number `{}` cannot be represented", text),
                      "write a finite decimal number such as `0.01` or `1e-3`");
      }
    }
    return n;
  }

  ExprPtr binary(char op, ExprPtr lhs, ExprPtr rhs) {
    auto e = std::make_unique<Expr>();
    e->span = lhs->span.to(rhs->span);
    e->node = Binary{op, std::move(lhs), std::move(rhs)};
    return e;
  }

  void guard_depth(int depth) {
    if (depth + nesting_ > kMaxNesting)
      error(peek(), RuleId::P005, fmt::format("expressions nest deeper than {} levels here", kMaxNesting),
            "flatten the expression; epilogue expressions are short elementwise formulas");
  }

  int nesting_ = 0;  // calls nested inside expressions, counted with their depth against kMaxNesting
};

}  // namespace

std::optional<SpecAst> parse(const std::vector<Token>& tokens, DiagEngine& diags) {
  return Parser(tokens, diags).parse_spec();
}

std::optional<SpecAst> parse_with_recovery(const SourceFile& src, DiagEngine& diags) {
  int errors = diags.error_count();
  std::vector<Token> toks = lex(src, diags);
  if (toks.size() == 1 && diags.error_count() > errors) return std::nullopt;  // P006: the lexer read nothing
  return parse(toks, diags);
}

std::optional<SpecAst> parse_source(const SourceFile& src, DiagEngine& diags) {
  int errors = diags.error_count();
  std::optional<SpecAst> ast = parse_with_recovery(src, diags);
  if (diags.error_count() > errors) return std::nullopt;
  return ast;
}

namespace {

/// A fragment's tokens, parsed by `production` of a Parser over them; nullopt after a diagnostic.
template <class Production>
auto parse_fragment(const SourceFile& src, Span range, DiagEngine& diags, Production production)
    -> std::optional<decltype(production(std::declval<Parser&>()))> {
  int errors = diags.error_count();
  std::vector<Token> toks = lex(src, range, diags);
  if (diags.error_count() > errors) return std::nullopt;
  try {
    Parser parser(toks, diags);
    auto out = production(parser);
    if (diags.error_count() > errors) return std::nullopt;
    return out;
  } catch (const ParseError&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<std::vector<Call>> parse_chain(const SourceFile& src, Span range, DiagEngine& diags) {
  return parse_fragment(src, range, diags, [](Parser& p) { return p.parse_chain_fragment(); });
}

std::optional<TensorType> parse_operand_type(const SourceFile& src, Span range, DiagEngine& diags) {
  return parse_fragment(src, range, diags, [](Parser& p) { return p.parse_operand_fragment(); });
}

}  // namespace ucut
