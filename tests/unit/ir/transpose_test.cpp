// tests/unit/ir/transpose_test.cpp — ir/transpose.cpp: D^T = B^T A^T exchanges the operands, flips every M x N
// tensor's layout and extents and every vector's and reduction's axis, and leaves the kernel's knobs alone; applied
// twice it gives the GEMM back. kernel_frame transposes exactly when B converts in the mainloop.
#include <gtest/gtest.h>

#include <string>

#include "compiler/pipeline.h"
#include "ir/canonical.h"
#include "ir/transpose.h"

namespace ucut {
namespace {

KernelConfig lowered(const std::string& text) {
  SourceFile src("transpose.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.config) << text;
  return c.config ? *c.config : KernelConfig{};
}

std::string extents(const TensorDecl& t) {
  std::string s;
  for (const Extent& e : t.dims) s += e.symbol;
  return s;
}

constexpr const char* kFused =
    "kernel k : sm90a\n"
    "  gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col from(f32, {}), acc: f32)\n"
    "    .with_threadblockshape(64, 256, 64)\n"
    "    .with_scheduler(tma_pingpong)\n"
    "  >> residual(C: f32[M,N] row) >> bias(row) >> bias(col) >> aux_store(Z: f32[M,N] col)\n"
    "  >> row_sum(R: f32[M]) >> col_max(S: f32[N])\n"
    "  >> store(D: f32[M,N] row)\n";

std::string fused(const char* where) {
  std::string s = kFused;
  return s.replace(s.find("{}"), 2, where);
}

TEST(Transpose, ExchangesOperandsAndFlipsEveryMatrixAndAxis) {
  KernelConfig cfg = lowered(fused("mainloop"));
  KernelConfig t = gemm_transposed(cfg);
  // A' = B^T: B's name and conversion, K-major as A (row); B' = A^T, K-major as B (col).
  EXPECT_EQ(t.a.name.value, "B");
  EXPECT_EQ(t.a.layout.value, Layout::row);
  EXPECT_EQ(extents(t.a), "NK");
  EXPECT_TRUE(t.a.converts_in_mainloop.value);
  EXPECT_EQ(t.b.name.value, "A");
  EXPECT_EQ(t.b.layout.value, Layout::col);
  EXPECT_EQ(extents(t.b), "KM");
  EXPECT_FALSE(t.b.converts_in_mainloop.value);
  ASSERT_EQ(t.epilogue.size(), cfg.epilogue.size());
  // residual C, bias(row), bias(col), aux Z (col), row_sum, col_max, store D.
  EXPECT_EQ(t.epilogue[0].tensor->layout.value, Layout::col);
  EXPECT_EQ(extents(*t.epilogue[0].tensor), "NM");
  EXPECT_EQ(t.epilogue[1].axis.value, Axis::col);
  EXPECT_EQ(t.epilogue[2].axis.value, Axis::row);
  EXPECT_EQ(t.epilogue[3].tensor->layout.value, Layout::row);
  EXPECT_EQ(t.epilogue[4].axis.value, Axis::col);
  EXPECT_EQ(extents(*t.epilogue[4].tensor), "M");  // a vector keeps its extent
  EXPECT_EQ(t.epilogue[5].axis.value, Axis::row);
  EXPECT_EQ(t.output().layout.value, Layout::col);
  // The kernel's knobs describe the problem it runs: unchanged.
  EXPECT_EQ(t.tile.value, cfg.tile.value);
  EXPECT_EQ(t.kernel_schedule.value, cfg.kernel_schedule.value);
  // Twice is the identity.
  EXPECT_EQ(canonical_config(gemm_transposed(t)), canonical_config(cfg));
}

TEST(Transpose, KernelFrameTransposesOnlyForAMainloopConversionOfB) {
  KernelConfig b = lowered(fused("mainloop"));
  EXPECT_TRUE(b.computes_transpose());
  EXPECT_EQ(kernel_frame(b).a.name.value, "B");
  KernelConfig copied = lowered(fused("workspace"));
  EXPECT_FALSE(copied.computes_transpose());
  EXPECT_EQ(canonical_config(kernel_frame(copied)), canonical_config(copied));
}

}  // namespace
}  // namespace ucut
