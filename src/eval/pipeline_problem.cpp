// eval/pipeline_problem.cpp — see pipeline_problem.h.
#include "eval/pipeline_problem.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "driver/pipeline.h"
#include "support/diag_render.h"

namespace ucut {
namespace {

bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
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
  const toml::array* shapes = t["shapes"].as_array();
  if (!shapes || shapes->empty())
    return fail(error, fmt::format("{}: `shapes` must list at least one table of the spec's symbols ({})", file,
                                   fmt::join(known, ", ")));
  for (const toml::node& n : *shapes) {
    std::string where = fmt::format("{}: shape {}", file, p.shapes.size() + 1);
    const toml::table* s = n.as_table();
    if (!s) return fail(error, fmt::format("{} is not a table of symbols like {{ M = 4096 }}", where));
    std::map<std::string, int64_t> symbols;
    GemmShape shape;
    for (const auto& [key, value] : *s) {
      std::string name(key.str());
      if (name == "label") {
        shape.label = value.value_or<std::string>("");
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
      std::string missing;
      auto g = stage_shape(st.config, symbols, &missing);
      if (!g)
        return fail(error, fmt::format("{} gives no value for `{}` (stage `{}`)", where, missing, st.config.name.value));
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
