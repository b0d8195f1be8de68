// suite/parse.cpp — see parse.h. Keys are checked against the format's tables (top level, [kernelbench],
// [[input]], and per op form the keys of docs/suites.md); a misspelt key gets the nearest real one as its hint.
#include "suite/parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <toml++/toml.h>

#include "support/suggest.h"
#include "support/toml_reader.h"

namespace ucut::suite {
namespace {

const std::vector<std::string_view> kFamilies = {"gemm", "batched_gemm", "conv", "conv_transpose",
                                                 "depthwise_conv", "grouped_conv", "pipeline"};
const std::vector<std::string_view> kPrecisions = {"f32", "f16", "bf16"};
const std::vector<std::string_view> kInits = {"rand", "randn", "rand_triu", "rand_tril", "rand_symmetric"};
const std::vector<std::string_view> kWeakReasons = {"zeros_pass_1e-4",        "zeros_pass_1e-2",
                                                    "input_independent_1e-4", "input_independent_1e-2",
                                                    "algebraic",              "constant_output"};

/// The keys an op takes besides `op` and `save`, by form (and, for parameterized activations, by op).
std::vector<std::string_view> op_keys(OpKind k) {
  switch (op_form(k)) {
    case OpForm::matmul: return {"other", "param", "transpose_self", "transpose_other"};
    case OpForm::linear: return {"out_features", "bias"};
    case OpForm::conv: return {"out_channels", "kernel", "stride", "padding", "dilation", "groups", "bias"};
    case OpForm::conv_transpose:
      return {"out_channels", "kernel", "stride", "padding", "dilation", "groups", "bias", "output_padding"};
    case OpForm::binary: return {"scalar", "other", "param"};
    case OpForm::scalar_bound: return {"scalar"};
    case OpForm::clamp: return {"min", "max"};
    case OpForm::unary:
      switch (k) {
        case OpKind::gelu: return {"approximate"};
        case OpKind::leaky_relu: return {"negative_slope"};
        case OpKind::hardtanh: return {"min_val", "max_val"};
        case OpKind::softplus: return {"beta", "threshold"};
        case OpKind::elu: return {"alpha"};
        default: return {};
      }
    case OpForm::reduce: return {"dim", "keepdim"};
    case OpForm::softmax: return {"dim"};
    case OpForm::batch_norm: return {"eps", "momentum"};
    case OpForm::group_norm: return {"num_groups", "eps"};
    case OpForm::instance_norm: return {"eps", "affine"};
    case OpForm::layer_norm: return {"normalized_shape", "eps"};
    case OpForm::pool: return {"kernel", "stride", "padding"};
    case OpForm::adaptive_pool: return {"output_size"};
    case OpForm::flatten: return {"start_dim"};
    case OpForm::reshape: return {"shape"};
  }
  return {};
}

std::vector<std::string_view> required_keys(OpKind k) {
  switch (op_form(k)) {
    case OpForm::linear: return {"out_features"};
    case OpForm::conv:
    case OpForm::conv_transpose: return {"out_channels", "kernel"};
    case OpForm::scalar_bound: return {"scalar"};
    case OpForm::softmax: return {"dim"};
    case OpForm::group_norm: return {"num_groups"};
    case OpForm::layer_norm: return {"normalized_shape"};
    case OpForm::pool: return {"kernel"};
    case OpForm::adaptive_pool: return {"output_size"};
    case OpForm::reshape: return {"shape"};
    default: return {};
  }
}

/// Keys whose value is a list of integers (a lone integer is accepted where every spatial dim takes it).
bool is_int_list_key(std::string_view key) {
  static const std::set<std::string_view> keys = {"kernel",      "stride",  "padding",          "dilation",
                                                  "output_padding", "dim",  "normalized_shape", "output_size",
                                                  "param", "shape"};
  return keys.count(key) > 0;
}

class Parser {
 public:
  Parser(const SourceFile& src, DiagEngine& diags)
      : toml_(src, diags, {RuleId::S001, RuleId::S002, RuleId::S003, RuleId::S004, RuleId::S005}),
        src_(src),
        diags_(diags) {}

  std::optional<Problem> run() {
    std::optional<toml::table> parsed = toml_.parse();
    if (!parsed) return std::nullopt;
    const toml::table& root = *parsed;
    Problem p;
    p.path = src_.name();
    size_t slash = p.path.find_last_of('/');
    p.stem = p.path.substr(slash == std::string::npos ? 0 : slash + 1);
    if (p.stem.size() > 5 && p.stem.ends_with(".toml")) p.stem.resize(p.stem.size() - 5);
    toml_.check_keys(root, {"title", "family", "precision", "tolerance", "weak_check", "note", "kernelbench", "input", "op"},
               "a problem file");
    Span whole{0, 0};
    p.title = toml_.string_key(root, "title", whole, /*required=*/true).value_or("");
    if (auto f = toml_.string_key(root, "family", whole, true)) {
      if (std::find(kFamilies.begin(), kFamilies.end(), *f) == kFamilies.end())
        toml_.unknown_name(*root.get("family"), "family", *f, kFamilies);
      p.family = *f;
    }
    if (auto pr = toml_.string_key(root, "precision", whole, false)) {
      if (std::find(kPrecisions.begin(), kPrecisions.end(), *pr) == kPrecisions.end())
        toml_.unknown_name(*root.get("precision"), "precision", *pr, kPrecisions);
      else
        p.precision = *pr;
    }
    p.tolerance = p.precision == "f32" ? 1e-4 : 1e-2;
    if (const toml::node* t = root.get("tolerance")) {
      auto v = t->value<double>();
      if (!v || *v <= 0 || *v >= 1)
        diags_.report(RuleId::S004, toml_.span_of(t->source()), "`tolerance` must be a number in (0, 1): atol = rtol",
                      "write e.g. `tolerance = 1e-4`");
      else
        p.tolerance = *v;
    }
    if (const toml::node* w = root.get("weak_check")) read_weak(*w, p);
    p.note = toml_.string_key(root, "note", whole, false).value_or("");
    if (const toml::node* kb = root.get("kernelbench")) read_kernelbench(*kb, p);
    read_inputs(root, p);
    read_ops(root, p);
    return p;
  }

 private:
  TomlReader toml_;
  const SourceFile& src_;
  DiagEngine& diags_;

  void read_weak(const toml::node& w, Problem& p) {
    const toml::array* a = w.as_array();
    if (!a) {
      diags_.report(RuleId::S004, toml_.span_of(w.source()), "`weak_check` must be a list of reasons",
                    "write e.g. `weak_check = [\"zeros_pass_1e-4\"]`");
      return;
    }
    for (const toml::node& r : *a) {
      auto s = r.value<std::string>();
      if (!s) {
        diags_.report(RuleId::S004, toml_.span_of(r.source()), "a `weak_check` reason must be a string",
                      fmt::format("use one of {}", quoted_list(kWeakReasons)));
      } else if (std::find(kWeakReasons.begin(), kWeakReasons.end(), *s) == kWeakReasons.end()) {
        toml_.unknown_name(r, "weak-check reason", *s, kWeakReasons);
      } else {
        p.weak_check.push_back(*s);
      }
    }
  }

  std::optional<double> positive_number(const toml::table& t, std::string_view key, Span* where) {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    *where = toml_.span_of(n->source());
    auto v = n->value<double>();
    if (!v || *v < 0) {
      diags_.report(RuleId::S004, *where, fmt::format("`{}` must be a number ≥ 0", key),
                    "copy the value from facts/kernelbench_h200_audit.csv");
      return std::nullopt;
    }
    return v;
  }

  void read_kernelbench(const toml::node& node, Problem& p) {
    const toml::table* t = node.as_table();
    if (!t) {
      diags_.report(RuleId::S004, toml_.span_of(node.source()), "`kernelbench` must be a table", "write `[kernelbench]`");
      return;
    }
    toml_.check_keys(*t, {"level", "id", "file", "gflop", "min_bytes", "eager_ms_h200_audit"}, "[kernelbench]");
    Span here = toml_.span_of(t->source());
    KernelBenchRef ref;
    for (auto [key, out, hi] : {std::tuple{"level", &ref.level, 4}, std::tuple{"id", &ref.id, 100}}) {
      const toml::node* n = t->get(key);
      if (!n) {
        diags_.report(RuleId::S003, here, fmt::format("[kernelbench] lacks `{}`", key),
                      fmt::format("add `{} = N`", key));
        continue;
      }
      auto v = n->value<int64_t>();
      if (!v || *v < 1 || *v > hi)
        diags_.report(RuleId::S004, toml_.span_of(n->source()), fmt::format("`{}` must be an integer in 1..{}", key, hi),
                      "name the KernelBench level and problem number");
      else
        *out = static_cast<int>(*v);
    }
    ref.file = toml_.string_key(*t, "file", here, true).value_or("");
    Span ignored;
    ref.gflop = positive_number(*t, "gflop", &ref.gflop_span);
    ref.min_bytes = positive_number(*t, "min_bytes", &ref.bytes_span);
    ref.eager_ms_h200_audit = positive_number(*t, "eager_ms_h200_audit", &ignored);
    p.kernelbench = ref;
  }

  std::optional<Shape> int_list(const toml::node& n, std::string_view key, bool allow_negative) {
    const toml::array* a = n.as_array();
    if (!a) return std::nullopt;
    Shape out;
    for (const toml::node& e : *a) {
      auto v = e.value<int64_t>();
      if (!v || (!allow_negative && *v < 0)) {
        diags_.report(RuleId::S004, toml_.span_of(e.source()),
                      fmt::format("`{}` takes {}integers", key, allow_negative ? "" : "non-negative "),
                      fmt::format("write `{} = [1, 2, ...]`", key));
        return std::nullopt;
      }
      out.push_back(*v);
    }
    return out;
  }

  const toml::array* tables_array(const toml::table& root, std::string_view key, Span whole) {
    const toml::node* n = root.get(key);
    if (!n) {
      diags_.report(RuleId::S003, whole, fmt::format("the problem has no `[[{}]]`", key),
                    key == "input" ? "add `[[input]]` with `name` and `shape`" : "add `[[op]]` with `op = \"...\"`");
      return nullptr;
    }
    const toml::array* a = n->as_array();
    if (!a || a->empty() || !a->is_array_of_tables()) {
      diags_.report(RuleId::S004, toml_.span_of(n->source()), fmt::format("`{}` must be an array of tables", key),
                    fmt::format("write each as a `[[{}]]` section", key));
      return nullptr;
    }
    return a;
  }

  void read_inputs(const toml::table& root, Problem& p) {
    const toml::array* a = tables_array(root, "input", Span{0, 0});
    if (!a) return;
    for (const toml::node& n : *a) {
      const toml::table& t = *n.as_table();
      toml_.check_keys(t, {"name", "shape", "init"}, "an [[input]]");
      Input in;
      in.span = toml_.span_of(t.source());
      in.name = toml_.string_key(t, "name", in.span, true).value_or("");
      const toml::node* s = t.get("shape");
      if (!s) {
        diags_.report(RuleId::S003, in.span, fmt::format("input `{}` has no `shape`", in.name),
                      "add `shape = [d0, d1, ...]` (PyTorch's order)");
      } else if (!s->is_array()) {
        diags_.report(RuleId::S004, toml_.span_of(s->source()), "`shape` must be a list of positive integers",
                      "write e.g. `shape = [1024, 8192]`");
      } else if (auto shape = int_list(*s, "shape", false)) {  // int_list reports a bad element itself
        if (shape->empty() || std::find(shape->begin(), shape->end(), 0) != shape->end())
          diags_.report(RuleId::S004, toml_.span_of(s->source()), "`shape` must be a non-empty list of positive integers",
                        "write e.g. `shape = [1024, 8192]`");
        else
          in.shape = *shape;
      }
      if (auto init = toml_.string_key(t, "init", in.span, false)) {
        auto it = std::find(kInits.begin(), kInits.end(), *init);
        if (it == kInits.end()) toml_.unknown_name(*t.get("init"), "init", *init, kInits);
        else in.init = static_cast<InputInit>(it - kInits.begin());
      }
      for (const Input& prev : p.inputs)
        if (!in.name.empty() && prev.name == in.name)
          diags_.report(RuleId::S004, in.span, fmt::format("two inputs are named `{}`", in.name),
                        "give each input its own name");
      p.inputs.push_back(std::move(in));
    }
  }

  void read_ops(const toml::table& root, Problem& p) {
    const toml::array* a = tables_array(root, "op", Span{0, 0});
    if (!a) return;
    std::set<std::string> names;
    for (const Input& in : p.inputs) names.insert(in.name);
    for (const toml::node& n : *a) {
      const toml::table& t = *n.as_table();
      Span here = toml_.span_of(t.source());
      auto name = toml_.string_key(t, "op", here, true);
      if (!name) continue;
      auto kind = find_op(*name);
      if (!kind) {
        toml_.unknown_name(*t.get("op"), "op", *name, op_names());
        continue;
      }
      Op op{*kind, here, {}, std::nullopt};
      std::vector<std::string_view> allowed = op_keys(*kind);
      allowed.insert(allowed.begin(), {"op", "save"});
      toml_.check_keys(t, allowed, fmt::format("op `{}`", *name));
      for (std::string_view req : required_keys(*kind))
        if (!t.get(req))
          diags_.report(RuleId::S003, here, fmt::format("op `{}` needs `{}`", *name, req),
                        fmt::format("add `{} = ...` (docs/suites.md lists the op's keys)", req));
      for (auto&& [key, value] : t) {
        std::string k(key.str());
        if (k == "op" || std::find(allowed.begin(), allowed.end(), k) == allowed.end()) continue;
        Attr attr;
        attr.span = toml_.span_of(value.source());
        if (auto b = value.value_exact<bool>()) attr.flag = *b;
        else if (auto s = value.value_exact<std::string>()) attr.text = *s;
        else if (auto d = value.value<double>()) attr.number = *d;
        else if (value.is_array()) attr.ints = int_list(value, k, k == "dim" || k == "shape");
        if (k == "save") {
          if (!attr.text) diags_.report(RuleId::S004, attr.span, "`save` must be a name", "write `save = \"x0\"`");
          else op.save = *attr.text;
          continue;
        }
        if (!well_typed(*kind, k, attr)) continue;
        op.attrs.emplace(k, std::move(attr));
      }
      check_operand(op, *name, names);
      if (op.save) names.insert(*op.save);
      p.ops.push_back(std::move(op));
    }
  }

  /// The value kind a key takes; a wrong kind is S004.
  bool well_typed(OpKind kind, const std::string& key, const Attr& a) {
    static const std::set<std::string_view> integer_keys = {"out_features", "out_channels", "groups", "num_groups",
                                                            "start_dim"};
    auto integral = [&] { return a.number && *a.number == static_cast<double>(static_cast<int64_t>(*a.number)); };
    std::string want;
    bool ok = true;
    if (key == "bias" || key == "keepdim" || key == "affine" || key == "transpose_self" || key == "transpose_other") {
      ok = a.flag.has_value();
      want = "true or false";
    } else if (key == "other") {
      ok = a.text.has_value();
      want = "a string";
    } else if (key == "approximate") {
      ok = a.text && (*a.text == "none" || *a.text == "tanh");
      want = "\"none\" or \"tanh\"";
    } else if (integer_keys.count(key) || (key == "dim" && op_form(kind) == OpForm::softmax)) {
      ok = integral();
      want = "an integer";
    } else if (key == "kernel") {  // its length is the spatial rank
      ok = a.ints && !a.ints->empty();
      want = "a list of integers, one per spatial dim";
    } else if (key == "dim" || (is_int_list_key(key) && key != "param" && key != "normalized_shape" &&
                                key != "output_size" && key != "shape")) {
      ok = a.ints.has_value() || integral();
      want = "an integer or a list of integers";
    } else if (is_int_list_key(key)) {
      ok = a.ints.has_value() && !a.ints->empty();
      want = "a non-empty list of integers";
    } else {
      ok = a.number.has_value();
      want = "a number";
    }
    if (!ok) diags_.report(RuleId::S004, a.span, fmt::format("`{}` takes {}", key, want),
                           "docs/suites.md lists every op's keys and their values");
    return ok;
  }

  /// S006: a binary op has exactly one operand source; matmul one of `other` and `param`; names exist.
  void check_operand(const Op& op, const std::string& name, const std::set<std::string>& names) {
    OpForm f = op_form(op.kind);
    if (f != OpForm::binary && f != OpForm::matmul) return;
    std::vector<std::string_view> sources = f == OpForm::binary ? std::vector<std::string_view>{"scalar", "other", "param"}
                                                                : std::vector<std::string_view>{"other", "param"};
    int given = 0;
    for (std::string_view s : sources) given += op.attrs.count(std::string(s)) ? 1 : 0;
    if (given != 1)
      diags_.report(RuleId::S006, op.span,
                    fmt::format("op `{}` takes exactly one of {}; it has {}", name, quoted_list(sources), given),
                    f == OpForm::binary ? "e.g. `scalar = 2.0`, `other = \"x0\"` or `param = [128, 1, 1]`"
                                        : "e.g. `other = \"B\"` or `param = [N, K]`");
    if (const Attr* o = op.get("other"); o && o->text && !names.count(*o->text)) {
      std::vector<std::string_view> known(names.begin(), names.end());
      auto best = closest_name(*o->text, known);
      diags_.report(RuleId::S006, o->span, fmt::format("`{}` is neither an input nor an earlier op's `save`", *o->text),
                    best ? fmt::format("did you mean `{}`?", *best)
                         : "name an [[input]], or add `save = \"...\"` to the op whose result you mean");
    }
  }
};

}  // namespace

std::optional<Problem> parse_problem(const SourceFile& src, DiagEngine& diags) { return Parser(src, diags).run(); }

}  // namespace ucut::suite
