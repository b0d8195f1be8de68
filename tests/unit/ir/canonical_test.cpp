// tests/unit/ir/canonical_test.cpp — ir/canonical.cpp: the canonical JSON holds every semantic field and nothing else
// (no kernel name, no spans), so specs that differ only in name, comments or spacing share a hash; defaults that
// lowering fills in appear with their values; dump_ir marks them `(default @line:col)`.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "compiler/pipeline.h"
#include "ir/canonical.h"

namespace ucut {
namespace {

using nlohmann::json;

KernelConfig lowered(const std::string& text) {
  SourceFile src("canonical.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.config) << text;
  return c.config ? *c.config : KernelConfig{};
}

std::string spec(std::string_view operands, std::string_view configs = "", std::string_view out = "bf16") {
  return fmt::format("kernel k : sm90a\n  gemm({})\n{}  >> store(D: {}[M,N] row)\n", operands, configs, out);
}

constexpr const char* kBf16 = "A: bf16[M,K] row, B: bf16[K,N] col, acc: f32";

TEST(Canonical, NameCommentsAndSpacingDoNotMatter) {
  std::string a =
      "# first\n"
      "kernel first_name : sm90a\n"
      "  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
      "    .with_threadblockshape(128, 256, 64)\n"
      "  >> bias(col) >> relu\n"
      "  >> store(D: bf16[M,N] row)\n";
  std::string b =
      "// a longer comment that moves every span\n\n\n"
      "kernel   some_other_name:sm90a gemm(A:bf16[M,K] row,B:bf16[K,N] col,acc:f32)   # here\n"
      ".with_threadblockshape( 128 ,256,  64 )>>bias(col)>>relu>>store(D:bf16[M,N] row)";
  KernelConfig ca = lowered(a), cb = lowered(b);
  ASSERT_NE(ca.header.begin, cb.header.begin);  // the spans really differ
  EXPECT_EQ(canonical_config(ca), canonical_config(cb));
  EXPECT_EQ(canonical_config(ca).dump(), canonical_config(cb).dump());
  EXPECT_EQ(config_hash(ca), config_hash(cb));
  EXPECT_EQ(kernel_namespace(ca), kernel_namespace(cb));
  // Neither name appears anywhere in the JSON.
  std::string text = canonical_config(ca).dump();
  EXPECT_EQ(text.find("first_name"), std::string::npos) << text;
  EXPECT_EQ(canonical_config(cb).dump().find("some_other_name"), std::string::npos);
}

TEST(Canonical, HasNoSpansOrNames) {
  json j = canonical_config(lowered(spec(kBf16)));
  EXPECT_FALSE(j.contains("name"));
  std::string text = j.dump();
  for (const char* word : {"span", "line", "col\":", "begin", "implied", "canonical.ucut"})
    EXPECT_EQ(text.find(word), std::string::npos) << word << " in " << text;
  // The top-level keys, exactly.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"A", "B", "acc", "arch", "cluster", "compute", "epilogue",
                                            "epilogue_schedule", "fp8_fast_accum", "kernel_schedule", "math", "op",
                                            "raster", "slots", "splits", "stages", "swizzle", "tile",
                                            "tile_scheduler", "ucut_config"}));
}

TEST(Canonical, SemanticChangesChangeTheHash) {
  KernelConfig base = lowered(spec(kBf16));
  for (const std::string& other :
       {spec(kBf16, "    .with_threadblockshape(128, 256, 64)\n"), spec(kBf16, "    .with_stages(4)\n"),
        spec(kBf16, "", "f16"), spec("A: bf16[M,K] row, B: bf16[K,N] row, acc: f32"),
        spec("A: bf16[M,K] row align(4), B: bf16[K,N] col, acc: f32")})
    EXPECT_NE(config_hash(base), config_hash(lowered(other))) << other;
}

TEST(Canonical, Bf16DefaultsHaveTheirImpliedValues) {
  json j = canonical_config(lowered(spec("A: bf16[M,K] row, B: bf16[K,N] col")));
  EXPECT_EQ(j["ucut_config"], 1);
  EXPECT_EQ(j["arch"], "sm90a");
  EXPECT_EQ(j["op"], "gemm");
  EXPECT_EQ(j["tile"], json::array({128, 128, 64}));  // 128 bytes of K per stage
  EXPECT_EQ(j["cluster"], json::array({1, 1, 1}));
  EXPECT_EQ(j["kernel_schedule"], "tma_cooperative");
  EXPECT_EQ(j["epilogue_schedule"], "tma_cooperative");
  EXPECT_EQ(j["stages"], 0);  // auto
  EXPECT_EQ(j["raster"], "auto");
  EXPECT_EQ(j["swizzle"], 1);
  EXPECT_EQ(j["tile_scheduler"], "default");
  EXPECT_EQ(j["splits"], 1);
  EXPECT_EQ(j["fp8_fast_accum"], false);
  EXPECT_EQ(j["acc"], "f32");
  EXPECT_EQ(j["compute"], "f32");
  EXPECT_EQ(j["math"], "native");
  EXPECT_EQ(j["A"], json({{"name", "A"}, {"dtype", "bf16"}, {"dims", json::array({"M", "K"})}, {"layout", "row"}, {"align", 8},
                          {"scaled", false}}));
  EXPECT_EQ(j["B"]["layout"], "col");
  EXPECT_EQ(j["B"]["align"], 8);  // 16 bytes of bf16
  ASSERT_EQ(j["epilogue"].size(), 1u);
  EXPECT_EQ(j["epilogue"][0]["op"], "store");
  EXPECT_EQ(j["epilogue"][0]["tensor"]["dims"], json::array({"M", "N"}));
  EXPECT_EQ(j["slots"], json({{"vectors", json::array()}, {"scalars", json::array()}, {"aux", json::array()}}));
}

TEST(Canonical, F32DefaultsToTf32WithTileK32) {
  json j = canonical_config(lowered(spec("A: f32[M,K] row, B: f32[K,N] col", "", "f32")));
  EXPECT_EQ(j["tile"], json::array({128, 128, 32}));
  EXPECT_EQ(j["math"], "tf32");
  EXPECT_EQ(j["acc"], "f32");
  EXPECT_EQ(j["A"]["align"], 4);
  EXPECT_EQ(j["kernel_schedule"], "tma_cooperative");
  EXPECT_EQ(j["epilogue_schedule"], "tma_cooperative");
}

TEST(Canonical, E4m3DefaultsToTileK128) {
  json j = canonical_config(lowered(spec("A: e4m3[M,K] row scaled, B: e4m3[K,N] col scaled")));
  EXPECT_EQ(j["tile"], json::array({128, 128, 128}));
  EXPECT_EQ(j["A"]["align"], 16);
  EXPECT_EQ(j["A"]["scaled"], true);
  EXPECT_EQ(j["acc"], "f32");
  EXPECT_EQ(j["fp8_fast_accum"], false);
}

TEST(Canonical, I8DefaultsToAnI32Accumulator) {
  json j = canonical_config(lowered(spec("A: i8[M,K] row, B: i8[K,N] col", "", "i32")));
  EXPECT_EQ(j["acc"], "i32");
  EXPECT_EQ(j["tile"], json::array({128, 128, 128}));
}

TEST(Canonical, DefaultScheduleFollowsTileM) {
  json m128 = canonical_config(lowered(spec(kBf16, "    .with_threadblockshape(128, 128, 64)\n")));
  EXPECT_EQ(m128["kernel_schedule"], "tma_cooperative");
  EXPECT_EQ(m128["epilogue_schedule"], "tma_cooperative");
  json m256 = canonical_config(lowered(spec(kBf16, "    .with_threadblockshape(256, 128, 64)\n")));
  EXPECT_EQ(m256["kernel_schedule"], "tma_cooperative");
  json m64 = canonical_config(lowered(spec(kBf16, "    .with_threadblockshape(64, 128, 64)\n")));
  EXPECT_EQ(m64["kernel_schedule"], "tma_pingpong");
  EXPECT_EQ(m64["epilogue_schedule"], "tma");
  json m192 = canonical_config(lowered(spec(kBf16, "    .with_threadblockshape(192, 128, 64)\n")));
  EXPECT_EQ(m192["kernel_schedule"], "tma_pingpong");  // 192 is not a multiple of 128
  // An explicit kernel schedule without `epilogue =` gets the paired epilogue.
  json pp = canonical_config(lowered(spec(kBf16, "    .with_scheduler(tma_pingpong)\n")));
  EXPECT_EQ(pp["epilogue_schedule"], "tma");
  json ws = canonical_config(lowered(spec(kBf16, "    .with_scheduler(tma)\n")));
  EXPECT_EQ(ws["epilogue_schedule"], "nosmem");
}

TEST(Canonical, EpilogueStagesAndSlots) {
  json j = canonical_config(lowered(
      "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n"
      "  >> scale(alpha = 0.5) >> bias(row, f32) >> leaky_relu >> residual(C: bf16[M,N] row) >> cast(f16)"
      " >> aux_store(Z: bf16[M,N] row) >> store(D: bf16[M,N] row)\n"));
  const json& e = j["epilogue"];
  ASSERT_EQ(e.size(), 7u);
  EXPECT_EQ(e[0], json({{"op", "scale"}, {"scalar", "alpha"}, {"default", 0.5}}));
  EXPECT_EQ(e[1], json({{"op", "bias"}, {"axis", "row"}, {"dtype", "f32"}}));
  EXPECT_EQ(e[2], json({{"op", "leaky_relu"}, {"params", json::array({0.01})}}));
  EXPECT_EQ(e[3]["op"], "residual");
  EXPECT_EQ(e[3]["scalar"], "beta");
  EXPECT_EQ(e[3]["default"], 1.0);
  EXPECT_EQ(e[3]["tensor"]["name"], "C");
  EXPECT_EQ(e[4], json({{"op", "cast"}, {"dtype", "f16"}}));
  EXPECT_EQ(e[5]["tensor"]["name"], "Z");
  EXPECT_EQ(j["slots"]["vectors"], json::array({{{"stage", 1}}}));
  EXPECT_EQ(j["slots"]["scalars"], json::array({{{"stage", 0}, {"name", "alpha"}, {"default", 0.5}},
                                                 {{"stage", 3}, {"name", "beta"}, {"default", 1.0}}}));
  EXPECT_EQ(j["slots"]["aux"], json::array({{{"stage", 5}}}));
}

TEST(Canonical, AliasesCanonicalise) {
  KernelConfig silu = lowered(spec(kBf16, "  >> silu\n"));
  KernelConfig swish = lowered(spec(kBf16, "  >> swish\n"));
  EXPECT_EQ(canonical_config(silu), canonical_config(swish));
}

TEST(Canonical, DumpIrMarksDefaults) {
  std::string text = spec(kBf16, "    .with_threadblockshape(64, 128, 64)\n");
  SourceFile src("canonical.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  ASSERT_TRUE(c.config);
  std::string ir = dump_ir(src, *c.config);
  EXPECT_NE(ir.find("KernelConfig 'k' @1:1\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("  tile 64x128x64 @3:6\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("  cluster 1x1x1 (default @1:1)\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("  kernel_schedule tma_pingpong (default @1:1)\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("  compute f32 (default @2:3)\n"), std::string::npos) << ir;  // implied at the operator
  EXPECT_NE(ir.find("  stage store "), std::string::npos) << ir;
}

}  // namespace
}  // namespace ucut
