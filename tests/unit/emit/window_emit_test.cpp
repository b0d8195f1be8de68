// tests/unit/emit/window_emit_test.cpp — emit/memory/window.cpp: a star emits the star kernel (2D, or
// marching the planes of a 3D input) with a Body whose finish reads the point's value by the input's name; a
// box emits the box launch with its op, its weights' element type, the shape from the run-time sizes (the
// output's extents derived), and the 1D tile a whole CTA's row; the tunables reach the constants.
// tests/golden/emit/memory/window_*.cu pin whole files.
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string window_spec(const std::string& args, const std::string& out, const std::string& rest = "") {
  return "kernel k : sm90a\n  window(" + args + ")\n" + rest + "  >> store(" + out + ")\n";
}

TEST(WindowEmit, AStarFinishesFromTheNeighboursAndThePoint) {
  std::string code = code_of(window_spec("u: bf16[X, Y], r: f32, op = sum, taps = star, edge = copy",
                                         "v: bf16[X, Y]", "  >> expr(u + r * (x - 4 * u))\n"));
  EXPECT_TRUE(contains(code, "CUTLASS_DEVICE float finish(float x, float v_u) const")) << code;
  EXPECT_TRUE(contains(code, "const ucut_window_star_shape shape{1, n_X, n_Y};")) << code;
  EXPECT_TRUE(contains(code,
                       "ucut_window_star_launch<ElementIn0, ElementOut, kThreads, kItems, kTileCols, kMarch, "
                       "false, Body>(t_u, t_v, shape, body, stream, err, err_len);"))
      << code;
  EXPECT_TRUE(contains(code,
                       "int run_window(const ElementIn0* t_u, ElementOut* t_v, float s_r, int64_t n_X, "
                       "int64_t n_Y, cudaStream_t stream, char* err, size_t err_len)"))
      << code;
  EXPECT_TRUE(contains(code, "constexpr int kTileCols = 64;"));
}

TEST(WindowEmit, A3DStarMarchesThroughItsPlanes) {
  std::string code =
      code_of(window_spec("u: f32[X, Y, Z], r: f32, op = sum, taps = star, edge = copy", "v: f32[X, Y, Z]",
                          "  .with_items(4)\n  >> expr(u + r * (x - 6 * u))\n"));
  EXPECT_TRUE(contains(code, "const ucut_window_star_shape shape{n_X, n_Y, n_Z};")) << code;
  EXPECT_TRUE(contains(code, "kMarch, true, Body>")) << code;
  EXPECT_TRUE(contains(code, "constexpr int kItems = 4;"));
  EXPECT_TRUE(contains(code, "constexpr int kTileCols = 64;  // a tile's columns: 16 rows of them")) << code;
}

TEST(WindowEmit, AConvolutionStagesItsWeights) {
  std::string code =
      code_of(window_spec("input: f32[R, C], kernel: bf16[KR, KC], op = sum, weights = kernel, edge = valid",
                          "output: f32[OR, OC]"));
  EXPECT_TRUE(contains(code, "using WindowOp = ucut_window_sum;")) << code;
  EXPECT_TRUE(
      contains(code, "const ucut_window_box_shape shape{1, n_R, n_C, n_R - n_KR + 1, n_C - n_KC + 1,"))
      << code;
  EXPECT_TRUE(contains(code, "n_KR, n_KC, 1, 1, 0, 0};")) << code;
  EXPECT_TRUE(
      contains(code,
               "ucut_window_box_launch<ElementIn0, ElementIn1, ElementOut, kThreads, kItems, kTileCols, "
               "WindowOp, true, Body>(t_input, t_kernel, t_output, shape"))
      << code;
  EXPECT_TRUE(contains(code, "constexpr int kTileCols = 32;"));
}

TEST(WindowEmit, A1DTileIsTheWholeCtasRow) {
  std::string code = code_of(window_spec("input: f32[N], k: f32[K], op = sum, weights = k, edge = valid",
                                         "output: f32[ON]", "  .with_block(128)\n  .with_items(8)\n"));
  EXPECT_TRUE(contains(code, "constexpr int kTileCols = 1024;  // a tile's columns: 1 rows of them")) << code;
  EXPECT_TRUE(contains(code, "shape{1, 1, n_N, 1, n_N - n_K + 1,")) << code;
  EXPECT_TRUE(contains(code, "1, n_K, 1, 1, 0, 0};")) << code;
}

TEST(WindowEmit, APoolingTakesItsRunTimeIntsAndTheChain) {
  std::string code = code_of(window_spec(
      "input: bf16[N, C, H, W], a: f32, op = max, size = kernel_size, stride = stride, pad = padding, "
      "over = (H, W), edge = clip",
      "output: bf16[N, C, OH, OW]", "  >> expr(x * a)\n"));
  EXPECT_TRUE(contains(code, "using WindowOp = ucut_window_max;")) << code;
  EXPECT_TRUE(contains(code,
                       "shape{n_N * n_C, n_H, n_W, (n_H + 2 * n_padding - n_kernel_size) / n_stride + 1, "
                       "(n_W + 2 * n_padding - n_kernel_size) / n_stride + 1,"))
      << code;
  EXPECT_TRUE(contains(code,
                       "ucut_window_box_launch<ElementIn0, float, ElementOut, kThreads, kItems, kTileCols, "
                       "WindowOp, false, Body>(t_input, static_cast<const float*>(nullptr), t_output"))
      << code;
  EXPECT_TRUE(contains(code, "x = cutlass::multiplies<float>{}(x, s_a);")) << code;
  EXPECT_TRUE(contains(code,
                       "int64_t n_W, int64_t n_kernel_size, int64_t n_stride, int64_t n_padding, "
                       "cudaStream_t stream"))
      << code;
}

TEST(WindowEmit, AChannelsLastPoolingKeepsTheInnerRun) {
  std::string code = code_of(window_spec(
      "input: f32[N, H, W, C], op = max, size = 2, stride = 2, over = (H, W), edge = clip",
      "output: f32[N, OH, OW, C]"));
  EXPECT_TRUE(contains(code, "using WindowOp = ucut_window_max;")) << code;
  EXPECT_TRUE(contains(code,
                       "const ucut_window_cl_shape shape{n_N, {1, n_H, n_W}, {1, (n_H + 2 * 0 - 2) / 2 + 1, "
                       "(n_W + 2 * 0 - 2) / 2 + 1},"))
      << code;
  EXPECT_TRUE(contains(code, "{1, 2, 2}, {1, 2, 2}, {0, 0, 0}, n_C};")) << code;
  EXPECT_TRUE(contains(code,
                       "return ucut_window_cl_launch<ElementIn0, float, ElementOut, kThreads, WindowOp, false, "
                       "Body>(t_input, static_cast<const float*>(nullptr), t_output, shape, body, stream, err, "
                       "err_len);"))
      << code;
  EXPECT_FALSE(contains(code, "constexpr int kTileCols")) << "no tile";
}

TEST(WindowEmit, A3DAverageTakesItsRunTimeIntsAndSeveralInnerExtents) {
  std::string code = code_of(window_spec(
      "input: bf16[N, D, H, W, C, E], op = avg, size = k, stride = (1, k, k), pad = p, over = (D, H, W), "
      "edge = clip",
      "output: bf16[N, OD, OH, OW, C, E]"));
  EXPECT_TRUE(contains(code, "using WindowOp = ucut_window_avg;")) << code;
  EXPECT_TRUE(contains(code,
                       "shape{n_N, {n_D, n_H, n_W}, {(n_D + 2 * n_p - n_k) / 1 + 1, (n_H + 2 * n_p - n_k) / n_k + "
                       "1, (n_W + 2 * n_p - n_k) / n_k + 1},"))
      << code;
  EXPECT_TRUE(contains(code, "{n_k, n_k, n_k}, {1, n_k, n_k}, {n_p, n_p, n_p}, n_C * n_E};")) << code;
}

TEST(WindowEmit, AnNchwAverageStaysOnTheTiledKernels) {
  std::string code = code_of(window_spec(
      "input: f32[N, C, H, W], op = avg, size = 3, stride = 1, over = (H, W), edge = clip",
      "output: f32[N, C, OH, OW]"));
  EXPECT_TRUE(contains(code, "using WindowOp = ucut_window_avg;")) << code;
  EXPECT_TRUE(contains(code, "ucut_window_box_launch<")) << code;
}

}  // namespace
}  // namespace ucut
