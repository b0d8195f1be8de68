// tests/unit/sol/memop_work_test.cpp — count_work for a memory-bound family kernel (sol/roofline.h): MSKB's
// RELU at its largest size, a chain's FLOPs per element, the caller's dtypes, every input at its own extents
// (a second, broadcast input as the map grows them), and the error for a size the kernel needs but is not
// given.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "compiler/pipeline.h"
#include "sol/roofline.h"

namespace ucut::sol {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("map.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

TEST(MemOpWork, ReluBf16AtMskbsLargestSize) {
  MemOpConfig m =
      lowered("kernel relu : sm90a\n  map(input: bf16[N])\n  >> relu\n  >> store(output: bf16[N])\n");
  WorkCount w = count_work(m, {{"N", 262144}});
  EXPECT_EQ(w.bytes, 2.0 * 262144 * 2);  // Appendix A.2: 1.049e6, the same as Task::work
  EXPECT_EQ(w.epilogue_flops, 262144);   // relu: 1 per element; the store moves data only
  EXPECT_EQ(w.gemm_flops, 0);
  ASSERT_EQ(w.tensors.size(), 2u);
  EXPECT_EQ(w.tensors[0].name, "input");
  EXPECT_EQ(w.tensors[0].role, TrafficRole::read);
  EXPECT_EQ(w.tensors[1].name, "output");
  EXPECT_EQ(w.tensors[1].role, TrafficRole::write);
}

TEST(MemOpWork, ChainFlopsAndDtypesPerTensor) {
  MemOpConfig m = lowered(
      "kernel k : sm80\n  map(x: f16[M,N])\n  >> leaky_relu(0.1) >> expr(x * 0.5 + 1) >> cast(bf16)\n"
      "  >> store(y: f32[M,N])\n");
  WorkCount w = count_work(m, {{"M", 3}, {"N", 5}});
  EXPECT_EQ(w.bytes, 15 * 2 + 15 * 4);        // f16 in, f32 out
  EXPECT_EQ(w.epilogue_flops, (1 + 2) * 15);  // leaky_relu 1, the expr's * and + (x and constants count none)
  EXPECT_NEAR(w.intensity(), 45.0 / 90, 1e-12);
}

TEST(MemOpWork, AttentionCountsBothProductsAsTensorCoreWork) {
  // MSKB softmax_attention's largest case: Q·Kᵀ is 2·M·N·D, P·V 2·M·N·E; Q, K, V read once and Y written once
  // (the fused kernel keeps the scores on chip), per (batch, head) matrix.
  MemOpConfig m = lowered(
      "kernel a : sm90a\n  attention(Q: f32[H, M, D], K: f32[H, N, D], V: f32[H, N, E])\n"
      "  >> store(Y: f32[H, M, E])\n");
  WorkCount w = count_work(m, {{"H", 2}, {"M", 1024}, {"N", 2048}, {"D", 4096}, {"E", 2048}});
  EXPECT_EQ(w.gemm_flops, 2.0 * 2 * 1024 * 2048 * (4096 + 2048));
  EXPECT_EQ(w.bytes, 2.0 * 4 * (1024 * 4096 + 2048 * 4096 + 2048 * 2048 + 1024 * 2048));
}

TEST(MemOpWork, LibraryCallsWriteEveryOutput) {
  // A topk writes its k values and their i32 indices; an fft both planar parts.
  MemOpConfig topk = lowered("kernel t : sm90a\n  topk(input: f32[N], k = k)\n  >> store(v: f32[k], i: i32[k])\n");
  WorkCount t = count_work(topk, {{"N", 1000}, {"k", 10}});
  EXPECT_EQ(t.bytes, 1000.0 * 4 + 10 * 4 + 10 * 4);
  ASSERT_EQ(t.tensors.size(), 3u);
  EXPECT_EQ(t.tensors[2].name, "i");
  MemOpConfig fft = lowered(
      "kernel f : sm90a\n  fft(re: bf16[N], im: bf16[N])\n  >> store(out_re: bf16[N], out_im: bf16[N])\n");
  EXPECT_EQ(count_work(fft, {{"N", 256}}).bytes, 4 * 256.0 * 2);
}

TEST(MemOpWork, EveryInputAtItsOwnExtents) {
  // The map grows several inputs with broadcasting (issue 36 A2): a bias over the rows is read once at its
  // size.
  MemOpConfig m = lowered("kernel k : sm90a\n  map(x: bf16[M,N])\n  >> relu\n  >> store(y: bf16[M,N])\n");
  TensorDecl bias = m.inputs.front();
  bias.name.value = "bias";
  bias.dtype.value = DType::f32;
  bias.dims.erase(bias.dims.begin());  // [N]
  m.inputs.push_back(bias);
  WorkCount w = count_work(m, {{"M", 1024}, {"N", 256}});
  EXPECT_EQ(w.bytes, 1024.0 * 256 * 2 + 256 * 4 + 1024.0 * 256 * 2);
  EXPECT_EQ(w.epilogue_flops, 1024.0 * 256);  // per output element, not per input
  ASSERT_EQ(w.tensors.size(), 3u);
  EXPECT_EQ(w.tensors[1].name, "bias");
  EXPECT_EQ(w.tensors[1].elements, 256);
}

TEST(MemOpWork, AMissingSizeNamesTheTensorAndSymbol) {
  MemOpConfig m =
      lowered("kernel relu : sm90a\n  map(input: bf16[N])\n  >> relu\n  >> store(output: bf16[N])\n");
  try {
    count_work(m, {{"M", 4}});
    FAIL() << "no size for N";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "tensor `input` has extent `N`, which the sizes do not give");
  }
}

}  // namespace
}  // namespace ucut::sol
