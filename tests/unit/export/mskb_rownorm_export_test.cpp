// tests/unit/export/mskb_rownorm_export_test.cpp — `export --mskb` of the `rownorm` specs of examples/mskb/
// (export/mskb_map_launcher.cpp): each of the 8 launchers (softmax, layer_norm, rms_norm, batch_norm in FP32 and
// BF16) has MSKB's declaration and calls the kernel's run_rownorm with the tensors, the epsilon and the sizes bound
// by name.
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

TEST(MskbRownormExport, EveryNormalizationLauncherBinds) {
  struct Expected {
    const char* task;
    const char* declaration;
    const char* call;
  };
  const Expected rows[] = {
      {"softmax", "void softmax_optimized(float* out, const float* input, int N, int C) {",
       "run_rownorm(reinterpret_cast<const kernel::ElementIn0*>(input), reinterpret_cast<kernel::ElementOut*>(out), "
       "int64_t(N), int64_t(C), nullptr"},
      {"softmax_bf16",
       "void softmax_bf16_optimized(__nv_bfloat16* out, const __nv_bfloat16* input, int N, int C) {",
       "run_rownorm(reinterpret_cast<const kernel::ElementIn0*>(input), reinterpret_cast<kernel::ElementOut*>(out), "
       "int64_t(N), int64_t(C), nullptr"},
      {"layer_norm",
       "void layer_norm_optimized(float* output, const float* input, const float* weight, const float* bias, "
       "const float epsilon, const int N) {",
       "reinterpret_cast<kernel::ElementOut*>(output), epsilon, int64_t(N), nullptr"},
      {"layer_norm_bf16", "void layer_norm_bf16_optimized(__nv_bfloat16* output,",
       "reinterpret_cast<kernel::ElementOut*>(output), epsilon, int64_t(N), nullptr"},
      {"rms_norm", "void rms_norm_optimized(float* output, const float* input,",
       "reinterpret_cast<kernel::ElementOut*>(output), epsilon, int64_t(N), nullptr"},
      {"rms_norm_bf16", "void rms_norm_bf16_optimized(__nv_bfloat16* output,",
       "reinterpret_cast<kernel::ElementOut*>(output), epsilon, int64_t(N), nullptr"},
      {"batch_norm",
       "void batch_norm_optimized(float* output, const float* input, const float* gamma, const float* beta, "
       "const float epsilon, const int N, const int C) {",
       "run_rownorm(reinterpret_cast<const kernel::ElementIn0*>(input), "
       "reinterpret_cast<const kernel::ElementIn1*>(gamma), reinterpret_cast<const kernel::ElementIn2*>(beta), "
       "reinterpret_cast<kernel::ElementOut*>(output), epsilon, int64_t(N), int64_t(C), nullptr"},
      {"batch_norm_bf16", "void batch_norm_bf16_optimized(__nv_bfloat16* output,",
       "reinterpret_cast<kernel::ElementOut*>(output), epsilon, int64_t(N), int64_t(C), nullptr"},
  };
  for (const Expected& e : rows) {
    SCOPED_TRACE(e.task);
    interop::ExportResult r = export_mskb_example(e.task);
    ASSERT_EQ(r.files.size(), 1u);
    const std::string& text = r.files[0].text;
    EXPECT_EQ(r.files[0].name, std::string(e.task) + ".cu");
    EXPECT_NE(text.find(std::string("extern \"C\" ") + e.declaration), std::string::npos) << text;
    EXPECT_NE(text.find(e.call), std::string::npos) << text;
    EXPECT_EQ(text.find("run_map"), std::string::npos);
  }
}

}  // namespace
}  // namespace ucut::golden
