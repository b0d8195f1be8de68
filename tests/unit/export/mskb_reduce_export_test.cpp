// tests/unit/export/mskb_reduce_export_test.cpp — `export --mskb` of a `reduce` spec
// (export/mskb_map_launcher.cpp): the launcher calls the kernel's run_reduce with the tensors, scalars and
// extents bound by name, as a map's calls run_map; the reduced output is bound like any output. Refusals
// (X007, a launcher parameter the spec lacks) are the goldens' (tests/golden/export/X007.ucut).
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

TEST(MskbReduceExport, DotProductCallsRunReduceWithTheBoundTensors) {
  interop::ExportResult r = export_mskb_example("dot_product");
  ASSERT_EQ(r.files.size(), 1u);
  const std::string& text = r.files[0].text;
  EXPECT_NE(text.find("extern \"C\" void dot_product_optimized(float* loss, const float* X, const float* Y, "
                      "const int N) {"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("if (kernel::run_reduce(reinterpret_cast<const kernel::ElementIn0*>(X), "
                "reinterpret_cast<const kernel::ElementIn1*>(Y), "
                "reinterpret_cast<kernel::ElementOut*>(loss), int64_t(N), nullptr, err, sizeof err) != 0)"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("run_map"), std::string::npos);
  EXPECT_NE(text.find("cub::BlockReduce"), std::string::npos) << "the kernel comes with the launcher";
}

TEST(MskbReduceExport, ScalarsAndTheSizeReachTheKernel) {
  interop::ExportResult r = export_mskb_example("simpson_int_bf16");
  EXPECT_NE(r.files[0].text.find("reinterpret_cast<kernel::ElementOut*>(result), a, b, int64_t(N), nullptr"),
            std::string::npos)
      << r.files[0].text;
}

TEST(MskbReduceExport, MatrixVectorMulBindsAPerAxisOutputInBothPrecisions) {
  interop::ExportResult r = export_mskb_example("matrix_vector_mul");
  ASSERT_EQ(r.files.size(), 1u);
  const std::string& text = r.files[0].text;
  EXPECT_NE(text.find("extern \"C\" void matrix_vector_mul_optimized(const float* A, const float* x, float* y, "
                      "int M, int N) {"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("if (kernel::run_reduce(reinterpret_cast<const kernel::ElementIn0*>(A), "
                      "reinterpret_cast<const kernel::ElementIn1*>(x), reinterpret_cast<kernel::ElementOut*>(y), "
                      "int64_t(M), int64_t(N), nullptr, err, sizeof err) != 0)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ucut_reduce_rows_launch<"), std::string::npos);
  interop::ExportResult b = export_mskb_example("matrix_vector_mul_bf16");
  ASSERT_EQ(b.files.size(), 1u);
  EXPECT_NE(b.files[0].text.find("extern \"C\" void matrix_vector_mul_bf16_optimized(const __nv_bfloat16* A, "
                                 "const __nv_bfloat16* x, __nv_bfloat16* y, int M, int N) {"),
            std::string::npos)
      << b.files[0].text;
  EXPECT_NE(b.files[0].text.find("using ElementOut = cutlass::bfloat16_t;"), std::string::npos);
}

}  // namespace
}  // namespace ucut::golden
