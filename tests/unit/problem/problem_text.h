// tests/unit/problem/problem_text.h — problem files given as text in tests: read as problem/read.h reads a file
// named `name`, the diagnostics rendered as `ucutlass` prints them (so a test can look for a message, a rule id or a
// place). Header-only because the unit-test target globs only *_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "check/shape_rules.h"
#include "compiler/pipeline.h"
#include "eval/protocol.h"
#include "ir/canonical.h"
#include "problem/read.h"
#include "support/diag_render.h"

namespace ucut {

inline std::optional<Problem> parse_problem(const std::string& text, const std::string& name, std::string* error) {
  SourceFile src(name, text);
  DiagEngine diags;
  auto p = read_problem(src, diags);
  if (!p && error) *error = render_text(src, diags.diagnostics());
  return p;
}

/// The rendered error of a problem file `name` that must be refused; the message starts with the file's name.
inline std::string problem_error(const std::string& text, const std::string& name = "p.toml") {
  std::string err;
  auto p = parse_problem(text, name, &err);
  EXPECT_FALSE(p) << "accepted:\n" << text;
  EXPECT_EQ(err.rfind(name, 0), 0u) << err;
  return err;
}

/// The kernel configuration of a spec that must lower.
inline KernelConfig lowered_config(const std::string& spec) {
  SourceFile src("k.ucut", spec);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.config) << spec;
  return c.config ? *c.config : KernelConfig{};
}

/// The reference semantics written back as spec text from the IR, to check what a problem declares: the operator
/// with its operands' extents (`gemm(A: bf16[M,K] row, B: bf16[K,N] col)`), then each stage (`>> bias(col)`,
/// `>> row_max(R: f32[M])`, `>> store(D: bf16[M,N] row)`).
inline std::string semantics_text(const Problem& p) {
  const KernelConfig& k = p.semantics;
  auto decl = [&](const TensorDecl& t) {
    std::string dims;
    for (const Extent& e : t.dims) dims += (dims.empty() ? "" : ",") + (e.fixed() ? std::to_string(e.size) : e.symbol);
    std::string text = t.name.value + ": " + std::string(dtype_name(t.dtype.value)) + "[" + dims + "]";
    if (!k.conv() && t.dims.size() >= 2) text += " " + std::string(layout_name(t.layout.value));
    return text;
  };
  std::string out = std::string(op_name(k.op.value)) + "(" + decl(k.a) + ", " + decl(k.b) + ")";
  for (const EpiOp& op : k.epilogue) {
    std::string name(epi_info(op.kind).name);
    if (op.tensor) name += "(" + decl(*op.tensor) + ")";
    else if (epi_info(op.kind).category == EpiCategory::vector) name += op.axis.value == Axis::col ? "(col)" : "(row)";
    out += " >> " + name;
  }
  return out;
}

/// A problem's meaning as the harness receives it: the reference semantics, shapes, tolerance, reference and input
/// draws (what two reads of the same problem must agree on).
inline nlohmann::json meaning(const Problem& p) {
  return {{"semantics", canonical_config(p.semantics)},
          {"shapes", p.shapes},
          {"tolerance", {p.tolerance.atol, p.tolerance.rtol, p.tolerance_given}},
          {"inputs", p.framework_inputs.text()},
          {"reference", enum_name(p.reference)}};
}

/// The first shape rule `kernel` breaks on `shape` as `ucutlass run` words it: the rule's message, then its hint;
/// nullopt when it runs.
template <class Kernel>
std::optional<std::string> violation_text(const Kernel& kernel, const GemmShape& shape) {
  auto d = shape_violation(kernel, shape);
  if (!d) return std::nullopt;
  return d->message + "; " + (d->hint ? d->hint->text : "");
}

}  // namespace ucut
