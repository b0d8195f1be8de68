// eval/problem.cpp — problem files: TOML in, a reference KernelConfig out (lowered from a synthesized spec,
// so problem semantics and specs share one vocabulary and one parser).
#include "eval/problem.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <fstream>
#include <tuple>
#include <sstream>
#include <toml++/toml.h>

#include "compiler/pipeline.h"
#include "eval/conv_abi.h"
#include "eval/grouped_layout.h"
#include "eval/pipeline_problem.h"
#include "ir/canonical.h"
#include "support/diag_render.h"
#include "support/suggest.h"

namespace ucut {
namespace {

bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

/// "bf16 row" → the DSL tensor text for an operand with the given extents.
std::string operand_text(const std::string& decl, const std::string& dims) {
  size_t sp = decl.find(' ');
  std::string dtype = decl.substr(0, sp);
  std::string rest = sp == std::string::npos ? "" : decl.substr(sp);
  return fmt::format("{}[{}]{}", dtype, dims, rest);
}

/// A key of `table` that is not in `known`, as "file:line:col: unknown key `x` in <where> (did you mean `y`?)"; a
/// misspelt key would otherwise be ignored and its default used silently.
std::optional<std::string> unknown_key(const toml::table& table, const std::vector<std::string_view>& known,
                                       const std::string& file, const std::string& where) {
  for (const auto& [key, value] : table) {
    if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
    auto near = closest_name(key.str(), known);
    return fmt::format("{}:{}:{}: unknown key `{}` in {}; {}", file, key.source().begin.line,
                       key.source().begin.column, key.str(), where,
                       near ? fmt::format("did you mean `{}`?", *near) : "the keys are " + quoted_list(known));
  }
  return std::nullopt;
}

/// The keys of one entry of `shapes`: m, n, k (batch for batched GEMMs), a grouped GEMM's problem list, or a
/// convolution's geometry (transposed convolutions also take `output_padding`). Every convolution knows `groups`,
/// so that a dense one given a group count says to use grouped_conv2d instead of calling the key unknown.
std::vector<std::string_view> shape_keys(OpKind op) {
  int conv_dims = op_spatial_dims(op);
  if (op == OpKind::grouped_gemm) return {"groups", "label"};
  if (!conv_dims) return op == OpKind::batched_gemm ? std::vector<std::string_view>{"m", "n", "k", "batch", "label"}
                                                    : std::vector<std::string_view>{"m", "n", "k", "label"};
  static constexpr std::string_view in[] = {"d", "h", "w"}, filter[] = {"t", "r", "s"};
  std::vector<std::string_view> keys = {"n", "c", "k", "pad", "stride", "dilation", "groups", "label"};
  if (op_conv_kind(op) == ConvKind::dgrad) keys.push_back("output_padding");
  for (int i = 3 - conv_dims; i < 3; ++i) {
    keys.push_back(in[i]);
    keys.push_back(filter[i]);
  }
  return keys;
}

/// Reads `key`, an array of `dims` integers >= lo, into the [d, h, w] slots of `arr` (left as is when absent).
bool read_spatial_array(const toml::table& s, const char* key, int dims, int64_t lo, std::array<int64_t, 3>& arr,
                        std::string* why) {
  auto node = s[key];
  if (!node) return true;
  const toml::array* a = node.as_array();
  if (!a || static_cast<int>(a->size()) != dims) {
    *why = fmt::format("`{}` is an array of {} integer{}", key, dims, dims == 1 ? "" : "s");
    return false;
  }
  for (int i = 0; i < dims; ++i) {
    auto v = (*a)[static_cast<size_t>(i)].value<int64_t>();
    if (!v || *v < lo || *v > INT32_MAX) {
      *why = fmt::format("`{}` values must be integers >= {} (and below 2^31)", key, lo);
      return false;
    }
    arr[static_cast<size_t>(3 - dims + i)] = *v;
  }
  return true;
}

/// A transposed convolution as the data gradient of its forward convolution: the transposed input [n, in, c]
/// with weight [c, filter, k] is the forward output [n, out, k'=c], and the transposed output (PyTorch's
/// (in - 1) stride - 2 pad + dilation (filter - 1) + output_padding + 1) is the forward input with c' = k channels.
std::optional<ConvShape> as_data_gradient(const ConvShape& t, const std::array<int64_t, 3>& output_padding,
                                          std::string* why) {
  ConvShape f = t;
  f.kind = ConvKind::dgrad;
  f.c = t.k;
  f.k = t.c;
  for (int i = 0; i < 3; ++i) {
    if (output_padding[i] >= t.stride[i]) {
      *why = "`output_padding` values must be smaller than the stride";
      return std::nullopt;
    }
    f.in[i] = (t.in[i] - 1) * t.stride[i] - 2 * t.pad[i] + t.dilation[i] * (t.filter[i] - 1) + output_padding[i] + 1;
    if (f.in[i] < 1 || f.in[i] > INT32_MAX) {
      *why = "the padding leaves an empty (or over 2^31) transposed-convolution output";
      return std::nullopt;
    }
  }
  return f;
}

/// A convolution's channel groups into c.groups (c.c and c.k read already): grouped_conv2d needs `groups = G`
/// dividing c and k; depthwise_conv2d has G = C = K implied (a given `k` or `groups` must equal c); dense
/// convolutions have one group and refuse the key. On failure says why.
bool read_groups(const toml::table& s, OpKind op, ConvShape& c, std::string* why) {
  const toml::node* node = s.get("groups");
  ConvGrouping grouping = op_conv_grouping(op);
  if (node && grouping == ConvGrouping::dense) {
    *why = fmt::format(
        "has `groups`, but `{}` is a dense convolution (one group); for channel groups use op = \"grouped_conv2d\" "
        "(or \"depthwise_conv2d\" for one group per channel), otherwise drop `groups`",
        op_name(op));
    return false;
  }
  const toml::value<int64_t>* g = node ? node->as_integer() : nullptr;
  if (node && (!g || g->get() < 1 || g->get() > INT32_MAX)) {
    *why = "`groups` must be an integer from 1 to 2^31 - 1, the number of channel groups G";
    return false;
  }
  if (grouping == ConvGrouping::depthwise) {
    if (c.k != c.c) {
      *why = fmt::format("has k = {} but c = {}: a depthwise convolution has one output channel per input channel; "
                         "drop `k` (it is c), or use op = \"grouped_conv2d\" with groups = {} for a channel multiplier",
                         c.k, c.c, c.c);
      return false;
    }
    if (g && g->get() != c.c) {
      *why = fmt::format("has `groups` = {} but c = {}: a depthwise convolution has one group per channel; drop "
                         "`groups` (it is c), or use op = \"grouped_conv2d\"",
                         g->get(), c.c);
      return false;
    }
    c.groups = c.c;
    return true;
  }
  if (grouping == ConvGrouping::grouped) {
    if (!g) {
      *why = "needs `groups = G`, the number of channel groups (G divides c and k)";
      return false;
    }
    if (c.c % g->get() != 0 || c.k % g->get() != 0) {
      *why = fmt::format("has `groups` = {}, which does not divide both c = {} and k = {}: each group takes c/G input "
                         "and k/G output channels; choose a G that divides {} (the greatest common divisor)",
                         g->get(), c.c, c.k, std::gcd(c.c, c.k));
      return false;
    }
    c.groups = g->get();
  }
  return true;
}

}  // namespace

std::optional<ConvShape> parse_conv_shape(const toml::table& s, OpKind op, std::string* why) {
  static const char* const in_keys[] = {"d", "h", "w"};
  static const char* const filter_keys[] = {"t", "r", "s"};
  const int dims = op_spatial_dims(op);
  const bool depthwise = op_conv_grouping(op) == ConvGrouping::depthwise;
  ConvShape c;
  c.dims = dims;
  c.kind = op_conv_kind(op);
  c.n = s["n"].value_or<int64_t>(0);
  c.c = s["c"].value_or<int64_t>(0);
  c.k = depthwise && !s.contains("k") ? c.c : s["k"].value_or<int64_t>(0);
  std::string keys = "n";
  for (int i = 3 - dims; i < 3; ++i) {
    c.in[i] = s[in_keys[i]].value_or<int64_t>(0);
    keys += fmt::format(", {}", in_keys[i]);
  }
  keys += depthwise ? ", c" : ", c, k";
  for (int i = 3 - dims; i < 3; ++i) {
    c.filter[i] = s[filter_keys[i]].value_or<int64_t>(0);
    keys += fmt::format(", {}", filter_keys[i]);
  }
  // The kernel ABI (ucut_conv_args) and CUTLASS's ConvProblemShape hold each extent in 32 bits.
  auto fits = [](int64_t v) { return v > 0 && v <= INT32_MAX; };
  bool positive = fits(c.n) && fits(c.c) && fits(c.k);
  for (int i = 0; i < 3; ++i) positive = positive && fits(c.in[i]) && fits(c.filter[i]);
  if (!positive) {
    *why = fmt::format("needs positive {} (each below 2^31)", keys);
    return std::nullopt;
  }
  if (!read_groups(s, op, c, why)) return std::nullopt;
  std::array<int64_t, 3> output_padding{0, 0, 0};
  if (!read_spatial_array(s, "pad", dims, 0, c.pad, why) || !read_spatial_array(s, "stride", dims, 1, c.stride, why) ||
      !read_spatial_array(s, "dilation", dims, 1, c.dilation, why) ||
      !read_spatial_array(s, "output_padding", dims, 0, output_padding, why))
    return std::nullopt;
  if (c.kind == ConvKind::dgrad) return as_data_gradient(c, output_padding, why);
  for (int i = 0; i < 3; ++i)
    if (c.out(i) < 1) {
      *why = "the filter (with its dilation) is larger than the padded input: the output would be empty";
      return std::nullopt;
    }
  return c;
}

namespace {

/// "file:line:col" of a node of the problem file.
std::string place(const std::string& file, const toml::node& n) {
  return fmt::format("{}:{}:{}", file, n.source().begin.line, n.source().begin.column);
}

/// Reads a grouped GEMM's `groups = [[m, n, k], ...]` from shape table `s`: at least one problem, each extent an
/// integer from 1 to 2^31 - 1 (the kernel ABI's problem list holds 32-bit extents). On failure returns nullopt and
/// says why, at the offending node's line and column.
std::optional<std::vector<GroupProblem>> parse_groups(const toml::table& s, const std::string& file,
                                                      const std::string& where, std::string* why) {
  const toml::node* node = s.get("groups");
  if (!node) {
    *why = fmt::format("{}: {} needs `groups = [[m, n, k], ...]`, one [m, n, k] per problem", place(file, s), where);
    return std::nullopt;
  }
  const toml::array* list = node->as_array();
  if (!list || list->empty()) {
    *why = fmt::format("{}: {}: `groups` {}; give at least one [m, n, k]", place(file, *node), where,
                       list ? "lists no problems" : "is not an array of [m, n, k] problems");
    return std::nullopt;
  }
  std::vector<GroupProblem> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::node& entry = (*list)[i];
    const toml::array* mnk = entry.as_array();
    GroupProblem g;
    int64_t* extents[] = {&g.m, &g.n, &g.k};
    bool ok = mnk && mnk->size() == 3;
    for (size_t j = 0; ok && j < 3; ++j) {
      auto v = (*mnk)[j].value<int64_t>();
      ok = v && *v > 0 && *v <= INT32_MAX;
      if (ok) *extents[j] = *v;
    }
    if (!ok) {
      *why = fmt::format("{}: {}: problem {} of `groups` must be [m, n, k], three integers from 1 to 2^31 - 1",
                         place(file, entry), where, i + 1);
      return std::nullopt;
    }
    out.push_back(g);
  }
  return out;
}

/// `tolerance = { atol, rtol }`, or the default for the problem's types (a pipeline's: its last stage's).
bool read_tolerance(const toml::table& t, const std::string& name, Problem& p, std::string* error) {
  if (const toml::table* tol = t["tolerance"].as_table()) {
    if (auto bad = unknown_key(*tol, {"atol", "rtol"}, name, "`tolerance`")) {
      fail(error, *bad);
      return false;
    }
    p.tolerance.atol = (*tol)["atol"].value_or(-1.0);
    p.tolerance.rtol = (*tol)["rtol"].value_or(-1.0);
    if (p.tolerance.atol < 0 || p.tolerance.rtol < 0) {
      fail(error, fmt::format("{}: `tolerance` needs non-negative `atol` and `rtol`", name));
      return false;
    }
    p.tolerance_given = true;
  } else {
    p.tolerance = default_tolerance(p.semantics.a.dtype.value, p.semantics.math.value, p.semantics.output().dtype.value);
  }
  return true;
}

/// `framework_inputs = { a = "rand", b = "param", c = "rand", vectors = "param" }`: how the problem's framework
/// draws each operand (eval/input_draw.h); a role left out is signed.
bool read_framework_inputs(const toml::table& t, const std::string& name, Problem& p, std::string* error) {
  auto node = t["framework_inputs"];
  if (!node) return true;
  const toml::table* roles = node.as_table();
  if (!roles) {
    fail(error, fmt::format("{}: `framework_inputs` is a table, e.g. {{ a = \"rand\", b = \"param\" }}", name));
    return false;
  }
  if (auto bad = unknown_key(*roles, {"a", "b", "c", "vectors"}, name, "`framework_inputs`")) {
    fail(error, *bad);
    return false;
  }
  for (auto [key, slot] : {std::pair{"a", &p.framework_inputs.a}, std::pair{"b", &p.framework_inputs.b},
                           std::pair{"c", &p.framework_inputs.c}, std::pair{"vectors", &p.framework_inputs.vectors}}) {
    if (!(*roles)[key]) continue;
    auto draw = parse_input_draw((*roles)[key].value_or<std::string>(""));
    if (!draw) {
      fail(error, fmt::format("{}: `framework_inputs.{}` is one of signed, rand, randn, param", name, key));
      return false;
    }
    *slot = *draw;
  }
  return true;
}

}  // namespace

std::optional<Problem> parse_problem(const std::string& text, const std::string& name, std::string* error) {
  toml::table t;
  try {
    t = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    fail(error, fmt::format("{}:{}:{}: {}", name, e.source().begin.line, e.source().begin.column, e.description()));
    return std::nullopt;
  }
  bool pipeline = t["op"].value_or<std::string>("") == "pipeline";
  if (auto bad = unknown_key(t,
                             pipeline ? std::vector<std::string_view>{"name", "op", "semantics", "reference",
                                                                      "tolerance", "framework_inputs", "shapes"}
                                      : std::vector<std::string_view>{"name", "op", "a", "b", "d", "math", "epilogue",
                                                                      "reference", "tolerance", "framework_inputs",
                                                                      "shapes"},
                             name, "the problem")) {
    fail(error, *bad);
    return std::nullopt;
  }
  Problem p;
  p.path = name;
  auto str = [&](const char* key, const char* fallback) -> std::optional<std::string> {
    auto node = t[key];
    if (!node) return fallback ? std::optional<std::string>(fallback) : std::nullopt;
    if (!node.is_string()) {
      fail(error, fmt::format("{}: `{}` must be a string", name, key));
      return std::nullopt;
    }
    return node.value<std::string>();
  };
  auto pname = str("name", nullptr);
  auto reference = str("reference", "auto");
  if (!pname || !reference) {
    if (error && error->empty()) *error = fmt::format("{}: a problem needs a `name`", name);
    return std::nullopt;
  }
  p.name = *pname;
  p.reference = *reference;
  if (p.reference != "auto" && p.reference != "gpu" && p.reference != "cpu") {
    fail(error, fmt::format("{}: `reference` is auto, gpu or cpu, not `{}`", name, p.reference));
    return std::nullopt;
  }
  if (!read_framework_inputs(t, name, p, error)) return std::nullopt;
  if (pipeline) {
    if (!read_pipeline_problem(t, name, p, error)) return std::nullopt;
    return read_tolerance(t, name, p, error) ? std::optional<Problem>(std::move(p)) : std::nullopt;
  }
  auto op = str("op", "gemm");
  auto a = str("a", nullptr), b = str("b", nullptr), d = str("d", nullptr);
  auto math = str("math", "native");
  auto epilogue = str("epilogue", "");
  if (!op || !a || !b || !d || !math || !epilogue) {
    if (error && error->empty())
      *error = fmt::format("{}: a problem needs `name`, `a`, `b` and `d` (e.g. a = \"bf16 row\")", name);
    return std::nullopt;
  }
  auto op_kind = find_op(*op);
  if (!op_kind) {
    fail(error, fmt::format("{}: `op` is one of {}, not `{}`", name, fmt::join(op_names(), ", "), *op));
    return std::nullopt;
  }
  bool batched = *op_kind == OpKind::batched_gemm, grouped = *op_kind == OpKind::grouped_gemm;
  int conv_dims = op_spatial_dims(*op_kind);
  // Each operand's extents: a convolution's (ir/types.h conv_extent_names); a GEMM's A, B, D (with a leading L
  // when batched, G when grouped).
  auto extents = [&](char conv_role, const char* matrix) {
    return conv_dims ? std::string(conv_extent_names(*op_kind, conv_role))
                     : (batched ? "L," : grouped ? "G," : "") + std::string(matrix);
  };
  std::string mk = extents('a', "M,K"), kn = extents('b', "K,N"), mn = extents('d', "M,N");
  std::string chain = epilogue->empty() ? "" : " >> " + *epilogue;
  std::string math_arg = fmt::format(", math = {}", *math);
  const OperandNames names = operand_names(*op_kind);
  p.semantics_spec = fmt::format("kernel {} : sm90a\n  {}({}: {}, {}: {}{})\n  {} >> store({}: {})\n", p.name, *op,
                                 names.a, operand_text(*a, mk), names.b, operand_text(*b, kn), math_arg, chain,
                                 names.d, operand_text(*d, mn));
  SourceFile src(name + " (semantics)", p.semantics_spec);
  Compilation c = compile_spec(src, StopAfter::lower);
  if (!c.ok()) {
    fail(error, fmt::format("{}: the problem's operands or epilogue do not read as a spec:\n{}", name,
                            render_text(src, c.diags.diagnostics())));
    return std::nullopt;
  }
  p.semantics = *c.config;

  const toml::array* shapes = t["shapes"].as_array();
  if (!shapes || shapes->empty()) {
    fail(error, fmt::format("{}: `shapes` must list at least one {{ m = .., n = .., k = .. }}", name));
    return std::nullopt;
  }
  for (const toml::node& n : *shapes) {
    const toml::table* s = n.as_table();
    GemmShape g;
    if (!s) {
      fail(error, fmt::format("{}: each entry of `shapes` is a table like {{ m = 4096, n = 4096, k = 4096 }}", name));
      return std::nullopt;
    }
    if (auto bad = unknown_key(*s, shape_keys(*op_kind), name,
                               fmt::format("shape {} of `{}`", p.shapes.size() + 1, *op))) {
      fail(error, *bad);
      return std::nullopt;
    }
    if (conv_dims) {
      std::string why;
      auto c = parse_conv_shape(*s, *op_kind, &why);
      if (!c) {
        fail(error, fmt::format("{}: shape {} of `{}` {}", name, p.shapes.size() + 1, *op, why));
        return std::nullopt;
      }
      g = conv_gemm_shape(*c, (*s)["label"].value_or<std::string>(""));
      p.shapes.push_back(g);
      continue;
    }
    if (grouped) {
      std::string why;
      auto groups = parse_groups(*s, name, fmt::format("shape {} of `{}`", p.shapes.size() + 1, *op), &why);
      if (!groups) {
        fail(error, why);
        return std::nullopt;
      }
      g.groups = std::move(*groups);
      g.m = g.n = g.k = 0;  // a grouped shape's extents are its problems'
      g.label = (*s)["label"].value_or<std::string>("");
      p.shapes.push_back(g);
      continue;
    }
    g.m = (*s)["m"].value_or<int64_t>(0);
    g.n = (*s)["n"].value_or<int64_t>(0);
    g.k = (*s)["k"].value_or<int64_t>(0);
    g.batch = (*s)["batch"].value_or<int64_t>(1);
    g.label = (*s)["label"].value_or<std::string>("");
    if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.batch <= 0 || (!batched && g.batch != 1)) {
      fail(error, fmt::format("{}: shape {} needs positive m, n, k{}", name, p.shapes.size() + 1,
                              batched ? " and batch" : " (batch only for batched_gemm)"));
      return std::nullopt;
    }
    p.shapes.push_back(g);
  }
  if (!read_tolerance(t, name, p, error)) return std::nullopt;
  return p;
}

std::optional<Problem> load_problem(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    fail(error, fmt::format("cannot read problem '{}'", path));
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_problem(ss.str(), path, error);
}

std::optional<std::string> semantic_mismatch(const Problem& problem, const KernelConfig& kernel) {
  if (problem.pipeline)
    return fmt::format("the problem is a pipeline of {} stages, and the spec a single kernel",
                       problem.pipeline->stages.size());
  const KernelConfig& p = problem.semantics;
  if (p.op.value != kernel.op.value)
    return fmt::format("the problem is `{}` but the spec computes `{}`", op_name(p.op.value), op_name(kernel.op.value));
  auto operand = [](const TensorDecl& t) {  // as the caller passes it: a `from(T)` operand in T
    return fmt::format("{} {}", dtype_name(t.caller_dtype()), layout_name(t.layout.value));
  };
  for (auto [pt, kt] : {std::pair{&p.a, &kernel.a}, std::pair{&p.b, &kernel.b}, std::pair{&p.output(), &kernel.output()}})
    if (operand(*pt) != operand(*kt))
      return fmt::format("operand {} is `{}` in the problem but `{}` in the spec", pt->name.value, operand(*pt), operand(*kt));
  // Compare the chains stage by stage, ignoring scalar values (the harness passes the problem's), alignments
  // (what a kernel requires of the shapes, which shape_violation checks per shape) and padding (how a kernel
  // reaches an operand, not what it computes).
  nlohmann::json pe = canonical_config(p)["epilogue"], ke = canonical_config(kernel)["epilogue"];
  auto strip = [](nlohmann::json e) {
    for (auto& s : e) {
      s.erase("default");
      s.erase("scalar");
      if (s.contains("tensor")) {
        s["tensor"].erase("name");
        s["tensor"].erase("align");
        s["tensor"].erase("pad");
      }
    }
    return e;
  };
  if (strip(pe) != strip(ke))
    return fmt::format("the spec's epilogue {} does not compute the problem's {}", ke.dump(), pe.dump());
  return std::nullopt;
}

namespace {

/// The innermost (channel) extent of a convolution's operands a, b and of its output-shaped tensors, in the
/// forward geometry's terms (see ConvKind), as the kernel reads them. The SM90 transposed convolution reads its
/// weight as the flipped copy [c, filter, k] that it prepares itself, so both operands are k-innermost; CUTLASS
/// 2.x's data gradient reads the weight in place, c-innermost. A grouped convolution reads its activation and
/// weight one group at a time (c/G channels each); a depthwise one reads its weight along the channels (CUTLASS's
/// direct convolution checks K).
std::array<int64_t, 3> conv_channels(const ConvShape& c, BackendKind backend, ConvGrouping grouping) {
  if (grouping == ConvGrouping::depthwise) return {c.c, c.k, c.k};
  switch (c.kind) {
    case ConvKind::fprop: return {c.group_c(), c.group_c(), c.k};
    case ConvKind::dgrad: return {c.k, backend == BackendKind::sm90 ? c.k : c.c, c.c};
    case ConvKind::wgrad: break;
  }
  return {c.k, c.c, c.c};
}

/// The SM90 kernel runs a transposed convolution as one forward convolution per output phase
/// (abi/transposed_phases.h).
std::optional<std::string> sm90_transposed_violation(const ConvShape& c) {
  if (const char* why = ucut_phases_error(conv_args(c)))
    return fmt::format("the SM90 kernel runs a transposed convolution as one stride-1 forward convolution per output "
                       "phase, which cannot run this one: {}; CUTLASS 2.x's strided data gradient runs it (a spec for "
                       "sm80, or sm90a `with_scheduler(multistage)`)",
                       why);
  return std::nullopt;
}

/// CUTLASS 2.x's implicit-GEMM convolutions address each tensor with 32-bit byte offsets: can_implement refuses a
/// tensor of 2 GiB or more.
std::optional<std::string> sm80_tensor_size_violation(const KernelConfig& kernel, const ConvShape& c) {
  const std::pair<const TensorDecl*, int64_t> tensors[] = {
      {&kernel.a, c.a_elements()}, {&kernel.b, c.b_elements()}, {&kernel.output(), c.d_elements()}};
  for (const auto& [t, elements] : tensors) {
    int64_t bytes = elements * dtype_bits(t->dtype.value) / 8;
    if (bytes < (int64_t(1) << 31)) continue;
    return fmt::format("`{}` holds {} bytes ({:.2f} GiB); CUTLASS 2.x's convolutions index tensors below 2 GiB (32-bit "
                       "offsets): split the batch, or run it on sm90a's TMA kernel where that one applies",
                       t->name.value, bytes, double(bytes) / double(int64_t(1) << 30));
  }
  return std::nullopt;
}

/// CUTLASS 2.x runs a transposed convolution as its strided data gradient (StrideSupport::kStrided), whose
/// can_implement refuses dilation > 1 at any stride (its starting-tap arithmetic assumes dilation 1). Padding is
/// free: every tap that falls outside the forward output is masked.
std::optional<std::string> sm80_transposed_violation(const ConvShape& c) {
  static const char* const axis[] = {"depth", "height", "width"};
  for (int i = 3 - c.dims; i < 3; ++i)
    if (c.dilation[i] != 1)
      return fmt::format("the transposed convolution has dilation {} along {}: CUTLASS 2.x's strided data gradient, "
                         "which this kernel runs, supports dilation 1 only; an sm90a TMA kernel runs dilated "
                         "transposed convolutions with stride 1",
                         c.dilation[i], axis[i]);
  return std::nullopt;
}

/// The limits of TMA's im2col mode, which loads the convolution's activation (CUTLASS 4.2's SM90 implicit GEMM
/// checks them in can_implement): per spatial rank d, padding up to 65536, 256 or 16, the padded window's corners
/// within [-2^(16/d − 1), 2^(16/d − 1) − 1] and the dilated filter's extent below 2^(16/d) − 1. A transposed
/// convolution runs each output phase's forward convolution with its own window, dilation and padding.
std::optional<std::string> im2col_violation(const ConvShape& c) {
  const int64_t padding_limit = c.dims == 1 ? 65536 : c.dims == 2 ? 256 : 16;
  const int64_t corner_limit = int64_t(1) << (16 / c.dims - 1);
  const int64_t offset_limit = (int64_t(1) << (16 / c.dims)) - 1;
  static const char* const axis[] = {"depth", "height", "width"};
  // One forward convolution's window along dimension i: the dilated filter's extent minus one, and its padding.
  auto window_violation = [&](int i, int64_t reach, int64_t lo, int64_t hi) -> std::optional<std::string> {
    if (reach >= offset_limit)
      return fmt::format("the dilated filter spans {} pixels along {}; TMA im2col (a {}D convolution) reaches at most "
                         "{}",
                         reach + 1, axis[i], c.dims, offset_limit);
    // The window's corners: lower -lo, upper hi - reach, both in [-corner_limit, corner_limit - 1].
    if (lo > padding_limit || hi > padding_limit || lo > corner_limit || -lo > corner_limit - 1 ||
        reach - hi > corner_limit || hi - reach > corner_limit - 1)
      return fmt::format("the kernel pads {} by {} below and {} above with a dilated filter reach of {}; TMA im2col (a "
                         "{}D convolution) needs the padded window's corners (-{}, {} - {}) within [-{}, {}]",
                         axis[i], lo, hi, reach, c.dims, lo, hi, reach, corner_limit, corner_limit - 1);
    return std::nullopt;
  };
  if (c.kind == ConvKind::dgrad) {
    const ucut_conv_args abi = conv_args(c);
    if (ucut_phases_error(abi)) return std::nullopt;  // sm90_transposed_violation names it
    for (int32_t index = 0; index < ucut_phase_count(abi); ++index) {
      const ucut_phase p = ucut_phase_of(abi, index);
      if (p.empty) continue;
      for (int i = 3 - c.dims; i < 3; ++i) {
        const ucut_phase_dim& d = p.dim[i];
        if (auto why = window_violation(i, int64_t(d.dilation) * (d.window - 1), d.pad_lo, d.pad_hi)) return why;
      }
    }
    return std::nullopt;
  }
  for (int i = 3 - c.dims; i < 3; ++i) {
    const int64_t reach = c.dilation[i] * (c.filter[i] - 1);
    if (auto why = window_violation(i, reach, c.pad[i], c.pad[i])) return why;
  }
  return std::nullopt;
}

/// A tensor whose packed rows x cols matrix must keep its leading dimension a multiple of its alignment.
struct LdCheck {
  const TensorDecl* t;
  int64_t rows, cols;
  const char* row_extent = "";  // the extents' names, for messages ("M", "K")
  const char* col_extent = "";
};

/// The first tensor of `checks` whose leading dimension breaks its declared alignment, with that leading
/// dimension and the next multiple of the alignment.
struct Misaligned {
  const LdCheck* check;
  int64_t ld, padded;
};
std::optional<Misaligned> first_misaligned(const std::vector<LdCheck>& checks) {
  for (const LdCheck& c : checks) {
    int64_t ld = packed_ld(c.t->layout.value, c.rows, c.cols), align = c.t->align.value;
    if (ld % align != 0) return Misaligned{&c, ld, (ld + align - 1) / align * align};
  }
  return std::nullopt;
}

int64_t align_bytes(const TensorDecl& t) { return t.align.value * dtype_bits(t.dtype.value) / 8; }

/// A grouped GEMM's operands are packed problem by problem (eval/grouped_layout.h), so every problem's leading
/// dimensions must keep each tensor's alignment: the first problem that breaks one, by index and extent.
std::optional<std::string> grouped_violation(const KernelConfig& kernel, const GemmShape& shape) {
  for (size_t i = 0; i < shape.groups.size(); ++i) {
    const GroupProblem& p = shape.groups[i];
    std::vector<LdCheck> checks = {{&kernel.a, p.m, p.k, "M", "K"}, {&kernel.b, p.k, p.n, "K", "N"}};
    for (const TensorDecl* t : kernel.epilogue_tensors()) checks.push_back({t, p.m, p.n, "M", "N"});
    auto bad = first_misaligned(checks);
    if (!bad) continue;
    const LdCheck& c = *bad->check;
    const char* extent = c.t->layout.value == Layout::col ? c.row_extent : c.col_extent;
    return fmt::format("problem {} of {} (m = {}, n = {}, k = {}): `{}` is {}-major with leading dimension {} = {}, "
                       "not a multiple of its alignment {} ({} bytes); a grouped GEMM reads every problem's matrices "
                       "in place, so each problem's {} must keep it. Pad that problem's {} to {}",
                       i + 1, shape.groups.size(), p.m, p.n, p.k, c.t->name.value, layout_name(c.t->layout.value), extent,
                       bad->ld, c.t->align.value, align_bytes(*c.t), extent, extent, bad->padded);
  }
  return std::nullopt;
}

/// A filter extent that the kernel's spec fixes as a number (`W: f32[C,3,3,1]`: CUTLASS's direct convolution compiles
/// the filter size in) and the shape does not have. The filter's spatial extents follow its first extent in every
/// kind that has a filter operand (a filter gradient's b is X).
std::optional<std::string> filter_extent_violation(const KernelConfig& kernel, const ConvShape& c) {
  const std::vector<Extent>& dims = kernel.b.dims;
  if (c.kind == ConvKind::wgrad || dims.size() != static_cast<size_t>(c.dims + 2)) return std::nullopt;
  auto text = [](const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; };
  static const char* const names[] = {"t", "r", "s"};
  bool mismatch = false;
  std::vector<std::string> built, shape, fits;  // the kernel's filter extents, the shape's, a declaration that fits
  fits.push_back(text(dims.front()));
  for (int i = 0; i < c.dims; ++i) {
    const Extent& e = dims[static_cast<size_t>(i) + 1];
    int64_t size = c.filter[3 - c.dims + i];
    mismatch = mismatch || (e.fixed() && e.size != size);
    built.push_back(text(e));
    shape.push_back(fmt::format("{} = {}", names[3 - c.dims + i], size));
    fits.push_back(e.fixed() ? std::to_string(size) : e.symbol);
  }
  fits.push_back(text(dims.back()));
  if (!mismatch) return std::nullopt;
  return fmt::format("the kernel is built for a {} filter (`{}` declares its extents as numbers), but this shape's "
                     "filter has {}; compile a kernel for this size: `{}: {}[{}]`",
                     fmt::join(built, "x"), kernel.b.name.value, fmt::join(shape, ", "), kernel.b.name.value,
                     dtype_name(kernel.b.dtype.value), fmt::join(fits, ","));
}

/// The 2.x grouped kernel (CUTLASS's GroupMode::kMultipleGroup, as emit/sm80/conv.cpp builds it) computes whole
/// groups in each CTA: its device-level can_implement needs K/G to divide the CTA tile's N.
std::optional<std::string> group_tile_violation(const KernelConfig& kernel, const ConvShape& c) {
  int64_t tile_n = kernel.tile.value[1];
  if (op_conv_grouping(kernel.op.value) != ConvGrouping::grouped || tile_n <= 0 || tile_n % c.group_k() == 0)
    return std::nullopt;
  return fmt::format("the grouped kernel computes whole groups in each CTA (CUTLASS's GroupMode::kMultipleGroup), so "
                     "the {} output channels per group (k / groups = {} / {}) must divide the CTA tile's N = {}; choose "
                     "`.with_threadblockshape(M, N, K)` with N a multiple of {} (the tile table's N are powers of two)",
                     c.group_k(), c.k, c.groups, tile_n, c.group_k());
}

/// Geometry the kernel cannot run: a filter size other than the one its spec fixes; a group size the grouped kernel's
/// tile does not hold; on SM90 (TMA im2col implicit GEMM) a transposed convolution needs at most 4096 output phases,
/// and every convolution (each phase of a transposed one) im2col's limits; on the 2.x backend a transposed
/// convolution needs dilation 1.
std::optional<std::string> conv_geometry_violation(const KernelConfig& kernel, const ConvShape& c) {
  if (auto why = filter_extent_violation(kernel, c)) return why;
  if (auto why = group_tile_violation(kernel, c)) return why;
  if (kernel.backend() != BackendKind::sm90) {
    if (auto why = sm80_tensor_size_violation(kernel, c)) return why;
    return c.kind == ConvKind::dgrad ? sm80_transposed_violation(c) : std::nullopt;
  }
  if (c.kind == ConvKind::dgrad)
    if (auto why = sm90_transposed_violation(c)) return why;
  if (kernel.conv_as_gemm()) {
    if (!pointwise_after_fold(c, kernel.a.fold.value))
      return fmt::format("`{}` runs the convolution as a GEMM over [pixels, channels], which needs a 1-tap filter at "
                         "stride 1 without padding along every dimension X's copy does not fold (filter {}x{}x{}, "
                         "fold({})): fold all {} spatial dimensions (`pad fold({})` on X and `pad` on W) or use "
                         "`tma_warpspecialized`",
                         kernel_schedule_name(kernel.kernel_schedule.value), c.filter[0], c.filter[1], c.filter[2],
                         kernel.a.fold.value, c.dims, c.dims);
    if (c.out_pixels() > INT32_MAX)
      return fmt::format("the GEMM the convolution runs as has {} rows (output pixels), beyond CUTLASS's 32-bit "
                         "extents: use `tma_warpspecialized`",
                         c.out_pixels());
    return std::nullopt;
  }
  return im2col_violation(c);
}

/// Why a convolution tensor's channel count (`bad`) breaks its alignment.
std::string conv_misaligned(const KernelConfig& kernel, const Misaligned& bad) {
  const TensorDecl& t = *bad.check->t;
  bool per_group =
      op_conv_grouping(kernel.op.value) == ConvGrouping::grouped && (&t == &kernel.a || &t == &kernel.b);
  std::string access = kernel.backend() == BackendKind::sm90
                           ? "TMA loads and stores 16-byte channel vectors"
                           : fmt::format("the kernel loads and stores {}-element channel vectors", t.align.value);
  return fmt::format("`{}` has {} channels{}, not a multiple of its alignment {} ({} bytes): {}. Pad {} channels to {} "
                     "(zero filter taps leave the result unchanged)",
                     t.name.value, bad.ld, per_group ? " per group (c / groups)" : "", t.align.value, align_bytes(t),
                     access, per_group ? "each group's" : "the", bad.padded);
}

}  // namespace

std::optional<std::string> shape_violation(const KernelConfig& kernel, const GemmShape& shape) {
  if (shape.is_grouped()) return grouped_violation(kernel, shape);
  if (shape.is_conv())
    if (auto why = conv_geometry_violation(kernel, shape.conv)) return why;
  // Convolutions: every tensor is packed channels-innermost (conv_channels), read here as [pixels, channels].
  bool conv = shape.is_conv();
  std::array<int64_t, 3> channels =
      conv ? conv_channels(shape.conv, kernel.backend(), op_conv_grouping(kernel.op.value))
           : std::array<int64_t, 3>{shape.k, shape.n, shape.n};
  std::vector<LdCheck> checks = {{&kernel.a, shape.m, channels[0]}, {&kernel.b, shape.k, channels[1]}};
  for (const TensorDecl* t : kernel.epilogue_tensors()) checks.push_back({t, shape.m, channels[2]});
  auto bad = first_misaligned(checks);
  if (!bad) return std::nullopt;
  const TensorDecl& t = *bad->check->t;
  if (conv) return conv_misaligned(kernel, *bad);
  return fmt::format("`{}` is {}-major with leading dimension {}, not a multiple of its alignment {} ({} bytes). "
                     "Pad the extent to {}, or use a kernel that accepts it: declare a smaller `align` with a "
                     "cp.async schedule (`with_scheduler(cp_async_cooperative)`, `multistage`) or `pad` the operand",
                     t.name.value, layout_name(t.layout.value), bad->ld, t.align.value, align_bytes(t), bad->padded);
}

bool narrows_operands(const KernelConfig& kernel) { return kernel.a.narrowed() || kernel.b.narrowed(); }

std::string multiply_precision(const KernelConfig& kernel) {
  for (const TensorDecl* t : {&kernel.a, &kernel.b})
    if (t->narrowed())
      return fmt::format("{} (operands converted from {})", dtype_name(t->dtype.value), dtype_name(t->from->value));
  return std::string(math_name(kernel.math.value));
}

bool precision_change(const Problem& problem, const KernelConfig& kernel) {
  if (narrows_operands(kernel)) return true;
  return problem.semantics.math.value == MathMode::native && kernel.math.value == MathMode::tf32 &&
         problem.semantics.a.dtype.value == DType::f32;
}

bool precision_change(const Problem& problem, const PipelineConfig& kernel) {
  if (!problem.pipeline) return false;
  for (size_t s = 0; s < kernel.stages.size() && s < problem.pipeline->stages.size(); ++s) {
    const KernelConfig& p = problem.pipeline->stages[s].config;
    if (p.math.value == MathMode::native && kernel.stages[s].config.math.value == MathMode::tf32 &&
        p.a.dtype.value == DType::f32)
      return true;
  }
  return false;
}

}  // namespace ucut
