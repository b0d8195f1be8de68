#include <gtest/gtest.h>

#include "mskb/signature.h"

namespace ucut::mskb {
namespace {

TEST(Signature, ParsesPointersScalarsConstAndDefaults) {
  Signature s = parse_signature("void elu( float* output, const float* input, const int N, float alpha = 1.0)");
  EXPECT_EQ(s.name, "elu");
  ASSERT_EQ(s.params.size(), 4u);
  EXPECT_TRUE(s.params[0].pointer);
  EXPECT_FALSE(s.params[0].is_const);
  EXPECT_TRUE(s.params[1].is_const);
  EXPECT_EQ(s.params[2].type, CType::i32);
  EXPECT_FALSE(s.params[2].pointer);
  EXPECT_EQ(s.params[3].default_value, "1.0");
  EXPECT_EQ(s.declaration("elu_optimized"),
            "void elu_optimized(float* output, const float* input, const int N, float alpha)");
}

TEST(Signature, ReadsBf16AndInt32AndSpacedPointers) {
  Signature s = parse_signature("void silu_and_mul_bf16( const __nv_bfloat16* in, __nv_bfloat16 *out, int32_t B, int32_t D)");
  EXPECT_EQ(s.params[0].type, CType::bf16);
  EXPECT_TRUE(s.params[1].pointer);
  EXPECT_EQ(s.params[1].name, "out");
  EXPECT_EQ(s.params[2].type, CType::i32);
}

TEST(Signature, RejectsWhatItCannotPassWithTheParameterNamed) {
  try {
    parse_signature("void f(double* x, int n)");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("double* x"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_signature("int f(int n)"), std::invalid_argument);
}

}  // namespace
}  // namespace ucut::mskb
