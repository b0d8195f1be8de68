// tests/unit/emit/map_emit_test.cpp — emit/memory/map.cpp: the chain's stages call the functors the GEMM
// epilogues use (epilogues.def, expr_functions.def), the vector width is 16 bytes of the wider type within
// both tensors' `align`, the kernel and its launch come from memop_runtime.inc, and the file is deterministic
// and carries its spec. The goldens (tests/golden/emit/memory/) pin whole files; tests/compile builds them.
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string map_spec(const std::string& in, const std::string& chain, const std::string& out,
                     const std::string& arch = "sm90a") {
  return "kernel k : " + arch + "\n  map(" + in + ")\n" + chain + "  >> store(" + out + ")\n";
}

TEST(MapEmit, StagesCallTheEpilogueFunctors) {
  std::string code = code_of(map_spec("input: bf16[N]",
                                      "  >> relu >> gelu >> leaky_relu(0.25) >> clamp(-1, 1) >> mish\n"
                                      "  >> expr(max(x, 0.5) / sigmoid(-x)) >> cast(f16)\n",
                                      "output: f32[N]"));
  EXPECT_TRUE(contains(code, "x = cutlass::epilogue::thread::ReLu<float>{}(x);")) << code;
  EXPECT_TRUE(contains(code, "x = cutlass::epilogue::thread::GELU<float>{}(x);"));
  EXPECT_TRUE(contains(code,
                       "x = cutlass::epilogue::thread::LeakyReLU<float>{}(x, "
                       "cutlass::epilogue::thread::LeakyReLU<float>::Arguments{0.25f});"));
  EXPECT_TRUE(contains(code, "cutlass::epilogue::thread::Clamp<float>::Arguments{-1.0f, 1.0f}"));
  EXPECT_TRUE(contains(code, "x = ucut_mish<float>{}(x);"));
  EXPECT_TRUE(contains(code,
                       "x = cutlass::divides<float>{}(ucut_max<float>{}(x, 0.5f), "
                       "cutlass::epilogue::thread::Sigmoid<float>{}(cutlass::negate<float>{}(x)));"))
      << code;
  EXPECT_TRUE(contains(code, "x = float(cutlass::NumericConverter<cutlass::half_t, float>{}(x));"));
  EXPECT_TRUE(contains(code,
                       "// input -> relu -> gelu -> leaky_relu -> clamp -> mish -> "
                       "expr((max(x, 0.5) / sigmoid((-x)))) -> cast(f16) -> output, each element in f32."))
      << code;
}

TEST(MapEmit, VectorsAreSixteenBytesOfTheWiderTypeWithinAlign) {
  EXPECT_TRUE(
      contains(code_of(map_spec("input: bf16[N]", "", "output: bf16[N]")), "constexpr int kVector = 8;"));
  EXPECT_TRUE(
      contains(code_of(map_spec("input: f32[N]", "", "output: f32[N]")), "constexpr int kVector = 4;"));
  EXPECT_TRUE(
      contains(code_of(map_spec("input: f16[N]", "", "output: f32[N]")), "constexpr int kVector = 4;"));
  EXPECT_TRUE(contains(code_of(map_spec("input: bf16[N] align(2)", "", "output: bf16[N]")),
                       "constexpr int kVector = 2;"));
  EXPECT_TRUE(contains(code_of(map_spec("input: f32[N]", "", "output: f32[N] align(1)")),
                       "constexpr int kVector = 1;"));
}

TEST(MapEmit, KernelAndLaunchComeFromTheRuntime) {
  std::string code = code_of(map_spec("input: bf16[N]", "  >> tanh\n", "out: bf16[N]"));
  EXPECT_TRUE(contains(code, "// ---- begin template memop_runtime.inc")) << code;
  EXPECT_TRUE(contains(code, "// ---- begin template kernel_prologue.inc"));
  EXPECT_TRUE(contains(code, "using ElementIn = cutlass::bfloat16_t;"));
  EXPECT_TRUE(contains(code,
                       "int run_map(const ElementIn* in, ElementOut* out, int64_t n, cudaStream_t stream, "
                       "char* err, size_t err_len) {"));
  EXPECT_TRUE(
      contains(code,
               "return ucut_map_launch<ElementIn, ElementOut, kVector, Chain>(in, out, n, stream, err, "
               "err_len);"));
  EXPECT_FALSE(contains(code, "ucut_kernel_api")) << "a map kernel has no kernel-ABI entry yet";
}

TEST(MapEmit, FileIsDeterministicAndCarriesItsSpec) {
  std::string spec = map_spec("input: f32[N]", "  >> sigmoid\n", "out: f32[N]", "sm80");
  Compilation a = test::compile_text(spec), b = test::compile_text(spec);
  ASSERT_TRUE(a.kernel && b.kernel);
  EXPECT_EQ(a.kernel->code, b.kernel->code);
  EXPECT_TRUE(contains(a.kernel->code, "//   map(input: f32[N])")) << a.kernel->code;
  EXPECT_EQ(a.kernel->gencode, "arch=compute_80,code=[sm_80,compute_80]");
  EXPECT_EQ(a.kernel->kernel_namespace.rfind("ucut_mem_", 0), 0u);
  EXPECT_TRUE(contains(a.kernel->code, "namespace " + a.kernel->kernel_namespace + " {"));
  EXPECT_EQ(test::compile_text(map_spec("input: f32[N]", "  >> sigmoid\n", "out: f32[N]")).kernel->gencode,
            "arch=compute_90a,code=sm_90a");
}

}  // namespace
}  // namespace ucut
