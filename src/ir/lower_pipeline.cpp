// ir/lower_pipeline.cpp — a pipeline's stages → KernelConfigs or MemOpConfigs (see pipeline.h). Each stage is
// lowered from a copy of its AST in which links are resolved: `A: H` (or a family stage's `input: H`) becomes a
// copy of H's declaration from the stage that stores it, a family stage's view `input: H[E1, ...]` H's element
// type over the extents written, and a `from(T)` modifier is recorded and removed. The copies keep their source
// spans, so every diagnostic of lower(), lower_memop() and check() points into the spec the user wrote.
#include <fmt/format.h>

#include <map>

#include "ir/lower.h"
#include "ir/lower_util.h"
#include "ir/pipeline.h"
#include "support/suggest.h"

namespace ucut {
namespace {

using lowering::as_name;
using lowering::as_tensor;
using lowering::LowerError;

struct StoredOutput {
  int stage = -1;
  std::optional<OpKind> op;    // the stage's operator (unknown: lower() reports it)
  const Expr* type = nullptr;  // the `store(D: T[..])` declaration's tensor type
  Span span;
};

KernelAst copy_stage(const KernelAst& k) {
  KernelAst c;
  c.span = k.span;
  c.whole = k.whole;
  c.name = k.name;
  c.arch = k.arch;
  c.op = clone_call(k.op);
  for (const Call& cfg : k.configs) c.configs.push_back(clone_call(cfg));
  for (const Call& st : k.stages) c.stages.push_back(clone_call(st));
  c.incomplete = k.incomplete;
  return c;
}

/// The `store(NAME: T[..])` declaration of a stage's chain, or null when it has none (lower() reports that).
const Arg* store_decl(const KernelAst& k) {
  for (const Call& c : k.stages)
    if (c.name.value == "store")
      for (const Arg& a : c.args)
        if (a.kind == Arg::Kind::declaration && as_tensor(*a.value)) return &a;
  return nullptr;
}

std::string names_of(const std::map<std::string, StoredOutput>& outputs) {
  std::string s;
  for (const auto& [name, o] : outputs) s += (s.empty() ? "`" : ", `") + name + "`";
  return s;
}

/// `from(T)` on a declared operand: recorded in `in` and removed from the declaration.
void take_conversion(Arg& decl, StageInput& in, DiagEngine& diags) {
  auto& type = std::get<TensorType>(decl.value->node);
  for (auto it = type.modifiers.begin(); it != type.modifiers.end(); ++it) {
    if (it->name.value != "from") continue;
    const std::string* dtype = it->args.size() == 1 && it->args[0].kind == Arg::Kind::positional
                                   ? as_name(*it->args[0].value)
                                   : nullptr;
    if (in.converted() || !dtype) {
      diags.report(RuleId::L019, it->span,
                   in.converted()          ? "`from` is given twice"
                   : it->args.size() == 2 ? "a pipeline converts its inputs before its stages run: `from(T, where)` "
                                            "is for a kernel's operand"
                                          : "`from` takes one element type, the caller's",
                   fmt::format("write `{}: {}[..] from(f32)`: the caller passes f32 and the pipeline converts it",
                               decl.key.value, type.dtype.value));
      throw LowerError{};
    }
    in.caller_dtype = lowering::expect_dtype(*dtype, it->args[0].value->span, diags);
    in.link = it->span;
    it = type.modifiers.erase(it);
    if (it == type.modifiers.end()) break;
    --it;
  }
}

/// Unwinds a stage that reads the output of a stage that failed to lower: its errors are reported already.
struct ProducerFailed {};

/// Resolves the operands of one stage's copy; records where each comes from.
void resolve_operands(KernelAst& k, const std::map<std::string, StoredOutput>& outputs,
                      const std::vector<bool>& lowered, std::array<StageInput, 2>& inputs, DiagEngine& diags) {
  auto op = find_op(k.op.name.value);
  if (!op) return;  // lower() reports the unknown operator
  const OperandNames names = operand_names(*op);
  for (Arg& arg : k.op.args) {
    if (arg.incomplete || arg.kind != Arg::Kind::declaration || (arg.key.value != names.a && arg.key.value != names.b))
      continue;
    StageInput& in = inputs[arg.key.value == names.a ? 0 : 1];
    if (as_tensor(*arg.value)) {
      take_conversion(arg, in, diags);
      continue;
    }
    const std::string* name = as_name(*arg.value);
    if (!name) continue;  // lower() says what a declaration needs
    auto it = outputs.find(*name);
    if (it == outputs.end()) {
      std::vector<std::string_view> stored;
      for (const auto& [stored_name, o] : outputs) stored.push_back(stored_name);
      std::vector<std::string> near = closest_names(*name, stored);
      Diagnostic& d = diags.report(
          RuleId::L018, arg.value->span,
          fmt::format("`{}` is not the output of an earlier stage{}", *name,
                      outputs.empty() ? " (this is the first stage)"
                                      : fmt::format(" (stored so far: {})", names_of(outputs))),
          near.empty() ? fmt::format("declare the operand (`{}: bf16[M,K] row`) or name an earlier stage's stored output",
                                     arg.key.value)
                       : *did_you_mean(*name, stored));
      if (!near.empty()) {
        d.hint->edit = Edit{arg.value->span, near.front()};
        d.hint->applicability = Applicability::maybe_incorrect;
      }
      throw LowerError{};
    }
    if (!lowered[static_cast<size_t>(it->second.stage)]) throw ProducerFailed{};
    if (it->second.op && memory_family(op_family(*it->second.op))) {
      diags.report(RuleId::C506, arg.value->span,
                   fmt::format("`{}` is the output of a `{}` stage; a {} stage reads only GEMM or convolution outputs",
                               *name, op_name(*it->second.op), op_family(*op) == OpFamily::conv ? "convolution" : "GEMM"),
                   fmt::format("declare `{}` as a tensor the caller passes and run this stage in a pipeline of its own, "
                               "or move the `{}` after this stage",
                               arg.key.value, op_name(*it->second.op)));
      throw LowerError{};
    }
    if (it->second.op && op_family(*it->second.op) != op_family(*op)) {
      const bool conv_reads = op_family(*op) == OpFamily::conv;
      diags.report(RuleId::L018, arg.value->span,
                   fmt::format("`{}` is the output of a {} (`{}`), and this stage is a {} (`{}`): a link joins a GEMM "
                               "to a GEMM or a convolution to a convolution",
                               *name, conv_reads ? "GEMM" : "convolution", op_name(*it->second.op),
                               conv_reads ? "convolution" : "GEMM", op_name(*op)),
                   fmt::format("declare `{}` as a tensor the caller passes, or run this stage as a kernel of its own",
                               arg.key.value));
      throw LowerError{};
    }
    in.producer = it->second.stage;
    in.link = arg.value->span;
    Span at = arg.value->span;
    arg.value = clone_expr(*it->second.type);
    arg.value->span = at;
  }
}

/// L018 for a name that is neither an element type nor an earlier stage's output, in a family stage's `key: NAME`.
[[noreturn]] void unknown_link(const std::string& name, const Arg& arg,
                               const std::map<std::string, StoredOutput>& outputs, DiagEngine& diags) {
  std::vector<std::string_view> stored;
  for (const auto& [stored_name, o] : outputs) stored.push_back(stored_name);
  std::vector<std::string> near = closest_names(name, stored);
  Diagnostic& d = diags.report(
      RuleId::L018, arg.value->span,
      fmt::format("`{}` is neither an element type nor the output of an earlier stage{}", name,
                  outputs.empty() ? " (this is the first stage)"
                                  : fmt::format(" (stored so far: {})", names_of(outputs))),
      near.empty() ? fmt::format("declare `{0}: f32[N]` (a tensor), `{0}: f32` (a scalar), or name an earlier "
                                 "stage's stored output",
                                 arg.key.value)
                   : *did_you_mean(name, stored));
  if (!near.empty()) {
    d.hint->edit = Edit{arg.value->span, near.front()};
    d.hint->applicability = Applicability::maybe_incorrect;
  }
  throw LowerError{};
}

/// Resolves the linked inputs of a family stage's copy: `key: H` becomes H's declaration, `key: H[E1, ...]` H's
/// element type over those extents (with the modifiers written, which check refuses: C507); records each link.
/// Declarations whose value is an element type (a scalar, a reduce's `acc`) or a tensor type stay as written.
void resolve_family_inputs(KernelAst& k, const std::map<std::string, StoredOutput>& outputs,
                           const std::vector<bool>& lowered, std::vector<FamilyLink>& links, DiagEngine& diags) {
  size_t input = 0;
  for (Arg& arg : k.op.args) {
    if (arg.incomplete || arg.kind != Arg::Kind::declaration || !arg.value) continue;
    TensorType* view = std::get_if<TensorType>(&arg.value->node);
    const std::string* name = view ? &view->dtype.value : as_name(*arg.value);
    if (!name) continue;  // lower_memop says what a declaration needs
    if (find_dtype(*name)) {
      if (view) ++input;
      continue;
    }
    auto it = outputs.find(*name);
    if (it == outputs.end()) {
      if (view) {  // an unknown element type of a declared tensor: lower_memop reports it with its own hint
        ++input;
        continue;
      }
      unknown_link(*name, arg, outputs, diags);
    }
    if (!lowered[static_cast<size_t>(it->second.stage)]) throw ProducerFailed{};
    FamilyLink l;
    l.input = input++;
    l.producer = it->second.stage;
    l.link = arg.value->span;
    l.view = view != nullptr;
    const auto& stored = std::get<TensorType>(it->second.type->node);
    if (view) {
      if (!view->modifiers.empty()) l.view_modifier = view->modifiers.front().span;
      view->dtype.value = stored.dtype.value;  // the dims and modifiers as written, spans kept
    } else {
      Span at = arg.value->span;
      arg.value = clone_expr(*it->second.type);
      arg.value->span = at;
    }
    links.push_back(l);
  }
}

/// The caller slot (ucut_memop_args::inputs) of each linked input: a linked input is a plain input, named by its
/// key (a slice or reverse view of a link is refused by check, C506).
void place_links(const MemOpConfig& m, std::vector<FamilyLink>& links) {
  const std::vector<CallerTensor> callers = m.caller_inputs();
  for (FamilyLink& l : links)
    for (size_t c = 0; c < callers.size(); ++c)
      if (callers[c].name == m.inputs[l.input].name.value) l.caller = c;
}

}  // namespace

std::optional<PipelineConfig> lower_pipeline(const SourceFile& src, const SpecAst& ast, DiagEngine& diags) {
  const PipelineHeader& h = *ast.pipeline;
  PipelineConfig p;
  p.name = h.name;
  p.header = h.span;
  // An unknown (or missing) architecture is reported once, here; the stages are still lowered for their own errors.
  bool arch_ok =
      !h.arch.value.empty() && lowering::attempt([&] { p.arch = lowering::lower_arch(h.arch, diags); });
  std::map<std::string, StoredOutput> outputs;
  std::map<std::string, Span> stage_names;
  std::vector<bool> lowered;
  bool ok = arch_ok;
  for (const KernelAst& k : ast.kernels) {
    PipelineStage stage;
    bool stage_ok = false;
    try {
      auto [it, fresh] = stage_names.emplace(k.name.value, k.name.span);
      if (!fresh && !k.name.value.empty()) {  // an empty name did not parse (a P003 says so)
        Diagnostic& d = diags.report(RuleId::L018, k.name.span, fmt::format("a second stage named `{}`", k.name.value),
                                     "give every stage its own name");
        d.notes.push_back(Label{it->second, "the first one"});
        throw LowerError{};
      }
      auto op = find_op(k.op.name.value);
      const bool family = op && memory_family(op_family(*op));
      if (family && (op_family(*op) == OpFamily::library || op_family(*op) == OpFamily::sparse)) {
        diags.report(RuleId::C506, k.op.name.span,
                     fmt::format("stage `{}` is a `{}`; a pipeline's family stages are map, reduce, rownorm, scan "
                                 "and window",
                                 k.name.value, op_name(*op)),
                     fmt::format("run the `{}` as a kernel of its own (`kernel NAME : ARCH`)", op_name(*op)));
        throw LowerError{};
      }
      KernelAst copy = copy_stage(k);
      if (!arch_ok) copy.arch.value.clear();  // reported above, not once per stage
      if (family) {
        resolve_family_inputs(copy, outputs, lowered, stage.links, diags);
        std::optional<MemOpConfig> m = lower_memop(src, copy, diags);
        if (!m) throw LowerError{};
        place_links(*m, stage.links);
        stage.family = std::move(*m);
      } else {
        resolve_operands(copy, outputs, lowered, stage.inputs, diags);
        std::optional<KernelConfig> cfg = lower(src, copy, diags);
        if (!cfg) throw LowerError{};
        stage.config = std::move(*cfg);
      }
      stage_ok = true;
    } catch (const LowerError&) {
    } catch (const ProducerFailed&) {
    }
    ok = ok && stage_ok;
    lowered.push_back(stage_ok);
    if (const Arg* store = store_decl(k)) {
      const std::string& name = store->key.value;
      if (auto it = outputs.find(name); it != outputs.end()) {
        Diagnostic& d = diags.report(RuleId::L018, store->key.span,
                                     fmt::format("stage `{}` stores `{}`, which stage `{}` already stores", k.name.value,
                                                 name, ast.kernels[static_cast<size_t>(it->second.stage)].name.value),
                                     "give each stage's output its own name: later stages read it by that name");
        d.notes.push_back(Label{it->second.span, "stored here first"});
        ok = false;
      } else {
        outputs[name] = {static_cast<int>(p.stages.size()), find_op(k.op.name.value), store->value.get(),
                         store->key.span};
      }
    }
    p.stages.push_back(std::move(stage));
  }
  if (!ok) return std::nullopt;
  return p;
}

}  // namespace ucut
