// ir/lower_memop_window.cpp — lowers a `window(...)`'s own arguments (ir/memop_window.h WindowSpec): `op`,
// `edge`, `taps`, `weights`, `size`, `stride`, `pad`, `over` and `acc`. Whether they fit together and the
// extents they give are check's (check/memop_window_rules.cpp); a value of the wrong kind is C710 here.
#include "ir/lower_memop_window.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/lower_util.h"
#include "support/error.h"

namespace ucut::lowering {
namespace {

/// The items of `key = v` or `key = (v, w)`.
std::vector<const Expr*> items_of(const Arg& arg) {
  std::vector<const Expr*> items;
  if (const auto* t = std::get_if<Tuple>(&arg.value->node))
    for (const ExprPtr& item : t->items) items.push_back(item.get());
  else
    items.push_back(arg.value.get());
  return items;
}

/// `size`, `stride` or `pad`: each item a run-time int's name or a whole number (at least 1; a pad at least
/// 0).
std::vector<WindowInt> lower_ints(const Arg& arg, DiagEngine& diags) {
  const int64_t least = arg.key.value == "pad" ? 0 : 1;
  std::vector<WindowInt> out;
  for (const Expr* item : items_of(arg)) {
    if (const std::string* name = as_name(*item)) {
      out.push_back({*name, 0, item->span});
      continue;
    }
    std::optional<int64_t> v = as_integer(*item);
    if (!v || *v < least || *v > 1024) {
      diags.report(
          RuleId::C710, item->span,
          fmt::format("`{}` takes run-time ints the caller passes (names) or whole numbers from {} to 1024",
                      arg.key.value, least),
          fmt::format("write `{0} = {1}` or `{0} = ({1}, {1})`", arg.key.value,
                      arg.key.value == "pad"      ? "padding"
                      : arg.key.value == "stride" ? "stride"
                                                  : "K"));
      throw LowerError{};
    }
    out.push_back({"", *v, item->span});
  }
  return out;
}

/// `over = N` or `over = (H, W)`: extent symbols, each once.
std::vector<Spanned<std::string>> lower_over(const Arg& arg, DiagEngine& diags) {
  std::vector<Spanned<std::string>> over;
  for (const Expr* item : items_of(arg)) {
    const std::string* name = as_name(*item);
    if (!name) {
      diags.report(RuleId::C711, item->span, "`over` names extent symbols of the first input",
                   "write `over = N`, or `over = (H, W)` for two");
      throw LowerError{};
    }
    auto twice = std::find_if(over.begin(), over.end(), [&](const auto& s) { return s.value == *name; });
    if (twice != over.end()) {
      Diagnostic& d = diags.report(RuleId::C711, item->span, fmt::format("`over` names `{}` twice", *name),
                                   fmt::format("remove one `{}`", *name));
      d.notes.push_back(Label{twice->span, "first named here"});
      throw LowerError{};
    }
    over.push_back({*name, item->span});
  }
  return over;
}

/// `weights = NAME`: an input other than the first (the window's).
size_t lower_weights(const Arg& arg, const MemOpConfig& m, DiagEngine& diags) {
  const std::string* name = as_name(*arg.value);
  for (size_t i = 1; name && i < m.inputs.size(); ++i)
    if (m.inputs[i].name.value == *name) return i;
  diags.report(RuleId::C710, arg.value->span,
               name ? fmt::format("`weights = {}` names no input of the window but its first", *name)
                    : std::string("`weights` names an input tensor"),
               fmt::format("declare the weights after the first input and name them: `{}`", kWindowUsage));
  throw LowerError{};
}

}  // namespace

bool window_argument(const Arg& arg) {
  static const std::vector<std::string_view> keywords = {"op",   "edge",   "taps", "weights",
                                                         "size", "stride", "pad",  "over"};
  if (arg.kind == Arg::Kind::keyword)
    return std::find(keywords.begin(), keywords.end(), arg.key.value) != keywords.end();
  return arg.kind == Arg::Kind::declaration && arg.key.value == "acc";
}

void lower_window(const Call& op, MemOpConfig& m, DiagEngine& diags) {
  WindowSpec w;
  w.acc = {DType::f32, Span::implied_at(op.span)};
  w.taps.span = w.weights_span = Span::implied_at(op.span);
  bool has_op = false, has_edge = false, ok = true;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : op.args) {
    if (arg.incomplete || !window_argument(arg)) continue;
    ok = attempt([&] {
           const std::string& key = arg.key.value;
           note_unique(seen, key, arg.key.span, fmt::format("`{}` is given twice", key), diags);
           if (key == "op") {
             w.op = keyword_choice(RuleId::C710, arg, {"sum", "max", "avg"}, find_window_op, diags);
             has_op = true;
           } else if (key == "edge") {
             w.edge = keyword_choice(RuleId::C710, arg, {"copy", "valid", "clip"}, find_window_edge, diags);
             has_edge = true;
           } else if (key == "taps") {
             w.taps = keyword_choice(RuleId::C710, arg, {"box", "star"}, find_window_taps, diags);
           } else if (key == "weights") {
             w.weights = lower_weights(arg, m, diags);
             w.weights_span = arg.value->span;
           } else if (key == "size" || key == "stride" || key == "pad") {
             (key == "size" ? w.size : key == "stride" ? w.stride : w.pad) = lower_ints(arg, diags);
             (key == "size" ? w.size_span : key == "stride" ? w.stride_span : w.pad_span) = arg.value->span;
           } else if (key == "over") {
             w.over = lower_over(arg, diags);
             w.over_span = arg.value->span;
           } else {  // acc: T
             const std::string* dtype = as_name(*arg.value);
             if (!dtype) {
               diags.report(RuleId::L009, arg.value->span, "`acc` takes an element type", "write `acc: f32`");
               throw LowerError{};
             }
             w.acc = {expect_dtype(*dtype, arg.value->span, diags), arg.value->span};
           }
         }) &&
         ok;
  }
  if (!ok) throw LowerError{};
  if (!has_op || !has_edge) {
    diags.report(
        RuleId::C710, op.span,
        !has_op ? "`window` needs `op`: how its elements combine (sum, max, avg)"
                : "`window` needs `edge`: what happens where a window leaves its input",
        !has_op ? fmt::format("add `op = sum`, `op = max` or `op = avg`: `{}`", kWindowUsage)
                : "add `edge = copy` (a stencil: the output keeps the input's extents), `edge = valid` "
                  "(only windows inside the input) or `edge = clip` (pooling: windows cut to the input)");
    throw LowerError{};
  }
  m.window = std::move(w);
}

}  // namespace ucut::lowering
