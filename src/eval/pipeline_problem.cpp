// eval/pipeline_problem.cpp — see pipeline_problem.h.
#include "eval/pipeline_problem.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "compiler/pipeline.h"
#include "support/diag_render.h"

namespace ucut {
namespace {

bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

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

/// The geometry keys a shape's per-stage table may set (`c1 = { pad = [1, 1], stride = [2, 2] }`).
constexpr std::string_view kGeometryKeys[] = {"pad", "stride", "dilation", "groups", "output_padding"};

/// A convolution stage's geometry: its activation and filter extents from `symbols` (named as ir/types.h
/// conv_extent_names names them), its padding, stride, dilation and groups from the shape's table for the stage.
/// Then the symbols of its output declaration are bound to the output's extents (a later stage reads them), or
/// checked where the shape gives them. On failure returns nullopt and says why.
std::optional<GemmShape> conv_stage_shape(const KernelConfig& c, const toml::table* geometry,
                                          std::map<std::string, int64_t>& symbols, std::string* why) {
  const OpKind op = c.op.value;
  toml::table t;
  for (auto [decl, role] : {std::pair{&c.a, 'a'}, std::pair{&c.b, 'b'}}) {
    std::vector<std::string> names = split_names(conv_extent_names(op, role));
    for (size_t i = 0; i < decl->dims.size() && i < names.size(); ++i) {
      const std::string key = lowercase(names[i]);
      if (key == "1" || key == "cg") continue;  // a depthwise filter's unit extent; a grouped one's C/G
      std::string missing;
      auto v = extent(decl->dims[i], symbols, &missing);
      if (!v) {
        *why = fmt::format("gives no value for `{}`", missing);
        return std::nullopt;
      }
      if (auto had = t[key].value<int64_t>(); had && *had != *v) {
        *why = fmt::format("`{}` is {} by one operand and {} by `{}`'s declaration", names[i], *had, *v,
                           decl->name.value);
        return std::nullopt;
      }
      t.insert_or_assign(key, *v);
    }
  }
  if (geometry)
    for (const auto& [key, value] : *geometry) {
      if (std::find(std::begin(kGeometryKeys), std::end(kGeometryKeys), key.str()) == std::end(kGeometryKeys)) {
        *why = fmt::format("sets `{}`; a stage's table sets {}", key.str(), fmt::join(kGeometryKeys, ", "));
        return std::nullopt;
      }
      t.insert_or_assign(key, value);
    }
  auto conv = parse_conv_shape(t, op, why);
  if (!conv) return std::nullopt;
  const std::vector<int64_t> out = conv->output_activation();
  const TensorDecl& y = c.output();
  for (size_t i = 0; i < y.dims.size() && i < out.size(); ++i) {
    const Extent& e = y.dims[i];
    auto it = e.fixed() ? symbols.end() : symbols.find(e.symbol);
    int64_t given = e.fixed() ? e.size : it != symbols.end() ? it->second : out[i];
    if (given != out[i]) {
      *why = e.fixed() ? fmt::format("declares extent {} of `{}` as {}, but the geometry makes it {}", i + 1,
                                     y.name.value, e.size, out[i])
                       : fmt::format("sets `{}` = {}, but the geometry makes `{}`'s extent {} (`{}`) {}", e.symbol,
                                     given, y.name.value, i + 1, e.symbol, out[i]);
      return std::nullopt;
    }
    if (!e.fixed()) symbols[e.symbol] = out[i];
  }
  return conv_gemm_shape(*conv);
}

/// The symbols every stage's operands and outputs use.
std::set<std::string> symbols_of(const PipelineConfig& p) {
  std::set<std::string> out;
  for (const PipelineStage& s : p.stages) {
    std::vector<const TensorDecl*> tensors = {&s.config.a, &s.config.b};
    for (const TensorDecl* t : s.config.epilogue_tensors()) tensors.push_back(t);
    for (const TensorDecl* t : tensors)
      for (const Extent& e : t->dims)
        if (!e.fixed()) out.insert(e.symbol);
  }
  return out;
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A single-kernel problem for one stage, so each stage is compared by semantic_mismatch like any kernel.
Problem stage_problem(const Problem& p, size_t s) {
  Problem q;
  q.name = p.name;
  q.semantics = p.pipeline->stages[s].config;
  return q;
}

}  // namespace

bool read_pipeline_problem(const toml::table& t, const std::string& file, Problem& p, std::string* error) {
  auto rel = t["semantics"].value<std::string>();
  if (!rel)
    return fail(error, fmt::format("{}: a pipeline problem names its semantics, `semantics = \"spec.ucut\"` (a pipeline "
                                   "spec, relative to the problem file)",
                                   file));
  std::filesystem::path path = std::filesystem::path(file).parent_path() / *rel;
  auto text = read_text(path.string());
  if (!text) return fail(error, fmt::format("{}: cannot read `semantics` spec '{}'", file, path.string()));
  SourceFile src(path.string(), *text);
  Compilation c = compile_spec(src, StopAfter::lower);
  if (!c.ok() || !c.pipeline)
    return fail(error, c.ok() ? fmt::format("{}: `semantics` must be a pipeline spec; '{}' is a kernel (give a kernel "
                                            "problem `op`, `a`, `b`, `d` instead)",
                                            file, path.string())
                              : fmt::format("{}: the `semantics` spec does not lower:\n{}", file,
                                            render_text(src, c.diags.diagnostics())));
  p.pipeline = std::move(*c.pipeline);
  p.semantics = p.pipeline->stages.back().config;
  p.semantics_spec = *text;
  const std::set<std::string> known = symbols_of(*p.pipeline);
  std::set<std::string> stage_names, conv_stages;
  for (const PipelineStage& st : p.pipeline->stages) {
    stage_names.insert(st.config.name.value);
    if (op_family(st.config.op.value) == OpFamily::conv) conv_stages.insert(st.config.name.value);
  }
  const toml::array* shapes = t["shapes"].as_array();
  if (!shapes || shapes->empty())
    return fail(error, fmt::format("{}: `shapes` must list at least one table of the spec's symbols ({})", file,
                                   fmt::join(known, ", ")));
  for (const toml::node& n : *shapes) {
    std::string where = fmt::format("{}: shape {}", file, p.shapes.size() + 1);
    const toml::table* s = n.as_table();
    if (!s) return fail(error, fmt::format("{} is not a table of symbols like {{ M = 4096 }}", where));
    std::map<std::string, int64_t> symbols;
    std::map<std::string, const toml::table*> geometry;  // a convolution stage's table, by stage name
    GemmShape shape;
    for (const auto& [key, value] : *s) {
      std::string name(key.str());
      if (name == "label") {
        shape.label = value.value_or<std::string>("");
        continue;
      }
      if (const toml::table* g = value.as_table()) {
        if (!conv_stages.count(name))
          return fail(error, fmt::format("{} has a table `{}`, but {} (a table sets a convolution stage's {}; the "
                                         "convolution stages: {})",
                                         where, name,
                                         stage_names.count(name) ? "stage `" + name + "` is a GEMM"
                                                                 : "the pipeline has no stage `" + name + "`",
                                         fmt::join(kGeometryKeys, ", "), fmt::join(conv_stages, ", ")));
        geometry[name] = g;
        continue;
      }
      auto v = value.value<int64_t>();
      if (!known.count(name))
        return fail(error, fmt::format("{} sets `{}`, which no stage of the pipeline uses (its symbols: {})", where,
                                       name, fmt::join(known, ", ")));
      if (!v || *v <= 0) return fail(error, fmt::format("{}: `{}` must be a positive integer", where, name));
      symbols[name] = *v;
    }
    for (const PipelineStage& st : p.pipeline->stages) {
      std::string why;
      std::optional<GemmShape> g;
      if (op_family(st.config.op.value) == OpFamily::conv) {
        auto it = geometry.find(st.config.name.value);
        g = conv_stage_shape(st.config, it == geometry.end() ? nullptr : it->second, symbols, &why);
      } else {
        g = stage_shape(st.config, symbols, &why);
        if (!g) why = fmt::format("gives no value for `{}`", why);
      }
      if (!g) return fail(error, fmt::format("{}, stage `{}`: {}", where, st.config.name.value, why));
      shape.stages.push_back(*g);
    }
    const GemmShape& last = shape.stages.back();
    shape.m = last.m;
    shape.n = last.n;
    shape.k = last.k;
    shape.batch = last.batch;
    p.shapes.push_back(std::move(shape));
  }
  return true;
}

std::optional<std::string> pipeline_mismatch(const Problem& problem, const PipelineConfig& kernel) {
  if (!problem.pipeline) return "the problem is a single kernel and the spec a pipeline";
  const PipelineConfig& p = *problem.pipeline;
  if (p.stages.size() != kernel.stages.size())
    return fmt::format("the problem has {} stages and the spec {}", p.stages.size(), kernel.stages.size());
  for (size_t s = 0; s < p.stages.size(); ++s) {
    const PipelineStage &ps = p.stages[s], &ks = kernel.stages[s];
    if (auto why = semantic_mismatch(stage_problem(problem, s), ks.config))
      return fmt::format("stage {} (`{}`): {}", s + 1, ks.config.name.value, *why);
    for (size_t i = 0; i < 2; ++i) {
      const StageInput &pi = ps.inputs[i], &ki = ks.inputs[i];
      auto source = [&](const StageInput& in) {
        return in.linked() ? fmt::format("stage {}'s output", in.producer + 1)
               : in.converted() ? fmt::format("the caller's {}, converted", dtype_name(*in.caller_dtype))
                                : std::string("the caller's");
      };
      if (source(pi) != source(ki))
        return fmt::format("stage {} (`{}`): operand {} is {} in the problem but {} in the spec", s + 1,
                           ks.config.name.value, i == 0 ? "A" : "B", source(pi), source(ki));
    }
  }
  return std::nullopt;
}

std::optional<std::string> pipeline_shape_violation(const PipelineConfig& kernel, const GemmShape& shape) {
  for (size_t s = 0; s < kernel.stages.size() && s < shape.stages.size(); ++s)
    if (auto why = shape_violation(kernel.stages[s].config, shape.stages[s]))
      return fmt::format("stage `{}`: {}", kernel.stages[s].config.name.value, *why);
  return std::nullopt;
}

}  // namespace ucut
