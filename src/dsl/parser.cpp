// dsl/parser.cpp — recursive-descent parser for .ucut specs. Each parse_* names its production.
#include "dsl/parser.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "dsl/lexer.h"

namespace ucut {
namespace {

struct ParseError {};  // unwinds to parse(); the diagnostic is already reported

class Parser {
 public:
  Parser(const SourceFile& src, const std::vector<Token>& toks, DiagEngine& diags)
      : src_(src), toks_(toks), diags_(diags) {}

  /// spec := ( kernel | pipeline ) EOF
  SpecAst parse_spec() {
    SpecAst spec;
    if (at_ident("pipeline")) {
      parse_pipeline(spec);
    } else if (at_ident("kernel")) {
      spec.kernels.push_back(parse_kernel());
      if (at_ident("kernel")) {
        diags_.report(RuleId::P007, peek().span, "a second `kernel` in the same file",
                      "put each kernel in its own .ucut file, or chain kernels as the `stage`s of a `pipeline`");
        throw ParseError{};
      }
    } else {
      diags_.report(RuleId::P004, peek().span,
                    fmt::format("expected `kernel` or `pipeline` to start the spec, found {}", describe(peek())),
                    "start with a header such as `kernel my_gemm : sm90a`");
      throw ParseError{};
    }
    if (peek().kind != Tok::eof) {
      diags_.report(RuleId::P003, peek().span,
                    fmt::format("expected {}`.with_...`, `>>` or end of file, found {}",
                                spec.pipeline ? "`stage`, " : "", describe(peek())),
                    "configuration calls start with `.` and epilogue stages with `>>`");
      throw ParseError{};
    }
    return spec;
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
  Call parse_stage(std::string_view what) {
    if (peek().kind != Tok::ident) {
      if (peek().kind == Tok::error) throw ParseError{};  // the lexer already explained this token
      diags_.report(RuleId::P003, peek().span, fmt::format("expected {}, found {}", what, describe(peek())),
                    "write e.g. `relu` or `bias(col) >> gelu_tanh`");
      throw ParseError{};
    }
    return parse_call();
  }

  void expect_end(std::string_view what, std::string_view hint) {
    if (peek().kind == Tok::eof) return;
    if (peek().kind == Tok::error) throw ParseError{};
    diags_.report(RuleId::P003, peek().span, fmt::format("expected {} or the end, found {}", what, describe(peek())),
                  std::string(hint));
    throw ParseError{};
  }

  /// kernel := "kernel" IDENT ":" IDENT body
  KernelAst parse_kernel() {
    KernelAst k;
    Header h = parse_header("kernel", "mlp_up");
    k.name = h.name;
    k.arch = h.arch;
    k.span = h.span;
    parse_body(k, h.span);
    return k;
  }

  struct Header {
    Span span;
    Spanned<std::string> name, arch;
  };

  /// header := KEYWORD IDENT ":" IDENT   (`kernel NAME : ARCH`, `pipeline NAME : ARCH`)
  Header parse_header(std::string_view keyword, std::string_view example) {
    Token kw = advance();
    Token name = expect(Tok::ident, fmt::format("a {} name after `{}`", keyword, keyword),
                        fmt::format("name the {}, e.g. `{} {} : sm90a`", keyword, keyword, example));
    expect(Tok::colon, fmt::format("`:` between the {} name and its architecture", keyword),
           fmt::format("write `{} NAME : sm90a`", keyword));
    Token arch = expect(Tok::ident, "an architecture such as `sm90a`", fmt::format("write `{} NAME : sm90a`", keyword));
    return {kw.span.to(arch.span), {std::string(name.text), name.span}, {std::string(arch.text), arch.span}};
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
      diags_.report(RuleId::P003, peek().span, fmt::format("expected `stage` after the pipeline header, found {}",
                                                           describe(peek())),
                    "declare each stage as `stage NAME = gemm(...) >> ... >> store(...)`");
      throw ParseError{};
    }
    while (at_ident("stage")) {
      KernelAst k;
      Token skw = advance();
      Token sname = expect(Tok::ident, "a stage name after `stage`", "write `stage up = gemm(...)`");
      expect(Tok::equals, "`=` between the stage name and its operator", "write `stage up = gemm(...)`");
      k.name = {std::string(sname.text), sname.span};
      k.arch = h.arch;
      k.span = skw.span.to(sname.span);
      parse_body(k, skw.span);
      spec.kernels.push_back(std::move(k));
    }
    h.whole = h.span.to(spec.kernels.back().whole);
    spec.pipeline = std::move(h);
  }

  /// body := call { "." call } { ">>" call }
  void parse_body(KernelAst& k, Span start) {
    if (peek().kind != Tok::ident) {
      diags_.report(RuleId::P003, peek().span,
                    fmt::format("expected an operator such as `gemm(...)`, found {}", describe(peek())),
                    "follow the header with the operator, e.g. `gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)`");
      throw ParseError{};
    }
    k.op = parse_call();
    while (peek().kind == Tok::dot) {
      advance();
      if (peek().kind != Tok::ident) {
        diags_.report(RuleId::P003, peek().span,
                      fmt::format("expected a configuration call after `.`, found {}", describe(peek())),
                      "write e.g. `.with_threadblockshape(128, 128, 64)`");
        throw ParseError{};
      }
      k.configs.push_back(parse_call());
    }
    while (peek().kind == Tok::shift) {
      advance();
      if (peek().kind != Tok::ident) {
        diags_.report(RuleId::P003, peek().span,
                      fmt::format("expected an epilogue stage after `>>`, found {}", describe(peek())),
                      "write e.g. `>> relu` or `>> store(D: bf16[M,N] row)`");
        throw ParseError{};
      }
      k.stages.push_back(parse_call());
    }
    k.whole = start.to(toks_[pos_ > 0 ? pos_ - 1 : 0].span);
  }

  /// call := IDENT [ "(" [ arg { "," arg } ] ")" ]
  Call parse_call() {
    Call c;
    Token name = advance();
    c.name = {std::string(name.text), name.span};
    c.span = name.span;
    if (peek().kind != Tok::lparen) return c;
    advance();
    c.has_parens = true;
    if (peek().kind != Tok::rparen) {
      c.args.push_back(parse_arg());
      while (peek().kind == Tok::comma) {
        advance();
        c.args.push_back(parse_arg());
      }
    }
    Token close = expect(Tok::rparen, fmt::format("`,` or `)` in the arguments of `{}`", c.name.value),
                         "close the argument list with `)`");
    c.span = name.span.to(close.span);
    return c;
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
      case Tok::number: {
        Token n = advance();
        e->span = n.span;
        e->node = number_literal(n);
        return e;
      }
      case Tok::lparen: {
        Token open = advance();
        guard_depth(depth + 1);
        ExprPtr inner = parse_expr(depth + 1);
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
        diags_.report(RuleId::P003, t.span, fmt::format("expected a value, found {}", describe(t)),
                      "values are numbers, names such as `row` or `auto`, calls such as `split_k(4)`, "
                      "or tensor types such as `bf16[M,K] row`");
        throw ParseError{};
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
      } else if (d.kind == Tok::integer) {
        advance();
        tt.dims.push_back(Dim{"", number_literal(d).int_value, d.span});
      } else {
        diags_.report(RuleId::P003, d.span, fmt::format("expected an extent such as `M` or `4096`, found {}", describe(d)),
                      "tensor extents are symbols (`M`, `N`, `K`, `L`) or positive integers, e.g. `bf16[M,K]`");
        throw ParseError{};
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

  NumberLit number_literal(const Token& t) {
    NumberLit n;
    std::string text(t.text);
    if (t.kind == Tok::integer) {
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n.int_value);
      if (ec != std::errc()) {
        diags_.report(RuleId::P002, t.span, fmt::format("integer `{}` is too large", text),
                      "integers in specs are tile sizes, extents or counts; use a value below 2^63");
        throw ParseError{};
      }
      n.is_integer = true;
      n.value = static_cast<double>(n.int_value);
    } else {
      char* end = nullptr;
      n.value = std::strtod(text.c_str(), &end);
      if (end != text.c_str() + text.size() || !std::isfinite(n.value)) {
        diags_.report(RuleId::P002, t.span, fmt::format("number `{}` cannot be represented", text),
                      "write a finite decimal number such as `0.01` or `1e-3`");
        throw ParseError{};
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
    if (depth + nesting_ > kMaxNesting) {
      diags_.report(RuleId::P005, peek().span,
                    fmt::format("expressions nest deeper than {} levels here", kMaxNesting),
                    "flatten the expression; epilogue expressions are short elementwise formulas");
      throw ParseError{};
    }
  }

  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }

  Token advance() {
    Token t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }

  bool at_ident(std::string_view word) const { return peek().kind == Tok::ident && peek().text == word; }

  Token expect(Tok kind, std::string what, std::string_view hint) {
    if (peek().kind == kind) return advance();
    if (peek().kind == Tok::error) throw ParseError{};  // the lexer already explained this token
    diags_.report(RuleId::P003, peek().span, fmt::format("expected {}, found {}", what, describe(peek())),
                  std::string(hint));
    throw ParseError{};
  }

  std::string describe(const Token& t) const {
    if (t.kind == Tok::eof) return "end of file";
    if (t.kind == Tok::ident || t.kind == Tok::integer || t.kind == Tok::number) return fmt::format("`{}`", t.text);
    return std::string(tok_name(t.kind));
  }

  const SourceFile& src_;
  const std::vector<Token>& toks_;
  DiagEngine& diags_;
  size_t pos_ = 0;
  int nesting_ = 0;
};

}  // namespace

std::optional<SpecAst> parse(const SourceFile& src, const std::vector<Token>& tokens, DiagEngine& diags) {
  if (diags.has_errors()) return std::nullopt;  // the lexer already failed
  try {
    return Parser(src, tokens, diags).parse_spec();
  } catch (const ParseError&) {
    return std::nullopt;
  }
}

std::optional<SpecAst> parse_source(const SourceFile& src, DiagEngine& diags) {
  std::vector<Token> toks = lex(src, diags);
  return parse(src, toks, diags);
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
    Parser parser(src, toks, diags);
    return production(parser);
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
