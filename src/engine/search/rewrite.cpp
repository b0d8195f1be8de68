// engine/search/rewrite.cpp — text edits for a Move, and the harness's verdict on the edited spec.
#include "engine/search/rewrite.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "check/shape_rules.h"
#include "compiler/pipeline.h"
#include "dsl/parser.h"
#include "ir/canonical.h"
#include "ir/lower_util.h"
#include "problem/match.h"

namespace ucut::search {
namespace {

struct TextEdit {
  uint32_t begin, end;
  std::string text;
};

std::string dims(const Triple& t) { return fmt::format("{}, {}, {}", t[0], t[1], t[2]); }

/// The `.with_*` calls a move sets, as (name, full call text), in Move's knob order.
std::vector<std::pair<std::string, std::string>> config_calls(const Move& m) {
  std::vector<std::pair<std::string, std::string>> calls;
  auto add = [&](const char* name, const std::string& args) {
    calls.emplace_back(name, fmt::format("{}({})", name, args));
  };
  if (m.tile) add("with_threadblockshape", dims(*m.tile));
  if (m.warp) add("with_warpshape", dims(*m.warp));
  if (m.cluster) add("with_cluster", dims(*m.cluster));
  if (m.schedule) add("with_scheduler", std::string(kernel_schedule_name(*m.schedule)));
  if (m.tile_scheduler) {
    const TileSched& t = *m.tile_scheduler;
    add("with_tile_scheduler", t.kind == TileScheduler::split_k ? fmt::format("split_k({})", t.splits)
                                                                : std::string(tile_scheduler_name(t.kind)));
  }
  if (m.raster) add("with_raster", fmt::format("{}, swizzle = {}", raster_name(m.raster->order), m.raster->swizzle));
  if (m.stages) add("with_stages", *m.stages == 0 ? std::string("auto") : std::to_string(*m.stages));
  if (m.vector) add("with_vector", std::to_string(*m.vector));
  if (m.block) add("with_block", std::to_string(*m.block));
  if (m.items) add("with_items", std::to_string(*m.items));
  if (m.grid) add("with_grid", grid_policy_name(*m.grid));
  return calls;
}

size_t line_start(const std::string& text, size_t pos) {
  size_t nl = text.rfind('\n', pos == 0 ? 0 : pos - 1);
  return pos == 0 || nl == std::string::npos ? 0 : nl + 1;
}

std::string leading_space(const std::string& text, size_t pos) {
  size_t b = line_start(text, pos), e = b;
  while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
  return text.substr(b, e - b);
}

/// New calls go on lines of their own after the last config call (or the operator), below its comment if any; when
/// code follows on that line they are chained right after it.
TextEdit append_calls(const std::string& text, const KernelAst& k, const std::vector<std::string>& calls) {
  const Span anchor = k.configs.empty() ? k.op.span : k.configs.back().span;
  size_t pos = anchor.end;
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  bool rest_is_comment = pos >= text.size() || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '#' ||
                         text.compare(pos, 2, "//") == 0;
  std::string out;
  if (!rest_is_comment) {
    for (const std::string& c : calls) out += "." + c;
    return {anchor.end, anchor.end, out};
  }
  size_t eol = text.find('\n', anchor.end);
  if (eol == std::string::npos) eol = text.size();
  if (eol > anchor.end && text[eol - 1] == '\r') --eol;
  std::string indent = leading_space(text, anchor.begin);
  size_t first = line_start(text, anchor.begin) + indent.size();
  if (k.configs.empty() || first >= text.size() || text[first] != '.')
    indent = leading_space(text, k.op.span.begin) + "  ";
  for (const std::string& c : calls) out += "\n" + indent + "." + c;
  return {static_cast<uint32_t>(eol), static_cast<uint32_t>(eol), out};
}

std::optional<TextEdit> math_edit(const KernelAst& k, MathMode math) {
  std::string value = fmt::format("math = {}", math_name(math));
  for (const Arg& a : k.op.args)
    if (a.kind == Arg::Kind::keyword && a.key.value == "math") return TextEdit{a.span.begin, a.span.end, value};
  if (k.op.args.empty()) return std::nullopt;
  uint32_t at = k.op.args.back().span.end;
  return TextEdit{at, at, ", " + value};
}

/// The edits of an `operands` and/or `conversion` move on A's and B's declarations: their element type becomes `to`
/// (when set); an operand whose caller passes another type gets `from(T)`, or `from(T, mainloop)` when the
/// conversion names it (without a conversion it keeps its own), and one converted back to its caller's type loses
/// it; a 16-bit `to` drops `math = ...` (16-bit operands multiply natively). The reason when the operator does not
/// declare both operands, or the conversion names an operand that is not converted.
std::optional<std::string> operand_edits(const std::string& text, const KernelAst& k, std::optional<DType> to,
                                         std::optional<Conversion> conversion, std::vector<TextEdit>& edits) {
  std::optional<OpKind> op = find_op(k.op.name.value);
  const std::string undeclared = "the operator call does not declare both of its operands to retype";
  if (!op) return undeclared;
  const OperandNames names = operand_names(*op);
  int edited = 0;
  for (const Arg& a : k.op.args) {
    bool is_a = a.key.value == names.a;
    if (a.kind != Arg::Kind::declaration || (!is_a && a.key.value != names.b)) continue;
    const TensorType* t = lowering::as_tensor(*a.value);
    if (!t) continue;
    ++edited;
    std::string type = to ? std::string(dtype_name(*to)) : t->dtype.value;
    if (to) edits.push_back({t->dtype.span.begin, t->dtype.span.end, type});
    auto from = std::find_if(t->modifiers.begin(), t->modifiers.end(),
                             [](const Call& m) { return m.name.value == "from"; });
    std::string caller = t->dtype.value;
    bool in_mainloop = false;
    if (from != t->modifiers.end()) {
      auto name = [&](size_t i) { return i < from->args.size() ? lowering::as_name(*from->args[i].value) : nullptr; };
      if (const std::string* named = name(0)) caller = *named;
      in_mainloop = name(1) && *name(1) == "mainloop";
    }
    if (conversion) in_mainloop = *conversion == (is_a ? Conversion::mainloop_a : Conversion::mainloop_b);
    if (caller == type) {  // not converted (or converted back): the caller's type needs no `from`
      if (conversion && in_mainloop)
        return fmt::format("{} is not converted, so its mainloop has nothing to convert", a.key.value);
      if (from != t->modifiers.end()) {
        uint32_t begin = from->span.begin;
        while (begin > 0 && text[begin - 1] == ' ') --begin;
        edits.push_back({begin, from->span.end, ""});
      }
      continue;
    }
    std::string wanted = in_mainloop ? fmt::format("from({}, mainloop)", caller) : fmt::format("from({})", caller);
    if (from != t->modifiers.end())
      edits.push_back({from->span.begin, from->span.end, wanted});
    else
      edits.push_back({a.value->span.end, a.value->span.end, " " + wanted});
  }
  if (edited != 2) return undeclared;
  if (to && dtype_bits(*to) == 16)
    for (size_t i = 1; i < k.op.args.size(); ++i)
      if (k.op.args[i].kind == Arg::Kind::keyword && k.op.args[i].key.value == "math")
        edits.push_back({k.op.args[i - 1].span.end, k.op.args[i].span.end, ""});
  return std::nullopt;
}

std::string first_error(const DiagEngine& diags, std::string* message) {
  for (const Diagnostic& d : diags.diagnostics()) {
    if (d.severity != Severity::error) continue;
    if (message) *message = d.message;
    return std::string(rule_info(d.rule).code);
  }
  return "";
}

}  // namespace

std::optional<std::string> apply_move(const std::string& spec, const Move& move, std::string* error,
                                      const std::string& kernel) {
  SourceFile src("spec.ucut", spec);
  DiagEngine diags;
  std::optional<SpecAst> ast = parse_source(src, diags);
  if (!ast || ast->kernels.empty()) {
    std::string why;
    first_error(diags, &why);
    if (error) *error = "the spec does not parse: " + why;
    return std::nullopt;
  }
  const KernelAst* k = &ast->kernels.front();
  if (ast->pipeline) {
    std::vector<std::string> names;
    for (const KernelAst& s : ast->kernels) names.push_back(s.name.value);
    auto it = std::find_if(ast->kernels.begin(), ast->kernels.end(),
                           [&](const KernelAst& s) { return s.name.value == kernel; });
    if (it == ast->kernels.end()) {
      if (error)
        *error = kernel.empty()
                     ? fmt::format("pipeline `{}` has {} kernels; moves apply to one stage: name one of {}",
                                   ast->pipeline->name.value, names.size(), fmt::join(names, ", "))
                     : fmt::format("pipeline `{}` has no stage `{}`; its stages are {}", ast->pipeline->name.value,
                                   kernel, fmt::join(names, ", "));
      return std::nullopt;
    }
    k = &*it;
  }
  std::vector<TextEdit> edits;
  std::vector<std::string> appended;
  for (const auto& [name, call] : config_calls(move)) {
    auto it = std::find_if(k->configs.begin(), k->configs.end(), [&](const Call& c) { return c.name.value == name; });
    if (it != k->configs.end())
      edits.push_back({it->span.begin, it->span.end, call});
    else
      appended.push_back(call);
  }
  if (move.math) {
    auto e = math_edit(*k, *move.math);
    if (!e) {
      if (error) *error = "the operator call has no arguments to add `math = ...` to";
      return std::nullopt;
    }
    edits.push_back(*e);
  }
  if (move.operands || move.conversion)
    if (auto why = operand_edits(spec, *k, move.operands, move.conversion, edits)) {
      if (error) *error = *why;
      return std::nullopt;
    }
  if (!appended.empty()) edits.push_back(append_calls(spec, *k, appended));
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin > b.begin; });
  std::string out = spec;
  for (const TextEdit& e : edits) out.replace(e.begin, e.end - e.begin, e.text);
  return out;
}

Verdict validate(const std::string& spec, const Problem* problem) {
  Verdict v;
  SourceFile src("candidate.ucut", spec);
  Compilation c = compile_spec(src, StopAfter::check);
  if (!c.ok()) {
    v.rule = first_error(c.diags, &v.message);
    return v;
  }
  auto fail = [&](std::string rule, std::string why) {
    v.rule = std::move(rule);
    v.message = std::move(why);
    return v;
  };
  auto shape_fail = [&](const Diagnostic& d) { return fail(std::string(rule_info(d.rule).code), d.message); };
  if (c.config) {
    v.config_hash = config_hash(*c.config);
    if (problem) {
      if (auto why = semantic_mismatch(*problem, *c.config)) return fail("semantic_mismatch", *why);
      for (const GemmShape& s : problem->shapes)
        if (auto why = shape_violation(*c.config, s)) return shape_fail(*why);
      v.precision_change = precision_change(*problem, *c.config);
    }
  } else if (c.pipeline) {
    v.config_hash = pipeline_hash(*c.pipeline);
    if (problem) {
      if (auto why = pipeline_mismatch(*problem, *c.pipeline)) return fail("semantic_mismatch", *why);
      for (const GemmShape& s : problem->shapes)
        if (auto why = shape_violation(*c.pipeline, s)) return shape_fail(*why);
      v.precision_change = precision_change(*problem, *c.pipeline);
    }
  } else if (c.memop) {
    v.config_hash = memop_hash(*c.memop);
    if (problem)
      return fail("semantic_mismatch",
                  fmt::format("a `{}` kernel computes no problem the harness runs (GEMMs, "
                              "convolutions, pipelines)",
                              op_name(c.memop->op.value)));
  }
  v.ok = true;
  return v;
}

void Rejections::add(const std::string& rule) {
  ++count;
  ++by_rule[rule];
}

std::string Rejections::summary() const {
  std::vector<std::pair<int, std::string>> rows;
  for (const auto& [rule, n] : by_rule) rows.emplace_back(-n, rule);
  std::sort(rows.begin(), rows.end());
  std::vector<std::string> parts;
  for (const auto& [n, rule] : rows) parts.push_back(fmt::format("{} ×{}", rule, -n));
  return parts.empty() ? fmt::format("{} rejected", count)
                       : fmt::format("{} rejected: {}", count, fmt::join(parts, ", "));
}

std::optional<KernelConfig> lower_kernel(const std::string& spec, std::string* error) {
  SourceFile src("spec.ucut", spec);
  Compilation c = compile_spec(src, StopAfter::lower);
  if (c.pipeline) {
    if (error) *error = "a pipeline spec: its stages are tuned one at a time (apply_move with the stage's name)";
    return std::nullopt;
  }
  if (c.memop) {
    if (error)
      *error =
          fmt::format("a `{}` kernel: the search tunes GEMMs and convolutions", op_name(c.memop->op.value));
    return std::nullopt;
  }
  if (!c.config) {
    std::string why;
    std::string rule = first_error(c.diags, &why);
    if (error) *error = fmt::format("the spec does not lower: {} {}", rule, why);
    return std::nullopt;
  }
  return c.config;
}

}  // namespace ucut::search
