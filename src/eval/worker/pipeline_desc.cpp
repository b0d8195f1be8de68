// eval/worker/pipeline_desc.cpp — canonical pipeline JSON → PipelineDesc.
#include "eval/worker/pipeline_desc.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "abi/kernel_abi.h"
#include "dsl/parser.h"
#include "ir/pipeline.h"
#include "support/diag_render.h"

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
      for (const nlohmann::json& st : stages) {
        d_.stages.push_back({st.at("name").get<std::string>(), {}, {}, {}, std::nullopt});
        if (st.contains("family")) d_.stages.back().family = FamilyStage{};
      }
      if (std::all_of(d_.stages.begin(), d_.stages.end(), [](const PipelineStage& x) { return x.is_family(); }))
        fail("every stage is a memory-bound family kernel; the harness measures pipelines with a GEMM or "
             "convolution stage (measure family kernels as MSKB launchers)");
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
    if (st.is_family()) return family_stage(s, j);
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

  /// A family stage: its operator, canonical config and links, each from an earlier stage.
  void family_stage(size_t s, const nlohmann::json& j) {
    FamilyStage& f = *d_.stages[s].family;
    f.op = j.at("family").get<std::string>();
    f.config = j.at("config");
    for (const nlohmann::json& l : j.value("links", nlohmann::json::array())) {
      FamilyInput in;
      in.input = l.at("input").get<std::string>();
      in.caller = l.at("caller").get<size_t>();
      in.producer = l.at("producer").get<int>();
      in.view = l.contains("view");
      if (in.producer >= static_cast<int>(s) || in.producer < 0)
        fail(fmt::format("{}: its input `{}` reads stage {}, which does not run before it", d_.stage_label(s),
                         in.input, in.producer));
      f.links.push_back(in);
    }
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
      if (from.is_family())
        fail(fmt::format("{} reads {}, a family stage's output; GEMM and convolution stages read only GEMM or "
                         "convolution outputs (C506)", at, d_.stage_label(static_cast<size_t>(in.producer))));
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
    for (const PipelineStage& st : d_.stages) {
      if (st.is_family()) {
        for (const FamilyInput& l : st.family->links)
          if (l.producer == s) return true;
      } else if (st.a.producer == s || st.b.producer == s) {
        return true;
      }
    }
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

/// A family config's canonical form without its launch knobs: what a stage computes.
nlohmann::json family_semantics(nlohmann::json config) {
  config.erase("tune");
  return config;
}

}  // namespace

const FamilyInput* FamilyStage::link_of(size_t c) const {
  for (const FamilyInput& l : links)
    if (l.caller == c) return &l;
  return nullptr;
}

OpFamily PipelineDesc::family() const {
  for (const PipelineStage& s : stages)
    if (!s.is_family()) return op_family(s.problem.op);
  return OpFamily::gemm;
}

bool PipelineDesc::has_family_stage() const {
  return std::any_of(stages.begin(), stages.end(), [](const PipelineStage& s) { return s.is_family(); });
}

void attach_family_configs(PipelineDesc& p, const std::string& source) {
  if (!p.has_family_stage()) return;
  if (source.empty())
    throw std::runtime_error("the request carries no pipeline_source, and the worker lowers the family stages of `" +
                             p.name + "` from it");
  SourceFile src("pipeline_source.ucut", source);
  DiagEngine diags;
  std::optional<PipelineConfig> lowered;
  if (auto ast = parse_source(src, diags); ast && ast->pipeline) lowered = lower_pipeline(src, *ast, diags);
  if (!lowered || diags.has_errors())
    throw std::runtime_error("the request's pipeline_source does not lower to a pipeline:\n" +
                             render_text(src, diags.diagnostics()));
  if (lowered->stages.size() != p.stages.size())
    throw std::runtime_error(fmt::format("the request's pipeline_source has {} stages, the pipeline `{}` {}",
                                         lowered->stages.size(), p.name, p.stages.size()));
  for (size_t s = 0; s < p.stages.size(); ++s) {
    if (!p.stages[s].is_family()) continue;
    const ucut::PipelineStage& l = lowered->stages[s];
    if (!l.is_family() || family_semantics(canonical_memop(*l.family)) != family_semantics(p.stages[s].family->config))
      throw std::runtime_error(p.stage_label(s) + ": the request's pipeline_source lowers it to another kernel "
                               "than the pipeline's config names");
    p.stages[s].family->memop = std::make_shared<const MemOpConfig>(*l.family);
  }
}

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
    if (p.is_family() != k.is_family())
      return fmt::format("{} is a {} in the problem but a {} in the kernel", at,
                         p.is_family() ? "family kernel" : "GEMM or convolution",
                         k.is_family() ? "family kernel" : "GEMM or convolution");
    if (p.is_family()) {
      const FamilyStage &pf = *p.family, &kf = *k.family;
      if (family_semantics(pf.config) != family_semantics(kf.config))
        return fmt::format("{}: the kernel's {} computes {}, the problem's {}", at, kf.op,
                           family_semantics(kf.config).dump(), family_semantics(pf.config).dump());
      auto same = [](const FamilyInput& x, const FamilyInput& y) {
        return x.input == y.input && x.caller == y.caller && x.producer == y.producer && x.view == y.view;
      };
      if (!std::equal(pf.links.begin(), pf.links.end(), kf.links.begin(), kf.links.end(), same))
        return at + ": its inputs read other stages' outputs in the kernel than in the problem";
      continue;
    }
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
