// tests/unit/ir/expr_test.cpp — `expr(...)` stages: lowering to a postfix program and canonical text, the program
// names of the canonical JSON, the reference evaluator (ir/epilogue_math.h), and the visitor nodes both backends
// build from it.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>

#include "compiler/pipeline.h"
#include "emit/sm80/evt.h"
#include "emit/sm90/evt.h"
#include "ir/canonical.h"
#include "ir/epilogue_math.h"

namespace ucut {
namespace {

KernelConfig lowered(std::string_view arch, std::string_view chain) {
  std::string text = fmt::format("kernel k : {}\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n  {}\n  >> "
                                 "store(D: bf16[M,N] row)\n",
                                 arch, chain);
  SourceFile src("expr.ucut", text);
  Compilation c = compile_spec(src, StopAfter::check);
  EXPECT_TRUE(c.ok()) << text;
  return c.config ? *c.config : KernelConfig{};
}

const EpiExpr& expr_of(const KernelConfig& cfg) {
  static const EpiExpr none;
  for (const EpiOp& op : cfg.epilogue)
    if (op.expr) return *op.expr;
  ADD_FAILURE() << "no expr stage";
  return none;
}

std::vector<ExprCode> codes(const EpiExpr& e) {
  std::vector<ExprCode> out;
  for (const ExprOp& o : e.postfix) out.push_back(o.code);
  return out;
}

TEST(Expr, LowersToPostfixWithPrecedenceAndCanonicalText) {
  KernelConfig cfg = lowered("sm90a", ">> expr(x * sigmoid(1.702 * x) - -2 / x)");
  const EpiExpr& e = expr_of(cfg);
  using C = ExprCode;
  EXPECT_EQ(codes(e), (std::vector<C>{C::x, C::constant, C::x, C::mul, C::sigmoid, C::mul, C::constant, C::neg, C::x,
                                      C::div, C::sub}));
  EXPECT_EQ(e.text, "((x * sigmoid((1.702 * x))) - ((-2) / x))");
  EXPECT_EQ(e.x_uses, 3);
}

TEST(Expr, CanonicalJsonCarriesTextAndProgramThatReadsBack) {
  KernelConfig cfg = lowered("sm90a", ">> expr(max(x, 0.5) + exp(-x))");
  nlohmann::json stage = canonical_config(cfg)["epilogue"][0];
  EXPECT_EQ(stage["expr"], "(max(x, 0.5) + exp((-x)))");
  std::vector<ExprCode> back;
  for (const auto& step : stage["program"]) back.push_back(*expr_code_of(step[0].get<std::string>()));
  EXPECT_EQ(back, codes(expr_of(cfg)));
  EXPECT_EQ(stage["program"][1][1], 0.5);
}

TEST(Expr, EveryCodeHasAProgramNameThatReadsBack) {
  for (int i = 0; i <= static_cast<int>(ExprCode::min); ++i) {
    ExprCode c = static_cast<ExprCode>(i);
    auto back = expr_code_of(expr_program_name(c));
    ASSERT_TRUE(back) << expr_program_name(c);
    EXPECT_EQ(*back, c) << expr_program_name(c);
  }
}

TEST(Expr, ReferenceEvaluatesThePostfixProgram) {
  KernelConfig cfg = lowered("sm90a", ">> expr(x * sigmoid(1.702 * x) + max(x, -0.5) / 2 - sqrt(abs(x)))");
  const EpiExpr& e = expr_of(cfg);
  for (double x : {-3.0, -0.25, 0.0, 0.7, 4.0}) {
    double want = x / (1 + std::exp(-1.702 * x)) + std::fmax(x, -0.5) / 2 - std::sqrt(std::fabs(x));
    EXPECT_NEAR(ref::expr_eval(e.postfix.data(), static_cast<int>(e.postfix.size()), x), want, 1e-12) << x;
  }
  ExprOp broken[] = {{ExprCode::add, 0}};
  EXPECT_TRUE(std::isnan(ref::expr_eval(broken, 1, 1.0)));
}

TEST(Expr, ReferenceLoadsAFamilyKernelsOperands) {
  // x * sigmoid(beta * x) * value over operands {gate, value, beta}: SwiGLU's program.
  std::vector<ExprOp> program = {{ExprCode::x, 0},    {ExprCode::load, 2},    {ExprCode::x, 0},
                                 {ExprCode::mul, 0},  {ExprCode::sigmoid, 0}, {ExprCode::mul, 0},
                                 {ExprCode::load, 1}, {ExprCode::mul, 0}};
  EXPECT_EQ(expr_text(program, {"gate", "value", "beta"}), "((x * sigmoid((beta * x))) * value)");
  EXPECT_EQ(expr_text(program), "((x * sigmoid((load(2) * x))) * load(1))");
  const double operands[] = {0.5, -3.0, 1.5};
  for (double x : {-2.0, 0.0, 0.7}) {
    double want = x / (1 + std::exp(-1.5 * x)) * -3.0;
    EXPECT_NEAR(ref::expr_eval(program.data(), static_cast<int>(program.size()), x, operands, 3), want,
                1e-12);
  }
  // Without operands, or past them, a load is NaN: the reference never reads what was not passed.
  EXPECT_TRUE(std::isnan(ref::expr_eval(program.data(), static_cast<int>(program.size()), 1.0)));
  EXPECT_TRUE(std::isnan(ref::expr_eval(program.data(), static_cast<int>(program.size()), 1.0, operands, 2)));
}

TEST(Expr, NamesOutsideFamilyKernelsStayErrors) {
  // A GEMM's expression reads x and numbers only: a name is C413, never a load.
  SourceFile src("e.ucut",
                 "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
                 "  >> expr(x * beta)\n  >> store(D: bf16[M,N] row)\n");
  Compilation c = compile_spec(src, StopAfter::lower);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.diags.diagnostics().front().rule, RuleId::C413);
}

TEST(Expr, Sm90NodesComputeEachOperationAndEmbedConstants) {
  EvtTree t = sm90::build_evt(lowered("sm90a", ">> expr(x * sigmoid(2 * x))"));
  std::string all;
  for (const auto& [name, type] : t.aliases) all += name + " = " + type + "\n";
  EXPECT_NE(all.find("Sm90ScalarBroadcast<ElementCompute>"), std::string::npos) << all;
  EXPECT_NE(all.find("Sm90Compute<cutlass::epilogue::thread::Sigmoid, ElementCompute"), std::string::npos) << all;
  // The root multiplies x (the accumulator, used twice) by the sigmoid and produces ElementD.
  EXPECT_NE(all.find("Sm90Compute<cutlass::multiplies, ElementD, ElementCompute, RoundStyle>, Evt0,"), std::string::npos)
      << all;
  EXPECT_NE(t.arguments.find("{{2.0f}}"), std::string::npos) << t.arguments;
  EXPECT_EQ(t.description, "expr((x * sigmoid((2 * x)))) -> D");
}

TEST(Expr, Sm80NodesUseTheSameFunctorsAndStoreD) {
  EvtTree t = sm80::build_evt(lowered("sm80", ">> expr(min(x, 6) - log(x))"));
  std::string all;
  for (const auto& [name, type] : t.aliases) all += type + "\n";
  EXPECT_NE(all.find("VisitorCompute<ucut_min, ElementCompute"), std::string::npos) << all;
  EXPECT_NE(all.find("VisitorCompute<ucut_log, ElementCompute"), std::string::npos) << all;
  EXPECT_NE(all.find("VisitorCompute<cutlass::minus, ElementCompute"), std::string::npos) << all;
  EXPECT_NE(t.aliases.back().second.find("VisitorAuxStore<OutputTileThreadMap, ElementD"), std::string::npos) << all;
}

}  // namespace
}  // namespace ucut
