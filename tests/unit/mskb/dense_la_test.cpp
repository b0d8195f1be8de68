// The Dense LA tasks' references on hand-built instances, and what their generators promise.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const char* name) { return *find_task(name); }

Instance instance(std::map<std::string, std::vector<double>> arrays, std::map<std::string, double> scalars) {
  Instance in;
  in.arrays = std::move(arrays);
  in.scalars = std::move(scalars);
  return in;
}

TEST(DenseLa, TableOrder) {
  std::vector<std::string> names;
  for (const Task& t : all_tasks())
    if (t.category == "Dense LA") names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"matrix_mul", "square_matrix_mul", "matrix_vector_mul", "matrix_power",
                                             "dot_product", "vector_add", "matrix_scalar_mul"}));
}

TEST(MatrixMul, ReferenceMultipliesRowMajorMatrices) {
  // A 2×3, B 3×2.
  Instance in = instance({{"A", {1, 2, 3, 4, 5, 6}}, {"B", {7, 8, 9, 10, 11, 12}}, {"C", std::vector<double>(4)}},
                         {{"M", 2}, {"N", 2}, {"K", 3}});
  EXPECT_EQ(task("matrix_mul").reference(in).at("C"), (std::vector<double>{58, 64, 139, 154}));
}

TEST(MatrixMul, BlockedReferenceMatchesTheTripleLoop) {
  // Past one row block (16) and one k panel (128), with ragged ends.
  const int64_t m = 37, k = 300, n = 5;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> a(m * k), b(k * n);
  for (double& v : a) v = d(rng);
  for (double& v : b) v = d(rng);
  Instance in = instance({{"A", a}, {"B", b}, {"C", std::vector<double>(m * n)}},
                         {{"M", double(m)}, {"N", double(n)}, {"K", double(k)}});
  std::vector<double> c = task("matrix_mul").reference(in).at("C");
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t p = 0; p < k; ++p) want += a[i * k + p] * b[p * n + j];
      EXPECT_NEAR(c[i * n + j], want, 1e-12) << i << "," << j;
    }
}

TEST(MatrixMul, CasesAndCost) {
  const Task& t = task("matrix_mul");
  ASSERT_EQ(t.cases.size(), 5u);
  EXPECT_EQ(t.cases.back().label(), "M=16384 K=4096 N=2048");
  EXPECT_DOUBLE_EQ(t.reference_cost(t.cases.back()), 16384.0 * 4096 * 2048);
  EXPECT_DOUBLE_EQ(t.work(t.cases[0], 2).flops, 2.0 * 64 * 4096 * 2048);
}

TEST(SquareMatrixMul, Reference) {
  Instance in = instance({{"A", {1, 2, 3, 4}}, {"B", {5, 6, 7, 8}}, {"C", std::vector<double>(4)}}, {{"M", 2}});
  EXPECT_EQ(task("square_matrix_mul").reference(in).at("C"), (std::vector<double>{19, 22, 43, 50}));
  EXPECT_EQ(task("square_matrix_mul").cases.size(), 5u);
}

TEST(MatrixVectorMul, Reference) {
  Instance in = instance({{"A", {1, 2, 3, 4, 5, 6}}, {"x", {1, 0, -1}}, {"y", {0, 0}}}, {{"M", 2}, {"N", 3}});
  EXPECT_EQ(task("matrix_vector_mul").reference(in).at("y"), (std::vector<double>{-2, -2}));
}

TEST(MatrixVectorMul, GenerateSizes) {
  const Task& t = task("matrix_vector_mul");
  std::mt19937_64 rng(1);
  Instance in = t.generate(t.cases[0], rng);
  EXPECT_EQ(in.array("A").size(), 2048u * 256);
  EXPECT_EQ(in.array("x").size(), 256u);
  EXPECT_EQ(in.array("y"), std::vector<double>(2048, 0.0));
}

TEST(MatrixVectorMul, WorkReadsAAndXOnceAndWritesYOnce) {
  // The least bytes of y = A·x: A (M×N), x (N) and y (M), each once, at every size and element width (the SOL
  // bound of `bench mskb`); 2·M·N flops.
  const Task& t = task("matrix_vector_mul");
  for (const Case& c : t.cases)
    for (int bytes : {2, 4}) {
      const double m = double(c.at("M")), n = double(c.at("N"));
      EXPECT_EQ(t.work(c, bytes).bytes, (m * n + n + m) * bytes) << c.label();
      EXPECT_EQ(t.work(c, bytes).flops, 2 * m * n) << c.label();
    }
}

TEST(MatrixPower, ReferenceRaisesToThePower) {
  const Task& t = task("matrix_power");
  // Fibonacci: [[1,1],[1,0]]^P = [[F(P+1), F(P)], [F(P), F(P-1)]].
  std::map<int, std::vector<double>> want = {
      {2, {2, 1, 1, 1}}, {5, {8, 5, 5, 3}}, {11, {144, 89, 89, 55}}, {16, {1597, 987, 987, 610}}};
  for (const auto& [p, w] : want) {
    Instance in = instance({{"A", {1, 1, 1, 0}}, {"B", std::vector<double>(4)}}, {{"N", 2}, {"P", double(p)}});
    EXPECT_EQ(t.reference(in).at("B"), w) << "P=" << p;
  }
  Instance shear = instance({{"A", {1, 2, 0, 1}}, {"B", std::vector<double>(4)}}, {{"N", 2}, {"P", 8}});
  EXPECT_EQ(t.reference(shear).at("B"), (std::vector<double>{1, 16, 0, 1}));
}

TEST(MatrixPower, CasesCostAndTolerance) {
  const Task& t = task("matrix_power");
  ASSERT_EQ(t.cases.size(), 15u);
  EXPECT_EQ(t.cases[1].label(), "N=256 P=5");
  EXPECT_EQ(t.cases.back().label(), "N=1024 P=16");
  EXPECT_DOUBLE_EQ(t.complexity(t.cases.back()), 1024.0 * 1024 * 1024 * 16);
  EXPECT_DOUBLE_EQ(t.reference_cost(t.cases.back()), 1024.0 * 1024 * 1024 * 4);  // four squarings
  EXPECT_DOUBLE_EQ(t.reference_cost(t.cases[3]), 256.0 * 256 * 256 * 5);         // P=11: 3 squarings + 2
  EXPECT_EQ(t.tolerance.kind, Tolerance::Kind::relative);
  EXPECT_DOUBLE_EQ(t.tolerance.value, 5e-2);
}

TEST(MatrixPower, CheckForgivesRoundingNearZeroButNotWrongElements) {
  const Task& t = task("matrix_power");
  ASSERT_TRUE(t.check);
  Instance in;
  Outputs ref = {{"B", {100, -100, 0.001, 100}}};  // root mean square ≈ 86.6, floor ≈ 8.66
  EXPECT_EQ(t.check(in, {{"B", {100, -100, 8.0, 100}}}, ref), "");        // cancellation error near zero
  EXPECT_EQ(t.check(in, {{"B", {113, -100, 0.001, 100}}}, ref), "");      // 5% of itself plus the floor
  EXPECT_NE(t.check(in, {{"B", {100, -100, 20.0, 100}}}, ref).find("B[2]"), std::string::npos);
  EXPECT_NE(t.check(in, {{"B", {100, 100, 0.001, 100}}}, ref), "");       // wrong sign
  EXPECT_NE(t.check(in, {{"B", {100, -100, NAN, 100}}}, ref), "");
  EXPECT_NE(t.check(in, {{"B", {100, -100, 0.001}}}, ref), "");
}

TEST(DotProduct, ReferenceAndOneElementLoss) {
  const Task& t = task("dot_product");
  Instance in = instance({{"X", {1, 2, 3}}, {"Y", {4, -5, 6}}, {"loss", {0}}}, {{"N", 3}});
  EXPECT_EQ(t.reference(in).at("loss"), (std::vector<double>{12}));
  std::mt19937_64 rng(2);
  Instance g = t.generate(t.cases[0], rng);
  EXPECT_EQ(g.array("loss"), (std::vector<double>{0}));
  EXPECT_EQ(g.array("X").size(), 1u << 16);
  EXPECT_EQ(t.tolerance.kind, Tolerance::Kind::relative);
  EXPECT_DOUBLE_EQ(t.tolerance.value, 1e-3);
}

TEST(MatrixScalarMul, ReferenceAndScalar) {
  const Task& t = task("matrix_scalar_mul");
  Instance in = instance({{"A", {1, -2, 3, 0.5}}, {"B", std::vector<double>(4)}},
                         {{"scalar", -2}, {"M", 2}, {"N", 2}});
  EXPECT_EQ(t.reference(in).at("B"), (std::vector<double>{-2, 4, -6, -1}));
  std::mt19937_64 rng(5);
  Instance g = t.generate(t.cases[0], rng);
  EXPECT_GE(g.scalar("scalar"), -1);
  EXPECT_LT(g.scalar("scalar"), 1);
  EXPECT_EQ(g.array("B").size(), 256u * 2048);
}

}  // namespace
}  // namespace ucut::mskb
