// tests/unit/emit/library_emit_test.cpp — emit/memory/library.cpp: each library call says it is one (the
// comment above run_library names the routine and the library), calls its runtime (memop_library_sort.inc on
// CUB's radix sort, memop_library_fft.inc on cuFFT) with its order or direction, keeps its scratch for the
// process, and an fft links cuFFT. The rules C720–C724 refuse what a call cannot take.
// tests/golden/emit/memory/{sorting,top_k,FFT}*.cu pin whole files (the MSKB examples).
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::compile_text;
using test::contains;
using test::error_ids;

TEST(LibraryEmit, SortInPlaceCallsCubOnItsOwnPointerTwice) {
  std::string code = code_of("kernel s : sm90a\n  sort(data: bf16[N])\n");
  EXPECT_TRUE(contains(code,
                       "// Library call, cub: cub::DeviceRadixSort::SortKeys (CUB): `data` sorted ascending, "
                       "in place."))
      << code;
  EXPECT_TRUE(contains(code, "#include <cub/device/device_radix_sort.cuh>"));
  EXPECT_FALSE(contains(code, "cufft"));
  EXPECT_TRUE(contains(code,
                       "int run_library(const ElementIn0* t_data, ElementOut* o_data, int64_t n_N, "
                       "cudaStream_t stream, char* err, size_t err_len)"))
      << code;
  EXPECT_TRUE(contains(code, "static ucut_scratch scratch;"));
  EXPECT_TRUE(contains(code, "using Key = typename ucut_native<ElementOut>::type;"));
  EXPECT_TRUE(contains(code,
                       "return ucut_library_sort<Key, false>(reinterpret_cast<const Key*>(t_data), "
                       "reinterpret_cast<Key*>(o_data), n_N, scratch, stream, err, err_len);"))
      << code;
  EXPECT_TRUE(compile_text("kernel s : sm90a\n  sort(data: f32[N])\n").kernel->libraries.empty());
}

TEST(LibraryEmit, DescendingSortPicksTheDescendingCall) {
  std::string code =
      code_of("kernel s : sm90a\n  sort(x: f32[N], order = descending)\n  >> store(y: f32[N])\n");
  EXPECT_TRUE(contains(code, "SortKeysDescending (CUB): `x` sorted descending into `y`")) << code;
  EXPECT_TRUE(contains(code,
                       "ucut_library_sort<Key, true>(reinterpret_cast<const Key*>(t_x), "
                       "reinterpret_cast<Key*>(o_y), n_N,"))
      << code;
}

TEST(LibraryEmit, TopkSortsPairsAndStoresBothOutputs) {
  std::string code =
      code_of("kernel t : sm90a\n  topk(input: f32[N], k = k)\n  >> store(v: f32[k], i: i32[k])\n");
  EXPECT_TRUE(contains(code, "cub::DeviceRadixSort::SortPairsDescending (CUB): the `k` largest of `input`"))
      << code;
  EXPECT_TRUE(contains(code, "using ElementOut1 = int32_t;")) << code;
  EXPECT_TRUE(contains(code,
                       "int run_library(const ElementIn0* t_input, ElementOut* o_v, ElementOut1* o_i, "
                       "int64_t n_k, int64_t n_N, cudaStream_t stream"))
      << code;
  EXPECT_TRUE(contains(code, "static ucut_positions positions;"));
  EXPECT_TRUE(contains(code,
                       "ucut_library_topk<Key>(reinterpret_cast<const Key*>(t_input), "
                       "reinterpret_cast<Key*>(o_v), o_i, n_N, n_k, scratch, positions,"))
      << code;
}

TEST(LibraryEmit, FftCallsCufftAndLinksIt) {
  Compilation c = compile_text(
      "kernel f : sm90a\n  fft(re: bf16[N], im: bf16[N], direction = inverse)\n"
      "  >> store(out_re: bf16[N], out_im: bf16[N])\n");
  ASSERT_TRUE(c.kernel);
  const std::string& code = c.kernel->code;
  EXPECT_TRUE(contains(code, "// Library call, cufft: cufftExecC2C (cuFFT): the inverse DFT")) << code;
  EXPECT_TRUE(contains(code, "#include <cufft.h>"));
  EXPECT_FALSE(contains(code, "device_radix_sort"));
  EXPECT_TRUE(contains(code, "static ucut_fft_plans plans;"));
  EXPECT_TRUE(
      contains(code,
               "return ucut_library_fft<ElementOut, CUFFT_INVERSE>(t_re, t_im, o_out_re, o_out_im, n_N, "
               "scratch, plans, stream, err, err_len);"))
      << code;
  EXPECT_EQ(c.kernel->libraries, std::vector<std::string>{"cufft"});
}

TEST(LibraryEmit, EachRuleRefusesWhatACallCannotTake) {
  EXPECT_EQ(error_ids("kernel s : sm90a\n  sort(data: f32[N], order = up)\n"),
            std::vector<std::string>{"C720"});
  EXPECT_EQ(error_ids("kernel s : sm90a\n  sort(data: f32[N], k = k)\n"), std::vector<std::string>{"C720"});
  EXPECT_EQ(error_ids("kernel t : sm90a\n  topk(input: f32[N])\n  >> store(v: f32[k], i: i32[k])\n"),
            std::vector<std::string>{"C720"});
  EXPECT_EQ(error_ids("kernel f : sm90a\n  fft(re: f32[N], im: f32[M])\n  >> store(a: f32[N], b: f32[N])\n"),
            std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids("kernel t : sm90a\n  topk(input: f32[N], k = k)\n  >> store(v: f32[N], i: i32[k])\n"),
            std::vector<std::string>{"C722"});
  EXPECT_EQ(error_ids("kernel t : sm90a\n  topk(input: f32[N], k = k)\n  >> store(v: bf16[k], i: i32[k])\n"),
            std::vector<std::string>{"C723"});
  EXPECT_EQ(error_ids("kernel s : sm90a\n  sort(data: f32[N])\n  .with_vector(4)\n"),
            std::vector<std::string>{"C724"});
  EXPECT_EQ(error_ids("kernel f : sm90a\n  fft(re: f32[N], im: f32[N])\n"), std::vector<std::string>{"L014"});
  EXPECT_EQ(error_ids("kernel f : sm90a\n  fft(re: f32[N], im: f32[N])\n  >> store(re: f32[N], b: f32[N])\n"),
            std::vector<std::string>{"C411"});
}

}  // namespace
}  // namespace ucut
