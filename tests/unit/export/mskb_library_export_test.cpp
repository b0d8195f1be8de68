// tests/unit/export/mskb_library_export_test.cpp — `export --mskb` of the library-call examples
// (export/mskb_map_launcher.cpp): sorting, top_k and FFT bind MSKB's exact declarations by name — an in-place
// sort passes `data` as its input and its output, top_k and FFT pass both outputs — call the kernel's
// run_library, and open with the `// library: cub|cufft` line reports print.
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MskbLibraryExport, SortingSortsDataInPlace) {
  std::string f = mskb_example_launcher("sorting");
  EXPECT_TRUE(has(f, "\n// library: cub (")) << f;
  EXPECT_TRUE(has(f, "extern \"C\" void sorting_optimized(float* data, int N) {")) << f;
  EXPECT_TRUE(has(f,
                  "kernel::run_library(reinterpret_cast<const kernel::ElementIn0*>(data), "
                  "reinterpret_cast<kernel::ElementOut*>(data), int64_t(N), nullptr, err, sizeof err)"))
      << f;
  std::string b = mskb_example_launcher("sorting_bf16");
  EXPECT_TRUE(has(b, "void sorting_bf16_optimized(__nv_bfloat16* data, int N)")) << b;
}

TEST(MskbLibraryExport, TopKBindsBothOutputsAndK) {
  for (const char* task : {"top_k", "top_k_bf16"}) {
    std::string f = mskb_example_launcher(task);
    EXPECT_TRUE(has(f,
                    "kernel::run_library(reinterpret_cast<const kernel::ElementIn0*>(input), "
                    "reinterpret_cast<kernel::ElementOut*>(top_k_values), "
                    "reinterpret_cast<kernel::ElementOut1*>(top_k_indices), int64_t(k), int64_t(N), nullptr"))
        << f;
    EXPECT_TRUE(has(f, "\n// library: cub (")) << task;
  }
  EXPECT_TRUE(has(mskb_example_launcher("top_k"),
                  "void top_k_optimized(float* top_k_values, int* top_k_indices, "
                  "const float* input, const int N, const int k)"));
}

TEST(MskbLibraryExport, FftBindsThePlanarParts) {
  for (const char* task : {"FFT", "FFT_bf16"}) {
    std::string f = mskb_example_launcher(task);
    EXPECT_TRUE(has(f, "\n// library: cufft (")) << f;
    EXPECT_TRUE(has(f,
                    "kernel::run_library(reinterpret_cast<const kernel::ElementIn0*>(input_real), "
                    "reinterpret_cast<const kernel::ElementIn1*>(input_img), "
                    "reinterpret_cast<kernel::ElementOut*>(output_real), "
                    "reinterpret_cast<kernel::ElementOut1*>(output_img), int64_t(N), nullptr"))
        << f;
  }
}

TEST(MskbLibraryExport, AnOutputTheLauncherLacksIsX007) {
  SourceFile src("top_k.ucut",
                 "kernel top_k : sm90a\n  topk(input: f32[N], k = k)\n  >> store(values: f32[k], "
                 "top_k_indices: i32[k])\n");
  interop::ExportResult r = interop::export_mskb(src, "top_k");
  EXPECT_FALSE(r.ok());
  bool x007 = false;
  for (const Diagnostic& d : r.comp.diags.diagnostics()) x007 = x007 || d.rule == RuleId::X007;
  EXPECT_TRUE(x007);
}

}  // namespace
}  // namespace ucut::golden
