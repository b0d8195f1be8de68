// tests/unit/problem/grouped_test.cpp — grouped GEMMs on the harness side: the problem list through the worker
// protocol, `op = "grouped_gemm"` problem files (valid and wrong), the packed layout the worker allocates
// (problem/grouped_layout.h) and shape_violation's per-problem alignment check.
#include <gtest/gtest.h>

#include <string>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "eval/protocol.h"
#include "problem/grouped_layout.h"
#include "problem/problem.h"
#include "problem_text.h"

namespace ucut {
namespace {

GemmShape grouped(std::vector<GroupProblem> problems, std::string label = "") {
  GemmShape s;
  s.groups = std::move(problems);
  s.label = std::move(label);
  return s;
}

constexpr const char* kHead =
    "name = \"g\"\nop = \"grouped_gemm\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n";

// ---- protocol ----

TEST(GroupedProtocol, ProblemListRoundTripsAndOnlyGroupedShapesCarryIt) {
  GemmShape s = grouped({{128, 4096, 2048}, {77, 4096, 2048}, {1, 8, 8}}, "moe");
  nlohmann::json j = s;
  ASSERT_TRUE(j.contains("groups"));
  EXPECT_EQ(j.at("groups"), nlohmann::json::parse("[[128, 4096, 2048], [77, 4096, 2048], [1, 8, 8]]"));
  GemmShape back = nlohmann::json::parse(j.dump()).get<GemmShape>();
  ASSERT_TRUE(back.is_grouped());
  ASSERT_EQ(back.groups.size(), 3u);
  EXPECT_EQ(back.groups[1].m, 77);
  EXPECT_EQ(back.groups[1].n, 4096);
  EXPECT_EQ(back.groups[1].k, 2048);
  EXPECT_EQ(back.label, "moe");

  GemmShape plain;
  plain.m = plain.n = plain.k = 64;
  EXPECT_FALSE(nlohmann::json(plain).contains("groups"));
  EXPECT_FALSE(nlohmann::json(plain).get<GemmShape>().is_grouped());
  EXPECT_THROW(nlohmann::json::parse(R"({"groups": [[1, 2]]})").get<GemmShape>(), std::exception);
}

TEST(GroupedProtocol, BothBaselinesRoundTripAndOlderResponsesReadWithout) {
  ShapeResult r;
  r.shape = grouped({{64, 64, 64}, {32, 64, 128}});
  r.cublas.measured = true;
  r.cublas.event_ms.median = 0.5;
  r.cublas_kernel = "2 x cublasLt bf16xbf16->bf16 TN f32-compute (one call per problem)";
  r.cublas_grouped.measured = true;
  r.cublas_grouped.event_ms.median = 0.25;
  r.cublas_grouped_kernel = "cublasGemmGroupedBatchedEx bf16xbf16->bf16 TN f32-compute, 2 groups of one problem";
  ShapeResult back = nlohmann::json::parse(nlohmann::json(r).dump()).get<ShapeResult>();
  EXPECT_TRUE(back.cublas_grouped.measured);
  EXPECT_EQ(back.cublas_grouped.event_ms.median, 0.25);
  EXPECT_EQ(back.cublas_grouped_kernel, r.cublas_grouped_kernel);
  EXPECT_EQ(back.cublas.event_ms.median, 0.5);
  EXPECT_EQ(back.shape.groups.size(), 2u);

  ShapeResult unsupported;
  unsupported.cublas_grouped_error = "cublasGemmGroupedBatchedEx has no e4m3xe4m3->bf16 variant";
  back = nlohmann::json::parse(nlohmann::json(unsupported).dump()).get<ShapeResult>();
  EXPECT_FALSE(back.cublas_grouped.measured);
  EXPECT_EQ(back.cublas_grouped_error, unsupported.cublas_grouped_error);

  nlohmann::json old = ShapeResult{};
  old.erase("cublas_grouped");
  old.erase("cublas_grouped_kernel");
  old.erase("cublas_grouped_error");
  EXPECT_FALSE(old.get<ShapeResult>().cublas_grouped.measured);
}

// ---- problem files ----

TEST(GroupedProblem, ParsesTheProblemListAndGroupedSemantics) {
  std::string err;
  auto p = parse_problem(std::string(kHead) + "epilogue = \"scale(alpha = 0.5) >> relu\"\n" +
                             "shapes = [\n  { label = \"moe\", groups = [\n    [128, 4096, 2048],\n"
                             "    [77, 4096, 2048],\n  ] },\n  { groups = [[8, 8, 8]] },\n]\n",
                         "g.toml", &err);
  ASSERT_TRUE(p) << err;
  EXPECT_TRUE(p->semantics.grouped());
  EXPECT_NE(semantics_text(*p).find("A: bf16[G,M,K] row"), std::string::npos) << semantics_text(*p);
  EXPECT_NE(semantics_text(*p).find("D: bf16[G,M,N] row"), std::string::npos) << semantics_text(*p);
  ASSERT_EQ(p->shapes.size(), 2u);
  const GemmShape& s = p->shapes[0];
  EXPECT_TRUE(s.is_grouped());
  EXPECT_EQ(s.label, "moe");
  ASSERT_EQ(s.groups.size(), 2u);
  EXPECT_EQ(s.groups[1].m, 77);
  EXPECT_EQ(s.groups[1].n, 4096);
  EXPECT_EQ(s.groups[1].k, 2048);
  EXPECT_EQ(p->shapes[1].groups.size(), 1u);
  EXPECT_EQ(p->tolerance.atol, 1e-2);
}

TEST(GroupedProblem, ShippedGroupedProblemsLoad) {
  for (const char* f : {"problems/grouped_gemm_bf16.toml", "problems/grouped_gemm_f16_relu.toml"}) {
    std::string err;
    auto p = load_problem(ucut::test_paths::source_dir() + "/" + f, &err);
    ASSERT_TRUE(p) << f << ": " << err;
    EXPECT_TRUE(p->semantics.grouped()) << f;
    EXPECT_GE(p->shapes.size(), 2u) << f;
    for (const GemmShape& s : p->shapes) {
      EXPECT_TRUE(s.is_grouped()) << f << " " << s.label;
      EXPECT_FALSE(violation_text(p->semantics, s)) << f << " " << s.label << ": " << *violation_text(p->semantics, s);
    }
  }
}

TEST(GroupedProblem, UnknownKeyNamesItsPlace) {
  std::string err =
      problem_error(std::string(kHead) + "shapes = [ { groups = [[8, 8, 8]], m = 8 } ]\n", "g.toml");
  EXPECT_NE(err.find("g.toml:6:"), std::string::npos) << err;
  EXPECT_NE(err.find("error[H002]: `m` is not a key of shape 1 of `grouped_gemm`"), std::string::npos) << err;
  EXPECT_NE(err.find("`groups`"), std::string::npos) << err;
}

TEST(GroupedProblem, MissingOrEmptyGroups) {
  std::string err = problem_error(std::string(kHead) + "shapes = [ { label = \"x\" } ]\n", "g.toml");
  EXPECT_NE(err.find("g.toml:6:"), std::string::npos) << err;
  EXPECT_NE(err.find("shape 1 of `grouped_gemm` needs `groups"), std::string::npos) << err;
  err = problem_error(std::string(kHead) + "shapes = [ { groups = [] } ]\n", "g.toml");
  EXPECT_NE(err.find("g.toml:6:23: error[H004]: shape 1 of `grouped_gemm`: `groups` lists no problems"), std::string::npos)
      << err;
  err = problem_error(std::string(kHead) + "shapes = [ { groups = 3 } ]\n", "g.toml");
  EXPECT_NE(err.find("not an array"), std::string::npos) << err;
}

TEST(GroupedProblem, EveryExtentPositiveAndBelow2To31) {
  for (const char* bad : {"[8, 0, 8]", "[-1, 8, 8]", "[8, 8]", "[8, 8, 8, 8]", "[8, 8, \"8\"]", "[8, 2147483648, 8]",
                          "8"}) {
    std::string err = problem_error(
        std::string(kHead) + "shapes = [\n  { groups = [[8, 8, 8],\n    " + bad + "] },\n]\n", "g.toml");
    EXPECT_NE(err.find("g.toml:8:5: error[H004]: shape 1 of `grouped_gemm`: problem 2 of `groups` must be [m, n, k]"),
              std::string::npos)
        << bad << ": " << err;
  }
}

// ---- packed layout and alignment ----

TEST(GroupedLayout, ProblemsArePackedBackToBackWithDenseLeadingDimensions) {
  std::vector<GroupProblem> problems = {{128, 256, 64}, {77, 512, 1024}, {1, 8, 8}};
  PackedGroup g = pack_group(problems, Layout::row, Layout::col, Layout::col, Layout::row);
  ASSERT_EQ(g.problems.size(), 3u);
  const PackedProblem& p1 = g.problems[1];
  EXPECT_EQ(p1.a_offset, 128 * 64);
  EXPECT_EQ(p1.b_offset, 64 * 256);
  EXPECT_EQ(p1.d_offset, 128 * 256);
  EXPECT_EQ(p1.lda, 1024);  // row-major A[m, k]: k
  EXPECT_EQ(p1.ldb, 1024);  // column-major B[k, n]: k
  EXPECT_EQ(p1.ldc, 77);    // column-major C[m, n]: m
  EXPECT_EQ(p1.ldd, 512);   // row-major D[m, n]: n
  const PackedProblem& p2 = g.problems[2];
  EXPECT_EQ(p2.a_offset, 128 * 64 + 77 * 1024);
  EXPECT_EQ(p2.b_offset, 64 * 256 + 1024 * 512);
  EXPECT_EQ(p2.d_offset, 128 * 256 + 77 * 512);
  EXPECT_EQ(g.a_elements, 128 * 64 + 77 * 1024 + 8);
  EXPECT_EQ(g.b_elements, 64 * 256 + 1024 * 512 + 64);
  EXPECT_EQ(g.d_elements, 128 * 256 + 77 * 512 + 8);
  EXPECT_EQ(g.macs, 128 * 256 * 64 + 77 * 512 * 1024 + 64);
  EXPECT_EQ(g.macs, group_macs(problems));

  PackedGroup t = pack_group(problems, Layout::col, Layout::row, Layout::row, Layout::col);
  EXPECT_EQ(t.problems[1].lda, 77);   // column-major A: m
  EXPECT_EQ(t.problems[1].ldb, 512);  // row-major B: n
  EXPECT_EQ(t.problems[1].ldd, 77);
  EXPECT_EQ(packed_ld(Layout::channels_last, 5, 7), 7);
}

TEST(GroupedLayout, ShapeTextNamesTheCountAndTheFirstProblems) {
  EXPECT_EQ(grouped_shape_text({{128, 4096, 2048}, {77, 4096, 2048}}), "grouped 2x(128x4096x2048, 77x4096x2048)");
  EXPECT_EQ(grouped_shape_text({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}}, 2), "grouped 4x(1x2x3, 4x5x6, ...)");
}

TEST(GroupedShapeViolation, NamesTheProblemTheOperandAndTheExtent) {
  KernelConfig k = lowered_config(
      "kernel k : sm90a\n  grouped_gemm(A: bf16[G,M,K] row, B: bf16[G,K,N] col, acc: f32)\n"
      "  >> store(D: bf16[G,M,N] row)\n");
  ASSERT_TRUE(k.grouped());
  EXPECT_FALSE(violation_text(k, grouped({{77, 4096, 2048}, {1, 8, 8}})));  // M is free
  auto v = violation_text(k, grouped({{128, 256, 64}, {64, 64, 64}, {77, 4096, 2050}}));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("problem 3 of 3 (m = 77, n = 4096, k = 2050)"), std::string::npos) << *v;
  EXPECT_NE(v->find("`A` is row-major with leading dimension K = 2050, not a multiple of its alignment 8 (16 bytes)"),
            std::string::npos)
      << *v;
  EXPECT_NE(v->find("pad that problem's K to 2056"), std::string::npos) << *v;
  v = violation_text(k, grouped({{64, 100, 64}}));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("problem 1 of 1"), std::string::npos) << *v;
  EXPECT_NE(v->find("`D` is row-major with leading dimension N = 100"), std::string::npos) << *v;
}

}  // namespace
}  // namespace ucut
