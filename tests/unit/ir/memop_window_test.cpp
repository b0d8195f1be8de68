// tests/unit/ir/memop_window_test.cpp — ir/lower_memop_window.cpp and ir/memop_window.h: a `window` lowers
// its op, edge, taps, weights, sizes, strides, pads, `over` and `acc` (defaults implied at the operator); its
// run-time sizes are its inputs' extents then the names its sizes read (the output's windowed extents derive
// from them); every field is semantic (the hash) and dumped with its place. Its check rules (C710–C712, C714)
// are the goldens' (tests/golden/check/).
#include <gtest/gtest.h>

#include <string>

#include "compiler/pipeline.h"
#include "ir/memop.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("window.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop && !c.config) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

std::string window_spec(const std::string& args, const std::string& out, const std::string& chain = "") {
  return "kernel k : sm90a\n  window(" + args + ")\n" + chain + "  >> store(" + out + ")\n";
}

const char* kStencil = "u: f32[X, Y], r: f32, op = sum, taps = star, edge = copy";
const char* kPool =
    "input: f32[N, C, H, W], op = max, size = kernel_size, stride = (s, 2), pad = p, over = (H, W), "
    "edge = clip";

TEST(MemOpWindow, AStarLowersWithItsDefaults) {
  MemOpConfig m = lowered(window_spec(kStencil, "v: f32[X, Y]", "  >> expr(u + r * (x - 4 * u))\n"));
  EXPECT_EQ(m.op.value, OpKind::window);
  EXPECT_TRUE(memory_family(op_family(OpKind::window)));
  ASSERT_TRUE(m.window);
  EXPECT_EQ(m.window->op.value, WindowOp::sum);
  EXPECT_EQ(m.window->taps.value, WindowTaps::star);
  EXPECT_EQ(m.window->edge.value, WindowEdge::copy);
  EXPECT_FALSE(m.window->weights);
  EXPECT_TRUE(m.window->acc.span.implied);
  EXPECT_EQ(window_dims(m), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(m.extent_symbols(), (std::vector<std::string>{"X", "Y"}));
  EXPECT_EQ(&m.domain(), &m.input());
}

TEST(MemOpWindow, AConvolutionTakesItsSizeFromItsWeights) {
  MemOpConfig m = lowered(window_spec("input: f32[R, C], k: f32[KR, KC], op = sum, weights = k, edge = valid",
                                      "output: f32[OR, OC]"));
  ASSERT_TRUE(m.window && m.window->weights);
  EXPECT_EQ(*m.window->weights, 1u);
  EXPECT_EQ(window_size_code(m, 0), "n_KR");
  EXPECT_EQ(window_size_code(m, 1), "n_KC");
  EXPECT_EQ(window_out_extent_code(m, 1), "n_C - n_KC + 1");
  EXPECT_EQ(window_out_extent_text(m, 0), "R - KR + 1");
  // The output's derived extents are no run-time sizes: the caller passes the inputs' only.
  EXPECT_EQ(m.extent_symbols(), (std::vector<std::string>{"R", "C", "KR", "KC"}));
}

TEST(MemOpWindow, APoolingReadsItsRunTimeInts) {
  MemOpConfig m = lowered(window_spec(kPool, "output: f32[N, C, OH, OW]"));
  EXPECT_EQ(m.window->op.value, WindowOp::max);
  EXPECT_EQ(window_dims(m), (std::vector<size_t>{2, 3}));
  EXPECT_EQ(window_size_code(m, 1), "n_kernel_size");  // one value for every windowed extent
  EXPECT_EQ(window_stride_code(m, 0), "n_s");
  EXPECT_EQ(window_stride_code(m, 1), "2");
  EXPECT_EQ(window_pad_code(m, 0), "n_p");
  EXPECT_EQ(window_out_extent_text(m, 1), "(W + 2 * p - kernel_size) / 2 + 1");
  EXPECT_EQ(m.extent_symbols(), (std::vector<std::string>{"N", "C", "H", "W", "kernel_size", "s", "p"}));
}

TEST(MemOpWindow, EveryFieldIsSemanticAndDumped) {
  const std::string base = window_spec(kPool, "output: f32[N, C, OH, OW]");
  const std::string h = memop_hash(lowered(base));
  for (auto [from, to] : {std::pair{"op = max", "op = sum"}, std::pair{"stride = (s, 2)", "stride = (s, 3)"},
                          std::pair{"pad = p", "pad = 1"}, std::pair{"edge = clip", "edge = valid"}}) {
    std::string other = base;
    other.replace(other.find(from), std::string(from).size(), to);
    SourceFile src("w.ucut", other);
    Compilation c = compile_spec(src, StopAfter::lower);
    ASSERT_TRUE(c.memop) << other;
    EXPECT_NE(memop_hash(*c.memop), h) << to;
  }
  SourceFile src("w.ucut", base);
  Compilation c = compile_spec(src, StopAfter::lower);
  std::string ir = dump_memop_ir(src, *c.memop);
  EXPECT_NE(ir.find("  window max @2:"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    stride (s, 2) @2:73"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    edge clip @2:112"), std::string::npos) << ir;
  EXPECT_EQ(canonical_memop(*c.memop)["window"]["size"], nlohmann::json::array({"kernel_size"}));
}

TEST(MemOpWindow, NamesRoundTrip) {
  EXPECT_EQ(find_window_op("max"), WindowOp::max);
  EXPECT_FALSE(find_window_op("mean"));
  EXPECT_EQ(window_edge_name(WindowEdge::clip), "clip");
  EXPECT_EQ(find_window_taps("star"), WindowTaps::star);
}

}  // namespace
}  // namespace ucut
