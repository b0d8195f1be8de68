// tests/unit/emit/library_emit_test.cpp — emit/memory/library.cpp: each library call says it is one (the
// comment above run_library names the routine and the library), calls its runtime (memop_library_sort.inc on
// CUB's radix sort, memop_library_fft.inc on cuFFT, memop_library_attention.inc on CUTLASS's fused attention)
// with its order, direction, scale or mask, keeps its scratch for the process, and an fft links cuFFT. The rules
// C720–C724 refuse what a call cannot take. tests/golden/emit/memory/{sorting,top_k,FFT,softmax_attention}*.cu pin
// whole files (the MSKB examples).
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

constexpr const char* kAttention =
    "kernel a : sm90a\n  attention(Q: f32[M, D], K: f32[N, D], V: f32[N, E])\n  >> store(Y: f32[M, E])\n";

TEST(LibraryEmit, AttentionRunsCutlassFusedKernelWithItsExtentsByRole) {
  Compilation c = compile_text(kAttention);
  ASSERT_TRUE(c.kernel);
  const std::string& code = c.kernel->code;
  EXPECT_TRUE(contains(code, "// Library call, cutlass: AttentionKernel (CUTLASS's fused multi-head attention, "
                             "examples/41): `Y` = softmax(1/sqrt(D) · `Q`·`K`ᵀ)·`V` in one kernel"))
      << code;
  EXPECT_TRUE(contains(code, "#include \"kernel_forward.h\""));
  EXPECT_TRUE(contains(code, "memop_library_attention.inc"));
  EXPECT_FALSE(contains(code, "device_radix_sort"));
  EXPECT_FALSE(contains(code, "using Key ="));
  // Extents are passed by role (batches, M, N, D, E), whatever order the ABI lists them in; no scale: 1/sqrt(D).
  EXPECT_TRUE(contains(code,
                       "return ucut_library_attention<ElementOut>(t_Q, t_K, t_V, o_Y, 1, n_M, n_N, n_D, n_E, 0.0, "
                       "false, scratch, stream, err, err_len);"))
      << code;
  EXPECT_TRUE(c.kernel->libraries.empty());  // CUTLASS templates compile into the kernel: nothing to link
}

TEST(LibraryEmit, AttentionFoldsLeadingExtentsIntoBatchesAndTakesScaleAndMask) {
  std::string code = code_of(
      "kernel a : sm90a\n  attention(Q: bf16[B, H, S, 64], K: bf16[B, H, S, 64], V: bf16[B, H, S, 64], "
      "scale = 0.125, causal = true)\n  >> store(Y: bf16[B, H, S, 64])\n");
  EXPECT_TRUE(contains(code, "softmax(0.125 · `Q`·`K`ᵀ, causal)·`V`")) << code;
  EXPECT_TRUE(contains(code, "ucut_library_attention<ElementOut>(t_Q, t_K, t_V, o_Y, 1 * n_B * n_H, n_S, n_S, 64, "
                             "64, 0.125, true, scratch,"))
      << code;
}

TEST(LibraryEmit, AttentionRulesNameWhatIsWrong) {
  auto spec = [](const std::string& args, const std::string& store) {
    return "kernel a : sm90a\n  attention(" + args + ")\n  >> store(" + store + ")\n";
  };
  const std::string qkv = "Q: f32[M, D], K: f32[N, D], V: f32[N, E]";
  EXPECT_EQ(error_ids(spec(qkv + ", scale = -1", "Y: f32[M, E]")), std::vector<std::string>{"C720"});
  EXPECT_EQ(error_ids(spec(qkv + ", causal = yes", "Y: f32[M, E]")), std::vector<std::string>{"C720"});
  EXPECT_EQ(error_ids(spec(qkv + ", order = ascending", "Y: f32[M, E]")), std::vector<std::string>{"C720"});
  EXPECT_EQ(error_ids(spec("Q: f32[M, D], K: f32[N, D]", "Y: f32[M, E]")), std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids(spec("Q: f32[M, D], K: f32[N, D2], V: f32[N, E]", "Y: f32[M, E]")),
            std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids(spec("Q: f32[M, D], K: f32[N, D], V: f32[N2, E]", "Y: f32[M, E]")),
            std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids(spec(qkv, "Y: f32[M, N]")), std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids(spec("Q: f32[B, M, D], K: f32[N, D], V: f32[N, E]", "Y: f32[B, M, E]")),
            (std::vector<std::string>{"C721", "C721"}));  // K and V each lack Q's leading extent
  EXPECT_EQ(error_ids(spec("Q: f32[B, M, D], K: f32[C, N, D], V: f32[B, N, E]", "Y: f32[B, M, E]")),
            std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids(spec("Q: f32[M, 6], K: f32[N, 6], V: f32[N, E]", "Y: f32[M, E]")),
            std::vector<std::string>{"C721"});  // 24-byte rows: not whole 16-byte vectors
  EXPECT_EQ(error_ids(spec("Q: f32[M, D] col, K: f32[N, D], V: f32[N, E]", "Y: f32[M, E]")),
            std::vector<std::string>{"C721"});
  EXPECT_EQ(error_ids(spec("Q: f32[M, D], K: bf16[N, D], V: f32[N, E]", "Y: f32[M, E]")),
            std::vector<std::string>{"C723"});
  EXPECT_EQ(error_ids(spec("Q: f16[M, D], K: f16[N, D], V: f16[N, E]", "Y: f16[M, E]")),
            std::vector<std::string>{"C723"});
  EXPECT_EQ(error_ids("kernel a : sm90a\n  attention(" + qkv + ")\n  .with_block(128)\n  >> store(Y: f32[M, E])\n"),
            std::vector<std::string>{"C724"});
  EXPECT_TRUE(error_ids(spec("Q: bf16[H, M, 128], K: bf16[H, N, 128], V: bf16[H, N, 64]", "Y: bf16[H, M, 64]"))
                  .empty());
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
