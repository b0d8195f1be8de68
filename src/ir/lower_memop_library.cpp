// ir/lower_memop_library.cpp — lowers a library call (ir/memop_library.h): a `sort`'s `order`, a `topk`'s
// `k`, an `fft`'s `direction`, an `attention`'s `scale` and `causal` (C720 for a keyword the call does not take,
// an unknown value or a missing `k`),
// and its stages: only `store(...)`, naming every output (C724 for any other stage). lower_memop.cpp lowers
// the operands and calls this; the shapes and types of the operands are check's
// (check/memop_library_rules.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ir/lower.h"
#include "ir/lower_util.h"

namespace ucut::lowering {

namespace {

/// `order = ...`, `k = SYM`, `direction = ...`: each where its call takes it (C720).
void lower_keywords(const KernelAst& k, MemOpConfig& m, LibrarySpec& l, DiagEngine& diags) {
  const OpKind op = m.op.value;
  const std::vector<std::string_view> keywords = library_keywords(op);
  bool ok = true, has_k = false;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : k.op.args) {
    if (arg.incomplete || arg.kind != Arg::Kind::keyword) continue;
    ok = attempt([&] {
           const std::string& key = arg.key.value;
           if (std::find(keywords.begin(), keywords.end(), key) == keywords.end()) {
             diags.report(
                 RuleId::C720, arg.key.span, fmt::format("`{}` takes no argument `{}`", op_name(op), key),
                 fmt::format("`{}` takes `{}`: `{}`", op_name(op), keywords.front(), library_usage(op)));
             throw LowerError{};
           }
           note_unique(seen, key, arg.key.span, fmt::format("`{}` is given twice", key), diags);
           if (key == "order") {
             l.order = keyword_choice(RuleId::C720, arg, {"ascending", "descending"}, find_sort_order, diags);
           } else if (key == "direction") {
             l.direction = keyword_choice(RuleId::C720, arg, {"forward", "inverse"}, find_fft_direction, diags);
           } else if (key == "causal") {
             l.causal = keyword_choice(RuleId::C720, arg, {"true", "false"}, find_flag, diags);
           } else if (key == "scale") {  // a positive number: the scores' factor
             const std::optional<double> scale = as_number(*arg.value);
             if (!scale || !(*scale > 0) || !std::isfinite(*scale)) {
               diags.report(RuleId::C720, arg.value->span, "`scale` is the scores' factor: a positive number",
                            "write `scale = 0.125`, or leave it out for 1/sqrt(D)");
               throw LowerError{};
             }
             l.scale = {*scale, arg.value->span};
           } else {  // k = SYM: which extent it is, is check's (C722)
             const std::string* sym = as_name(*arg.value);
             if (!sym) {
               diags.report(
                   RuleId::C722, arg.value->span,
                   "`k` names the extent symbol of the outputs that counts the values kept",
                   fmt::format("write `k = k` and declare the outputs `[k]`: `{}`", library_usage(op)));
               throw LowerError{};
             }
             l.k = {*sym, arg.value->span};
             has_k = true;
           }
         }) &&
         ok;
  }
  if (!ok) throw LowerError{};
  if (op == OpKind::topk && !has_k) {
    diags.report(RuleId::C720, k.op.span, "`topk` needs `k`: how many of the largest values it keeps",
                 fmt::format("add `k = k`: `{}`", library_usage(op)));
    throw LowerError{};
  }
}

/// The stages: one `store(...)` of every output (C724 for anything else). A `sort` without one sorts in
/// place.
void lower_outputs(const KernelAst& k, MemOpConfig& m, LibrarySpec& l, DiagEngine& diags) {
  const OpKind op = m.op.value;
  const Call* store = nullptr;
  for (const Call& c : k.stages) {
    if (c.name.value == "store" && !store) {
      store = &c;
      continue;
    }
    diags.report(RuleId::C724, c.span,
                 fmt::format("`{}` is a library call: its results are stored as they are, with no `{}` stage",
                             op_name(op), c.name.value),
                 store ? "store each output once, in one `store(...)`"
                       : fmt::format("remove `{}`; write `{}`", c.name.value, library_usage(op)));
    throw LowerError{};
  }
  EpiOp stage;
  stage.kind = EpiKind::store;
  if (!store) {
    if (op != OpKind::sort) {
      Span end{k.op.span.end, k.op.span.end, false};
      Diagnostic& d = diags.report(RuleId::L014, k.op.span, "the kernel never stores its result",
                                   fmt::format("write `{}`", library_usage(op)));
      const std::string_view call = library_usage(op);
      d.hint->edit = Edit{end, std::string(call.substr(call.find(" >> ")))};
      d.hint->applicability = Applicability::has_placeholders;
      throw LowerError{};
    }
    l.in_place = true;
    l.outputs = {m.input()};
    stage.span = Span::implied_at(k.op.span);
  } else {
    for (const Arg& arg : store->args) {
      if (arg.kind != Arg::Kind::declaration || !as_tensor(*arg.value)) {
        diags.report(RuleId::C721, arg.span, "`store` of a library call declares its output tensors",
                     fmt::format("write `{}`", library_usage(op)));
        throw LowerError{};
      }
      l.outputs.push_back(lower_tensor(arg, diags));
    }
    if (l.outputs.empty()) {
      diags.report(RuleId::C721, store->span, "`store` names no output tensor",
                   fmt::format("write `{}`", library_usage(op)));
      throw LowerError{};
    }
    stage.span = store->span;
  }
  stage.tensor = l.outputs.front();
  m.chain = {stage};
}

}  // namespace

void lower_library(const KernelAst& k, MemOpConfig& m, DiagEngine& diags) {
  LibrarySpec l;
  l.order = {SortOrder::ascending, Span::implied_at(k.op.span)};
  l.direction = {FftDirection::forward, Span::implied_at(k.op.span)};
  l.scale = {0.0, Span::implied_at(k.op.span)};
  l.causal = {false, Span::implied_at(k.op.span)};
  l.k.span = Span::implied_at(k.op.span);
  bool keywords_ok = attempt([&] { lower_keywords(k, m, l, diags); });
  if (!attempt([&] { lower_outputs(k, m, l, diags); }) || !keywords_ok) throw LowerError{};
  m.library = std::move(l);
}

std::string library_hint(OpKind op) {
  return fmt::format("`{}` takes its input tensors and `{}`: `{}`", op_name(op), library_keywords(op).front(),
                     library_usage(op));
}

}  // namespace ucut::lowering
