// tests/unit/emit/mainloop_conversion_emit_test.cpp — `from(f32, mainloop)` on the SM90 GEMM emitter: the builder
// gets the f32 operand as CUTLASS's one-element tuple (its mixed-input mainloop), the wrapper copies only the other
// operands, and a converted B makes the kernel run the transposed problem (M and N, A and B exchanged in its
// arguments, its epilogue types transposed) while the ABI stays the caller's. `workspace` is the default's spelling:
// the same config, the same hash.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "ir/canonical.h"
#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string spec(const char* a_from, const char* b_from) {
  return fmt::format(
      "kernel k : sm90a\n"
      "  gemm(A: bf16[M,K] row {}, B: bf16[K,N] col {}, acc: f32)\n"
      "    .with_threadblockshape(64, 256, 64)\n"
      "    .with_scheduler(tma_pingpong)\n"
      "  >> bias(row) >> relu\n"
      "  >> store(D: f32[M,N] row)\n",
      a_from, b_from);
}

TEST(MainloopConversion, ConvertedBRunsTheTransposedProblem) {
  std::string code = code_of(spec("from(f32)", "from(f32, mainloop)"));
  EXPECT_TRUE(contains(code, "using ElementA = float;")) << code;
  EXPECT_TRUE(contains(code, "cute::tuple<ElementA>, LayoutA, AlignmentA,"));
  EXPECT_TRUE(contains(code, "args.problem_shape = {int(a->n), int(a->m), int(a->k), int(a->batch)};"));
  EXPECT_TRUE(contains(code, "args.mainloop.ptr_A = static_cast<const ElementA*>(a->b.ptr);"));
  EXPECT_TRUE(contains(code, "args.mainloop.ptr_B = static_cast<const ElementB*>(a->a.ptr);"));
  EXPECT_TRUE(contains(code, "using LayoutD = cutlass::layout::ColumnMajor;"));
  // bias(row), one value per M, is one per column of the transposed problem: CUTLASS's row broadcast.
  EXPECT_TRUE(contains(code, "Sm90RowBroadcast"));
  EXPECT_FALSE(contains(code, "Sm90ColBroadcast"));
  // Only A is copied (converted into the workspace); B's f32 goes to the mainloop as the caller passed it.
  EXPECT_TRUE(contains(code, "constexpr ucut_elem kCaller[2] = {ucut_elem_f32, ucut_elem_none};"));
}

TEST(MainloopConversion, ConvertedAKeepsTheProblem) {
  std::string code = code_of(spec("from(f32, mainloop)", "from(f32)"));
  EXPECT_TRUE(contains(code, "cute::tuple<ElementA>, LayoutA, AlignmentA,")) << code;
  EXPECT_TRUE(contains(code, "args.problem_shape = {int(a->m), int(a->n), int(a->k), int(a->batch)};"));
  EXPECT_TRUE(contains(code, "args.mainloop.ptr_A = static_cast<const ElementA*>(a->a.ptr);"));
  EXPECT_TRUE(contains(code, "using LayoutD = cutlass::layout::RowMajor;"));
  EXPECT_TRUE(contains(code, "Sm90ColBroadcast"));
  EXPECT_TRUE(contains(code, "constexpr ucut_elem kCaller[2] = {ucut_elem_none, ucut_elem_f32};"));
  // A's implied alignment is 16 bytes of f32.
  EXPECT_TRUE(contains(code, "constexpr int AlignmentA = 4;"));
}

TEST(MainloopConversion, WorkspaceIsTheDefault) {
  SourceFile plain("a.ucut", spec("from(f32)", "from(f32)"));
  SourceFile spelled("b.ucut", spec("from(f32, workspace)", "from(f32)"));
  Compilation a = compile_spec(plain, StopAfter::lower), b = compile_spec(spelled, StopAfter::lower);
  ASSERT_TRUE(a.config && b.config);
  EXPECT_EQ(config_hash(*a.config), config_hash(*b.config));
  SourceFile mainloop("c.ucut", spec("from(f32, mainloop)", "from(f32)"));
  Compilation c = compile_spec(mainloop, StopAfter::lower);
  ASSERT_TRUE(c.config);
  EXPECT_NE(config_hash(*a.config), config_hash(*c.config));
  EXPECT_EQ(canonical_config(*c.config)["A"]["convert_in"], "mainloop");
}

}  // namespace
}  // namespace ucut
