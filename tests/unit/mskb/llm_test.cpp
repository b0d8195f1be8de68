// The LLM Operator tasks (mskb/tasks/llm.cpp): each reference against hand-computed values on a tiny instance, and
// what their generators promise (β = 1, RoPE base 10000, a causal mask).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const std::string& name) {
  const Task* t = find_task(name);
  if (!t) throw std::out_of_range(name + " is not registered");
  return *t;
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "element " << i;
}

TEST(LlmTasks, RegisteredInMskbOrder) {
  std::vector<std::string> names;
  for (const Task& t : all_tasks())
    if (t.category == "LLM Operator") names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"SwiGLU", "silu_and_mul", "merge_attn_states", "rope",
                                             "softmax_attention", "triangle_attention"}));
}

TEST(SwiGLU, ReferenceIsSwishOfGateTimesValue) {
  Instance in;
  in.arrays = {{"gate_input", {0, 1, -2}}, {"value_input", {3, 2, 0.5}}, {"output", {0, 0, 0}}};
  in.scalars = {{"beta", 1}, {"N", 3}};
  expect_near_all(task("SwiGLU").reference(in).at("output"), {0, 2 * sigmoid(1), -sigmoid(-2)});
  in.scalars["beta"] = 2;
  EXPECT_NEAR(task("SwiGLU").reference(in).at("output")[1], 2 * sigmoid(2), 1e-12);
}

TEST(SwiGLU, GeneratesBetaOneAndFiveSizes) {
  const Task& t = task("SwiGLU");
  ASSERT_EQ(t.cases.size(), 5u);
  std::mt19937_64 rng(1);
  Instance in = t.generate(t.cases[0], rng);
  EXPECT_EQ(in.scalar("beta"), 1.0);
  EXPECT_EQ(in.array("gate_input").size(), 1024u);
}

TEST(SiluAndMul, ReferenceSplitsEachRowIntoXThenGate) {
  Instance in;
  in.arrays = {{"in", {0, 1, 5, 2, -1, 2, 1, -1}}, {"out", {0, 0, 0, 0}}};
  in.scalars = {{"B", 2}, {"D", 2}};
  expect_near_all(task("silu_and_mul").reference(in).at("out"), {0, 2 * sigmoid(1), -sigmoid(-1), -2 * sigmoid(2)});
  EXPECT_EQ(task("silu_and_mul").cases.size(), 12u);
}

// T = 2 tokens, H = 2 heads, head_size 1: V is [token][head], the LSEs [head][token].
TEST(MergeAttnStates, ReferenceWeighsByLseSoftmaxWithHeadMajorLse) {
  Instance in;
  in.arrays = {{"V_a", {1, 10, 4, 8}},
               {"V_b", {3, 20, 0, 4}},
               {"lse_a", {0, std::log(3.0), -INFINITY, 0}},
               {"lse_b", {0, 0, 0, std::log(3.0)}},
               {"V_out", {0, 0, 0, 0}},
               {"LSE_out", {0, 0, 0, 0}}};
  in.scalars = {{"num_tokens", 2}, {"num_heads", 2}, {"head_size", 1}};
  Outputs out = task("merge_attn_states").reference(in);
  expect_near_all(out.at("V_out"), {2, 20, 3, 5});
  expect_near_all(out.at("LSE_out"), {std::log(2.0), std::log(4.0), 0, std::log(4.0)});
}

TEST(MergeAttnStates, PositiveInfinityCountsAsMinusFltMaxLikeMskb) {
  Instance in;
  in.arrays = {{"V_a", {2}}, {"V_b", {4}}, {"lse_a", {INFINITY}}, {"lse_b", {INFINITY}}, {"V_out", {0}},
               {"LSE_out", {0}}};
  in.scalars = {{"num_tokens", 1}, {"num_heads", 1}, {"head_size", 1}};
  Outputs out = task("merge_attn_states").reference(in);
  EXPECT_NEAR(out.at("V_out")[0], 3, 1e-12);
  EXPECT_DOUBLE_EQ(out.at("LSE_out")[0], -double(FLT_MAX));
  EXPECT_EQ(task("merge_attn_states").cases.size(), 12u);
}

TEST(Rope, ReferenceRotatesAdjacentPairsByRowPosition) {
  Instance in;
  in.arrays = {{"input", {1, 2, 3, 4, 1, 0, 0, 1}}, {"output", std::vector<double>(8)}};
  in.scalars = {{"M", 2}, {"D", 4}, {"base", 100}};
  // Row 0 is position 0 (no rotation); row 1 turns pair 0 by 1 rad and pair 1 by 100^(-1/2) = 0.1 rad.
  expect_near_all(task("rope").reference(in).at("output"),
                  {1, 2, 3, 4, std::cos(1.0), std::sin(1.0), -std::sin(0.1), std::cos(0.1)});
}

TEST(Rope, GeneratesBase10000AndSixteenSizes) {
  const Task& t = task("rope");
  ASSERT_EQ(t.cases.size(), 16u);
  std::mt19937_64 rng(1);
  EXPECT_EQ(t.generate(t.cases[0], rng).scalar("base"), 10000.0);
}

TEST(SoftmaxAttention, ReferenceScalesByRootDimQk) {
  Instance in;
  in.arrays = {{"Q", {1, 1, 1, 1, 0, 0, 0, 0}},
               {"K", {1, 0, 0, 0, 0, 0, 0, 0}},
               {"V", {1, 0, 2, 0, 1, 4}},
               {"Y", std::vector<double>(6)}};
  in.scalars = {{"q_seq_len", 2}, {"kv_seq_len", 2}, {"dim_qk", 4}, {"dim_v", 3}};
  double p = sigmoid(0.5);  // scores 1/√4 and 0
  expect_near_all(task("softmax_attention").reference(in).at("Y"), {p, 1 - p, 2 * p + 4 * (1 - p), 0.5, 0.5, 3});
}

TEST(SoftmaxAttention, CasesComplexityAndReferenceCost) {
  const Task& t = task("softmax_attention");
  ASSERT_EQ(t.cases.size(), 8u);
  const Case& big = t.cases[3];
  EXPECT_EQ(big.label(), "q_seq_len=1024 kv_seq_len=2048 dim_qk=4096 dim_v=4096");
  EXPECT_EQ(t.complexity(big), 1024.0 * 2048 * (4096 + 4096 + 1));
  EXPECT_EQ(t.reference_cost(big), 1024.0 * 2048 * 8192);
}

// B = H = 1, S = 2, head_dim 2: query/key/value are [seq][dim]; each dimension has its own softmax over j ≤ i.
Instance triangle_instance() {
  Instance in;
  in.arrays = {{"query", {7, 7, std::sqrt(2.0), 0}},
               {"key", {1, 5, 0, 7}},
               {"value", {1, 2, 0, 4}},
               {"attention_mask", {0, 1, 0, 0}},
               {"output", std::vector<double>(4)}};
  in.scalars = {{"batch_size", 1}, {"head_num", 1}, {"seq_length", 2}, {"head_dim", 2}};
  return in;
}

TEST(TriangleAttention, ReferenceHasPerDimensionScores) {
  // Row 0 sees only j = 0; row 1, dimension 0: scores √2·1/√2 = 1 and 0; dimension 1: scores 0 and 0.
  expect_near_all(task("triangle_attention").reference(triangle_instance()).at("output"), {1, 2, sigmoid(1), 3});
}

TEST(TriangleAttention, MaskAboveHalfDropsATermAndAnEmptyRowGivesZero) {
  Instance in = triangle_instance();
  in.arrays["attention_mask"] = {1, 1, 1, 0};  // row 0 keeps nothing, row 1 keeps only j = 1
  expect_near_all(task("triangle_attention").reference(in).at("output"), {0, 0, 0, 4});
}

TEST(TriangleAttention, GeneratesACausalMaskPerBatch) {
  const Task& t = task("triangle_attention");
  ASSERT_EQ(t.cases.size(), 8u);
  const Case& c = t.cases[5];  // (4, 8, 32, 128)
  std::mt19937_64 rng(1);
  Instance in = t.generate(c, rng);
  const auto& mask = in.array("attention_mask");
  ASSERT_EQ(mask.size(), 4u * 32 * 32);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) ASSERT_EQ(mask[(b * 32 + i) * 32 + j], j > i ? 1.0 : 0.0) << b << i << j;
  EXPECT_EQ(in.array("query").size(), 4u * 8 * 32 * 128);
}

}  // namespace
}  // namespace ucut::mskb
