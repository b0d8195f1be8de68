// tests/unit/search/rewrite_test.cpp — Move application keeps every other byte, and validate() reports rule ids.
#include "engine/search/rewrite.h"

#include <gtest/gtest.h>

#include "search_fixtures.h"

namespace ucut::search {
namespace {

using testing::inline_problem;
using testing::repo_problem;
using testing::repo_text;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string moved(const std::string& spec, const Move& m, const std::string& kernel = "") {
  std::string error;
  auto out = apply_move(spec, m, &error, kernel);
  EXPECT_TRUE(out.has_value()) << error;
  return out.value_or("");
}

TEST(SearchRewrite, ReplacesAnExistingCallAndNothingElse) {
  std::string spec = repo_text("examples/gemm_bf16.ucut");
  Move m;
  m.tile = Triple{128, 128, 64};
  m.schedule = KernelSchedule::tma_pingpong;
  std::string expected = replaced(replaced(spec, "with_threadblockshape(128, 256, 64)", "with_threadblockshape(128, 128, 64)"),
                                  "with_scheduler(tma_cooperative)", "with_scheduler(tma_pingpong)");
  EXPECT_EQ(moved(spec, m), expected);
}

TEST(SearchRewrite, AppendsAfterTheLastConfigCall) {
  std::string spec = repo_text("examples/gemm_bf16.ucut");
  Move m;
  m.stages = 4;
  m.tile_scheduler = TileSched{TileScheduler::split_k, 4};
  std::string expected = replaced(spec, ".with_scheduler(tma_cooperative)\n",
                                  ".with_scheduler(tma_cooperative)\n    .with_tile_scheduler(split_k(4))\n"
                                  "    .with_stages(4)\n");
  EXPECT_EQ(moved(spec, m), expected);
}

TEST(SearchRewrite, KeepsATrailingCommentOnItsLine) {
  std::string spec =
      "kernel k : sm90a  # header\n"
      "  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)   // operator\n"
      "    .with_threadblockshape(128, 128, 64)   # the tile\n"
      "  >> relu >> store(D: bf16[M,N] row)  # tail\n";
  Move m;
  m.cluster = Triple{2, 1, 1};
  EXPECT_EQ(moved(spec, m), replaced(spec, "# the tile\n", "# the tile\n    .with_cluster(2, 1, 1)\n"));
}

TEST(SearchRewrite, AppendsAfterTheOperatorWhenThereAreNoConfigCalls) {
  std::string spec =
      "kernel k : sm90a\n"
      "  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
      "  >> store(D: bf16[M,N] row)\n";
  Move m;
  m.raster = RasterSwizzle{Raster::along_n, 2};
  EXPECT_EQ(moved(spec, m), replaced(spec, "acc: f32)\n", "acc: f32)\n    .with_raster(along_n, swizzle = 2)\n"));
}

TEST(SearchRewrite, ChainsInlineWhenCodeFollowsOnTheLine) {
  std::string spec = "kernel k : sm90a gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32) >> store(D: bf16[M,N] row)\n";
  Move m;
  m.stages = 0;
  EXPECT_EQ(moved(spec, m), replaced(spec, "acc: f32) >>", "acc: f32).with_stages(auto) >>"));
}

TEST(SearchRewrite, ReplacesOrAddsTheMathArgument) {
  std::string tf32 = repo_text("examples/gemm_tf32.ucut");
  Move m;
  m.math = MathMode::tf32x3;
  EXPECT_EQ(moved(tf32, m), replaced(tf32, "math = tf32)", "math = tf32x3)"));
  std::string plain = "kernel k : sm80\n  gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32)\n  >> store(D: f32[M,N] row)\n";
  m.math = MathMode::tf32;
  EXPECT_EQ(moved(plain, m), replaced(plain, "acc: f32)", "acc: f32, math = tf32)"));
}

TEST(SearchRewrite, OperandMovesRetypeAAndBAndConvertFromTheCallersType) {
  std::string spec =
      "kernel k : sm90a\n"
      "  gemm(A: f32[M,K] row, B: f32[K,N] row, acc: f32, math = tf32)\n"
      "    .with_threadblockshape(128, 256, 32)\n"
      "  >> store(D: f32[M,N] row)\n";
  Move bf16;
  bf16.operands = DType::bf16;
  std::string converted = moved(spec, bf16);
  EXPECT_EQ(converted, replaced(spec, "gemm(A: f32[M,K] row, B: f32[K,N] row, acc: f32, math = tf32)",
                                "gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] row from(f32), acc: f32)"));
  EXPECT_TRUE(validate(converted, nullptr).ok) << validate(converted, nullptr).message;
  Move f16;
  f16.operands = DType::f16;
  EXPECT_EQ(moved(converted, f16), replaced(converted, "A: bf16[M,K] row from(f32), B: bf16[K,N] row from(f32)",
                                            "A: f16[M,K] row from(f32), B: f16[K,N] row from(f32)"));
  Move back;
  back.operands = DType::f32;
  EXPECT_EQ(moved(converted, back), replaced(converted, "A: bf16[M,K] row from(f32), B: bf16[K,N] row from(f32)",
                                             "A: f32[M,K] row, B: f32[K,N] row"));
}

TEST(SearchRewrite, ConversionMovesChooseTheOperandTheMainloopConverts) {
  std::string spec =
      "kernel k : sm90a\n"
      "  gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col from(f32), acc: f32)\n"
      "    .with_threadblockshape(64, 256, 64)\n"
      "    .with_scheduler(tma_pingpong)\n"
      "  >> store(D: f32[M,N] row)\n";
  Move b;
  b.conversion = Conversion::mainloop_b;
  std::string in_b = moved(spec, b);
  EXPECT_EQ(in_b, replaced(spec, "B: bf16[K,N] col from(f32)", "B: bf16[K,N] col from(f32, mainloop)"));
  Verdict v = validate(in_b, nullptr);
  EXPECT_TRUE(v.ok) << v.rule << " " << v.message;
  EXPECT_NE(v.config_hash, validate(spec, nullptr).config_hash);

  Move a;
  a.conversion = Conversion::mainloop_a;
  EXPECT_EQ(moved(in_b, a), replaced(spec, "A: bf16[M,K] row from(f32)", "A: bf16[M,K] row from(f32, mainloop)"));
  Move workspace;
  workspace.conversion = Conversion::workspace;
  EXPECT_EQ(moved(in_b, workspace), spec);

  // Without a conversion knob, a type move keeps where each operand converts; converted back, `from` goes.
  Move f16;
  f16.operands = DType::f16;
  EXPECT_EQ(moved(in_b, f16), replaced(replaced(in_b, "A: bf16", "A: f16"), "B: bf16", "B: f16"));
  Move back;
  back.operands = DType::f32;
  EXPECT_EQ(moved(in_b, back), replaced(in_b, "A: bf16[M,K] row from(f32), B: bf16[K,N] col from(f32, mainloop)",
                                        "A: f32[M,K] row, B: f32[K,N] col"));

  // An operand that is not converted has nothing for its mainloop to convert.
  std::string plain = replaced(spec, "B: bf16[K,N] col from(f32)", "B: bf16[K,N] col");
  std::string error;
  EXPECT_FALSE(apply_move(plain, b, &error).has_value());
  EXPECT_NE(error.find("B is not converted"), std::string::npos) << error;
}

TEST(SearchRewrite, PipelinesMoveOneNamedStage) {
  std::string spec = repo_text("examples/mlp_block_pipeline.ucut");
  Move m;
  m.cluster = Triple{2, 1, 1};
  std::string error;
  EXPECT_FALSE(apply_move(spec, m, &error).has_value());
  EXPECT_NE(error.find("up, down"), std::string::npos) << error;
  EXPECT_FALSE(apply_move(spec, m, &error, "sideways").has_value());
  EXPECT_NE(error.find("no stage `sideways`"), std::string::npos) << error;

  std::string down = moved(spec, m, "down");
  EXPECT_EQ(down, replaced(spec, "acc: f32)\n    >> bias(col) >> store(Y",
                           "acc: f32)\n    .with_cluster(2, 1, 1)\n    >> bias(col) >> store(Y"));
  Verdict v = validate(down, nullptr);
  EXPECT_TRUE(v.ok) << v.rule << " " << v.message;
  EXPECT_NE(v.config_hash, validate(spec, nullptr).config_hash);
}

TEST(SearchRewrite, ValidateNamesTheFirstFailingRule) {
  std::string spec = repo_text("examples/gemm_bf16.ucut");
  Move m;
  m.tile = Triple{64, 128, 64};  // the explicit cooperative schedule splits tile M over two warpgroups
  Verdict v = validate(moved(spec, m), nullptr);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.rule, "C302");

  Problem tf32 = repo_problem("problems/examples/gemm_tf32.toml");
  Verdict wrong = validate(spec, &tf32);
  EXPECT_FALSE(wrong.ok);
  EXPECT_EQ(wrong.rule, "semantic_mismatch");

  Problem odd = inline_problem(
      "name = \"odd\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\nshapes = [ { m = 128, n = 128, k = 100 } ]\n");
  Verdict misaligned = validate(spec, &odd);
  EXPECT_FALSE(misaligned.ok);
  EXPECT_EQ(misaligned.rule, "C601");  // check/shape_rules.h: a leading dimension off the alignment

  Problem bf16 = repo_problem("problems/examples/gemm_bf16.toml");
  Verdict ok = validate(spec, &bf16);
  EXPECT_TRUE(ok.ok) << ok.rule << " " << ok.message;
  EXPECT_EQ(ok.config_hash.size(), 64u);
}

TEST(SearchRewrite, RejectionsSummarizeByRule) {
  Rejections r;
  r.add("C207");
  r.add("C302");
  r.add("C207");
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.summary(), "3 rejected: C207 ×2, C302 ×1");
}

}  // namespace
}  // namespace ucut::search
