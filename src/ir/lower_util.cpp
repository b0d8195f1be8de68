// ir/lower_util.cpp — value readers and tensor-declaration lowering shared by lower.cpp and lower_epilogue.cpp.
#include "ir/lower_util.h"

#include <fmt/format.h>

#include <cmath>

#include "support/suggest.h"

namespace ucut::lowering {

const std::string* as_name(const Expr& e) {
  const auto* n = std::get_if<NameRef>(&e.node);
  return n ? &n->name : nullptr;
}

const TensorType* as_tensor(const Expr& e) { return std::get_if<TensorType>(&e.node); }

const Call* as_call(const Expr& e) { return std::get_if<Call>(&e.node); }

std::optional<double> as_number(const Expr& e) {
  if (const auto* n = std::get_if<NumberLit>(&e.node)) return n->value;
  if (const auto* u = std::get_if<Unary>(&e.node)) {
    auto v = as_number(*u->operand);
    if (v) return -*v;
    return std::nullopt;
  }
  if (const auto* b = std::get_if<Binary>(&e.node)) {
    auto l = as_number(*b->lhs), r = as_number(*b->rhs);
    if (!l || !r) return std::nullopt;
    double v = 0;
    switch (b->op) {
      case '+': v = *l + *r; break;
      case '-': v = *l - *r; break;
      case '*': v = *l * *r; break;
      case '/': v = *l / *r; break;
    }
    if (!std::isfinite(v)) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

std::optional<bool> find_flag(std::string_view name) {
  if (name == "true") return true;
  if (name == "false") return false;
  return std::nullopt;
}

std::optional<int64_t> as_integer(const Expr& e) {
  if (const auto* n = std::get_if<NumberLit>(&e.node); n && n->is_integer) return n->int_value;
  return std::nullopt;
}

int expect_int(const Arg& a, std::string_view what, int lo, int hi, DiagEngine& diags) {
  auto v = as_integer(*a.value);
  if (!v) {
    diags.report(RuleId::L009, a.value->span, fmt::format("{} must be an integer", what),
                 fmt::format("write a whole number between {} and {}", lo, hi));
    throw LowerError{};
  }
  if (*v < lo || *v > hi) {
    diags.report(RuleId::L016, a.value->span, fmt::format("{} `{}` is outside [{}, {}]", what, *v, lo, hi),
                 fmt::format("use a value between {} and {}", lo, hi));
    throw LowerError{};
  }
  return static_cast<int>(*v);
}

void unknown_name(RuleId rule, std::string_view what, const std::string& word, Span span,
                  const std::vector<std::string_view>& known, DiagEngine& diags) {
  std::vector<std::string> near = closest_names(word, known);
  if (near.empty()) {
    diags.report(rule, span, fmt::format("unknown {} `{}`", what, word),
                 fmt::format("known {}s: {}", what, quoted_list(known)));
  } else {
    Diagnostic& d = diags.report(rule, span, fmt::format("unknown {} `{}`", what, word));
    d.hint = Hint{*did_you_mean(word, known), Edit{span, near.front()}, Applicability::maybe_incorrect};
  }
  throw LowerError{};
}

void unknown_keyword(RuleId rule, const Arg& a, std::string message, const std::vector<std::string_view>& known,
                     std::string_view usage, DiagEngine& diags) {
  std::vector<std::string> near = closest_names(a.key.value, known);
  Diagnostic& d = diags.report(rule, a.key.value.empty() ? a.span : a.key.span, std::move(message));
  if (near.empty() || a.key.value.empty()) {
    d.hint = Hint{fmt::format("write `{}`", usage), std::nullopt, Applicability::unspecified};
  } else {
    d.hint = Hint{fmt::format("{} write `{}`", *did_you_mean(a.key.value, known), usage), Edit{a.key.span, near.front()},
                  Applicability::maybe_incorrect};
  }
  throw LowerError{};
}

DType expect_dtype(const std::string& spelling, Span span, DiagEngine& diags) {
  if (auto t = find_dtype(spelling)) return *t;
  unknown_name(RuleId::L003, "element type", spelling, span, dtype_names(), diags);
}

Spanned<Arch> lower_arch(const Spanned<std::string>& arch, DiagEngine& diags) {
  auto a = find_arch(arch.value);
  if (!a) unknown_name(RuleId::L001, "architecture", arch.value, arch.span, arch_names(), diags);
  return {*a, arch.span};
}

void note_unique(std::vector<std::pair<std::string, Span>>& seen, const std::string& key, Span span,
                 std::string message, DiagEngine& diags) {
  for (const auto& [k, first] : seen) {
    if (k != key) continue;
    Diagnostic& d = diags.report(RuleId::L006, span, std::move(message), "remove one of the two");
    d.notes.push_back(Label{first, "first given here"});
    throw LowerError{};
  }
  seen.emplace_back(key, span);
}

namespace {

struct LayoutWord {
  Layout layout;
  size_t rank;  // the tensor rank the spelling names; 0: any
};

std::optional<LayoutWord> layout_word(std::string_view w) {
  if (w == "row") return LayoutWord{Layout::row, 0};
  if (w == "col") return LayoutWord{Layout::col, 0};
  if (w == "nwc") return LayoutWord{Layout::channels_last, 3};
  if (w == "nhwc") return LayoutWord{Layout::channels_last, 4};
  if (w == "ndhwc") return LayoutWord{Layout::channels_last, 5};
  if (w == "channels_last") return LayoutWord{Layout::channels_last, 0};
  return std::nullopt;
}

}  // namespace

TensorDecl lower_tensor(const Arg& decl, DiagEngine& diags, bool operand) {
  const TensorType* tt = as_tensor(*decl.value);
  if (!tt) {
    diags.report(RuleId::L009, decl.value->span,
                 fmt::format("operand `{}` needs a tensor type", decl.key.value),
                 fmt::format("declare it like `{}: bf16[M,K] row`", decl.key.value));
    throw LowerError{};
  }
  TensorDecl t;
  t.name = decl.key;
  t.span = decl.span;
  t.dtype = {expect_dtype(tt->dtype.value, tt->dtype.span, diags), tt->dtype.span};
  for (const Dim& d : tt->dims) {
    if (d.symbol.empty() && d.size <= 0) {
      diags.report(RuleId::L016, d.span, fmt::format("extent `{}` must be positive", d.size),
                   "use a symbol such as `M` or a positive size");
      throw LowerError{};
    }
    t.dims.push_back(Extent{d.symbol, d.size, d.span});
  }
  int bits = dtype_bits(t.dtype.value);
  t.layout = {Layout::row, Span::implied_at(tt->dtype.span)};
  t.align = {128 / bits, Span::implied_at(tt->dtype.span)};  // 16 bytes' worth (fill_defaults may lower it)
  t.scaled = {false, Span::implied_at(tt->dtype.span)};
  t.padded = {false, Span::implied_at(tt->dtype.span)};
  t.fold = {0, Span::implied_at(tt->dtype.span)};
  t.converts_in_mainloop = {false, Span::implied_at(tt->dtype.span)};
  std::vector<std::pair<std::string, Span>> seen;
  for (const Call& m : tt->modifiers) {
    const std::string& word = m.name.value;
    if (auto layout = layout_word(word)) {
      note_unique(seen, "layout", m.span, fmt::format("`{}` gives the layout a second time", word), diags);
      if (m.has_parens) {
        diags.report(RuleId::L008, m.span, fmt::format("`{}` takes no arguments", word), fmt::format("write `{}`", word));
        throw LowerError{};
      }
      if (layout->rank && layout->rank != t.dims.size()) {
        diags.report(RuleId::L017, m.span,
                     fmt::format("`{}` describes a rank-{} tensor but `{}` has {} extents", word, layout->rank,
                                 t.name.value, t.dims.size()),
                     "write `channels_last` (any rank) or the spelling for this rank: `nwc`, `nhwc` or `ndhwc`");
        throw LowerError{};
      }
      t.layout = {layout->layout, m.span};
    } else if (word == "nchw" || word == "ncw" || word == "ncdhw" || word == "kcrs") {
      diags.report(RuleId::L017, m.span, fmt::format("`{}` (channels-first) is not a layout the conv kernels read", word),
                   "declare the tensor channels-last (`nhwc`, the default for convolution operands) and convert "
                   "PyTorch's NCHW tensors before the call, e.g. `x.to(memory_format=torch.channels_last)`");
      throw LowerError{};
    } else if (word == "align") {
      note_unique(seen, "align", m.span, "`align` is given twice", diags);
      if (m.args.size() != 1) {
        diags.report(RuleId::L008, m.span, "`align` takes one argument, the alignment in elements",
                     fmt::format("write `align({})`", 128 / bits));
        throw LowerError{};
      }
      int a = expect_int(m.args[0], "the alignment", 1, 1024, diags);
      if ((a & (a - 1)) != 0) {
        diags.report(RuleId::L016, m.args[0].value->span, fmt::format("alignment `{}` is not a power of two", a),
                     fmt::format("use a power of two such as `{}`", 128 / bits));
        throw LowerError{};
      }
      t.align = {a, m.span};
    } else if (word == "scaled") {
      note_unique(seen, "scaled", m.span, "`scaled` is given twice", diags);
      t.scaled = {true, m.span};
    } else if (word == "pad") {
      note_unique(seen, "pad", m.span, "`pad` is given twice", diags);
      t.padded = {true, m.span};
    } else if (word == "fold") {
      note_unique(seen, "fold", m.span, "`fold` is given twice", diags);
      if (m.args.size() != 1) {
        diags.report(RuleId::L008, m.span, "`fold` takes one argument, how many innermost filter dimensions to unroll",
                     "write `fold(1)`");
        throw LowerError{};
      }
      t.fold = {expect_int(m.args[0], "the folded filter dimensions", 1, 3, diags), m.span};
    } else if (word == "from") {  // a pipeline's lowering takes it off the operands of its stages first
      auto positional_name = [&](size_t i) {
        return m.args.size() > i && m.args[i].kind == Arg::Kind::positional ? as_name(*m.args[i].value) : nullptr;
      };
      const std::string* from = positional_name(0);
      const std::string* where = positional_name(1);
      bool where_ok = m.args.size() == 1 || (m.args.size() == 2 && where && (*where == "mainloop" || *where == "workspace"));
      if (!operand || t.from || !from || !where_ok) {
        diags.report(RuleId::L019, m.span,
                     !operand ? fmt::format("`from(T)` converts the operator's input A or B, and `{}` is not one",
                                            t.name.value)
                     : t.from ? std::string("`from` is given twice")
                     : !from  ? std::string("`from` takes the caller's element type, then optionally where the "
                                            "kernel converts it")
                              : std::string("`from`'s second argument says where the kernel converts: `workspace` "
                                            "(a copy before every run, the default) or `mainloop`"),
                     !operand ? std::string("declare the tensor in the type its caller passes")
                              : fmt::format("write `{}: {}[..] from(f32)` (the kernel converts a copy) or `from(f32, "
                                            "mainloop)` (its mainloop converts each tile)",
                                            t.name.value, tt->dtype.value));
        throw LowerError{};
      }
      t.from = Spanned<DType>{expect_dtype(*from, m.args[0].value->span, diags), m.span};
      t.converts_in_mainloop = {where && *where == "mainloop", m.span};
    } else {
      unknown_name(RuleId::L004, "operand modifier", word, m.name.span,
                   {"row", "col", "nwc", "nhwc", "ndhwc", "channels_last", "align", "scaled", "pad", "fold", "from"},
                   diags);
    }
  }
  // A mainloop conversion loads the caller's rows: the implied alignment is 16 bytes of the caller's type.
  if (t.converts_in_mainloop.value && t.align.span.implied) t.align.value = 128 / dtype_bits(t.from->value);
  return t;
}

}  // namespace ucut::lowering
