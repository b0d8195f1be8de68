// tests/unit/emit/scan_emit_test.cpp — emit/memory/scan.cpp: the value of an element is `of` over the inputs there,
// the op picks the combining functor, the flags and tunables reach the launch, the chain applies to each scanned
// value, and the kernel scans on cub::BlockScan with cub::BlockReduce partials in the translation unit's own workspace
// (memop_scan.inc, no cub::DeviceScan). tests/golden/emit/memory/scan_rows_bf16.cu pins a whole file.
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string scan_spec(const std::string& operands, const std::string& rest = "",
                      const std::string& out = "output: f32[N]") {
  return "kernel k : sm90a\n  scan(" + operands + ")\n" + rest + "  >> store(" + out + ")\n";
}

TEST(ScanEmit, TheValueIsOfOverTheInputsAndTheOpPicksTheFunctor) {
  std::string code = code_of(scan_spec("X: bf16[N], Y: bf16[N], of = X * Y, op = sum", "", "output: bf16[N]"));
  EXPECT_TRUE(contains(code, "CUTLASS_DEVICE float value(float v_X, float v_Y) const")) << code;
  EXPECT_TRUE(contains(code, "return cutlass::multiplies<float>{}(v_X, v_Y);")) << code;
  EXPECT_TRUE(contains(code, "using ScanOp = ucut_scan_sum;"));
  EXPECT_TRUE(contains(code, "constexpr int kVector = 8;"));
  EXPECT_TRUE(contains(code, "cub::BlockScan<float, Threads>"));
  EXPECT_TRUE(contains(code, "__device__ ucut_scan_workspace<kMaxSegments> workspace;"));
  EXPECT_TRUE(contains(code, "int run_scan(const ElementIn0* t_X, const ElementIn1* t_Y, ElementOut* t_output, "
                             "int64_t n_N, cudaStream_t stream, char* err, size_t err_len)"))
      << code;
  EXPECT_FALSE(contains(code, "DeviceScan<"));
  EXPECT_FALSE(contains(code, "cub::DeviceScan::"));
}

TEST(ScanEmit, EachOpHasItsFunctor) {
  EXPECT_TRUE(contains(code_of(scan_spec("X: f32[N], op = prod")), "using ScanOp = ucut_scan_prod;"));
  EXPECT_TRUE(contains(code_of(scan_spec("X: f32[N], op = max")), "using ScanOp = ucut_scan_max;"));
  EXPECT_TRUE(contains(code_of(scan_spec("X: f32[N], op = min")), "using ScanOp = ucut_scan_min;"));
}

TEST(ScanEmit, FlagsRowsAndTheChainReachTheLaunch) {
  std::string code = code_of(scan_spec("X: f32[B,N], a: f32, op = sum, exclusive = true, reverse = true",
                                       "  >> expr(x * a)\n  >> relu\n", "Y: f32[B,N]"));
  EXPECT_TRUE(contains(code, "constexpr bool kExclusive = true;")) << code;
  EXPECT_TRUE(contains(code, "constexpr bool kReverse = true;"));
  EXPECT_TRUE(contains(code, "x = cutlass::multiplies<float>{}(x, s_a);"));
  EXPECT_TRUE(contains(code, "x = cutlass::epilogue::thread::ReLu<float>{}(x);")) << code;
  EXPECT_TRUE(contains(code, "(body, work, t_Y, n_B, n_N, stream, err, err_len);")) << code;
  std::string plain = code_of(scan_spec("X: f32[N], op = sum"));
  EXPECT_TRUE(contains(plain, "constexpr bool kExclusive = false;"));
  EXPECT_TRUE(contains(plain, "(body, work, t_output, 1, n_N, stream, err, err_len);")) << plain;
}

TEST(ScanEmit, TheLaunchTakesTheTunables) {
  std::string code = code_of(
      "kernel k : sm90a\n  scan(X: f32[N], op = sum)\n"
      "    .with_vector(2).with_block(512).with_items(4).with_grid(auto)\n"
      "  >> store(Y: f32[N])\n");
  EXPECT_TRUE(contains(code, "constexpr int kVector = 2;")) << code;
  EXPECT_TRUE(contains(code, "constexpr int kThreads = 512;"));
  EXPECT_TRUE(contains(code, "constexpr int kItems = 4;"));
  EXPECT_TRUE(contains(code, "constexpr bool kPersistent = false;"));
  EXPECT_TRUE(contains(code,
                       "ucut_scan_launch<ElementOut, kVector, kThreads, kItems, kPersistent, kMaxSegments, "
                       "kExclusive, kReverse, ScanOp, Body>"));
}

TEST(ScanEmit, TheFileIsDeterministic) {
  const std::string spec = scan_spec("X: bf16[B,N], op = max, reverse = true", "", "Y: bf16[B,N]");
  EXPECT_EQ(code_of(spec), code_of(spec));
}

TEST(LayoutEmit, AReversedInputReadsItsCallersTensorBackwards) {
  std::string code =
      code_of("kernel k : sm90a\n  map(r: bf16[N] reverse(input))\n  >> store(output: bf16[N])\n");
  EXPECT_TRUE(contains(code, "// ---- begin template memop_reverse.inc")) << code;
  EXPECT_TRUE(contains(code, "ucut_reversed_input<cutlass::bfloat16_t, kVector> t_r;")) << code;
  EXPECT_TRUE(contains(code, "map.t_r = {t_input, n_N};")) << code;
  EXPECT_TRUE(contains(code, "int run_map(const ElementIn0* t_input, ElementOut* t_output, int64_t n_N,"));
  EXPECT_TRUE(contains(code, "constexpr int kVector = 8;"));
  EXPECT_FALSE(contains(code, "memop_transpose.inc"));
  std::string plain = code_of("kernel k : sm90a\n  map(input: bf16[N])\n  >> store(output: bf16[N])\n");
  EXPECT_FALSE(contains(plain, "memop_reverse.inc")) << "only a kernel with a reversed input pastes it";
}

TEST(LayoutEmit, AnOutputInTheOtherLayoutTransposesInTiles) {
  std::string code = code_of("kernel k : sm90a\n  map(A: f32[M,N])\n  >> store(B: f32[M,N] col)\n");
  EXPECT_TRUE(contains(code, "// ---- begin template memop_transpose.inc")) << code;
  EXPECT_TRUE(contains(code, "map.t_A = {t_A};")) << code;
  EXPECT_TRUE(contains(code,
                       "return ucut_transpose_launch<ElementOut, kVector, kBlock, kPersistent, Map>(map, t_B, 1, "
                       "n_M, n_N, stream, err, err_len);"))
      << code;
  EXPECT_FALSE(contains(code, "ucut_map_launch<"));
  // A column-major input: its memory is N × M.
  std::string col = code_of("kernel k : sm90a\n  map(A: f32[L,M,N] col)\n  >> store(B: f32[L,M,N])\n");
  EXPECT_TRUE(contains(col, "(map, t_B, n_L, n_N, n_M, stream, err, err_len);")) << col;
}

}  // namespace
}  // namespace ucut
