// tests/unit/problem/pipeline_problem_test.cpp — pipeline problems: symbols to stage shapes, every bad field named,
// what a candidate pipeline must match, per-stage shape violations, and the pipeline's SOL work.
#include "problem/match.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compiler/pipeline.h"
#include "problem_text.h"
#include "sol/roofline.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

const char* kSpec =
    "pipeline mlp : sm90a\n"
    "  stage up = gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col, acc: f32)\n"
    "    >> bias(col) >> gelu >> store(H: bf16[M,N] row)\n"
    "  stage down = gemm(A: H, B: bf16[N,P] col, acc: f32)\n"
    "    >> bias(col) >> store(Y: f32[M,P] row)\n";

/// A scratch directory holding `spec.ucut` and `problem.toml` (the problem names the spec relative to itself).
class PipelineProblem : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ucut_pipeline_problem_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    write("spec.ucut", kSpec);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }

  std::optional<Problem> load(const std::string& shapes, std::string* err, const std::string& extra = "") {
    write("problem.toml", "name = \"mlp\"\nop = \"pipeline\"\nsemantics = \"spec.ucut\"\n" + extra +
                              "shapes = [ " + shapes + " ]\n");
    return load_problem((dir_ / "problem.toml").string(), err);
  }

  static PipelineConfig compile(const std::string& text) {
    SourceFile src("p.ucut", text);
    Compilation c = compile_spec(src, StopAfter::check);
    EXPECT_TRUE(c.ok() && c.pipeline) << text;
    return c.pipeline ? *c.pipeline : PipelineConfig{};
  }

  fs::path dir_;
};

TEST_F(PipelineProblem, SymbolsGiveEveryStageItsGemmShape) {
  std::string err;
  auto p = load("{ M = 1000, K = 512, N = 2048, P = 256, label = \"odd\" }", &err);
  ASSERT_TRUE(p) << err;
  ASSERT_TRUE(p->pipeline);
  ASSERT_EQ(p->shapes.size(), 1u);
  const GemmShape& s = p->shapes[0];
  EXPECT_EQ(s.label, "odd");
  ASSERT_EQ(s.stages.size(), 2u);
  EXPECT_EQ(s.stages[0].m, 1000);
  EXPECT_EQ(s.stages[0].k, 512);
  EXPECT_EQ(s.stages[0].n, 2048);
  EXPECT_EQ(s.stages[1].m, 1000);
  EXPECT_EQ(s.stages[1].k, 2048);
  EXPECT_EQ(s.stages[1].n, 256);
  EXPECT_EQ(p->semantics.name.value, "down");  // the last stage, whose output is the problem's
}

TEST_F(PipelineProblem, BadShapesAndFieldsAreNamed) {
  std::string err;
  EXPECT_FALSE(load("{ M = 8, K = 8, N = 8 }", &err));
  EXPECT_NE(err.find("`P`"), std::string::npos) << err;
  EXPECT_NE(err.find("stage `down`"), std::string::npos) << err;
  EXPECT_FALSE(load("{ M = 8, K = 8, N = 8, P = 8, Q = 3 }", &err));
  EXPECT_NE(err.find("`Q`"), std::string::npos) << err;
  EXPECT_FALSE(load("{ M = 0, K = 8, N = 8, P = 8 }", &err));
  EXPECT_NE(err.find("positive"), std::string::npos) << err;
  EXPECT_FALSE(load("{ M = 8, K = 8, N = 8, P = 8 }", &err, "a = \"bf16 row\"\n"));
  EXPECT_NE(err.find("`a`"), std::string::npos) << err;
  write("kernel.ucut", "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col)\n  >> store(D: bf16[M,N] row)\n");
  write("problem.toml", "name = \"x\"\nop = \"pipeline\"\nsemantics = \"kernel.ucut\"\nshapes = [ { M = 8 } ]\n");
  EXPECT_FALSE(load_problem((dir_ / "problem.toml").string(), &err));
  EXPECT_NE(err.find("is a kernel"), std::string::npos) << err;
}

TEST_F(PipelineProblem, TheSameStagesWithOtherTilesMatch) {
  std::string err;
  auto p = load("{ M = 256, K = 256, N = 512, P = 256 }", &err);
  ASSERT_TRUE(p) << err;
  std::string tuned = kSpec;
  tuned.insert(tuned.find("\n    >> bias(col) >> gelu"), ".with_threadblockshape(128, 256, 64).with_cluster(2, 1, 1)");
  auto m = pipeline_mismatch(*p, compile(tuned));
  EXPECT_FALSE(m) << *m;
}

TEST_F(PipelineProblem, AMissingConversionLinkOrStageIsAMismatch) {
  std::string err;
  auto p = load("{ M = 256, K = 256, N = 512, P = 256 }", &err);
  ASSERT_TRUE(p) << err;
  std::string no_convert = kSpec;
  no_convert.replace(no_convert.find(" from(f32)"), 10, "");
  auto m = pipeline_mismatch(*p, compile(no_convert));
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("stage 1 (`up`): operand A"), std::string::npos) << *m;

  std::string no_gelu = kSpec;
  no_gelu.replace(no_gelu.find(" >> gelu"), 8, "");
  m = pipeline_mismatch(*p, compile(no_gelu));
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("stage 1 (`up`)"), std::string::npos) << *m;

  m = pipeline_mismatch(*p, compile(std::string(kSpec) +
                                    "  stage more = gemm(A: Y, B: f32[P,Q] col, acc: f32) >> store(Z: f32[M,Q] row)\n"));
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("2 stages"), std::string::npos) << *m;
}

TEST_F(PipelineProblem, AMisalignedStageOperandNamesItsStage) {
  PipelineConfig pc = compile(kSpec);
  GemmShape s;
  s.stages = {GemmShape{256, 1001, 256}, GemmShape{256, 256, 1001}};  // H's leading dimension 1001 breaks 16 bytes
  auto why = violation_text(pc, s);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("stage `up`"), std::string::npos) << *why;
}

TEST_F(PipelineProblem, SolCountsEveryStageButOnlyTheBoundarysBytes) {
  PipelineConfig pc = compile(kSpec);
  GemmShape s;
  s.stages = {GemmShape{1024, 4096, 2048}, GemmShape{1024, 512, 4096}};
  sol::WorkCount w = sol::count_pipeline_work(pc, s);
  EXPECT_DOUBLE_EQ(w.gemm_flops, 2.0 * 1024 * 4096 * 2048 + 2.0 * 1024 * 512 * 4096);
  // X in f32 (the caller's type), W1 and W2 in bf16, both biases, Y in f32; the intermediate H is not traffic.
  double bytes = 1024.0 * 2048 * 4 + 2048.0 * 4096 * 2 + 4096 * 2 + 4096.0 * 512 * 2 + 512 * 4 + 1024.0 * 512 * 4;
  EXPECT_DOUBLE_EQ(w.bytes, bytes);
  for (const sol::TensorTraffic& t : w.tensors) EXPECT_EQ(t.name.find(".H"), std::string::npos) << t.name;
}

const char* kConvSpec =
    "pipeline block : sm90a\n"
    "  stage c1 = conv2d(X: bf16[N,H,W,C] from(f32), W: bf16[K,R,S,C], acc: f32)\n"
    "    >> bias(col) >> relu >> store(Y1: bf16[N,P,Q,K])\n"
    "  stage c2 = conv_transpose2d(X: Y1, W: bf16[K,R2,S2,K2], acc: f32)\n"
    "    >> store(Y: f32[N,P2,Q2,K2])\n";

TEST_F(PipelineProblem, ConvolutionStagesTakeTheirGeometryFromTheirTable) {
  write("spec.ucut", kConvSpec);
  std::string err;
  auto p = load("{ N = 3, H = 21, W = 13, C = 24, K = 40, R = 3, S = 3, K2 = 16, R2 = 3, S2 = 3, "
                "c1 = { pad = [1, 1], stride = [2, 2] }, c2 = { pad = [1, 1], stride = [2, 2] }, label = \"odd\" }",
                &err);
  ASSERT_TRUE(p) << err;
  ASSERT_EQ(p->shapes[0].stages.size(), 2u);
  const ConvShape &a = p->shapes[0].stages[0].conv, &b = p->shapes[0].stages[1].conv;
  EXPECT_EQ(a.kind, ConvKind::fprop);
  EXPECT_EQ(a.n, 3);
  EXPECT_EQ(a.in, (std::array<int64_t, 3>{1, 21, 13}));
  EXPECT_EQ(a.c, 24);
  EXPECT_EQ(a.k, 40);
  EXPECT_EQ(a.stride, (std::array<int64_t, 3>{1, 2, 2}));
  EXPECT_EQ(a.out(1), 11);
  EXPECT_EQ(a.out(2), 7);
  // The transposed stage reads c1's 11 x 7 x 40 output; its forward geometry's input is the upsampled 21 x 13 x 16.
  EXPECT_EQ(b.kind, ConvKind::dgrad);
  EXPECT_EQ(b.out(1), 11);
  EXPECT_EQ(b.out(2), 7);
  EXPECT_EQ(b.k, 40);
  EXPECT_EQ(b.in, (std::array<int64_t, 3>{1, 21, 13}));
  EXPECT_EQ(b.c, 16);
  EXPECT_EQ(p->shapes[0].stages[1].m, 3 * 21 * 13);  // the implicit GEMM of the data gradient
  // A given output symbol must agree with the geometry.
  auto q = load("{ N = 1, H = 8, W = 8, C = 8, K = 8, R = 3, S = 3, K2 = 8, R2 = 1, S2 = 1, P = 7 }", &err);
  EXPECT_FALSE(q);
  EXPECT_NE(err.find("`P` = 7"), std::string::npos) << err;
  EXPECT_NE(err.find("stage `c1`"), std::string::npos) << err;
  EXPECT_NE(err.find("makes"), std::string::npos) << err;
}

TEST_F(PipelineProblem, AConvolutionStagesTableIsChecked) {
  write("spec.ucut", kConvSpec);
  std::string err;
  const std::string symbols = "N = 1, H = 8, W = 8, C = 8, K = 8, R = 3, S = 3, K2 = 8, R2 = 1, S2 = 1";
  EXPECT_FALSE(load("{ " + symbols + ", c1 = { padding = [1, 1] } }", &err));
  EXPECT_NE(err.find("`padding`"), std::string::npos) << err;
  EXPECT_FALSE(load("{ " + symbols + ", c3 = { pad = [1, 1] } }", &err));
  EXPECT_NE(err.find("no stage `c3`"), std::string::npos) << err;
  EXPECT_FALSE(load("{ " + symbols + ", c1 = { stride = [0, 1] } }", &err));
  EXPECT_NE(err.find("stage `c1`"), std::string::npos) << err;
  EXPECT_FALSE(load("{ N = 1, H = 8, W = 8, C = 8, K = 8, R = 3, K2 = 8, R2 = 1, S2 = 1 }", &err));
  EXPECT_NE(err.find("`S`"), std::string::npos) << err;
  write("spec.ucut", kSpec);
  EXPECT_FALSE(load("{ M = 8, K = 8, N = 8, P = 8, up = { pad = [1, 1] } }", &err));
  EXPECT_NE(err.find("stage `up` is no convolution"), std::string::npos) << err;
}

TEST_F(PipelineProblem, ConvolutionPipelineSolCountsTheBoundary) {
  write("spec.ucut", kConvSpec);
  std::string err;
  auto p = load("{ N = 2, H = 16, W = 16, C = 16, K = 32, R = 3, S = 3, K2 = 8, R2 = 3, S2 = 3, "
                "c1 = { pad = [1, 1] }, c2 = { pad = [1, 1] } }",
                &err);
  ASSERT_TRUE(p) << err;
  sol::WorkCount w = sol::count_pipeline_work(*p->pipeline, p->shapes[0]);
  const double macs = 2.0 * 16 * 16 * 32 * 9 * 16 + 2.0 * 16 * 16 * 8 * 9 * 32;
  EXPECT_DOUBLE_EQ(w.gemm_flops, 2 * macs);
  for (const sol::TensorTraffic& t : w.tensors) EXPECT_EQ(t.name.find(".Y1"), std::string::npos) << t.name;
}

}  // namespace
}  // namespace ucut
