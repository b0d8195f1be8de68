// The Stencil tasks (mskb/tasks/stencil.cpp): their FP64 references on tiny hand-built grids, their case lists and
// output sizes.
#include <gtest/gtest.h>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const std::string& name) {
  const Task* t = find_task(name);
  EXPECT_NE(t, nullptr) << name;
  return *t;
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "at " << i;
}

TEST(Stencil2d, HeatStepOnTheInteriorCopiesTheBoundary) {
  Instance in;  // 3×4, row-major with ny contiguous
  in.arrays["u_old"] = {7, 0, 2, 0,  0, 1, 0, 0,  0, 0, 0, 0};
  in.arrays["u_new"].assign(12, 0);
  in.scalars = {{"r", 0.25}, {"nx", 3}, {"ny", 4}};
  // (1,1): 1 + r·(0 − 4·1) = 0; (1,2): 0 + r·(left 1 + down 2) = 0.75; the rest is boundary.
  expect_near_all(task("stencil_2d").reference(in).at("u_new"), {7, 0, 2, 0, 0, 0, 0.75, 0, 0, 0, 0, 0});
}

TEST(Stencil3d, SevenPointStepWithNzContiguous) {
  Instance in;  // 3×4×3: interior points (1,1,1) at 16 and (1,2,1) at 19
  in.arrays["u_old"].assign(36, 0);
  in.arrays["u_old"][19] = 4;
  in.arrays["u_old"][0] = 5;  // a corner, copied
  in.arrays["u_new"].assign(36, 0);
  in.scalars = {{"r", 0.25}, {"nx", 3}, {"ny", 4}, {"nz", 3}};
  std::vector<double> want(36, 0);
  want[0] = 5;
  want[16] = 0.25 * 4;            // its j+1 neighbour is 19
  want[19] = 4 + 0.25 * (0 - 24);  // no neighbours
  expect_near_all(task("stencil_3d").reference(in).at("u_new"), want);
}

TEST(Conv1d, ValidCrossCorrelationNotFlipped) {
  Instance in;
  in.arrays["input"] = {1, 2, 3, 4, 5};
  in.arrays["kernel"] = {1, 0, -1};
  in.arrays["output"].assign(3, 0);
  in.scalars = {{"input_size", 5}, {"kernel_size", 3}};
  expect_near_all(task("conv_1d").reference(in).at("output"), {-2, -2, -2});
}

TEST(Conv2d, ValidCrossCorrelationRowMajor) {
  Instance in;
  in.arrays["input"] = {1, 2, 3, 4,  5, 6, 7, 8,  9, 10, 11, 12};
  in.arrays["kernel"] = {1, 2,  0, 0};
  in.arrays["output"].assign(6, 0);
  in.scalars = {{"input_rows", 3}, {"input_cols", 4}, {"kernel_rows", 2}, {"kernel_cols", 2}};
  // out[r][c] = in[r][c] + 2·in[r][c+1]
  expect_near_all(task("conv_2d").reference(in).at("output"), {5, 8, 11, 17, 20, 23});
}

Instance pool_instance(int stride, int padding, int outputs) {
  Instance in;  // N=1, C=2, 3×3 planes: 1..9 and −1..−9
  for (int i = 1; i <= 9; ++i) in.arrays["input"].push_back(i);
  for (int i = 1; i <= 9; ++i) in.arrays["input"].push_back(-i);
  in.arrays["output"].assign(outputs, 0);
  in.scalars = {{"N", 1}, {"C", 2}, {"H", 3}, {"W", 3}, {"kernel_size", 2}, {"stride", stride}, {"padding", padding}};
  return in;
}

TEST(MaxPooling2d, WindowsPerPlane) {
  expect_near_all(task("max_pooling_2d").reference(pool_instance(1, 0, 8)).at("output"),
                  {5, 6, 8, 9, -1, -2, -4, -5});
}

TEST(MaxPooling2d, PaddingNeverWins) {
  // k=2, s=2, p=1 on 3×3 gives 2×2; the all-negative plane would show 0 if padding counted as zero.
  expect_near_all(task("max_pooling_2d").reference(pool_instance(2, 1, 8)).at("output"),
                  {1, 3, 7, 9, -1, -2, -4, -5});
}

TEST(StencilTasks, CasesFollowMskbSweeps) {
  EXPECT_EQ(task("stencil_2d").cases.size(), 9u);
  EXPECT_EQ(task("stencil_3d").cases.size(), 27u);
  EXPECT_EQ(task("conv_1d").cases.size(), 20u);
  EXPECT_EQ(task("conv_2d").cases.size(), 9u);
  EXPECT_EQ(task("max_pooling_2d").cases.size(), 24u);
  const Task& pool = task("max_pooling_2d");
  const Case& last = pool.cases.back();  // (4,1,2048,196), k=4, s=2, p=1: 1024×98 outputs
  EXPECT_EQ(last.label(), "N=4 C=1 H=2048 W=196 kernel_size=4 stride=2 padding=1");
  EXPECT_DOUBLE_EQ(pool.complexity(last), 4.0 * 1024 * 98 * 16);
  const Task& conv = task("conv_2d");
  EXPECT_DOUBLE_EQ(conv.complexity(conv.cases.back()), 4096.0 * 4096 * 32 * 32);
}

TEST(StencilTasks, GenerateSizesTheValidOutputs) {
  std::mt19937_64 rng(1);
  const Task& conv1 = task("conv_1d");
  Instance a = conv1.generate(conv1.cases.front(), rng);  // 1024, 32
  EXPECT_EQ(a.arrays.at("output").size(), 1024u - 32 + 1);
  const Task& conv2 = task("conv_2d");
  Instance b = conv2.generate(conv2.cases.front(), rng);  // 256², 8²
  EXPECT_EQ(b.arrays.at("output").size(), 249u * 249);
  const Task& pool = task("max_pooling_2d");
  Instance c = pool.generate(pool.cases[4], rng);  // (8,3,512,512), k=4, s=2, p=0: 255²
  EXPECT_EQ(c.arrays.at("output").size(), 8u * 3 * 255 * 255);
  const Task& heat = task("stencil_2d");
  EXPECT_EQ(heat.generate(heat.cases.front(), rng).scalars.at("r"), 0.25);
}

}  // namespace
}  // namespace ucut::mskb
