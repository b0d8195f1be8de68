// check/memop_rules.cpp — what a kernel of a memory-bound family (ir/memop.h) needs to be emitted: a target
// and element types the family emits for (C701), a chain of stages its kernel applies and a store of its
// output's shape (C713), and the tensor modifiers and stage values GEMM epilogues also refuse (C407, C411,
// C415, C425, and check_stage_values). Goldens: tests/golden/check/C701.ucut, C713.ucut.
#include <fmt/format.h>

#include "check/check.h"
#include "support/error.h"

namespace ucut {
namespace {

bool family_type(DType t) { return t == DType::f16 || t == DType::bf16 || t == DType::f32; }

/// C701: the arch has an emitter for the families, and every tensor is f16, bf16 or f32.
void check_target(const MemOpConfig& m, DiagEngine& diags) {
  if (!memop_emits_for(m.arch.value)) {
    bool hopper = m.arch.value == Arch::sm90;
    Diagnostic& d = diags.report(
        RuleId::C701, m.arch.span,
        fmt::format("`{}` kernels emit for sm80, sm86, sm89 and sm90a, not `{}`", op_name(m.op.value),
                    arch_info(m.arch.value).name),
        hopper ? "write `sm90a`: Hopper kernels are built for sm_90a" : "target sm80, sm86, sm89 or sm90a");
    if (hopper) {
      d.hint->edit = Edit{m.arch.span, "sm90a"};
      d.hint->applicability = Applicability::machine_applicable;
    }
  }
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& t : m.inputs) tensors.push_back(&t);
  tensors.push_back(&m.output());
  for (const TensorDecl* t : tensors)
    if (!family_type(t->dtype.value))
      diags.report(RuleId::C701, t->dtype.span,
                   fmt::format("`{}` is `{}`; `{}` kernels read and write f16, bf16 or f32", t->name.value,
                               dtype_name(t->dtype.value), op_name(m.op.value)),
                   fmt::format("declare `{}` as f16, bf16 or f32", t->name.value));
}

/// Why a map cannot apply a stage of this category, and what to write instead; empty when it can.
std::pair<std::string, std::string> refused_stage(const EpiOp& op) {
  std::string_view name = epi_info(op.kind).name;
  switch (epi_info(op.kind).category) {
    case EpiCategory::activation:
    case EpiCategory::expr:
    case EpiCategory::cast:
    case EpiCategory::store:
      return {};
    case EpiCategory::scalar:
      return {"`scale` multiplies by a run-time scalar, and a `map` kernel takes no scalars",
              "write the factor into the chain as a number: `expr(x * 0.5)`"};
    case EpiCategory::source:
      return {"`residual` reads a second tensor, and a `map` reads one input",
              "compute it in a kernel of its own"};
    case EpiCategory::vector:
      return {
          fmt::format("`{}` broadcasts a vector along a matrix's rows or columns, and a `map` has no matrix",
                      name),
          "write a constant into the chain: `expr(x + 0.5)`"};
    case EpiCategory::aux:
      return {"`aux_store` writes a second output, and a `map` writes one",
              "store the value in a kernel of its own"};
    case EpiCategory::reduce:
      return {fmt::format("`{}` reduces along a matrix axis, and a `map` writes one value per element", name),
              "reduce in a kernel of its own"};
  }
  UC_UNREACHABLE() << "EpiCategory " << static_cast<int>(epi_info(op.kind).category);
}

/// C713: the chain's stages, then its store: the input's extents and layout (one output element per input
/// element).
void check_chain(const MemOpConfig& m, DiagEngine& diags) {
  for (const EpiOp& op : m.chain) {
    auto [why, instead] = refused_stage(op);
    if (!why.empty()) diags.report(RuleId::C713, op.span, why, instead);
    rules::check_stage_values(op, diags);
  }
  const TensorDecl& in = m.input();
  const TensorDecl& out = m.output();
  auto show = [](const TensorDecl& t) {
    std::string dims;
    for (const Extent& e : t.dims)
      dims += (dims.empty() ? "" : ",") + (e.fixed() ? std::to_string(e.size) : e.symbol);
    return dims;
  };
  bool same_dims = in.dims.size() == out.dims.size();
  for (size_t i = 0; same_dims && i < in.dims.size(); ++i)
    same_dims = in.dims[i].symbol == out.dims[i].symbol && in.dims[i].size == out.dims[i].size;
  if (!same_dims) {
    Diagnostic& d = diags.report(
        RuleId::C713, out.span,
        fmt::format("`{}` is [{}] but the input `{}` is [{}]: a map writes one value per "
                    "input element",
                    out.name.value, show(out), in.name.value, show(in)),
        fmt::format("declare `{}: {}[{}]`", out.name.value, dtype_name(out.dtype.value), show(in)));
    d.notes.push_back(Label{in.span, "the input"});
  } else if (in.layout.value != out.layout.value) {
    Diagnostic& d = diags.report(
        RuleId::C713, out.layout.span.implied ? out.span : out.layout.span,
        fmt::format("`{}` is `{}` but the input `{}` is `{}`: a map keeps the layout", out.name.value,
                    layout_name(out.layout.value), in.name.value, layout_name(in.layout.value)),
        fmt::format("declare both `{}`", layout_name(in.layout.value)));
    d.notes.push_back(Label{in.span, "the input"});
  }
  if (out.name.value == in.name.value) {
    Diagnostic& d = diags.report(RuleId::C411, out.name.span,
                                 fmt::format("tensor name `{}` is already used", out.name.value),
                                 "give each tensor its own name");
    d.notes.push_back(Label{in.name.span, "first used here"});
  }
}

/// Modifiers for what GEMMs and convolutions do around their mainloop: a map reads and writes its tensors in
/// place.
void check_modifiers(const MemOpConfig& m, DiagEngine& diags) {
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& t : m.inputs) tensors.push_back(&t);
  tensors.push_back(&m.output());
  for (const TensorDecl* t : tensors) {
    if (t->scaled.value)
      diags.report(RuleId::C407, t->scaled.span,
                   fmt::format("`{}` is `{}`; per-tensor scales dequantize FP8 operands only", t->name.value,
                               dtype_name(t->dtype.value)),
                   "remove `scaled`");
    if (t->padded.value)
      diags.report(
          RuleId::C415, t->padded.span,
          fmt::format("`pad` copies a GEMM's or a convolution's operands; a `{}` reads `{}` where it is",
                      op_name(m.op.value), t->name.value),
          "remove `pad`");
    if (t->fold.value)
      diags.report(RuleId::C425, t->fold.span,
                   fmt::format("`fold` unrolls a convolution's filter taps; `{}` has none", t->name.value),
                   "remove `fold(...)`");
  }
}

}  // namespace

void check(const MemOpConfig& m, DiagEngine& diags) {
  check_target(m, diags);
  check_modifiers(m, diags);
  check_chain(m, diags);
}

}  // namespace ucut
