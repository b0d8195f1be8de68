// tests/unit/eval/error_bound_test.cpp — eval/worker/error_bound.h: chain gains, the roundoff of intermediates,
// and the composition of a pipeline's accumulation term; then, on a small bf16 MLP computed on the CPU, that the
// composed tolerance passes an honest pipeline (another summation order) and fails one that skips its first
// stage's GELU.
#include "eval/worker/error_bound.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../problem/problem_text.h"
#include "eval/compare.h"
#include "ir/canonical.h"
#include "ir/epilogue_math.h"

namespace ucut::worker {
namespace {

ProblemDesc problem(const std::string& epilogue) {
  std::string err;
  auto p = parse_problem("name = \"t\"\nop = \"gemm\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
                         "epilogue = \"" + epilogue + "\"\nshapes = [ { m = 64, n = 64, k = 64 } ]\n",
                         "t.toml", &err);
  EXPECT_TRUE(p) << err;
  return parse_problem_desc(canonical_config(p->semantics));
}

TEST(ErrorBound, ChainGain) {
  EXPECT_DOUBLE_EQ(chain_gain(problem(""), 99), 1.0);
  ProblemDesc p = problem("scale(alpha = 3) >> gelu");
  EXPECT_DOUBLE_EQ(chain_gain(p, 1), 3.0);
  EXPECT_DOUBLE_EQ(chain_gain(p, p.chain.count), 3.0 * 1.2);
}

TEST(ErrorBound, OperandRoundoff) {
  EXPECT_EQ(operand_roundoff(DType::bf16, MathMode::native), std::ldexp(1.0, -8));
  EXPECT_EQ(operand_roundoff(DType::f16, MathMode::native), std::ldexp(1.0, -11));
  EXPECT_EQ(operand_roundoff(DType::f32, MathMode::native), 0.0);
  EXPECT_EQ(operand_roundoff(DType::f32, MathMode::tf32), std::ldexp(1.0, -11));  // the reader rounds it to TF32
}

TEST(ErrorBound, PipelineAccEpsComposesStagesAlongTheirPathsToTheOutput) {
  EXPECT_EQ(pipeline_acc_eps({{4096, 0, 1.5, {}}}), accumulation_eps(4096) * 1.5);  // one stage: a kernel's term
  double u = std::ldexp(1.0, -8);
  // up (gain 1.2) → down (gain 2, reads up's bf16 D): up's error is amplified by both chains.
  double two = pipeline_acc_eps({{1024, 0, 1.2, {}}, {4096, u, 2.0, {0}}});
  EXPECT_DOUBLE_EQ(two, accumulation_eps(1024) * 1.2 * 2.0 + (accumulation_eps(4096) + u) * 2.0);
  // 0 → 1 (gain 5) → 3 and 0 → 2 (gain 1) → 3: stage 0's error takes its loudest path.
  double dag = pipeline_acc_eps({{64, 0, 1, {}}, {64, u, 5, {0}}, {64, u, 1, {0}}, {64, 2 * u, 1, {1, 2}}});
  double e = accumulation_eps(64);
  EXPECT_DOUBLE_EQ(dag, e * 5 + (e + u) * 5 + (e + u) * 1 + (e + 2 * u));
}

/// x rounded to bf16 (to nearest even).
float bf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&x, &u, 4);
  return x;
}

struct Matrix {
  int64_t rows, cols;
  std::vector<float> v;
  float at(int64_t r, int64_t c) const { return v[static_cast<size_t>(r * cols + c)]; }
};

Matrix random_bf16(int64_t rows, int64_t cols, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Matrix m{rows, cols, std::vector<float>(static_cast<size_t>(rows * cols))};
  for (float& x : m.v) x = bf16(u(rng));
  return m;
}

/// a·b with f applied to every element; `reverse_f32` sums in float from the last k down (another kernel's order),
/// otherwise in double (the reference).
template <class F>
Matrix gemm(const Matrix& a, const Matrix& b, bool reverse_f32, F f) {
  Matrix d{a.rows, b.cols, std::vector<float>(static_cast<size_t>(a.rows * b.cols))};
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < b.cols; ++j) {
      double acc = 0;
      float facc = 0;
      for (int64_t k = 0; k < a.cols; ++k) {
        int64_t kk = reverse_f32 ? a.cols - 1 - k : k;
        if (reverse_f32)
          facc += a.at(i, kk) * b.at(kk, j);
        else
          acc += static_cast<double>(a.at(i, kk)) * b.at(kk, j);
      }
      d.v[static_cast<size_t>(i * b.cols + j)] = f(reverse_f32 ? facc : acc);
    }
  return d;
}

TEST(ErrorBound, AnMlpThatSkipsItsGeluFailsAndAnHonestOnePasses) {
  constexpr int64_t kM = 16, kIn = 256, kHidden = 512, kOut = 64;
  std::mt19937 rng(7);
  Matrix x = random_bf16(kM, kIn, rng), w1 = random_bf16(kIn, kHidden, rng), w2 = random_bf16(kHidden, kOut, rng);
  auto gelu = [](double v) { return bf16(static_cast<float>(ref::activation(EpiKind::gelu, v, 0, 0))); };
  auto store = [](double v) { return bf16(static_cast<float>(v)); };
  auto keep = [](double v) { return static_cast<float>(v); };

  Matrix h = gemm(x, w1, false, gelu);  // the reference: the intermediate rounded as the pipeline stores it
  Matrix ref = gemm(h, w2, false, keep);
  std::vector<float> bound(ref.v.size());
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kOut; ++j) {
      double s = 0;
      for (int64_t k = 0; k < kHidden; ++k) s += std::fabs(h.at(i, k)) * std::fabs(w2.at(k, j));
      bound[static_cast<size_t>(i * kOut + j)] = static_cast<float>(s);
    }
  ProblemDesc up = problem("gelu"), down = problem("");
  Tolerance tol = default_tolerance(DType::bf16, MathMode::native, DType::bf16);
  tol.acc_eps = pipeline_acc_eps({{kIn, 0, chain_gain(up, up.chain.count), {}},
                                  {kHidden, operand_roundoff(DType::bf16, MathMode::native),
                                   chain_gain(down, down.chain.count), {0}}});

  Matrix honest = gemm(gemm(x, w1, true, gelu), w2, true, store);
  Comparison ok = compare(honest.v.data(), ref.v.data(), ref.v.size(), tol, bound.data());
  EXPECT_TRUE(ok.pass) << ok.mismatches << " mismatches, worst " << ok.worst_value << " vs " << ok.worst_reference;

  Matrix no_gelu = gemm(gemm(x, w1, true, store), w2, true, store);
  Comparison bad = compare(no_gelu.v.data(), ref.v.data(), ref.v.size(), tol, bound.data());
  EXPECT_FALSE(bad.pass);
  EXPECT_GT(bad.mismatches, ref.v.size() / 2) << "skipping GELU changes most outputs beyond the tolerance";
}

}  // namespace
}  // namespace ucut::worker
