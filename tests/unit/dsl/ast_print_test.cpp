// tests/unit/dsl/ast_print_test.cpp — dsl/ast_print.h prints what the parser read so that it reads back to the same
// tree (chains, operand types, expressions with the parentheses precedence needs), and dsl/ast_build.h makes the
// trees the parser makes for the text it prints; the parser's fragments (dsl/parser.h) keep spans in the whole file.
#include "dsl/ast_print.h"

#include <gtest/gtest.h>

#include "dsl/ast_build.h"
#include "dsl/parser.h"

namespace ucut {
namespace {

/// The chain in `text`, parsed as a fragment of the whole text.
std::vector<Call> chain(const std::string& text) {
  SourceFile src("c", text);
  DiagEngine diags;
  auto c = parse_chain(src, Span{0, static_cast<uint32_t>(text.size())}, diags);
  EXPECT_TRUE(c) << text;
  return c ? std::move(*c) : std::vector<Call>{};
}

TEST(AstPrint, ChainsReadBackToTheSameText) {
  for (const char* text :
       {"", "relu", "bias(col) >> gelu_tanh", "scale(alpha = 0.5) >> leaky_relu(0.1) >> hardtanh(-1, 1)",
        "expr(min(max(x / 6 + 0.5, 0), 1))", "expr(x - (1 - x))", "expr(x / (2 * x))", "expr(-(x + 1) * 2)",
        "expr(1.0507009873554805 * (max(x, 0) + min(0, 1.6732632423543772 * (exp(x) - 1))))",
        "row_max(R: f32[M]) >> residual(C: bf16[M,N] row align(4))", "expr(x + -0.5) >> scale(1e-05)"}) {
    std::string printed = print_chain(chain(text));
    EXPECT_EQ(printed, text);
    EXPECT_EQ(print_chain(chain(printed)), printed);
  }
}

TEST(AstPrint, ParenthesesFollowTheTreeNotTheSpelling) {
  EXPECT_EQ(print_chain(chain("expr(((x)) + (2 * 3))")), "expr(x + 2 * 3)");
  EXPECT_EQ(print_chain(chain("expr((x + 1) + 2)")), "expr(x + 1 + 2)");
  EXPECT_EQ(print_chain(chain("expr(x + (1 + 2))")), "expr(x + (1 + 2))");  // another tree, another sum in floats
}

TEST(AstPrint, TuplesReadBackAndCloneWhole) {
  // A tuple is a value of its own (a rownorm's `over = (H, W)`); a chain stage may hold one, which lowering refuses.
  std::vector<Call> c = chain("scale((H, W, 2 * x))");
  EXPECT_EQ(print_chain(c), "scale((H, W, 2 * x))");
  ASSERT_EQ(c[0].args.size(), 1u);
  ExprPtr copy = clone_expr(*c[0].args[0].value);
  const auto* tuple = std::get_if<Tuple>(&copy->node);
  ASSERT_NE(tuple, nullptr);
  ASSERT_EQ(tuple->items.size(), 3u);
  EXPECT_EQ(print_expr(*tuple->items[2]), "2 * x");
  EXPECT_EQ(copy->span.begin, c[0].args[0].value->span.begin);
}

TEST(AstPrint, BuiltTreesPrintAsTheirText) {
  Span at{};
  std::vector<ExprPtr> args;
  args.push_back(binary_expr('+', name_expr("x", at), number_expr(-0.5, at)));
  EXPECT_EQ(print_call(call_of("expr", std::move(args), at)), "expr(x + -0.5)");
  std::vector<ExprPtr> scale;
  scale.push_back(number_expr(2.0, at));
  Call c = call_of("scale", std::move(scale), at);
  EXPECT_EQ(print_call(c), "scale(2)");
  // The parser reads `2` as an integer literal: the built literal is one too.
  const auto& lit = std::get<NumberLit>(c.args[0].value->node);
  EXPECT_TRUE(lit.is_integer);
  EXPECT_EQ(lit.int_value, 2);
  EXPECT_EQ(print_call(bare_call("relu", at)), "relu");
}

TEST(AstPrint, OperandTypesPrintTheirModifiers) {
  std::string text = "a = \"f8e4m3 row align(16) scaled\"";
  SourceFile src("p.toml", text);
  DiagEngine diags;
  auto t = parse_operand_type(src, Span{5, static_cast<uint32_t>(text.size() - 1)}, diags);
  ASSERT_TRUE(t) << diags.diagnostics().size();
  EXPECT_EQ(print_tensor_type(*t), "f8e4m3 row align(16) scaled");
  EXPECT_EQ(t->dtype.span.begin, 5u);  // spans are the whole file's
}

TEST(ParseFragment, ErrorsPointIntoTheWholeFile) {
  std::string text = "epilogue = \"relu >> >> gelu\"";
  SourceFile src("p.toml", text);
  DiagEngine diags;
  EXPECT_FALSE(parse_chain(src, Span{12, static_cast<uint32_t>(text.size() - 1)}, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].rule, RuleId::P003);
  EXPECT_EQ(src.line_col(diags.diagnostics()[0].primary.begin), std::make_pair(1, 21));
  // An operand type takes no extents and nothing after its modifiers.
  DiagEngine more;
  std::string op = "bf16 row, col";
  EXPECT_FALSE(parse_operand_type(SourceFile("o", op), Span{0, static_cast<uint32_t>(op.size())}, more));
  EXPECT_EQ(more.diagnostics().at(0).rule, RuleId::P003);
}

}  // namespace
}  // namespace ucut
