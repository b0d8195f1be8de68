// problem/match.cpp — see match.h.
#include "problem/match.h"

#include <fmt/format.h>

#include "ir/canonical.h"

namespace ucut {
namespace {

/// A single-kernel problem for one stage, so each stage is compared by semantic_mismatch like any kernel.
Problem stage_problem(const Problem& p, size_t s) {
  Problem q;
  q.name = p.name;
  q.semantics = p.pipeline->stages[s].config;
  return q;
}

/// Why family stage `k` does not compute the problem's family stage `p`: another operator, inputs, scalars or chain
/// (their canonical forms without the launch knobs), or other links; nullopt when it does.
std::optional<std::string> family_mismatch(const PipelineStage& p, const PipelineStage& k) {
  nlohmann::json pj = canonical_memop(*p.family), kj = canonical_memop(*k.family);
  pj.erase("tune");
  kj.erase("tune");
  if (pj != kj) return fmt::format("the spec's kernel {} does not compute the problem's {}", kj.dump(), pj.dump());
  if (p.links.size() != k.links.size()) return std::string("it reads other stages' outputs than the problem's");
  for (size_t i = 0; i < p.links.size(); ++i)
    if (p.links[i].input != k.links[i].input || p.links[i].producer != k.links[i].producer ||
        p.links[i].view != k.links[i].view)
      return fmt::format("its input {} reads stage {}'s output in the spec, but the problem's reads stage {}'s",
                         k.links[i].input + 1, k.links[i].producer + 1, p.links[i].producer + 1);
  return std::nullopt;
}

}  // namespace

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
  // (what a kernel requires of the shapes, which shape_violation checks per shape), padding (how a kernel
  // reaches an operand, not what it computes) and extents (what a shape gives: a pipeline's spec may name them
  // otherwise than the problem's, `[N, H, W, C]` for `[N, P1, Q1, C]`, and each shape's are checked at run time).
  nlohmann::json pe = canonical_config(p)["epilogue"], ke = canonical_config(kernel)["epilogue"];
  auto strip = [](nlohmann::json e) {
    for (auto& s : e) {
      s.erase("default");
      s.erase("scalar");
      if (s.contains("tensor")) {
        s["tensor"].erase("name");
        s["tensor"].erase("align");
        s["tensor"].erase("pad");
        s["tensor"].erase("dims");
      }
    }
    return e;
  };
  if (strip(pe) != strip(ke))
    return fmt::format("the spec's epilogue {} does not compute the problem's {}", ke.dump(), pe.dump());
  return std::nullopt;
}

std::optional<PipelineDeparture> pipeline_departure(const Problem& problem, const PipelineConfig& kernel) {
  using Part = PipelineDeparture::Part;
  if (!problem.pipeline) return PipelineDeparture{Part::stages, 0, "the problem is a single kernel and the spec a pipeline"};
  const PipelineConfig& p = *problem.pipeline;
  if (p.stages.size() != kernel.stages.size())
    return PipelineDeparture{
        Part::stages, 0, fmt::format("the problem has {} stages and the spec {}", p.stages.size(), kernel.stages.size())};
  for (size_t s = 0; s < p.stages.size(); ++s) {
    const PipelineStage &ps = p.stages[s], &ks = kernel.stages[s];
    if (ps.is_family() != ks.is_family())
      return PipelineDeparture{Part::kind, s,
                               fmt::format("stage {} (`{}`) is a {} in the problem but a {} in the spec", s + 1,
                                           ks.name().value, ps.is_family() ? "family kernel" : "GEMM or convolution",
                                           ks.is_family() ? "family kernel" : "GEMM or convolution")};
    if (ps.is_family()) {
      if (auto why = family_mismatch(ps, ks))
        return PipelineDeparture{Part::family, s, fmt::format("stage {} (`{}`): {}", s + 1, ks.name().value, *why)};
      continue;
    }
    if (auto why = semantic_mismatch(stage_problem(problem, s), ks.config))
      return PipelineDeparture{Part::config, s, fmt::format("stage {} (`{}`): {}", s + 1, ks.config.name.value, *why)};
    for (size_t i = 0; i < 2; ++i) {
      const StageInput &pi = ps.inputs[i], &ki = ks.inputs[i];
      auto source = [&](const StageInput& in) {
        return in.linked() ? fmt::format("stage {}'s output", in.producer + 1)
               : in.converted() ? fmt::format("the caller's {}, converted", dtype_name(*in.caller_dtype))
                                : std::string("the caller's");
      };
      if (source(pi) != source(ki))
        return PipelineDeparture{i == 0 ? Part::operand_a : Part::operand_b, s,
                                 fmt::format("stage {} (`{}`): operand {} is {} in the problem but {} in the spec",
                                             s + 1, ks.config.name.value, i == 0 ? "A" : "B", source(pi), source(ki))};
    }
  }
  return std::nullopt;
}

std::optional<std::string> pipeline_mismatch(const Problem& problem, const PipelineConfig& kernel) {
  auto d = pipeline_departure(problem, kernel);
  return d ? std::optional<std::string>(d->why) : std::nullopt;
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
    if (kernel.stages[s].is_family()) continue;  // a family kernel computes in f32 as the problem says
    const KernelConfig& p = problem.pipeline->stages[s].config;
    if (p.math.value == MathMode::native && kernel.stages[s].config.math.value == MathMode::tf32 &&
        p.a.dtype.value == DType::f32)
      return true;
  }
  return false;
}

}  // namespace ucut
