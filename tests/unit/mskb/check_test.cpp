// mskb/check.h: our bound (MSKB's tolerance plus the output type's rounding), MSKB's own rule, rounding.
#include <gtest/gtest.h>

#include <cmath>

#include "mskb/check.h"

namespace ucut::mskb {
namespace {

TEST(MskbCheck, AbsoluteBoundAddsBf16RoundingButNotForFp32) {
  Tolerance abs{Tolerance::Kind::absolute, 1e-2};
  // A BF16 step at 21 is 0.125: within 1e-2 + 2^-7·21 ≈ 0.174, so a correctly rounded BF16 value passes.
  EXPECT_TRUE(compare_output("C", {21.0625}, {21.0}, abs, CType::bf16).pass);
  EXPECT_FALSE(compare_output("C", {21.0625}, {21.0}, abs, CType::f32).pass);
  EXPECT_TRUE(compare_output("C", {21.005}, {21.0}, abs, CType::f32).pass);
}

TEST(MskbCheck, RelativeBoundScalesWithTheReference) {
  Tolerance rel{Tolerance::Kind::relative, 1e-3};
  EXPECT_TRUE(compare_output("y", {1000.5}, {1000.0}, rel, CType::f32).pass);
  EXPECT_FALSE(compare_output("y", {1002.0}, {1000.0}, rel, CType::f32).pass);
}

TEST(MskbCheck, NanIsWrongAndReportedWithTheWorstElement) {
  Tolerance abs{Tolerance::Kind::absolute, 1e-2};
  OutputResult r = compare_output("C", {1.0, NAN, 3.5}, {1.0, 2.0, 3.0}, abs, CType::f32);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.nonfinite, 1);
  EXPECT_EQ(r.worst_index, 1);  // the NaN is the worst
  EXPECT_DOUBLE_EQ(r.max_abs_err, 0.5);
}

TEST(MskbCheck, SizeMismatchFails) {
  OutputResult r = compare_output("C", {1.0}, {1.0, 2.0}, {}, CType::f32);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.message.find("elements"), std::string::npos);
}

TEST(MskbCheck, IntegersMustBeExact) {
  Tolerance abs{Tolerance::Kind::absolute, 1e-2};
  EXPECT_TRUE(compare_output("i", {3}, {3}, abs, CType::i32).pass);
  EXPECT_TRUE(compare_output("i", {3.005}, {3}, abs, CType::i32).pass);  // within MSKB's own tolerance
  EXPECT_FALSE(compare_output("i", {4}, {3}, abs, CType::i32).pass);
}

TEST(MskbCheck, MskbRuleIsStrictAndAgainstTheNaiveOutput) {
  Tolerance abs{Tolerance::Kind::absolute, 1e-2};
  EXPECT_TRUE(mskb_rule_holds({1.0, 2.0}, {1.005, 2.0}, abs));
  EXPECT_FALSE(mskb_rule_holds({1.0, 2.0}, {1.01, 2.0}, abs));  // MSKB's check is `<`
  EXPECT_FALSE(mskb_rule_holds({1.0}, {1.0, 2.0}, abs));
}

TEST(MskbCheck, RoundsLikeTheCTypes) {
  EXPECT_EQ(round_to(1.0 + std::ldexp(1.0, -9), CType::bf16), 1.0);                     // ties to even
  EXPECT_EQ(round_to(1.0 + 3 * std::ldexp(1.0, -9), CType::bf16), 1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(round_to(0.1, CType::f32), static_cast<double>(0.1f));
  EXPECT_EQ(round_to(-2.7, CType::i32), -2.0);
}

TEST(MskbCheck, RoundInstanceUsesEachParameterType) {
  Signature sig = parse_signature("void f_bf16(const __nv_bfloat16* x, float* loss, const int* t, float a, int n)");
  Instance in;
  in.arrays = {{"x", {0.1}}, {"loss", {0.1}}, {"t", {1.6}}};
  in.scalars = {{"a", 0.1}, {"n", 3.9}};
  round_instance(in, sig, {"x", "loss", "t", "a", "n"});
  EXPECT_EQ(in.arrays["x"][0], round_to(0.1, CType::bf16));
  EXPECT_EQ(in.arrays["loss"][0], static_cast<double>(0.1f));
  EXPECT_EQ(in.arrays["t"][0], 1.0);
  EXPECT_EQ(in.scalars["a"], static_cast<double>(0.1f));
  EXPECT_EQ(in.scalars["n"], 3.0);
}

}  // namespace
}  // namespace ucut::mskb
