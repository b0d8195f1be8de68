// The Tensor Process tasks' references on hand-built instances, and their size sweeps.
#include <gtest/gtest.h>

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

TEST(TensorProcess, TableOrder) {
  std::vector<std::string> names;
  for (const Task& t : all_tasks())
    if (t.category == "Tensor Process") names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"matrix_transpose", "matrix_copy", "reverse_array",
                                             "high_order_contraction"}));
}

TEST(MatrixTranspose, Reference) {
  const Task& t = task("matrix_transpose");
  Instance in = instance({{"A", {1, 2, 3, 4, 5, 6}}, {"B", std::vector<double>(6)}}, {{"M", 2}, {"N", 3}});
  EXPECT_EQ(t.reference(in).at("B"), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  ASSERT_EQ(t.cases.size(), 25u);
  EXPECT_EQ(t.cases[1].label(), "M=1024 N=2048");
}

TEST(MatrixCopy, Reference) {
  Instance in = instance({{"A", {1, -2, 3, 4}}, {"B", std::vector<double>(4)}}, {{"M", 2}, {"N", 2}});
  EXPECT_EQ(task("matrix_copy").reference(in).at("B"), (std::vector<double>{1, -2, 3, 4}));
  EXPECT_EQ(task("matrix_copy").cases.back().label(), "M=65536 N=2048");
}

TEST(ReverseArray, ReferenceOddAndEven) {
  const Task& t = task("reverse_array");
  Instance odd = instance({{"input", {1, 2, 3, 4, 5}}, {"output", std::vector<double>(5)}}, {{"N", 5}});
  EXPECT_EQ(t.reference(odd).at("output"), (std::vector<double>{5, 4, 3, 2, 1}));
  Instance even = instance({{"input", {1, 2}}, {"output", {0, 0}}}, {{"N", 2}});
  EXPECT_EQ(t.reference(even).at("output"), (std::vector<double>{2, 1}));
}

TEST(HighOrderContraction, ReferenceSumsOverXAndY) {
  // a=2, b=2, c=2, x=2, y=2. A[a][x][b][y]: slab a=0 holds 1..8, slab a=1 twice that.
  std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int i = 0; i < 8; ++i) a.push_back(2 * a[i]);
  // B[x][c][y].
  std::vector<double> b = {1, 0, 0, 1, 1, 1, 2, -1};
  Instance in = instance({{"A", a}, {"B", b}, {"C", std::vector<double>(8)}},
                         {{"a_dim", 2}, {"b_dim", 2}, {"c_dim", 2}, {"x_dim", 2}, {"y_dim", 2}});
  // C[0][b][c]: (b,c)=(0,0): [1,2]·[1,0] + [5,6]·[1,1] = 12; (0,1): [1,2]·[0,1] + [5,6]·[2,-1] = 6;
  // (1,0): [3,4]·[1,0] + [7,8]·[1,1] = 18; (1,1): [3,4]·[0,1] + [7,8]·[2,-1] = 10.
  EXPECT_EQ(task("high_order_contraction").reference(in).at("C"),
            (std::vector<double>{12, 6, 18, 10, 24, 12, 36, 20}));
}

TEST(HighOrderContraction, UnequalDimensions) {
  // a=1, b=1, c=3, x=2, y=1: C[c] = A[0]·B[0][c] + A[1]·B[1][c].
  Instance in = instance({{"A", {2, 3}}, {"B", {1, 2, 3, 10, 20, 30}}, {"C", std::vector<double>(3)}},
                         {{"a_dim", 1}, {"b_dim", 1}, {"c_dim", 3}, {"x_dim", 2}, {"y_dim", 1}});
  EXPECT_EQ(task("high_order_contraction").reference(in).at("C"), (std::vector<double>{32, 64, 96}));
}

TEST(HighOrderContraction, CasesAndGenerate) {
  const Task& t = task("high_order_contraction");
  ASSERT_EQ(t.cases.size(), 8u);
  EXPECT_EQ(t.cases[3].label(), "a_dim=64 b_dim=32 c_dim=48 x_dim=16 y_dim=16");
  EXPECT_DOUBLE_EQ(t.complexity(t.cases.back()), 256.0 * 256 * 128 * 16 * 16);
  std::mt19937_64 rng(4);
  Instance in = t.generate(t.cases[2], rng);  // 64, 32, 48, x=y=8
  EXPECT_EQ(in.array("A").size(), 64u * 32 * 8 * 8);
  EXPECT_EQ(in.array("B").size(), 8u * 8 * 48);
  EXPECT_EQ(in.array("C").size(), 64u * 32 * 48);
  EXPECT_EQ(in.scalar("c_dim"), 48);
}

}  // namespace
}  // namespace ucut::mskb
