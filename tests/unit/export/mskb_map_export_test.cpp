// tests/unit/export/mskb_map_export_test.cpp — `export --mskb` of a `map` spec
// (export/mskb_map_launcher.cpp): the launcher has MSKB's exact declaration and passes the tensors, scalars
// and extents bound by name to the kernel's run function; the BF16 launchers' own parameter names or the FP32
// ones bind; a slice's caller tensor binds once; every spec of examples/mskb/ exports. Refusals (X007) and
// their places are the goldens' (tests/golden/export/X007.ucut).
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

interop::ExportResult export_map(const std::string& task, const std::string& spec) {
  interop::ExportResult r = interop::export_mskb(SourceFile("map.ucut", spec), task);
  std::string errors;
  for (const Diagnostic& d : r.comp.diags.diagnostics())
    errors += std::string(rule_info(d.rule).code) + " " + d.message;
  EXPECT_TRUE(r.ok()) << errors;
  return r;
}

std::string relu(const std::string& type, const std::string& out = "output") {
  return "kernel relu : sm90a\n  map(input: " + type + "[N])\n  >> relu\n  >> store(" + out + ": " + type +
         "[N])\n";
}

TEST(MskbMapExport, LauncherCallsTheKernelWithTheBoundTensors) {
  interop::ExportResult r = export_map("RELU_bf16", relu("bf16"));
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].name, "RELU_bf16.cu");
  const std::string& text = r.files[0].text;
  const std::string& ns = r.comp.kernel->kernel_namespace;
  EXPECT_NE(text.find(r.comp.kernel->code), std::string::npos) << "the kernel comes first, whole";
  EXPECT_NE(
      text.find("extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* output, const __nv_bfloat16* input, "
                "int N) {"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("  namespace kernel = " + ns + ";\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("if (kernel::run_map(reinterpret_cast<const kernel::ElementIn0*>(input), "
                "reinterpret_cast<kernel::ElementOut*>(output), int64_t(N), nullptr, err, sizeof err) != 0)"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("std::fprintf(stderr, \"RELU_bf16_optimized: %s\\n\", err);"), std::string::npos);
  EXPECT_NE(text.find("cudaDeviceSynchronize();"), std::string::npos);
}

TEST(MskbMapExport, TheTaskNamePicksTheLauncherOfTheSpecsType) {
  EXPECT_EQ(export_map("RELU", relu("f32")).files[0].name, "RELU.cu");
  EXPECT_EQ(export_map("RELU", relu("bf16")).files[0].name, "RELU_bf16.cu");
  EXPECT_EQ(export_map("RELU_bf16", relu("bf16")).files[0].name, "RELU_bf16.cu");
}

TEST(MskbMapExport, BothLaunchersNamesBind) {
  // gelu's FP32 launcher calls its output `output`, the BF16 one `out`: either binds the BF16 launcher's
  // first parameter.
  for (const char* out : {"out", "output"}) {
    interop::ExportResult r = export_map("gelu_bf16", relu("bf16", out));
    EXPECT_NE(r.files[0].text.find("ElementOut*>(out)"), std::string::npos) << out;
  }
}

TEST(MskbMapExport, ScalarsPassInF32) {
  interop::ExportResult r =
      export_map("matrix_scalar_mul_bf16",
                 read_text(source_dir() / "examples" / "mskb" / "matrix_scalar_mul_bf16.ucut"));
  EXPECT_NE(r.files[0].text.find("reinterpret_cast<kernel::ElementOut*>(B), __bfloat162float(scalar), "
                                 "int64_t(M), int64_t(N), nullptr"),
            std::string::npos)
      << r.files[0].text;
  interop::ExportResult f =
      export_map("SwiGLU", read_text(source_dir() / "examples" / "mskb" / "SwiGLU.ucut"));
  EXPECT_NE(f.files[0].text.find("reinterpret_cast<kernel::ElementOut*>(output), beta, int64_t(N), nullptr"),
            std::string::npos)
      << f.files[0].text;
}

TEST(MskbMapExport, SlicesPassTheirTensorOnce) {
  interop::ExportResult r =
      export_map("silu_and_mul", read_text(source_dir() / "examples" / "mskb" / "silu_and_mul.ucut"));
  EXPECT_NE(
      r.files[0].text.find("kernel::run_map(reinterpret_cast<const kernel::ElementIn0*>(in), "
                           "reinterpret_cast<kernel::ElementOut*>(out), int64_t(B), int64_t(D), nullptr"),
      std::string::npos)
      << r.files[0].text;
}

TEST(MskbMapExport, AnInputMayBePassedWithoutConst) {
  // matrix_copy passes its input as `float* A`: the kernel only reads it.
  interop::ExportResult r =
      export_map("matrix_copy", read_text(source_dir() / "examples" / "mskb" / "matrix_copy.ucut"));
  EXPECT_NE(r.files[0].text.find("void matrix_copy_optimized(float* A, float* B, int M, int N)"),
            std::string::npos)
      << r.files[0].text;
}

TEST(MskbMapExport, EveryExampleExportsAsItsLauncher) {
  int exported = 0;
  for (const fs::path& spec : files_with_ext(source_dir() / "examples" / "mskb", ".ucut")) {
    std::string name = spec.stem().string();
    interop::ExportResult r = export_map(name, read_text(spec));
    ASSERT_EQ(r.files.size(), 1u) << spec;
    EXPECT_EQ(r.files[0].name, name + ".cu");
    EXPECT_NE(r.files[0].text.find("void " + name + "_optimized("), std::string::npos);
    ++exported;
  }
  // The maps RELU, leaky_RELU, elu, selu, gelu, sigmoid, row_tanh, vector_add, matrix_scalar_mul, SwiGLU,
  // silu_and_mul, hinge_loss, matrix_copy and rope (rotary), the reduces dot_product, MSE_loss, cross_entropy_loss,
  // monte_carlo_int and simpson_int, the per-axis reduce matrix_vector_mul, the rownorms softmax, layer_norm,
  // rms_norm and batch_norm, the scan prefix_sum, the layout maps matrix_transpose and reverse_array, the windows
  // stencil_2d, stencil_3d, conv_1d, conv_2d and max_pooling_2d, the library calls sorting, top_k, FFT and
  // softmax_attention, and the sparse products spmv_{csr,coo,csc,ell} and spmm_{csr,coo,csc,ell}, in FP32 and BF16.
  EXPECT_EQ(exported, 88);
}

}  // namespace
}  // namespace ucut::golden
