// tests/unit/export/mskb_window_export_test.cpp — `export --mskb` of the window examples
// (export/mskb_map_launcher.cpp): stencil_2d, stencil_3d, conv_1d, conv_2d and max_pooling_2d call the
// kernel's run_window with MSKB's exact declaration, the tensors, scalars and ints bound by name (the
// output's derived extents are no parameters), in FP32 and BF16; where a parameter is called `kernel` (the
// convolutions' weights) the kernel's namespace alias is not.
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MskbWindowExport, StencilsBindTheirScalarAndExtents) {
  std::string f = mskb_example_launcher("stencil_2d");
  EXPECT_TRUE(has(f,
                  "extern \"C\" void stencil_2d_optimized(float* u_new, const float* u_old, float r, int nx, "
                  "int ny) {"))
      << f;
  EXPECT_TRUE(has(f,
                  "kernel::run_window(reinterpret_cast<const kernel::ElementIn0*>(u_old), "
                  "reinterpret_cast<kernel::ElementOut*>(u_new), r, int64_t(nx), int64_t(ny), nullptr, err, "
                  "sizeof err)"))
      << f;
  std::string b = mskb_example_launcher("stencil_3d_bf16");
  EXPECT_TRUE(has(b,
                  "void stencil_3d_bf16_optimized(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, "
                  "int nx, int ny, int nz)"))
      << b;
  EXPECT_TRUE(has(b, "r, int64_t(nx), int64_t(ny), int64_t(nz), nullptr")) << b;
}

TEST(MskbWindowExport, ConvolutionsPassTheirKernelsSizes) {
  for (const char* task : {"conv_1d", "conv_1d_bf16"}) {
    std::string f = mskb_example_launcher(task);
    // MSKB calls the weights `kernel`, so the kernel's namespace goes by another alias.
    EXPECT_TRUE(has(f, "namespace ucut_kernel = ucut_mem_")) << f;
    EXPECT_TRUE(has(f,
                    "ucut_kernel::run_window(reinterpret_cast<const ucut_kernel::ElementIn0*>(input), "
                    "reinterpret_cast<const ucut_kernel::ElementIn1*>(kernel), "
                    "reinterpret_cast<ucut_kernel::ElementOut*>(output), int64_t(input_size), "
                    "int64_t(kernel_size), nullptr"))
        << f;
  }
  std::string f = mskb_example_launcher("conv_2d");
  EXPECT_TRUE(
      has(f, "int64_t(input_rows), int64_t(input_cols), int64_t(kernel_rows), int64_t(kernel_cols), nullptr"))
      << f;
}

TEST(MskbWindowExport, PoolingPassesItsRunTimeInts) {
  for (const char* task : {"max_pooling_2d", "max_pooling_2d_bf16"}) {
    std::string f = mskb_example_launcher(task);
    EXPECT_TRUE(has(f,
                    "reinterpret_cast<kernel::ElementOut*>(output), int64_t(N), int64_t(C), int64_t(H), "
                    "int64_t(W), int64_t(kernel_size), int64_t(stride), int64_t(padding), nullptr"))
        << f;
  }
}

}  // namespace
}  // namespace ucut::golden
