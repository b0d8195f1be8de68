// tests/unit/suite/lower_chain_test.cpp — the epilogue chain of a lowered suite problem
// (suite/lower_chain.h): the KernelBench chains its rewrites lower (a saved value read back, folded into one
// `expr`; an added input as the residual C; a subtracted parameter as a negated `bias`; a matmul by a
// parameter), each pinned by its chain text and by its value: the harness's reference chain as the worker
// reads it (eval/worker/problem_desc.h, ir/epilogue_math.h) against the suite's op sequence interpreted here
// with PyTorch's formulas, on a few numbers. Then every reason a chain still does not lower.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "dsl/ast_print.h"
#include "eval/worker/problem_desc.h"
#include "ir/canonical.h"
#include "ir/epilogue_math.h"
#include "problem/print.h"
#include "suite/lower.h"
#include "suite_text.h"

namespace ucut::suite {
namespace {

using test::checked;
using test::checked_file;

Lowered lowered(const Checked& c) {
  auto l = lower_with_sources(c);
  if (const auto* why = std::get_if<std::string>(&l))
    ADD_FAILURE() << c.problem.path << " does not lower: " << *why;
  return std::holds_alternative<Lowered>(l) ? std::get<Lowered>(std::move(l)) : Lowered{};
}

/// What the single-kernel lowering says of a pipeline problem.
const std::string kPipelineProblem =
    "its chain goes on past what an epilogue computes (a reduction, a norm, a softmax, a pooling, another GEMM or "
    "convolution, or a read-back folded through a tensor): a pipeline problem (suite/lower_pipeline.h), not one "
    "kernel's";

std::string why_not(const Checked& c) {
  auto l = lower_with_sources(c);
  EXPECT_TRUE(std::holds_alternative<std::string>(l)) << print_problem(std::get<Lowered>(l).problem);
  return std::holds_alternative<std::string>(l) ? std::get<std::string>(l) : "";
}

std::string chain_text(const Lowered& l) {
  return l.problem.syntax ? print_chain(l.problem.syntax->epilogue) : "";
}

/// One output element's numbers: the main op's product (before its own bias) and the value of every tensor
/// the chain reads there, each distinct and of either sign.
struct Element {
  double acc;
  double layer_bias = 0.25;
  double param(size_t op) const { return 0.75 - 0.5 * static_cast<double>(op); }
  double input(size_t i) const { return -0.6 + 1.1 * static_cast<double>(i); }
};

const double kProducts[] = {-5.0, -3.0, -2.75, -1.0, -0.3, 0.0, 0.4, 1.5, 3.0, 3.2, 7.0};

/// What PyTorch computes for `c`'s chain at element `e`: each op by torch's own formula, in double.
double suite_value(const Checked& c, const Element& e) {
  const Problem& p = c.problem;
  std::map<std::string, double> named;
  for (size_t i = 0; i < p.inputs.size(); ++i) named[p.inputs[i].name] = e.input(i);
  const Op& main = p.ops.front();
  double v =
      e.acc + (op_form(main.kind) != OpForm::matmul && main.flag_or("bias", true) ? e.layer_bias : 0.0);
  if (main.save) named[*main.save] = v;
  for (size_t i = 1; i < p.ops.size(); ++i) {
    const Op& op = p.ops[i];
    const Attr* other = op.get("other");
    double y = other ? named.at(*other->text) : op.get("param") ? e.param(i) : op.number_or("scalar", 0);
    switch (op.kind) {
      case OpKind::add:
        v = v + y;
        break;
      case OpKind::sub:
        v = v - y;
        break;
      case OpKind::mul:
        v = v * y;
        break;
      case OpKind::div:
        v = v / y;
        break;
      case OpKind::relu:
        v = v > 0 ? v : 0.0;
        break;
      case OpKind::sigmoid:
        v = 1.0 / (1.0 + std::exp(-v));
        break;
      case OpKind::tanh:
        v = std::tanh(v);
        break;
      case OpKind::hardswish:
        v = v * std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0;
        break;  // x * relu6(x + 3) / 6
      case OpKind::clamp:
        v = std::min(std::max(v, op.number_or("min", -INFINITY)), op.number_or("max", INFINITY));
        break;
      case OpKind::leaky_relu:
        v = v > 0 ? v : op.number_or("negative_slope", 0.01) * v;
        break;
      default:
        ADD_FAILURE() << "no test formula for `" << op_name(op.kind) << "`";
    }
    if (op.save) named[*op.save] = v;
  }
  return v;
}

/// What the harness's reference computes for lowered problem `l` at element `e`: its chain as the worker
/// reads it from the canonical config, each stage by ir/epilogue_math.h, each vector and C being the tensor
/// its source names.
double reference_value(const Lowered& l, const Element& e) {
  worker::ProblemDesc d = worker::parse_problem_desc(canonical_config(l.problem.semantics));
  double x = e.acc;
  for (int i = 0; i < d.chain.count; ++i) {
    const worker::RefStage& s = d.chain.stages[i];
    auto tensor = [&]() -> double {
      const StageSource& src = l.sources.at(static_cast<size_t>(i));
      switch (src.kind) {
        case StageSource::Kind::layer_bias:
          return e.layer_bias;
        case StageSource::Kind::param:
          return e.param(src.index);
        case StageSource::Kind::negated_param:
          return -e.param(src.index);
        case StageSource::Kind::input:
          return e.input(src.index);
        case StageSource::Kind::none:
          break;
      }
      ADD_FAILURE() << "stage " << i << " reads a tensor but its source is none";
      return NAN;
    };
    switch (s.kind) {
      case EpiKind::scale:
        x *= d.scalars.at(static_cast<size_t>(s.slot));
        break;
      case EpiKind::residual:
        x += d.scalars.at(static_cast<size_t>(s.slot)) * tensor();
        break;
      case EpiKind::bias:
        x += tensor();
        break;
      case EpiKind::channel_scale:
        x *= tensor();
        break;
      case EpiKind::store:
        break;
      case EpiKind::expr:
        x = ref::expr_eval(d.chain.program + s.expr_begin, s.expr_len, x);
        break;
      default:
        x = ref::activation(s.kind, x, s.p0, s.p1);
        break;
    }
  }
  return x;
}

/// The lowered problem computes the suite's chain at every test product.
void expect_same_values(const Checked& c, const Lowered& l) {
  for (double acc : kProducts) {
    Element e{acc};
    double want = suite_value(c, e);
    EXPECT_NEAR(reference_value(l, e), want, 1e-12 * std::max(1.0, std::fabs(want)))
        << c.problem.path << " at " << acc << ": " << chain_text(l);
  }
}

/// A chain on x [64, 32]: `inputs` (more [[input]] tables), then `linear` to 48 features and `rest` (its
/// keys, then more ops).
std::string linear(const std::string& inputs, const std::string& rest) {
  return "[[input]]\nname = \"x\"\nshape = [64, 32]\n" + inputs +
         "[[op]]\nop = \"linear\"\nout_features = 48\n" + rest;
}

TEST(LowerChain, SavedValueReadBackFoldsIntoOneExpr) {
  struct Want {
    const char* file;
    ucut::OpKind op;
    const char* chain;
  };
  for (const Want& w : {
           Want{"suites/kernelbench/level2/L2_040_matmul_scaling_residualadd.toml", ucut::OpKind::gemm,
                "bias(col) >> expr(x * 0.5 + x)"},
           Want{"suites/kernelbench/level2/L2_070_gemm_sigmoid_scaling_residualadd.toml", ucut::OpKind::gemm,
                "bias(col) >> expr(sigmoid(x) * 2 + x)"},
           Want{"suites/kernelbench/level2/L2_057_conv2d_relu_hardswish.toml", ucut::OpKind::conv2d,
                "bias(col) >> relu >> expr(min(max((x + 3) / 6, 0), 1) * x)"},
       }) {
    SCOPED_TRACE(w.file);
    Checked c = checked_file(w.file);
    Lowered l = lowered(c);
    EXPECT_EQ(l.problem.semantics.op.value, w.op);
    EXPECT_EQ(chain_text(l), w.chain);
    expect_same_values(c, l);
  }
}

TEST(LowerChain, AddedInputIsTheResidualC) {
  Checked c = checked_file("suites/kernelbench/level2/L2_026_convtranspose3d_add_hardswish.toml");
  Lowered l = lowered(c);
  EXPECT_EQ(l.problem.semantics.op.value, ucut::OpKind::conv_transpose3d);
  EXPECT_EQ(chain_text(l),
            "bias(col) >> residual(C: f32[N,Z,P,Q,K]) >> expr(x * min(max(x + 3, 0), 6) / 6 * x)");
  ASSERT_EQ(l.sources.size(), 3u);
  EXPECT_EQ(l.sources[1].kind, StageSource::Kind::input);
  EXPECT_EQ(l.sources[1].index, 1u);  // add_input
  EXPECT_EQ(l.problem.framework_inputs.text(), "a=rand b=param c=rand vectors=param");
  EXPECT_NE(l.problem.syntax->provenance.find("Op 2 adds input `add_input`: it is the residual C"),
            std::string::npos)
      << l.problem.syntax->provenance;
  expect_same_values(c, l);
}

TEST(LowerChain, SubtractedParameterIsANegatedBias) {
  Checked c = checked_file("suites/kernelbench/level2/L2_005_convtranspose2d_subtract_tanh.toml");
  Lowered l = lowered(c);
  EXPECT_EQ(l.problem.semantics.op.value, ucut::OpKind::conv_transpose2d);
  EXPECT_EQ(chain_text(l), "bias(col) >> bias(col) >> tanh");
  ASSERT_EQ(l.sources.size(), 3u);
  EXPECT_EQ(l.sources[0].kind, StageSource::Kind::layer_bias);
  EXPECT_EQ(l.sources[1].kind, StageSource::Kind::negated_param);
  EXPECT_EQ(l.sources[1].index, 1u);
  EXPECT_NE(l.problem.syntax->provenance.find("its `bias(col)` vector is v = -c"), std::string::npos)
      << l.problem.syntax->provenance;
  expect_same_values(c, l);
  // L2_051's subtraction lowers the same way; its row mean makes it a pipeline problem.
  EXPECT_EQ(why_not(checked_file("suites/kernelbench/level2/"
                                 "L2_051_gemm_subtract_globalavgpool_logsumexp_gelu_residualadd.toml")),
            kPipelineProblem);
}

TEST(LowerChain, OverlappingSavesShareOneExprAndAdjacentOnesDoNot) {
  Checked merged = checked(
      linear("",
             "save = \"a\"\n[[op]]\nop = \"relu\"\nsave = \"b\"\n[[op]]\nop = \"add\"\nother = \"a\"\n"
             "[[op]]\nop = \"mul\"\nother = \"b\"\n"));
  Lowered m = lowered(merged);
  EXPECT_EQ(chain_text(m), "bias(col) >> expr((relu(x) + x) * relu(x))");
  expect_same_values(merged, m);
  // The second span starts where the first ends: its x is the first `expr`'s value.
  Checked apart =
      checked(linear("",
                     "save = \"a\"\n[[op]]\nop = \"mul\"\nscalar = 2.0\n[[op]]\nop = \"add\"\nother = \"a\"\n"
                     "save = \"b\"\n[[op]]\nop = \"leaky_relu\"\nnegative_slope = 0.2\n[[op]]\nop = \"sub\"\n"
                     "other = \"b\"\n"));
  Lowered a = lowered(apart);
  EXPECT_EQ(chain_text(a), "bias(col) >> expr(x * 2 + x) >> expr(max(x, 0) + 0.2 * min(x, 0) - x)");
  expect_same_values(apart, a);
}

TEST(LowerChain, MatmulByAParameterReadsItAsB) {
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [64, 32]\n[[op]]\nop = \"matmul\"\nparam = [48, 32]\ntranspose_other "
      "= true\n"
      "[[op]]\nop = \"clamp\"\nmin = -1.0\nmax = 1.0\n");
  Lowered l = lowered(c);
  const std::string toml = print_problem(l.problem);
  EXPECT_NE(toml.find("a = \"f32 row\"\nb = \"f32 col\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("m = 64, n = 48, k = 32"), std::string::npos) << toml;
  EXPECT_NE(toml.find("epilogue = \"clamp(-1, 1)\""), std::string::npos) << toml;
  EXPECT_EQ(l.problem.framework_inputs.text(),
            "a=rand b=randn c=rand vectors=param");  // the parameter is randn
  // L2_014 gets its B the same way; its row sum makes it a pipeline problem (suite/lower_pipeline.h).
  EXPECT_EQ(why_not(checked_file("suites/kernelbench/level2/L2_014_gemm_divide_sum_scaling.toml")),
            kPipelineProblem);
}

TEST(LowerChain, SaysWhyAChainStillDoesNotLower) {
  // A read-back folded through a parameter (L2_020) or an input is a pipeline's: a map stage after the kernel folds
  // it (tests/unit/suite/lower_pipeline_test.cpp).
  EXPECT_EQ(why_not(checked_file("suites/kernelbench/level2/"
                                 "L2_020_convtranspose3d_sum_residualadd_multiply_residualadd.toml")),
            kPipelineProblem);
  const std::string y48 = "[[input]]\nname = \"y\"\nshape = [64, 48]\n";
  struct Case {
    std::string body, why;
  };
  for (const Case& k : {
           Case{linear("", "save = \"h\"\n[[op]]\nop = \"softplus\"\nbeta = 2.0\n[[op]]\nop = \"add\"\nother = \"h\"\n"),
                "op 2 (softplus): `softplus` with other than PyTorch's beta 1 and threshold 20 has no exact form in "
                "`expr(...)`'s functions, but it lies between `h` (saved after op 1) and op 3, which reads it back: "
                "ops 2-3 fold into one `expr(...)`"},
           Case{linear(y48,
                       "save = \"h\"\n[[op]]\nop = \"add\"\nother = \"y\"\n[[op]]\nop = \"add\"\nother = "
                       "\"h\"\n"),
                kPipelineProblem},
           Case{linear("",
                       "save = \"h\"\n[[op]]\nop = \"hardswish\"\n[[op]]\nop = \"hardswish\"\n"
                       "[[op]]\nop = \"hardswish\"\n[[op]]\nop = \"add\"\nother = \"h\"\n"),
                "op 5 (add): ops 2-5 fold into one `expr(...)` (op 5 reads back `h`, saved after op 1), and "
                "it would "
                "hold 73 operations nesting 5 deep; at most 32 operations nesting 16 deep fit in one"},
           Case{linear(y48, "[[op]]\nop = \"mul\"\nother = \"y\"\n"),
                "op 2 (mul): `mul` of input `y`: an epilogue reads a tensor of the output's shape only to "
                "add it "
                "(`residual`)"},
           Case{linear("[[input]]\nname = \"y\"\nshape = [48]\n", "[[op]]\nop = \"add\"\nother = \"y\"\n"),
                "op 2 (add): `add` of input `y` of shape [48] to a value of shape [64, 48]: `residual` adds "
                "a tensor "
                "of the output's shape"},
           Case{"[[input]]\nname = \"x\"\nshape = [64, 48]\n[[op]]\nop = \"linear\"\nout_features = "
                "48\n[[op]]\n"
                "op = \"add\"\nother = \"x\"\n",
                "op 2 (add): `add` of input `x`, which `linear` also reads: the harness draws the residual C "
                "apart "
                "from the main op's operands"},
           Case{linear(y48 + "[[input]]\nname = \"z\"\nshape = [64, 48]\n",
                       "[[op]]\nop = \"add\"\nother = \"y\"\n[[op]]\nop = \"add\"\nother = \"z\"\n"),
                "op 3 (add): `add` of input `z`: a kernel adds one residual tensor C, and it is already "
                "input `y`"},
           Case{linear("", "[[op]]\nop = \"sub\"\nparam = [64, 48]\n"),
                "op 2 (sub): `sub` with a parameter of shape [64, 48]: epilogues add, subtract or multiply "
                "per-channel vectors only"},
       }) {
    EXPECT_EQ(why_not(checked(k.body)), k.why) << k.body;
  }
}

// The fold counts an `expr`'s operations as the DSL's lowering does (C414): 32 lower, 33 are refused.
TEST(LowerChain, FoldsUpToTheExprLimit) {
  auto chain = [](int adds, const char* last) {
    std::string ops = "save = \"h\"\n";
    for (int i = 0; i < adds; ++i) ops += "[[op]]\nop = \"add\"\nscalar = 1.0\n";
    return linear("", ops + last + "[[op]]\nop = \"add\"\nother = \"h\"\n");
  };
  Checked fits =
      checked(chain(14, "[[op]]\nop = \"relu\"\n"));  // x, 14 times `+ 1`, relu, `+ x`: 32 operations
  Lowered l = lowered(fits);
  EXPECT_EQ(l.problem.semantics.epilogue[1].expr->postfix.size(), 32u);
  expect_same_values(fits, l);
  EXPECT_EQ(why_not(checked(chain(15, ""))),  // x, 15 times `+ 1`, `+ x`
            "op 17 (add): ops 2-17 fold into one `expr(...)` (op 17 reads back `h`, saved after op 1), and "
            "it would "
            "hold 33 operations nesting 2 deep; at most 32 operations nesting 16 deep fit in one");
}

}  // namespace
}  // namespace ucut::suite
