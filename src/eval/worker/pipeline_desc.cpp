// eval/worker/pipeline_desc.cpp — canonical pipeline JSON → PipelineDesc.
#include "eval/worker/pipeline_desc.h"

#include <fmt/format.h>

#include <stdexcept>
#include <tuple>

#include "emit/templates/kernel_abi.h"

namespace ucut::worker {
namespace {

bool convertible(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

class Parser {
 public:
  Parser(const nlohmann::json& config, const std::string& whose) : cfg_(config), whose_(whose) {}

  PipelineDesc parse() {
    try {
      d_.name = cfg_.at("pipeline").get<std::string>();
      const nlohmann::json& stages = cfg_.at("stages");
      if (!stages.is_array() || stages.empty() || stages.size() > UCUT_MAX_STAGES)
        fail(fmt::format("\"stages\" must list 1 to {} stages", UCUT_MAX_STAGES));
      for (const nlohmann::json& st : stages) d_.stages.push_back({st.at("name").get<std::string>(), {}, {}, {}});
    } catch (const nlohmann::json::exception& e) {
      fail(e.what());
    }
    for (size_t s = 0; s < d_.stages.size(); ++s) {
      try {
        stage(s, cfg_.at("stages")[s]);
      } catch (const nlohmann::json::exception& e) {
        fail(d_.stage_label(s) + ": " + e.what());
      }
    }
    for (size_t s = 0; s + 1 < d_.stages.size(); ++s)
      if (!read_later(static_cast<int>(s)))
        fail(d_.stage_label(s) + ": no later stage reads its D, and only the last stage's D is the pipeline's output");
    return d_;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(whose_ + " pipeline config" + (d_.name.empty() ? "" : " `" + d_.name + "`") + ": " + what);
  }

  void stage(size_t s, const nlohmann::json& j) {
    PipelineStage& st = d_.stages[s];
    std::string at = d_.stage_label(s);
    try {
      st.problem = parse_problem_desc(j.at("config"));
    } catch (const std::runtime_error& e) {
      fail(at + ": " + e.what());
    }
    const ProblemDesc& p = st.problem;
    if (p.op != OpKind::gemm && p.op != OpKind::batched_gemm)
      fail(fmt::format("{} is a {}; pipeline stages are gemm or batched_gemm", at, op_name(p.op)));
    if (!p.aux.empty()) fail(at + ": has aux outputs or reductions; a pipeline's only output is its last stage's D");
    if (p.scale_a || p.scale_b || p.scale_d) fail(at + ": has FP8 scales, which the harness measures on kernels only");
    const nlohmann::json& inputs = j.at("inputs");
    st.a = input(s, inputs.at("a"), p.a, "A");
    st.b = input(s, inputs.at("b"), p.b, "B");
  }

  StageInput input(size_t s, const nlohmann::json& j, const Operand& o, const char* operand) {
    std::string at = fmt::format("{}: its {}", d_.stage_label(s), operand);
    StageInput in;
    in.producer = j.at("producer").get<int>();
    if (in.producer >= static_cast<int>(s) || in.producer < -1)
      fail(fmt::format("{} reads stage {}, which does not run before it", at, in.producer));
    if (in.linked()) {
      const PipelineStage& from = d_.stages[static_cast<size_t>(in.producer)];
      const Operand& d = from.problem.d;
      if (d.dtype != o.dtype || d.layout != o.layout)
        fail(fmt::format("{} is {} {} but reads {}'s D, stored {} {}", at, dtype_name(o.dtype), layout_name(o.layout),
                         d_.stage_label(static_cast<size_t>(in.producer)), dtype_name(d.dtype), layout_name(d.layout)));
      return in;
    }
    std::string caller = j.value("caller_dtype", std::string(dtype_name(o.dtype)));
    auto t = find_dtype(caller);
    if (!t) fail(fmt::format("{} has an unknown caller_dtype \"{}\"", at, caller));
    in.caller_dtype = *t;
    if (in.converted(o.dtype) && !(convertible(in.caller_dtype) && convertible(o.dtype)))
      fail(fmt::format("{} converts {} to {}; conversions are between f32, f16 and bf16", at, caller,
                       dtype_name(o.dtype)));
    return in;
  }

  bool read_later(int s) const {
    for (const PipelineStage& st : d_.stages)
      if (st.a.producer == s || st.b.producer == s) return true;
    return false;
  }

  const nlohmann::json& cfg_;
  std::string whose_;
  PipelineDesc d_;
};

std::string input_text(const PipelineDesc& p, const StageInput& in) {
  return in.linked() ? p.stage_label(static_cast<size_t>(in.producer)) + "'s D"
                     : fmt::format("the caller's, in {}", dtype_name(in.caller_dtype));
}

}  // namespace

std::string PipelineDesc::stage_label(size_t s) const { return fmt::format("stage `{}` ({})", stages[s].name, s); }

bool is_pipeline_config(const nlohmann::json& config) { return config.is_object() && config.contains("pipeline"); }

PipelineDesc parse_pipeline_desc(const nlohmann::json& config, const std::string& whose) {
  return Parser(config, whose).parse();
}

std::string pipeline_mismatch(const PipelineDesc& problem, const PipelineDesc& kernel) {
  if (problem.stages.size() != kernel.stages.size())
    return fmt::format("the kernel's pipeline has {} stages, the problem's {}", kernel.stages.size(),
                       problem.stages.size());
  for (size_t s = 0; s < problem.stages.size(); ++s) {
    const PipelineStage &p = problem.stages[s], &k = kernel.stages[s];
    std::string at = problem.stage_label(s);
    if (k.name != p.name) at += fmt::format(" (`{}` in the kernel)", k.name);
    for (auto [operand, pi, ki] : {std::tuple{"A", p.a, k.a}, std::tuple{"B", p.b, k.b}})
      if (pi.producer != ki.producer || (!pi.linked() && pi.caller_dtype != ki.caller_dtype))
        return fmt::format("{}: its {} is {} in the problem but {} in the kernel", at, operand,
                           input_text(problem, pi), input_text(kernel, ki));
    std::string slots = slot_mismatch(p.problem, k.problem);
    if (!slots.empty()) return at + ": " + slots;
  }
  return "";
}

}  // namespace ucut::worker
