// tests/unit/mskb/stencil_work_test.cpp — the flops of the Stencil tasks (mskb/tasks/stencil.cpp Work)
// against a hand count from MSKB's naive launchers (suites/mskb/naive/fp32): a stencil's interior points only
// (the boundary is a copy), 2 flops per tap and output for a cross-correlation, k² − 1 comparisons per pooled
// output. The bytes are work_model_test.cpp's.
#include <gtest/gtest.h>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

double flops(const char* task, const Case& c) { return find_task(task)->work(c, 4).flops; }

TEST(MskbStencilWork, StencilsCountTheirInteriorPoints) {
  // around = 3 adds (2D) or 5 (3D), then c·k, around − c·k, r·(...), u + ...: 7 and 9 per interior point.
  EXPECT_EQ(flops("stencil_2d", Case{{{"nx", 1024}, {"ny", 4096}}}), 7.0 * 1022 * 4094);
  EXPECT_EQ(flops("stencil_3d", Case{{{"nx", 64}, {"ny", 128}, {"nz", 256}}}), 9.0 * 62 * 126 * 254);
}

TEST(MskbStencilWork, CorrelationsAndPoolingCountEachOutput) {
  EXPECT_EQ(flops("conv_1d", Case{{{"input_size", 1024}, {"kernel_size", 32}}}), 2.0 * (1024 - 32 + 1) * 32);
  EXPECT_EQ(flops("conv_2d",
                  Case{{{"input_rows", 256}, {"input_cols", 256}, {"kernel_rows", 8}, {"kernel_cols", 8}}}),
            2.0 * 249 * 249 * 64);
  // (224 + 2 − 3) / 1 + 1 = 224 outputs a side, 8 comparisons each.
  EXPECT_EQ(flops("max_pooling_2d", Case{{{"N", 4},
                                          {"C", 3},
                                          {"H", 224},
                                          {"W", 224},
                                          {"kernel_size", 3},
                                          {"stride", 1},
                                          {"padding", 1}}}),
            4.0 * 3 * 224 * 224 * 8);
}

}  // namespace
}  // namespace ucut::mskb
