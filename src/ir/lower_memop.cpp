// ir/lower_memop.cpp — lowers a kernel whose operator is of a memory-bound family (ir/memop.h): the header,
// the operator's inputs and the `>>` chain, whose stages lower_epilogue.cpp lowers as it does for GEMMs.
// Which stages a family's chain may hold, its output's extents and the targets it emits for are check/'s job
// (memop_rules.cpp).
#include <fmt/format.h>

#include "ir/lower.h"
#include "ir/lower_util.h"
#include "support/error.h"

namespace ucut {

using namespace lowering;

namespace {

constexpr const char* kMapInput = "input: bf16[N]";

/// map(input: T[N]): one tensor declaration, named as the caller names it (an MSKB launcher's parameter).
void lower_map_inputs(const Call& op, MemOpConfig& m, DiagEngine& diags) {
  bool ok = !op.incomplete;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : op.args) {
    if (arg.incomplete) {  // a syntax error inside it is reported
      ok = false;
      continue;
    }
    ok = attempt([&] {
           if (arg.kind == Arg::Kind::positional) {
             diags.report(RuleId::L009, arg.span, "operator arguments are named",
                          fmt::format("declare the input as `{}`", kMapInput));
             throw LowerError{};
           }
           if (arg.kind == Arg::Kind::keyword || !as_tensor(*arg.value)) {
             bool precision = arg.key.value == "acc" || arg.key.value == "compute";
             diags.report(RuleId::L007, arg.key.span,
                          precision ? fmt::format("`map` takes no `{}`: it computes every element in f32",
                                                  arg.key.value)
                                    : fmt::format("`map` takes no argument `{}`", arg.key.value),
                          precision ? fmt::format("remove `{}`", arg.key.value)
                                    : fmt::format("`map` takes its input tensor: `{}`", kMapInput));
             throw LowerError{};
           }
           note_unique(seen, arg.key.value, arg.key.span,
                       fmt::format("input `{}` is declared twice", arg.key.value), diags);
           m.inputs.push_back(lower_tensor(arg, diags));
         }) &&
         ok;
  }
  if (!ok) throw LowerError{};
  if (m.inputs.empty()) {
    diags.report(RuleId::L005, op.span, "`map` has no input", fmt::format("add `{}`", kMapInput));
    throw LowerError{};
  }
  if (m.inputs.size() > 1) {
    Diagnostic& d = diags.report(RuleId::L008, m.inputs[1].span,
                                 fmt::format("`map` reads one input tensor, got {}", m.inputs.size()),
                                 "keep one input: a map applies its chain to each element of that tensor");
    d.notes.push_back(Label{m.inputs[0].span, "the input"});
    throw LowerError{};
  }
}

/// The family kernels have no `.with_*` tunables yet: their launch shape is fixed (emit/memory/map.cpp).
bool lower_configs(const KernelAst& k, const MemOpConfig& m, DiagEngine& diags) {
  for (const Call& c : k.configs) {
    if (c.incomplete) continue;  // its syntax error is reported
    diags.report(
        RuleId::L010, c.name.span,
        fmt::format("`{}` takes no configuration calls; `.{}` tunes GEMMs and convolutions",
                    op_name(m.op.value), c.name.value),
        fmt::format("remove `.{}(...)`: a map runs 16-byte vectors in a grid-stride loop", c.name.value));
  }
  return k.configs.empty();
}

}  // namespace

std::optional<MemOpConfig> lower_memop(const SourceFile& src, const KernelAst& k, DiagEngine& diags) {
  (void)src;
  std::optional<OpKind> op = find_op(k.op.name.value);
  UC_ASSERT(op && memory_family(op_family(*op))) << "lower_memop on operator `" << k.op.name.value << "`";
  MemOpConfig m;
  m.name = k.name;
  m.header = k.span;
  m.op = {*op, k.op.name.span};
  // The header, the operator, the configuration calls and the chain on their own: one run reports every
  // error.
  bool arch_ok = !k.arch.value.empty() && attempt([&] { m.arch = lower_arch(k.arch, diags); });
  bool op_ok = attempt([&] { lower_map_inputs(k.op, m, diags); });
  bool configs_ok = lower_configs(k, m, diags);
  bool chain_ok = attempt([&] { m.chain = lower_chain(k, "store(output: bf16[N])", diags); });
  if (!arch_ok || !op_ok || !configs_ok || !chain_ok || k.incomplete) return std::nullopt;
  return m;
}

}  // namespace ucut
