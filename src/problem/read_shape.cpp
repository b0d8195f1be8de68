// problem/read_shape.cpp — see read_shape.h.
#include "problem/read_shape.h"

#include <fmt/format.h>

#include <climits>
#include <numeric>

namespace ucut {
namespace {

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

GeometryFault fault(RuleId rule, std::string key, std::string message, std::string hint) {
  return GeometryFault{rule, std::move(key), std::move(message), std::move(hint)};
}

/// Reads `key`, an array of `dims` integers >= lo, into the [d, h, w] slots of `arr` (left as is when absent).
std::optional<GeometryFault> read_spatial_array(const toml::table& s, const char* key, int dims, int64_t lo,
                                                std::array<int64_t, 3>& arr) {
  auto node = s[key];
  if (!node) return std::nullopt;
  const toml::array* a = node.as_array();
  if (!a || static_cast<int>(a->size()) != dims)
    return fault(RuleId::H004, key, fmt::format("`{}` is an array of {} integer{}", key, dims, dims == 1 ? "" : "s"),
                 fmt::format("one value per spatial dimension, e.g. `{} = [{}]`", key,
                             fmt::join(std::vector<int64_t>(static_cast<size_t>(dims), lo), ", ")));
  for (int i = 0; i < dims; ++i) {
    auto v = (*a)[static_cast<size_t>(i)].value<int64_t>();
    if (!v || *v < lo || *v > INT32_MAX)
      return fault(RuleId::H004, key, fmt::format("`{}` values must be integers >= {} (and below 2^31)", key, lo),
                   "the kernel ABI holds each extent in 32 bits");
    arr[static_cast<size_t>(3 - dims + i)] = *v;
  }
  return std::nullopt;
}

/// A transposed convolution as the data gradient of its forward convolution: the transposed input [n, in, c]
/// with weight [c, filter, k] is the forward output [n, out, k'=c], and the transposed output (PyTorch's
/// (in - 1) stride - 2 pad + dilation (filter - 1) + output_padding + 1) is the forward input with c' = k channels.
std::variant<ConvShape, GeometryFault> as_data_gradient(const ConvShape& t,
                                                        const std::array<int64_t, 3>& output_padding) {
  ConvShape f = t;
  f.kind = ConvKind::dgrad;
  f.c = t.k;
  f.k = t.c;
  for (int i = 0; i < 3; ++i) {
    if (output_padding[i] >= t.stride[i])
      return fault(RuleId::H006, "output_padding", "`output_padding` values must be smaller than the stride",
                   "PyTorch's ConvTranspose takes output_padding < stride (it picks one of the stride's output sizes)");
    f.in[i] = (t.in[i] - 1) * t.stride[i] - 2 * t.pad[i] + t.dilation[i] * (t.filter[i] - 1) + output_padding[i] + 1;
    if (f.in[i] < 1 || f.in[i] > INT32_MAX)
      return fault(RuleId::H006, "pad", "the padding leaves an empty (or over 2^31) transposed-convolution output",
                   "reduce `pad`: the output extent is (in - 1) stride - 2 pad + dilation (filter - 1) + "
                   "output_padding + 1");
  }
  return f;
}

/// A convolution's channel groups into c.groups (c.c and c.k set already): grouped_conv2d needs `groups = G`
/// dividing c and k; depthwise_conv2d has G = C = K implied (a given `k` or `groups` must equal c); dense
/// convolutions have one group and refuse the key.
std::optional<GeometryFault> resolve_groups(const ConvDecl& d, OpKind op, ConvShape& c) {
  ConvGrouping grouping = op_conv_grouping(op);
  if (d.groups && grouping == ConvGrouping::dense)
    return fault(RuleId::H006, "groups", fmt::format("has `groups`, but `{}` is a dense convolution (one group)",
                                                     op_name(op)),
                 "for channel groups use op = \"grouped_conv2d\" (or \"depthwise_conv2d\" for one group per "
                 "channel), otherwise drop `groups`");
  if (d.groups && (*d.groups < 1 || *d.groups > INT32_MAX))
    return fault(RuleId::H004, "groups", "`groups` must be an integer from 1 to 2^31 - 1, the number of channel groups G",
                 "write e.g. `groups = 4`");
  if (grouping == ConvGrouping::depthwise) {
    if (c.k != c.c)
      return fault(RuleId::H006, "k",
                   fmt::format("has k = {} but c = {}: a depthwise convolution has one output channel per input "
                               "channel",
                               c.k, c.c),
                   fmt::format("drop `k` (it is c), or use op = \"grouped_conv2d\" with groups = {} for a channel "
                               "multiplier",
                               c.c));
    if (d.groups && *d.groups != c.c)
      return fault(RuleId::H006, "groups",
                   fmt::format("has `groups` = {} but c = {}: a depthwise convolution has one group per channel",
                               *d.groups, c.c),
                   "drop `groups` (it is c), or use op = \"grouped_conv2d\"");
    c.groups = c.c;
    return std::nullopt;
  }
  if (grouping == ConvGrouping::grouped) {
    if (!d.groups)
      return fault(RuleId::H003, "", "needs `groups = G`, the number of channel groups (G divides c and k)",
                   "add `groups = G`");
    if (c.c % *d.groups != 0 || c.k % *d.groups != 0)
      return fault(RuleId::H006, "groups",
                   fmt::format("has `groups` = {}, which does not divide both c = {} and k = {}: each group takes "
                               "c/G input and k/G output channels",
                               *d.groups, c.c, c.k),
                   fmt::format("choose a G that divides {} (the greatest common divisor)", std::gcd(c.c, c.k)));
    c.groups = *d.groups;
  }
  return std::nullopt;
}

/// A grouped GEMM's `groups = [[m, n, k], ...]`: at least one problem, each extent an integer from 1 to 2^31 - 1
/// (the kernel ABI's problem list holds 32-bit extents).
std::optional<std::vector<GroupProblem>> read_group_list(TomlReader& toml, const toml::table& s,
                                                         const std::string& where) {
  const toml::node* node = s.get("groups");
  DiagEngine& diags = toml.diags();
  if (!node) {
    diags.report(toml.rules().missing_key, toml.span_of(s), fmt::format("{} needs `groups`", where),
                 "add `groups = [[m, n, k], ...]`, one [m, n, k] per problem");
    return std::nullopt;
  }
  const toml::array* list = node->as_array();
  if (!list || list->empty()) {
    diags.report(toml.rules().value, toml.span_of(*node),
                 fmt::format("{}: `groups` {}", where, list ? "lists no problems" : "is not an array of [m, n, k] problems"),
                 "give at least one [m, n, k]");
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
      diags.report(toml.rules().value, toml.span_of(entry),
                   fmt::format("{}: problem {} of `groups` must be [m, n, k], three integers from 1 to 2^31 - 1",
                               where, i + 1),
                   "the kernel ABI's problem list holds 32-bit extents");
      return std::nullopt;
    }
    out.push_back(g);
  }
  return out;
}

}  // namespace

std::variant<ConvShape, GeometryFault> conv_shape(const ConvDecl& d, OpKind op) {
  static const char* const in_keys[] = {"d", "h", "w"};
  static const char* const filter_keys[] = {"t", "r", "s"};
  const bool depthwise = op_conv_grouping(op) == ConvGrouping::depthwise;
  ConvShape c;
  c.dims = d.dims;
  c.kind = op_conv_kind(op);
  c.n = d.n;
  c.c = d.c;
  c.k = depthwise && !d.k ? d.c : d.k.value_or(0);
  c.in = d.in;
  c.filter = d.filter;
  c.pad = d.pad;
  c.stride = d.stride;
  c.dilation = d.dilation;
  // The kernel ABI (ucut_conv_args) and CUTLASS's ConvProblemShape hold each extent in 32 bits.
  auto fits = [](int64_t v) { return v > 0 && v <= INT32_MAX; };
  bool positive = fits(c.n) && fits(c.c) && fits(c.k);
  std::string keys = "n";
  for (int i = 0; i < 3; ++i) positive = positive && fits(c.in[i]) && fits(c.filter[i]);
  for (int i = 3 - d.dims; i < 3; ++i) keys += fmt::format(", {}", in_keys[i]);
  keys += depthwise ? ", c" : ", c, k";
  for (int i = 3 - d.dims; i < 3; ++i) keys += fmt::format(", {}", filter_keys[i]);
  if (!positive)
    return fault(RuleId::H004, "", fmt::format("needs positive {} (each below 2^31)", keys),
                 "give every extent as an integer from 1 to 2^31 - 1");
  if (auto bad = resolve_groups(d, op, c)) return *bad;
  if (c.kind == ConvKind::dgrad) return as_data_gradient(c, d.output_padding);
  for (int i = 0; i < 3; ++i)
    if (c.out(i) < 1)
      return fault(RuleId::H006, "",
                   "the filter (with its dilation) is larger than the padded input: the output would be empty",
                   "enlarge the input or `pad`, or shrink the filter or `dilation`");
  return c;
}

std::variant<ConvShape, GeometryFault> conv_geometry(const toml::table& s, OpKind op) {
  static const char* const in_keys[] = {"d", "h", "w"};
  static const char* const filter_keys[] = {"t", "r", "s"};
  ConvDecl d;
  d.dims = op_spatial_dims(op);
  d.n = s["n"].value_or<int64_t>(0);
  d.c = s["c"].value_or<int64_t>(0);
  if (s.contains("k")) d.k = s["k"].value_or<int64_t>(0);
  if (const toml::node* g = s.get("groups")) {
    const toml::value<int64_t>* v = g->as_integer();
    if (!v)
      return fault(RuleId::H004, "groups", "`groups` must be an integer from 1 to 2^31 - 1, the number of channel groups G",
                   "write e.g. `groups = 4`");
    d.groups = v->get();
  }
  for (int i = 3 - d.dims; i < 3; ++i) {
    d.in[i] = s[in_keys[i]].value_or<int64_t>(0);
    d.filter[i] = s[filter_keys[i]].value_or<int64_t>(0);
  }
  for (auto [key, lo, arr] : {std::tuple{"pad", int64_t(0), &d.pad}, std::tuple{"stride", int64_t(1), &d.stride},
                              std::tuple{"dilation", int64_t(1), &d.dilation},
                              std::tuple{"output_padding", int64_t(0), &d.output_padding}})
    if (auto bad = read_spatial_array(s, key, d.dims, lo, *arr)) return *bad;
  return conv_shape(d, op);
}

std::optional<GemmShape> read_shape(TomlReader& toml, const toml::table& s, OpKind op, const std::string& where) {
  DiagEngine& diags = toml.diags();
  int errors = diags.error_count();
  toml.check_keys(s, shape_keys(op), where);
  if (diags.error_count() > errors) return std::nullopt;
  std::string label = s["label"].value_or<std::string>("");
  if (op_spatial_dims(op)) {
    auto geometry = conv_geometry(s, op);
    if (const auto* bad = std::get_if<GeometryFault>(&geometry)) {
      const toml::node* at = bad->key.empty() ? nullptr : s.get(bad->key);
      diags.report(bad->rule, toml.span_of(at ? *at : static_cast<const toml::node&>(s)),
                   fmt::format("{} {}", where, bad->message), bad->hint);
      return std::nullopt;
    }
    return conv_gemm_shape(std::get<ConvShape>(geometry), label);
  }
  GemmShape g;
  g.label = label;
  if (op == OpKind::grouped_gemm) {
    auto groups = read_group_list(toml, s, where);
    if (!groups) return std::nullopt;
    g.groups = std::move(*groups);
    g.m = g.n = g.k = 0;  // a grouped shape's extents are its problems'
    return g;
  }
  bool batched = op == OpKind::batched_gemm;
  g.m = s["m"].value_or<int64_t>(0);
  g.n = s["n"].value_or<int64_t>(0);
  g.k = s["k"].value_or<int64_t>(0);
  g.batch = s["batch"].value_or<int64_t>(1);
  if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.batch <= 0) {
    diags.report(toml.rules().value, toml.span_of(s),
                 fmt::format("{} needs positive m, n, k{}", where, batched ? " and batch" : ""),
                 batched ? "write e.g. `{ m = 64, n = 64, k = 64, batch = 8 }`" : "write e.g. `{ m = 64, n = 64, k = 64 }`");
    return std::nullopt;
  }
  return g;
}

}  // namespace ucut
