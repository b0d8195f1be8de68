// tests/unit/emit/rownorm_emit_test.cpp — emit/memory/rownorm.cpp: the norm picks its functor, `eps` is a scalar
// or a literal, the chain reads the other inputs at each normalized element (the first input's unnormalized value
// too), the first input is seen as [outer, length, inner] from `over`, the launch takes the spec's tunables and
// rows per block, the statistics combine on cub, and the same spec emits the same bytes.
// tests/golden/emit/memory/rownorm_*.cu pin whole files (a contiguous and a strided `over`).
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string rownorm_spec(const std::string& operands, const std::string& out = "f32[N,C]",
                         const std::string& rest = "") {
  return "kernel k : sm90a\n  rownorm(" + operands + ")\n" + rest + "  >> store(y: " + out + ")\n";
}

TEST(RownormEmit, EachNormPicksItsFunctor) {
  for (const char* norm : {"softmax", "log_softmax", "l1", "l2"})
    EXPECT_TRUE(contains(code_of(rownorm_spec(std::string("x: f32[N,C], norm = ") + norm + ", over = C")),
                         std::string("using Norm = ucut_norm_") + norm + ";"))
        << norm;
  for (const char* norm : {"layer", "rms"})
    EXPECT_TRUE(contains(code_of(rownorm_spec(std::string("x: f32[N,C], norm = ") + norm + ", eps = 1e-5, over = C")),
                         std::string("using Norm = ucut_norm_") + norm + ";"))
        << norm;
}

TEST(RownormEmit, EpsIsTheScalarOrTheLiteral) {
  std::string scalar = code_of(rownorm_spec("x: f32[N,C], epsilon: f32, norm = layer, eps = epsilon, over = C"));
  EXPECT_TRUE(contains(scalar, "return s_epsilon;")) << scalar;
  EXPECT_TRUE(contains(scalar, "body.s_epsilon = s_epsilon;"));
  EXPECT_TRUE(contains(code_of(rownorm_spec("x: f32[N,C], norm = rms, eps = 0.5, over = C")), "return 0.5f;"));
  EXPECT_TRUE(contains(code_of(rownorm_spec("x: f32[N,C], norm = softmax, over = C")), "return 0.0f;"));
}

TEST(RownormEmit, TheChainReadsTheOtherInputsAtTheElement) {
  std::string code = code_of(rownorm_spec("input: bf16[N], weight: bf16[N], bias: bf16[N], epsilon: f32, norm = layer, "
                                          "eps = epsilon, over = N",
                                          "bf16[N]", "  >> expr(x * weight + bias)\n"));
  EXPECT_TRUE(contains(code, "CUTLASS_DEVICE float apply(float x, float v_input, float v_weight, float v_bias) const"))
      << code;
  EXPECT_TRUE(contains(code, "const cutlass::Array<float, kVector> v_weight = t_weight.vector(i);"));
  EXPECT_TRUE(contains(code, "for (int j = 0; j < kVector; ++j) out[j] = apply(y[j], x[j], v_weight[j], v_bias[j]);"));
  EXPECT_TRUE(contains(code, "return t_input.vector(i);"));
  EXPECT_TRUE(contains(code, "int run_rownorm(const ElementIn0* t_input, const ElementIn1* t_weight, "
                             "const ElementIn2* t_bias, ElementOut* t_y, float s_epsilon, int64_t n_N, "
                             "cudaStream_t stream, char* err, size_t err_len)"))
      << code;
}

TEST(RownormEmit, OverSetsOuterLengthAndInner) {
  std::string rows = code_of(rownorm_spec("x: f32[N,C], norm = softmax, over = C"));
  EXPECT_TRUE(contains(rows, "const int64_t outer = n_N;")) << rows;
  EXPECT_TRUE(contains(rows, "const int64_t length = n_C;"));
  EXPECT_TRUE(contains(rows, "const int64_t inner = 1;"));
  std::string columns = code_of(rownorm_spec("x: f32[N,C], g: f32[C], norm = l2, over = N", "f32[N,C]",
                                             "  >> expr(x * g)\n"));
  EXPECT_TRUE(contains(columns, "const int64_t outer = 1;")) << columns;
  EXPECT_TRUE(contains(columns, "const int64_t length = n_N;"));
  EXPECT_TRUE(contains(columns, "const int64_t inner = n_C;"));
  // gamma repeats along N: a strided reader, contiguous along C.
  EXPECT_TRUE(contains(columns, "ucut_strided_input<float, kVector, 2, 1> t_g;"));
  std::string two = code_of(rownorm_spec("x: f32[B,H,W], norm = l1, over = (H, W)", "f32[B,H,W]"));
  EXPECT_TRUE(contains(two, "const int64_t length = n_H * n_W;")) << two;
}

TEST(RownormEmit, TheLaunchTakesTheTunablesAndCombinesOnCub) {
  std::string code = code_of(rownorm_spec("x: f32[N,C], norm = softmax, over = C", "f32[N,C]",
                                          "  .with_block(128)\n  .with_items(4)\n  .with_rows(16)\n"));
  EXPECT_TRUE(contains(code, "constexpr int kThreads = 128;")) << code;
  EXPECT_TRUE(contains(code, "constexpr int kItems = 4;"));
  EXPECT_TRUE(contains(code, "constexpr int kRows = 16;"));
  EXPECT_TRUE(contains(code, "cub::BlockReduce<Stats, Threads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>"));
  EXPECT_TRUE(contains(code, "cub::WarpReduce<Stats,"));
  EXPECT_FALSE(contains(code, "atomicAdd")) << "no float atomics: the result is deterministic";
}

TEST(RownormEmit, TheSameSpecEmitsTheSameBytes) {
  const std::string spec = rownorm_spec("x: bf16[N,C], gamma: bf16[C], beta: bf16[C], epsilon: f32, norm = layer, "
                                        "eps = epsilon, over = N",
                                        "bf16[N,C]", "  >> expr(x * gamma + beta)\n");
  EXPECT_EQ(code_of(spec), code_of(spec));
}

}  // namespace
}  // namespace ucut
