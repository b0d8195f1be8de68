// ir/pipeline.cpp — see pipeline.h: the pipeline's links and its canonical form.
#include "ir/pipeline.h"

#include <fmt/format.h>

#include "ir/canonical.h"
#include "support/sha256.h"

namespace ucut {

std::vector<int> PipelineStage::producers() const {
  std::vector<int> out;
  if (family)
    for (const FamilyLink& l : links) out.push_back(l.producer);
  else
    for (const StageInput& in : inputs)
      if (in.linked()) out.push_back(in.producer);
  return out;
}

bool PipelineConfig::intermediate(size_t s) const {
  for (size_t later = s + 1; later < stages.size(); ++later)
    for (int producer : stages[later].producers())
      if (producer == static_cast<int>(s)) return true;
  return false;
}

bool has_family_stage(const PipelineConfig& p) {
  for (const PipelineStage& s : p.stages)
    if (s.is_family()) return true;
  return false;
}

namespace {

/// A view's restated extents: a symbol's name or a fixed size, in order.
nlohmann::json view_extents(const TensorDecl& t) {
  nlohmann::json dims = nlohmann::json::array();
  for (const Extent& e : t.dims) dims.push_back(e.fixed() ? nlohmann::json(e.size) : nlohmann::json(e.symbol));
  return dims;
}

nlohmann::json canonical_family_stage(const PipelineStage& s) {
  const MemOpConfig& m = *s.family;
  nlohmann::json links = nlohmann::json::array();
  for (const FamilyLink& l : s.links) {
    nlohmann::json j = {{"input", m.inputs[l.input].name.value}, {"caller", l.caller}, {"producer", l.producer}};
    if (l.view) j["view"] = view_extents(m.inputs[l.input]);
    links.push_back(j);
  }
  return {{"name", m.name.value}, {"family", op_name(m.op.value)}, {"config", canonical_memop(m)}, {"links", links}};
}

}  // namespace

nlohmann::json canonical_pipeline(const PipelineConfig& p) {
  nlohmann::json stages = nlohmann::json::array();
  for (const PipelineStage& s : p.stages) {
    if (s.is_family()) {
      stages.push_back(canonical_family_stage(s));
      continue;
    }
    nlohmann::json inputs;
    for (size_t i = 0; i < 2; ++i) {
      const StageInput& in = s.inputs[i];
      const TensorDecl& t = i == 0 ? s.config.a : s.config.b;
      nlohmann::json j = {{"producer", in.producer}};
      if (!in.linked()) j["caller_dtype"] = dtype_name(in.caller_dtype.value_or(t.dtype.value));
      inputs[i == 0 ? "a" : "b"] = j;
    }
    stages.push_back({{"name", s.config.name.value}, {"config", canonical_config(s.config)}, {"inputs", inputs}});
  }
  return {{"pipeline", p.name.value}, {"arch", arch_info(p.arch.value).name}, {"stages", stages}};
}

std::string dump_pipeline_ir(const SourceFile& src, const PipelineConfig& p) {
  auto at = [&](Span s) {
    auto [l, c] = src.line_col(s.begin);
    return fmt::format("@{}:{}", l, c);
  };
  std::string o = fmt::format("PipelineConfig '{}' {} {}\n", p.name.value, arch_info(p.arch.value).name, at(p.header));
  for (const PipelineStage& s : p.stages) {
    o += fmt::format("Stage '{}'\n", s.name().value);
    if (s.is_family()) {
      for (const FamilyLink& l : s.links) {
        const TensorDecl& in = s.family->inputs[l.input];
        const PipelineStage& from = p.stages[static_cast<size_t>(l.producer)];
        std::string view;
        if (l.view)
          for (const Extent& e : in.dims)
            view += (view.empty() ? " viewed as [" : ", ") + (e.fixed() ? std::to_string(e.size) : e.symbol);
        o += fmt::format("  {} <- {} of stage '{}'{} {}\n", in.name.value, from.output().name.value,
                         from.name().value, view.empty() ? "" : view + "]", at(l.link));
      }
      o += dump_memop_ir(src, *s.family);
      continue;
    }
    for (size_t i = 0; i < 2; ++i) {
      const StageInput& in = s.inputs[i];
      const TensorDecl& t = i == 0 ? s.config.a : s.config.b;
      if (in.linked())
        o += fmt::format("  {} <- {} of stage '{}' {}\n", t.name.value,
                         p.stages[static_cast<size_t>(in.producer)].output().name.value,
                         p.stages[static_cast<size_t>(in.producer)].name().value, at(in.link));
      else if (in.converted())
        o += fmt::format("  {} <- the caller's {}, converted to {} {}\n", t.name.value, dtype_name(*in.caller_dtype),
                         dtype_name(t.dtype.value), at(in.link));
    }
    o += dump_ir(src, s.config);
  }
  return o;
}

std::string pipeline_hash(const PipelineConfig& p) { return sha256_hex(canonical_pipeline(p).dump()); }

std::string pipeline_namespace(const PipelineConfig& p) { return "ucut_pipe_" + pipeline_hash(p).substr(0, 16); }

}  // namespace ucut
