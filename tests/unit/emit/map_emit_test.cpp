// tests/unit/emit/map_emit_test.cpp — emit/memory/map.cpp: the chain's stages call the functors the GEMM
// epilogues use (epilogues.def, expr_functions.def) and read the operands by name, the vector width is 16
// bytes of the widest type within the vector-read tensors' `align`, an input with the output's extents is
// read densely and a broadcast or sliced one through strides, the kernel and its launch come from
// memop_runtime.inc, and the file is deterministic and carries its spec. The goldens
// (tests/golden/emit/memory/) pin whole files; tests/compile builds them.
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
  EXPECT_TRUE(contains(code, "float x = v_input;"));
  EXPECT_TRUE(contains(code,
                       "// input -> relu -> gelu -> leaky_relu -> clamp -> mish -> "
                       "expr((max(x, 0.5) / sigmoid((-x)))) -> cast(f16) -> output, each element in f32."))
      << code;
}

TEST(MapEmit, OperandsAreReadByName) {
  std::string code = code_of(map_spec("gate: bf16[N], value: bf16[N], beta: f32, alpha: f32",
                                      "  >> leaky_relu(alpha) >> expr(x * sigmoid(beta * gate) * value)\n",
                                      "output: bf16[N]"));
  EXPECT_TRUE(contains(code, "ucut_dense_input<cutlass::bfloat16_t, kVector> t_gate;")) << code;
  EXPECT_TRUE(contains(code, "ucut_dense_input<cutlass::bfloat16_t, kVector> t_value;"));
  EXPECT_TRUE(contains(code, "float s_beta;"));
  EXPECT_TRUE(contains(code, "CUTLASS_DEVICE float apply(float v_gate, float v_value) const {"));
  EXPECT_TRUE(contains(code,
                       "x = cutlass::epilogue::thread::LeakyReLU<float>{}(x, "
                       "cutlass::epilogue::thread::LeakyReLU<float>::Arguments{s_alpha});"));
  EXPECT_TRUE(
      contains(code,
               "x = cutlass::multiplies<float>{}(cutlass::multiplies<float>{}(x, "
               "cutlass::epilogue::thread::Sigmoid<float>{}(cutlass::multiplies<float>{}(s_beta, v_gate))), "
               "v_value);"))
      << code;
  EXPECT_TRUE(contains(code, "for (int j = 0; j < kVector; ++j) y[j] = apply(v_gate[j], v_value[j]);"));
  EXPECT_TRUE(
      contains(code,
               "int run_map(const ElementIn0* t_gate, const ElementIn1* t_value, ElementOut* t_output, "
               "float s_beta, float s_alpha, int64_t n_N, cudaStream_t stream, char* err, size_t "
               "err_len) {"));
  EXPECT_TRUE(contains(code, "map.t_gate = {t_gate};"));
  EXPECT_TRUE(contains(code, "map.s_beta = s_beta;"));
  EXPECT_TRUE(contains(code, "if (!t_value.aligned()) return \"value\";"));
}

TEST(MapEmit, BroadcastInputsAreReadThroughStrides) {
  std::string code = code_of(map_spec("a: f32[M,N], row: f32[M,1], col: f32[N], t: i32[M,N]",
                                      "  >> expr(x * row + col - t)\n", "b: f32[M,N]"));
  EXPECT_TRUE(contains(code, "ucut_dense_input<float, kVector> t_a;")) << code;
  EXPECT_TRUE(contains(code, "ucut_strided_input<float, kVector, 2, 0> t_row;"));
  EXPECT_TRUE(contains(code, "ucut_strided_input<float, kVector, 2, 1> t_col;"));
  EXPECT_TRUE(contains(code, "ucut_dense_input<int32_t, kVector> t_t;"));
  EXPECT_TRUE(contains(code, "map.t_row = {t_row, {n_M, n_N}, {1, 0}};"));
  EXPECT_TRUE(contains(code, "map.t_col = {t_col, {n_M, n_N}, {0, 1}};"));
  EXPECT_TRUE(contains(code,
                       "ucut_map_launch<ElementOut, kVector, kBlock, kItems, kPersistent, Map>(map, t_b, "
                       "n_M * n_N, stream"));
}

TEST(MapEmit, SlicesViewColumnBlocksOfOneCallerTensor) {
  std::string code = code_of(map_spec("x: bf16[B,D] slice(in, 0, 2), g: bf16[B,D] slice(in, 1, 2)",
                                      "  >> silu >> expr(x * g)\n", "out: bf16[B,D]"));
  EXPECT_TRUE(
      contains(code, "int run_map(const ElementIn0* t_in, ElementOut* t_out, int64_t n_B, int64_t n_D, "))
      << code;
  EXPECT_TRUE(contains(code, "map.t_x = {t_in, {n_B, n_D}, {2 * n_D, 1}};"));
  EXPECT_TRUE(contains(code, "map.t_g = {t_in + 1 * n_D, {n_B, n_D}, {2 * n_D, 1}};"));
  EXPECT_TRUE(contains(code, "ucut_strided_input<cutlass::bfloat16_t, kVector, 2, 1> t_g;"));
}

TEST(MapEmit, ColumnMajorMapsWalkTheOutputInMemoryOrder) {
  std::string code = code_of(map_spec("a: f32[M,N] col, v: f32[N]", "  >> expr(x + v)\n", "b: f32[M,N] col"));
  EXPECT_TRUE(contains(code, "ucut_dense_input<float, kVector> t_a;")) << code;
  EXPECT_TRUE(contains(code, "map.t_v = {t_v, {n_N, n_M}, {1, 0}};")) << code;
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
  // The widest input counts; a repeated one's `align` does not (it is read one element per vector).
  EXPECT_TRUE(contains(code_of(map_spec("p: bf16[N], t: i32[N]", "  >> expr(x * t)\n", "l: bf16[N]")),
                       "constexpr int kVector = 4;"));
  EXPECT_TRUE(
      contains(code_of(map_spec("a: bf16[M,N], r: bf16[M,1] align(1)", "  >> expr(x * r)\n", "b: bf16[M,N]")),
               "constexpr int kVector = 8;"));
}

TEST(MapEmit, TunablesBecomeTheLaunchsConstants) {
  std::string defaults = code_of(map_spec("input: bf16[N]", "", "output: bf16[N]"));
  EXPECT_TRUE(contains(defaults, "constexpr int kVector = 8;")) << defaults;
  EXPECT_TRUE(contains(defaults, "constexpr int kBlock = 256;"));
  EXPECT_TRUE(contains(defaults, "constexpr int kItems = 1;"));
  EXPECT_TRUE(contains(defaults, "constexpr bool kPersistent = true;"));
  std::string tuned = code_of(
      "kernel k : sm90a\n  map(input: bf16[N])\n    "
      ".with_vector(2).with_block(128).with_items(8).with_grid(auto)\n"
      "  >> relu\n  >> store(output: bf16[N])\n");
  EXPECT_TRUE(contains(tuned, "constexpr int kVector = 2;  // elements per access: 4 bytes of `output`"))
      << tuned;
  EXPECT_TRUE(contains(tuned, "constexpr int kBlock = 128;"));
  EXPECT_TRUE(contains(tuned, "constexpr int kItems = 8;"));
  EXPECT_TRUE(
      contains(tuned, "constexpr bool kPersistent = false;  // enough blocks to cover the output once"));
}

TEST(MapEmit, KernelAndLaunchComeFromTheRuntime) {
  std::string code = code_of(map_spec("input: bf16[N]", "  >> tanh\n", "out: bf16[N]"));
  EXPECT_TRUE(contains(code, "// ---- begin template memop_runtime.inc")) << code;
  EXPECT_TRUE(contains(code, "// ---- begin template kernel_prologue.inc"));
  EXPECT_TRUE(contains(code, "using ElementIn0 = cutlass::bfloat16_t;"));
  EXPECT_TRUE(contains(code,
                       "int run_map(const ElementIn0* t_input, ElementOut* t_out, int64_t n_N, cudaStream_t "
                       "stream, char* err, size_t err_len) {"));
  EXPECT_TRUE(contains(code, "map.t_input = {t_input};"));
  EXPECT_TRUE(contains(
      code,
      "return ucut_map_launch<ElementOut, kVector, kBlock, kItems, kPersistent, Map>(map, t_out, n_N, "
      "stream, err, err_len);"));
  // Its C entry is the family's (ucut_memop_api over run_map), not a GEMM's ucut_kernel_api.
  EXPECT_TRUE(contains(code, "return run_map(static_cast<const ElementIn0*>(a->inputs[0]), "
                             "static_cast<ElementOut*>(a->outputs[0]), a->extents[0], static_cast<cudaStream_t>(stream), "
                             "err, err_len);"));
  EXPECT_FALSE(contains(code, "const ucut_kernel_api kApi"));
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
