// tests/unit/export/mskb_layout_export_test.cpp — `export --mskb` of the scan and layout examples
// (export/mskb_map_launcher.cpp): prefix_sum calls the kernel's run_scan, matrix_transpose and reverse_array call
// run_map, each with MSKB's exact declaration (reverse_array's input is `float* input`, read only) and the tensors and
// extents bound by name, in FP32 and BF16.
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MskbLayoutExport, PrefixSumCallsRunScan) {
  std::string f = mskb_example_launcher("prefix_sum");
  EXPECT_TRUE(has(f, "extern \"C\" void prefix_sum_optimized(float* output, const float* input, const int N) {"))
      << f;
  EXPECT_TRUE(has(f, "kernel::run_scan(reinterpret_cast<const kernel::ElementIn0*>(input), "
                     "reinterpret_cast<kernel::ElementOut*>(output), int64_t(N), nullptr, err, sizeof err)"))
      << f;
  EXPECT_TRUE(has(f, "constexpr bool kExclusive = false;")) << "MSKB's prefix_sum is inclusive";
  std::string b = mskb_example_launcher("prefix_sum_bf16");
  EXPECT_TRUE(has(b, "void prefix_sum_bf16_optimized(__nv_bfloat16* output, const __nv_bfloat16* input, "
                     "const int N)"))
      << b;
  EXPECT_TRUE(has(b, "kernel::run_scan("));
}

TEST(MskbLayoutExport, MatrixTransposeCallsTheTransposingMap) {
  for (const char* task : {"matrix_transpose", "matrix_transpose_bf16"}) {
    std::string f = mskb_example_launcher(task);
    EXPECT_TRUE(has(f, "kernel::run_map(reinterpret_cast<const kernel::ElementIn0*>(A), "
                       "reinterpret_cast<kernel::ElementOut*>(B), int64_t(M), int64_t(N), nullptr"))
        << f;
    EXPECT_TRUE(has(f, "ucut_transpose_launch<")) << task;
  }
  EXPECT_TRUE(has(mskb_example_launcher("matrix_transpose"),
                  "void matrix_transpose_optimized(const float* A, float* B, int M, int N)"));
}

TEST(MskbLayoutExport, ReverseArrayReadsItsInputBackwards) {
  for (const char* task : {"reverse_array", "reverse_array_bf16"}) {
    std::string f = mskb_example_launcher(task);
    EXPECT_TRUE(has(f, "kernel::run_map(reinterpret_cast<const kernel::ElementIn0*>(input), "
                       "reinterpret_cast<kernel::ElementOut*>(output), int64_t(N), nullptr"))
        << f;
    EXPECT_TRUE(has(f, "map.t_reversed = {t_input, n_N};")) << task;
  }
  EXPECT_TRUE(has(mskb_example_launcher("reverse_array"), "void reverse_array_optimized(float* output, float* input, int N)"));
}

}  // namespace
}  // namespace ucut
