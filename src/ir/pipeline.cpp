// ir/pipeline.cpp — see pipeline.h: the pipeline's links and its canonical form.
#include "ir/pipeline.h"

#include <fmt/format.h>

#include "ir/canonical.h"
#include "support/sha256.h"

namespace ucut {

bool PipelineConfig::intermediate(size_t s) const {
  for (size_t later = s + 1; later < stages.size(); ++later)
    for (const StageInput& in : stages[later].inputs)
      if (in.producer == static_cast<int>(s)) return true;
  return false;
}

nlohmann::json canonical_pipeline(const PipelineConfig& p) {
  nlohmann::json stages = nlohmann::json::array();
  for (const PipelineStage& s : p.stages) {
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
    o += fmt::format("Stage '{}'\n", s.config.name.value);
    for (size_t i = 0; i < 2; ++i) {
      const StageInput& in = s.inputs[i];
      const TensorDecl& t = i == 0 ? s.config.a : s.config.b;
      if (in.linked())
        o += fmt::format("  {} <- {} of stage '{}' {}\n", t.name.value,
                         p.stages[static_cast<size_t>(in.producer)].config.output().name.value,
                         p.stages[static_cast<size_t>(in.producer)].config.name.value, at(in.link));
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
