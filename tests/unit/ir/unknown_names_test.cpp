// tests/unit/ir/unknown_names_test.cpp — every kind of unknown name in a spec gets the nearest known names as
// "did you mean" (support/suggest.h: case ignored, an adjacent swap one edit), and the full list only when none is
// near: architectures, operators, element types, operand modifiers, arguments, math modes, configuration calls,
// schedules, raster orders, tile schedulers, epilogue stages, expression functions and names, activation parameters,
// keyword arguments, `true`/`false`, pipeline links and the `kernel` keyword.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "compiler/pipeline.h"

namespace ucut {
namespace {

struct Case {
  const char* kind;
  std::string spec;
  RuleId rule;
  const char* hint;  // the hint, exactly
};

/// A GEMM kernel with A's type `a`, the arguments `args` after B, and `rest` (configuration calls and stages)
/// before its store; `op` and `arch` for the header and the operator.
std::string kernel(std::string a = "bf16[M,K] row", std::string args = "acc: f32", std::string rest = "",
                   std::string op = "gemm", std::string arch = "sm90a") {
  return fmt::format("kernel k : {}\n  {}(A: {}, B: bf16[K,N] col, {})\n{}  >> store(D: bf16[M,N] row)\n", arch, op,
                     a, args, rest);
}

std::string with_config(const std::string& call) { return kernel("bf16[M,K] row", "acc: f32", "    ." + call + "\n"); }
std::string with_stage(const std::string& call) { return kernel("bf16[M,K] row", "acc: f32", "  >> " + call + "\n"); }

std::vector<Case> cases() {
  return {
      {"architecture", kernel("bf16[M,K] row", "acc: f32", "", "gemm", "sm09a"), RuleId::L001, "did you mean `sm90a`?"},
      {"operator", kernel("bf16[M,K] row", "acc: f32", "", "gemn"), RuleId::L002, "did you mean `gemm`?"},
      {"operator, case", kernel("bf16[M,K] row", "acc: f32", "", "GEMM"), RuleId::L002, "did you mean `gemm`?"},
      {"element type", kernel("bf17[M,K] row"), RuleId::L003, "did you mean `bf16`?"},
      {"operand modifier", kernel("bf16[M,K] rwo"), RuleId::L004, "did you mean `row`?"},
      {"argument", kernel("bf16[M,K] row", "acx: f32"), RuleId::L007, "did you mean `acc`?"},
      {"math mode", kernel("bf16[M,K] row", "math = tf23"), RuleId::L009, "did you mean `tf32`?"},
      {"configuration call", with_config("with_threadblokshape(128, 128, 64)"), RuleId::L010,
       "did you mean `with_threadblockshape`?"},
      {"kernel schedule", with_config("with_scheduler(tma_cooprative)"), RuleId::L011,
       "did you mean `tma_cooperative`?"},
      {"epilogue schedule", with_config("with_scheduler(tma_cooperative, epilogue = nosmme)"), RuleId::L011,
       "did you mean `nosmem`?"},
      {"raster order", with_config("with_raster(alnog_n)"), RuleId::L011, "did you mean `along_n`?"},
      {"tile scheduler", with_config("with_tile_scheduler(stream_kk)"), RuleId::L011, "did you mean `stream_k`?"},
      {"scheduler keyword", with_config("with_scheduler(tma_cooperative, epilogu = tma)"), RuleId::L007,
       "did you mean `epilogue`? write `with_scheduler(tma_cooperative, epilogue = tma_cooperative)`"},
      {"raster keyword", with_config("with_raster(along_n, swizle = 2)"), RuleId::L007,
       "did you mean `swizzle`? write `with_raster(along_n, swizzle = 2)`"},
      {"true or false", with_config("with_fp8_fast_accum(ture)"), RuleId::L009, "did you mean `true`?"},
      {"epilogue stage", with_stage("bais(col)"), RuleId::L012, "did you mean `bias`?"},
      {"epilogue stages as near", with_stage("selu"), RuleId::L012, "did you mean `relu`, `gelu` or `silu`?"},
      {"activation parameter", with_stage("leaky_relu(alhpa = 0.2)"), RuleId::C402,
       "did you mean `alpha`? write `leaky_relu(alpha = 0.01)`"},
      {"residual parameter", with_stage("residual(C: bf16[M,N] row, bta = 0.5)"), RuleId::C402,
       "did you mean `beta`? write `residual(C: bf16[M,N] row, beta = 1.0)`"},
      {"expression function", with_stage("expr(x * sigmod(x))"), RuleId::C413, "did you mean `sigmoid`?"},
      {"expression name", with_stage("expr(X * 2)"), RuleId::C413, "did you mean `x`?"},
      {"pipeline link",
       "pipeline p : sm90a\n  stage up = gemm(A: bf16[M,K] row, B: bf16[K,N] col) >> store(H: bf16[M,N] row)\n"
       "  stage down = gemm(A: HH, B: bf16[N,N2] col) >> store(D: bf16[M,N2] row)\n",
       RuleId::L018, "did you mean `H`?"},
      {"keyword", "kernal k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n  >> store(D: bf16[M,N] row)\n",
       RuleId::P004, "did you mean `kernel`?"},
  };
}

TEST(UnknownNames, EveryKindGetsTheNearestKnownName) {
  for (const Case& c : cases()) {
    Compilation comp = compile_spec(SourceFile("u.ucut", c.spec), StopAfter::check);
    const Diagnostic* found = nullptr;
    std::string got;
    for (const Diagnostic& d : comp.diags.diagnostics()) {
      got += fmt::format("\n  {}: {} (hint: {})", rule_info(d.rule).code, d.message, d.hint ? d.hint->text : "none");
      if (d.rule == c.rule && !found) found = &d;
    }
    ASSERT_NE(found, nullptr) << c.kind << ": no " << rule_info(c.rule).code << "; got:" << got << "\n" << c.spec;
    ASSERT_TRUE(found->hint.has_value()) << c.kind;
    EXPECT_EQ(found->hint->text, c.hint) << c.kind << ":" << got;
  }
}

TEST(UnknownNames, TheFullListOnlyWhenNothingIsNear) {
  Compilation c = compile_spec(SourceFile("u.ucut", with_stage("zzzzzz")), StopAfter::check);
  ASSERT_EQ(c.diags.diagnostics().size(), 1u);
  const Diagnostic& d = c.diags.diagnostics()[0];
  EXPECT_EQ(d.rule, RuleId::L012);
  ASSERT_TRUE(d.hint.has_value());
  EXPECT_EQ(d.hint->text.rfind("known epilogue stages: `scale`, ", 0), 0u) << d.hint->text;
  EXPECT_NE(d.hint->text.find("`bias`"), std::string::npos) << d.hint->text;
  EXPECT_FALSE(d.hint->edit.has_value());
}

TEST(UnknownNames, ASpellingGuessIsAnEditToCheckFirst) {
  Compilation c = compile_spec(SourceFile("u.ucut", with_stage("bais(col)")), StopAfter::check);
  ASSERT_EQ(c.diags.diagnostics().size(), 1u);
  const Diagnostic& d = c.diags.diagnostics()[0];
  ASSERT_TRUE(d.hint && d.hint->edit);
  EXPECT_EQ(d.hint->edit->replacement, "bias");
  EXPECT_EQ(d.hint->applicability, Applicability::maybe_incorrect);
}

}  // namespace
}  // namespace ucut
