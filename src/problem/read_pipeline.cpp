// problem/read_pipeline.cpp — see read_pipeline.h.
#include "problem/read_pipeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "dsl/parser.h"
#include "problem/family_call.h"
#include "problem/read_shape.h"
#include "support/diag_render.h"
#include "support/files.h"

namespace ucut {
namespace {

/// "N,H,W,C" → {"N", "H", "W", "C"}.
std::vector<std::string> split_names(std::string_view list) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= list.size();) {
    size_t comma = std::min(list.find(',', at), list.size());
    out.emplace_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

std::string lowercase(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

/// The extent of `e` under `symbols`; nullopt (with `missing` set) when its symbol has no value.
std::optional<int64_t> extent(const Extent& e, const std::map<std::string, int64_t>& symbols, std::string* missing) {
  if (e.fixed()) return e.size;
  auto it = symbols.find(e.symbol);
  if (it == symbols.end()) {
    *missing = e.symbol;
    return std::nullopt;
  }
  return it->second;
}

/// A stage's GEMM extents from its operands' declarations: A[(L,)M,K] and B[(L,)K,N].
std::optional<GemmShape> stage_shape(const KernelConfig& c, const std::map<std::string, int64_t>& symbols,
                                     std::string* missing) {
  size_t r = c.a.dims.size();
  auto m = extent(c.a.dims[r - 2], symbols, missing), k = extent(c.a.dims[r - 1], symbols, missing);
  auto n = extent(c.b.dims[c.b.dims.size() - 1], symbols, missing);
  std::optional<int64_t> batch = r == 3 ? extent(c.a.dims[0], symbols, missing) : std::optional<int64_t>(1);
  if (!m || !k || !n || !batch) return std::nullopt;
  GemmShape g;
  g.m = *m;
  g.n = *n;
  g.k = *k;
  g.batch = *batch;
  return g;
}

/// The run-time scalars of every family stage, each name once, with the first stage that declares it.
std::map<std::string, std::string> scalars_of(const PipelineConfig& p) {
  std::map<std::string, std::string> out;
  for (const PipelineStage& s : p.stages)
    if (s.is_family())
      for (const ScalarDecl& d : s.family->scalars) out.emplace(d.name.value, s.name().value);
  return out;
}

/// The last GEMM or convolution stage: the problem's `semantics` (its precision and SOL stand for the pipeline's).
const PipelineStage* last_matmul_stage(const PipelineConfig& p) {
  for (size_t s = p.stages.size(); s-- > 0;)
    if (!p.stages[s].is_family()) return &p.stages[s];
  return nullptr;
}

/// The geometry keys a shape's per-stage table may set (`c1 = { pad = [1, 1], stride = [2, 2] }`).
const std::vector<std::string_view> kGeometryKeys = {"pad", "stride", "dilation", "groups", "output_padding"};

/// The symbols every stage's operands and outputs use (a family stage's: its extents, inputs and output).
std::set<std::string> symbols_of(const PipelineConfig& p) {
  std::set<std::string> out;
  for (const PipelineStage& s : p.stages) {
    if (s.is_family()) {
      for (const std::string& e : s.family->extent_symbols()) out.insert(e);
      for (const TensorDecl* t : s.family->outputs())
        for (const Extent& e : t->dims)
          if (!e.fixed()) out.insert(e.symbol);
      for (const TensorDecl& t : s.family->inputs)
        for (const Extent& e : t.dims)
          if (!e.fixed()) out.insert(e.symbol);
      continue;
    }
    std::vector<const TensorDecl*> tensors = {&s.config.a, &s.config.b};
    for (const TensorDecl* t : s.config.epilogue_tensors()) tensors.push_back(t);
    for (const TensorDecl* t : tensors)
      for (const Extent& e : t->dims)
        if (!e.fixed()) out.insert(e.symbol);
  }
  return out;
}

class PipelineReader {
 public:
  PipelineReader(TomlReader& toml, Problem& p, const SourceFile* semantics)
      : toml_(toml), diags_(toml.diags()), p_(p), given_(semantics) {}

  bool run(const toml::table& root) {
    if (!read_semantics(root)) return false;
    const toml::node* node = root.get("shapes");
    const toml::array* shapes = node ? node->as_array() : nullptr;
    if (!shapes || shapes->empty()) {
      diags_.report(node ? RuleId::H004 : RuleId::H003, node ? toml_.span_of(*node) : Span{},
                    "`shapes` must list at least one table of the spec's symbols",
                    fmt::format("write e.g. `shapes = [ {{ {} }} ]` (the spec's symbols: {})", example(), known_list()));
      return false;
    }
    for (const toml::node& n : *shapes)
      if (!read_symbols(n)) return false;
    return true;
  }

 private:
  TomlReader& toml_;
  DiagEngine& diags_;
  Problem& p_;
  const SourceFile* given_;
  std::set<std::string> known_, stage_names_, conv_stages_;
  std::map<std::string, std::string> scalars_;  // a family stage's run-time scalar → the stage declaring it

  std::string known_list() const { return fmt::format("{}", fmt::join(known_, ", ")); }
  std::string example() const {
    std::vector<std::string> kv;
    for (const std::string& s : known_) kv.push_back(s + " = 4096");
    return fmt::format("{}", fmt::join(kv, ", "));
  }

  bool read_semantics(const toml::table& root) {
    auto rel = toml_.string_key(root, "semantics", Span{}, false);
    const toml::node* node = root.get("semantics");
    if (!rel) {
      if (!node)
        diags_.report(RuleId::H003, Span{}, "a pipeline problem names its semantics",
                      "add `semantics = \"spec.ucut\"`: a pipeline spec, relative to the problem file");
      return false;
    }
    Span at = toml_.span_of(*node);
    std::filesystem::path path = std::filesystem::path(p_.path).parent_path() / *rel;
    auto text = given_ ? std::optional<std::string>(given_->text()) : read_file(path.string());
    if (!text) {
      diags_.report(RuleId::H007, at, fmt::format("cannot read the `semantics` spec '{}'", path.string()),
                    "give the pipeline spec's path relative to the problem file");
      return false;
    }
    SourceFile src(given_ ? given_->name() : path.string(), *text);
    DiagEngine spec_diags;
    std::optional<PipelineConfig> pipeline;
    if (auto ast = parse_source(src, spec_diags); ast && ast->pipeline)
      pipeline = lower_pipeline(src, *ast, spec_diags);
    else if (ast && !spec_diags.has_errors()) {
      diags_.report(RuleId::H007, at, fmt::format("`semantics` must be a pipeline spec; '{}' is a kernel",
                                                  path.string()),
                    "give a kernel problem `op`, `a`, `b`, `d` instead");
      return false;
    }
    if (!pipeline || spec_diags.has_errors()) {
      diags_.report(RuleId::H007, at,
                    fmt::format("the `semantics` spec does not lower:\n{}", render_text(src, spec_diags.diagnostics())),
                    "fix the pipeline spec: `ucutlass check` on it shows the same diagnostics");
      return false;
    }
    const PipelineStage* matmul = last_matmul_stage(*pipeline);
    if (!matmul) {
      diags_.report(RuleId::H007, at,
                    fmt::format("the `semantics` pipeline '{}' has no GEMM or convolution stage", path.string()),
                    "measure a pipeline of family kernels as separate MSKB launchers (`ucutlass export --mskb`)");
      return false;
    }
    auto syntax = std::make_shared<ProblemSyntax>();
    syntax->pipeline_spec = *rel;
    p_.syntax = std::move(syntax);
    p_.pipeline = std::move(*pipeline);
    p_.pipeline_text = *text;
    p_.semantics = last_matmul_stage(*p_.pipeline)->config;
    known_ = symbols_of(*p_.pipeline);
    scalars_ = scalars_of(*p_.pipeline);
    for (const PipelineStage& st : p_.pipeline->stages) {
      stage_names_.insert(st.name().value);
      if (!st.is_family() && op_family(st.config.op.value) == OpFamily::conv) conv_stages_.insert(st.config.name.value);
    }
    return true;
  }

  bool fail(RuleId rule, Span at, std::string message, std::string hint) {
    diags_.report(rule, at, std::move(message), std::move(hint));
    return false;
  }

  bool read_symbols(const toml::node& n) {
    std::string where = fmt::format("shape {}", p_.shapes.size() + 1);
    const toml::table* s = n.as_table();
    if (!s)
      return fail(RuleId::H004, toml_.span_of(n), fmt::format("{} is not a table of symbols", where),
                  fmt::format("write e.g. `{{ {} }}`", example()));
    std::map<std::string, int64_t> symbols;
    std::map<std::string, double> scalars;
    std::map<std::string, const toml::table*> geometry;  // a convolution stage's table, by stage name
    GemmShape shape;
    for (const auto& [key, value] : *s) {
      std::string name(key.str());
      Span at = toml_.span_of(key.source());
      if (name == "label") {
        shape.label = value.value_or<std::string>("");
        continue;
      }
      if (const toml::table* g = value.as_table()) {
        if (!conv_stages_.count(name))
          return fail(RuleId::H007, at,
                      fmt::format("{} has a table `{}`, but {}", where, name,
                                  stage_names_.count(name) ? "stage `" + name + "` is no convolution"
                                                           : "the pipeline has no stage `" + name + "`"),
                      fmt::format("a table sets a convolution stage's {}; the convolution stages: {}",
                                  fmt::join(kGeometryKeys, ", "), fmt::join(conv_stages_, ", ")));
        toml_.check_keys(*g, kGeometryKeys, fmt::format("stage `{}`'s table", name));
        geometry[name] = g;
        continue;
      }
      if (scalars_.count(name) && !known_.count(name)) {
        auto v = value.value<double>();
        if (!v)
          return fail(RuleId::H004, toml_.span_of(value), fmt::format("{}: the scalar `{}` must be a number", where, name),
                      fmt::format("write e.g. `{} = 0.5`", name));
        scalars[name] = *v;
        continue;
      }
      if (!known_.count(name))
        return fail(RuleId::H007, at, fmt::format("{} sets `{}`, which no stage of the pipeline uses", where, name),
                    fmt::format("its symbols: {}", known_list()));
      auto v = value.value<int64_t>();
      if (!v || *v <= 0)
        return fail(RuleId::H004, toml_.span_of(value), fmt::format("{}: `{}` must be a positive integer", where, name),
                    fmt::format("write e.g. `{} = 4096`", name));
      symbols[name] = *v;
    }
    if (diags_.has_errors()) return false;
    for (const PipelineStage& st : p_.pipeline->stages) {
      std::string stage = fmt::format("{}, stage `{}`", where, st.name().value);
      std::optional<GemmShape> g;
      if (st.is_family()) {
        std::string missing;
        FamilyCall call = family_call(*st.family, symbols, scalars, &missing);
        if (!call.ok())
          return fail(RuleId::H007, toml_.span_of(*s), fmt::format("{}: {}", stage, call.error),
                      scalars_.count(missing)
                          ? fmt::format("add `{} = VALUE` to the shape: the value stage `{}`'s run-time scalar "
                                        "takes in this shape", missing, st.name().value)
                          : fmt::format("add `{} = N` to the shape", missing));
        if (st.family->window && !bind_window_output(*st.family, symbols, stage, *s)) return false;
        g = GemmShape{};  // a family stage has no GEMM (problem/shape.h)
      } else if (op_family(st.config.op.value) == OpFamily::conv) {
        auto it = geometry.find(st.config.name.value);
        g = conv_stage_shape(st.config, it == geometry.end() ? nullptr : it->second, symbols, stage, *s);
      } else {
        std::string missing;
        g = stage_shape(st.config, symbols, &missing);
        if (!g)
          return fail(RuleId::H007, toml_.span_of(*s), fmt::format("{}: gives no value for `{}`", stage, missing),
                      fmt::format("add `{} = N` to the shape", missing));
      }
      if (!g) return false;
      shape.stages.push_back(*g);
    }
    const GemmShape& last = shape.stages[static_cast<size_t>(last_matmul_stage(*p_.pipeline) - &p_.pipeline->stages[0])];
    shape.m = last.m;
    shape.n = last.n;
    shape.k = last.k;
    shape.batch = last.batch;
    shape.symbols = std::move(symbols);
    shape.scalars = std::move(scalars);
    p_.shapes.push_back(std::move(shape));
    return true;
  }

  /// A window stage's output extents, derived from its extents and run-time ints (ir/memop_window.h), bound to
  /// the symbols of its output declaration (a later stage reads them), or checked where the shape gives them.
  bool bind_window_output(const MemOpConfig& m, std::map<std::string, int64_t>& symbols, const std::string& where,
                          const toml::table& shape) {
    const std::optional<std::vector<int64_t>> out = window_output_extents(m, symbols);
    const TensorDecl& y = m.output();
    if (!out)
      return fail(RuleId::H007, toml_.span_of(shape),
                  fmt::format("{}: the window gives no output at these sizes (an extent shorter than its window)",
                              where),
                  "give the window's input extents at least the window's size");
    for (size_t i = 0; i < y.dims.size() && i < out->size(); ++i) {
      const Extent& e = y.dims[i];
      auto it = e.fixed() ? symbols.end() : symbols.find(e.symbol);
      const int64_t given = e.fixed() ? e.size : it != symbols.end() ? it->second : (*out)[i];
      if (given != (*out)[i])
        return fail(RuleId::H007, toml_.span_of(shape),
                    e.fixed() ? fmt::format("{}: declares extent {} of `{}` as {}, but the window makes it {}", where,
                                            i + 1, y.name.value, e.size, (*out)[i])
                              : fmt::format("{}: sets `{}` = {}, but the window makes `{}`'s extent {} (`{}`) {}",
                                            where, e.symbol, given, y.name.value, i + 1, e.symbol, (*out)[i]),
                    "leave the window output's symbols out of the shape: the window gives them");
      if (!e.fixed()) symbols[e.symbol] = (*out)[i];
    }
    return true;
  }

  /// A convolution stage's geometry: its activation and filter extents from `symbols` (named as ir/types.h
  /// conv_extent_names names them), its padding, stride, dilation and groups from the shape's table for the stage.
  /// Then the symbols of its output declaration are bound to the output's extents (a later stage reads them), or
  /// checked where the shape gives them. nullopt after reporting why, at the stage's table or the shape.
  std::optional<GemmShape> conv_stage_shape(const KernelConfig& c, const toml::table* geometry,
                                            std::map<std::string, int64_t>& symbols, const std::string& where,
                                            const toml::table& shape) {
    const OpKind op = c.op.value;
    const Span at = toml_.span_of(geometry ? *geometry : shape);
    toml::table t;
    for (auto [decl, role] : {std::pair{&c.a, 'a'}, std::pair{&c.b, 'b'}}) {
      std::vector<std::string> names = split_names(conv_extent_names(op, role));
      for (size_t i = 0; i < decl->dims.size() && i < names.size(); ++i) {
        const std::string key = lowercase(names[i]);
        if (key == "1" || key == "cg") continue;  // a depthwise filter's unit extent; a grouped one's C/G
        std::string missing;
        auto v = extent(decl->dims[i], symbols, &missing);
        if (!v) {
          fail(RuleId::H007, toml_.span_of(shape), fmt::format("{}: gives no value for `{}`", where, missing),
               fmt::format("add `{} = N` to the shape", missing));
          return std::nullopt;
        }
        if (auto had = t[key].value<int64_t>(); had && *had != *v) {
          fail(RuleId::H007, toml_.span_of(shape),
               fmt::format("{}: `{}` is {} by one operand and {} by `{}`'s declaration", where, names[i], *had, *v,
                           decl->name.value),
               "give the symbols values that agree with every stage's declarations");
          return std::nullopt;
        }
        t.insert_or_assign(key, *v);
      }
    }
    if (geometry)
      for (const auto& [key, value] : *geometry) t.insert_or_assign(key, value);
    auto conv = conv_geometry(t, op);
    if (const auto* bad = std::get_if<GeometryFault>(&conv)) {
      fail(bad->rule, at, fmt::format("{}: {}", where, bad->message), bad->hint);
      return std::nullopt;
    }
    const ConvShape& geo = std::get<ConvShape>(conv);
    const std::vector<int64_t> out = geo.output_activation();
    const TensorDecl& y = c.output();
    for (size_t i = 0; i < y.dims.size() && i < out.size(); ++i) {
      const Extent& e = y.dims[i];
      auto it = e.fixed() ? symbols.end() : symbols.find(e.symbol);
      int64_t given = e.fixed() ? e.size : it != symbols.end() ? it->second : out[i];
      if (given != out[i]) {
        fail(RuleId::H007, toml_.span_of(shape),
             e.fixed() ? fmt::format("{}: declares extent {} of `{}` as {}, but the geometry makes it {}", where,
                                     i + 1, y.name.value, e.size, out[i])
                       : fmt::format("{}: sets `{}` = {}, but the geometry makes `{}`'s extent {} (`{}`) {}", where,
                                     e.symbol, given, y.name.value, i + 1, e.symbol, out[i]),
             "leave the output's symbols out of the shape: the geometry gives them");
        return std::nullopt;
      }
      if (!e.fixed()) symbols[e.symbol] = out[i];
    }
    return conv_gemm_shape(geo);
  }
};

}  // namespace

bool read_pipeline_problem(TomlReader& toml, const toml::table& root, Problem& p, const SourceFile* semantics) {
  return PipelineReader(toml, p, semantics).run(root);
}

}  // namespace ucut
