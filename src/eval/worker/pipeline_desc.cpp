// eval/worker/pipeline_desc.cpp — canonical pipeline JSON → PipelineDesc.
#include "eval/worker/pipeline_desc.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>
#include <string_view>
#include <tuple>

#include "abi/kernel_abi.h"

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
    if (j.contains("family"))  // ir/pipeline.h: a memory-bound family stage
      fail(fmt::format("{} is a `{}` family stage, and the harness has no reference of family stages yet", at,
                       j.at("family").get<std::string>()));
    try {
      st.problem = parse_problem_desc(j.at("config"));
    } catch (const std::runtime_error& e) {
      fail(at + ": " + e.what());
    }
    const ProblemDesc& p = st.problem;
    if (!op_is_pipeline_stage(p.op))
      fail(fmt::format("{} is a {}; pipeline stages are gemm, batched_gemm, or convolutions other than filter "
                       "gradients", at, op_name(p.op)));
    if (op_family(p.op) != d_.family())
      fail(fmt::format("{} is a {} but {} is a {}; a pipeline's stages are all GEMMs or all convolutions", at,
                       op_name(p.op), d_.stage_label(0), op_name(d_.stages[0].problem.op)));
    if (!p.aux.empty()) fail(at + ": has aux outputs or reductions; a pipeline's only output is its last stage's D");
    if (p.scale_a || p.scale_b || p.scale_d) fail(at + ": has FP8 scales, which the harness measures on kernels only");
    const nlohmann::json& inputs = j.at("inputs");
    OperandNames names = operand_names(p.op);
    st.a = input(s, inputs.at("a"), p.a, names.a, true);
    st.b = input(s, inputs.at("b"), p.b, names.b, op_family(p.op) == OpFamily::gemm);
  }

  /// `linkable`: whether the operand may be an earlier stage's D (a convolution's filter may not).
  StageInput input(size_t s, const nlohmann::json& j, const Operand& o, std::string_view operand, bool linkable) {
    std::string at = fmt::format("{}: its {}", d_.stage_label(s), operand);
    StageInput in;
    in.producer = j.at("producer").get<int>();
    if (in.producer >= static_cast<int>(s) || in.producer < -1)
      fail(fmt::format("{} reads stage {}, which does not run before it", at, in.producer));
    if (in.linked()) {
      const PipelineStage& from = d_.stages[static_cast<size_t>(in.producer)];
      std::string from_d = fmt::format("{}'s {}", d_.stage_label(static_cast<size_t>(in.producer)),
                                       operand_names(from.problem.op).d);
      if (!linkable) fail(fmt::format("{} (the filter) reads {}; a convolution's filter is the caller's", at, from_d));
      const Operand& d = from.problem.d;
      if (d.dtype != o.dtype || d.layout != o.layout)
        fail(fmt::format("{} is {} {} but reads {}, stored {} {}", at, dtype_name(o.dtype), layout_name(o.layout),
                         from_d, dtype_name(d.dtype), layout_name(d.layout)));
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

/// "Y [N,P,Q,K] = [2, 56, 56, 64]": the activation `extents` (ConvShape's input_ or output_activation) of `role`
/// ('a' or 'd') of `op`.
std::string activation_text(OpKind op, char role, const std::vector<int64_t>& extents) {
  OperandNames names = operand_names(op);
  return fmt::format("{} [{}] = [{}]", role == 'a' ? names.a : names.d, conv_extent_names(op, role),
                     fmt::join(extents, ", "));
}

std::string input_text(const PipelineDesc& p, const StageInput& in) {
  if (!in.linked()) return fmt::format("the caller's, in {}", dtype_name(in.caller_dtype));
  size_t from = static_cast<size_t>(in.producer);
  return fmt::format("{}'s {}", p.stage_label(from), operand_names(p.stages[from].problem.op).d);
}

}  // namespace

std::string PipelineDesc::stage_label(size_t s) const { return fmt::format("stage `{}` ({})", stages[s].name, s); }

bool is_pipeline_config(const nlohmann::json& config) { return config.is_object() && config.contains("pipeline"); }

PipelineDesc parse_pipeline_desc(const nlohmann::json& config, const std::string& whose) {
  return Parser(config, whose).parse();
}

std::string conv_link_mismatch(const PipelineDesc& p, size_t s, const ConvShape& from, const ConvShape& to) {
  size_t producer = static_cast<size_t>(p.stages[s].a.producer);
  std::vector<int64_t> written = from.output_activation(), read = to.input_activation();
  if (written == read) return "";
  return fmt::format("{}: its {} at the request's shape, but it reads {}'s {}", p.stage_label(s),
                     activation_text(p.stages[s].problem.op, 'a', read), p.stage_label(producer),
                     activation_text(p.stages[producer].problem.op, 'd', written));
}

std::string pipeline_mismatch(const PipelineDesc& problem, const PipelineDesc& kernel) {
  if (problem.stages.size() != kernel.stages.size())
    return fmt::format("the kernel's pipeline has {} stages, the problem's {}", kernel.stages.size(),
                       problem.stages.size());
  for (size_t s = 0; s < problem.stages.size(); ++s) {
    const PipelineStage &p = problem.stages[s], &k = kernel.stages[s];
    std::string at = problem.stage_label(s);
    if (k.name != p.name) at += fmt::format(" (`{}` in the kernel)", k.name);
    OperandNames names = operand_names(p.problem.op);
    for (auto [operand, pi, ki] : {std::tuple{names.a, p.a, k.a}, std::tuple{names.b, p.b, k.b}})
      if (pi.producer != ki.producer || (!pi.linked() && pi.caller_dtype != ki.caller_dtype))
        return fmt::format("{}: its {} is {} in the problem but {} in the kernel", at, operand,
                           input_text(problem, pi), input_text(kernel, ki));
    std::string slots = slot_mismatch(p.problem, k.problem);
    if (!slots.empty()) return at + ": " + slots;
  }
  return "";
}

}  // namespace ucut::worker
