// tests/unit/emit/map_rotary_test.cpp — a rotary map (`map(..., rotary = base)`, RoPE; ir/memop.h): lowered with its
// base (a scalar or a number, C725 otherwise) into the IR and the canonical config, checked (C725: a dense
// row-major [.., R, D] first input of even D and the output's extents, even vectors, a positive base), and emitted
// (emit/memory/map.cpp): pairs turned in f32 inside a vector before the chain, a lone element reading its partner,
// the run function checking D and the base at run time. tests/golden/emit/memory/map_rotary_bf16.cu pins a whole
// file; eval's MemopReferenceMskb test checks the reference against MSKB's rope.
#include <gtest/gtest.h>

#include <string>

#include "compiler/pipeline.h"
#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;
using test::error_ids;

constexpr const char* kRope =
    "kernel rope : sm90a\n  map(input: f32[M, D], base: f32, rotary = base)\n  >> store(output: f32[M, D])\n";

TEST(MapRotary, LowersTheBaseAsAScalarOrANumber) {
  SourceFile src("rope.ucut", kRope);
  Compilation c = compile_spec(src, StopAfter::check);
  ASSERT_TRUE(c.ok() && c.memop);
  ASSERT_TRUE(c.memop->rotary);
  EXPECT_EQ(c.memop->rotary->scalar, "base");
  SourceFile lit("rope.ucut", "kernel rope : sm90a\n  map(x: bf16[B, S, 128], rotary = 500000)\n  >> store(y: bf16[B, S, 128])\n");
  Compilation l = compile_spec(lit, StopAfter::check);
  ASSERT_TRUE(l.ok() && l.memop && l.memop->rotary);
  EXPECT_TRUE(l.memop->rotary->scalar.empty());
  EXPECT_EQ(l.memop->rotary->value, 500000);
  // The base is part of the kernel: two bases, two configs.
  SourceFile other("rope.ucut", "kernel rope : sm90a\n  map(x: bf16[B, S, 128], rotary = 10000)\n  >> store(y: bf16[B, S, 128])\n");
  Compilation o = compile_spec(other, StopAfter::check);
  ASSERT_TRUE(o.ok() && o.memop);
  EXPECT_NE(canonical_memop(*l.memop).dump(), canonical_memop(*o.memop).dump());
}

TEST(MapRotary, TurnsPairsInsideAVectorBeforeTheChain) {
  std::string code = code_of(
      "kernel rope : sm90a\n  map(input: f32[M, D], base: f32, rotary = base)\n  >> silu\n  >> store(output: f32[M, D])\n");
  EXPECT_TRUE(contains(code, "for (int j = 0; j < kVector; j += 2) rotate(v_input[j], v_input[j + 1], i + j);"))
      << code;
  EXPECT_TRUE(contains(code, "const float angle = position * exp2f(-float(col) / float(rot_cols) * rot_log2_base);"));
  EXPECT_TRUE(contains(code, "float v_input = t_input.element(i), partner = t_input.element(i ^ 1);"));
  EXPECT_TRUE(contains(code, "if (i & 1) rotate(partner, v_input, i - 1); else rotate(v_input, partner, i);"));
  EXPECT_TRUE(contains(code, "map.rot_cols = n_D;"));
  EXPECT_TRUE(contains(code, "map.rot_rows = n_M;"));
  EXPECT_TRUE(contains(code, "map.rot_log2_base = log2f(s_base);"));
  EXPECT_TRUE(contains(code, "if (map.rot_cols % 2 != 0 || !(s_base > 0.0f))"));
  EXPECT_TRUE(contains(code, "cutlass::epilogue::thread::SiLu<float>"));  // the chain runs on the turned value
  // A map without `rotary` turns nothing.
  EXPECT_FALSE(contains(code_of("kernel m : sm90a\n  map(x: f32[M, D])\n  >> relu\n  >> store(y: f32[M, D])\n"),
                        "rotate("));
}

TEST(MapRotary, PositionsAreTheExtentBeforeTheRows) {
  std::string code = code_of("kernel rope : sm90a\n  map(x: bf16[B, S, 128], rotary = 10000)\n  >> store(y: bf16[B, S, 128])\n");
  EXPECT_TRUE(contains(code, "map.rot_cols = 128;")) << code;
  EXPECT_TRUE(contains(code, "map.rot_rows = n_S;"));
  EXPECT_TRUE(contains(code, "map.rot_log2_base = log2f(10000.0f);"));
}

TEST(MapRotary, C725NamesWhatARotationCannotTurn) {
  auto spec = [](const std::string& input, const std::string& extra, const std::string& store) {
    return "kernel r : sm90a\n  map(" + input + ", base: f32, rotary = base" + extra + ")\n  >> store(" + store + ")\n";
  };
  EXPECT_EQ(error_ids(spec("x: f32[N]", "", "y: f32[N]")), std::vector<std::string>{"C725"});       // no positions
  EXPECT_EQ(error_ids(spec("x: f32[M, 6] col", "", "y: f32[M, 6] col")), std::vector<std::string>{"C725"});
  EXPECT_EQ(error_ids(spec("x: f32[M, 7]", "", "y: f32[M, 7]")), std::vector<std::string>{"C725"});  // odd rows
  EXPECT_EQ(error_ids("kernel r : sm90a\n  map(x: f32[M, D], rotary = -2)\n  >> store(y: f32[M, D])\n"),
            std::vector<std::string>{"C725"});
  EXPECT_EQ(error_ids("kernel r : sm90a\n  map(x: f32[M, D], rotary = theta)\n  >> store(y: f32[M, D])\n"),
            std::vector<std::string>{"C725"});  // no such scalar
  EXPECT_EQ(error_ids("kernel r : sm90a\n  map(x: f32[M, D], rotary = 10000)\n  .with_vector(1)\n"
                      "  >> store(y: f32[M, D])\n"),
            std::vector<std::string>{"C725"});  // a vector of one splits the pairs
  EXPECT_EQ(error_ids("kernel r : sm90a\n  map(x: f32[M, D], rotary = 1, rotary = 2)\n  >> store(y: f32[M, D])\n"),
            std::vector<std::string>{"C725"});
  EXPECT_EQ(error_ids("kernel r : sm90a\n  map(x: f32[M, D] slice(p, 0, 2), rotary = 10000)\n  >> store(y: f32[M, D])\n"),
            std::vector<std::string>{"C725"});
  EXPECT_EQ(error_ids("kernel r : sm90a\n  reduce(x: f32[M, D], op = sum, rotary = 10000)\n  >> store(y: f32[1])\n"),
            std::vector<std::string>{"L007"});  // only a map turns
}

}  // namespace
}  // namespace ucut
