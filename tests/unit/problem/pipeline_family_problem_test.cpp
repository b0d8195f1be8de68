// tests/unit/problem/pipeline_family_problem_test.cpp — pipeline problems with memory-bound family stages: each
// shape's symbols and scalars kept for the worker, family_call's extents, scalars and caller inputs, the missing
// symbol or scalar named with its stage, the shipped problem files, the request's JSON round trip, the worker's
// reading of a family stage (pipeline_desc.h: links, attach_family_configs) and the pipeline's SOL.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "eval/memop_reference.h"
#include "eval/protocol.h"
#include "eval/worker/pipeline_desc.h"
#include "problem/family_call.h"
#include "problem/match.h"
#include "problem/read.h"
#include "sol/roofline.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

const char* kGroupNorm =
    "pipeline gn : sm90a\n"
    "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
    "  stage norm = rownorm(input: H[M, G, D], gamma: f32[G,D], norm = layer, eps = 1e-5, over = D)\n"
    "    >> expr(x * gamma) >> store(Y: f32[M,G,D])\n";

const char* kScaled =
    "pipeline leaky : sm90a\n"
    "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
    "  stage act = map(input: H, alpha: f32) >> leaky_relu(alpha) >> store(Y: f32[M,N])\n";

class FamilyPipelineProblem : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ucut_family_pipeline_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::optional<Problem> load(const char* spec, const std::string& shapes, std::string* err) {
    std::ofstream(dir_ / "spec.ucut") << spec;
    std::ofstream(dir_ / "problem.toml") << "name = \"p\"\nop = \"pipeline\"\nsemantics = \"spec.ucut\"\nshapes = [ "
                                         << shapes << " ]\n";
    return load_problem((dir_ / "problem.toml").string(), err);
  }

  fs::path dir_;
};

const char* kConvPoolSoftmax =
    "pipeline cps : sm90a\n"
    "  stage c = conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,C], acc: f32) >> store(Y1: f32[N,P,Q,K])\n"
    "  stage pool = window(input: Y1, op = max, size = 2, stride = 2, over = (P, Q), edge = clip)\n"
    "    >> store(Y2: f32[N,P2,Q2,K])\n"
    "  stage sm = rownorm(input: Y2, norm = softmax, over = K) >> store(Y: f32[N,P2,Q2,K])\n";

TEST_F(FamilyPipelineProblem, SymbolsAndTheFamilyStagesCallAreKept) {
  std::string err;
  auto p = load(kGroupNorm, "{ M = 7, K = 5, N = 12, G = 3, D = 4 }", &err);
  ASSERT_TRUE(p) << err;
  const GemmShape& s = p->shapes[0];
  ASSERT_EQ(s.stages.size(), 2u);
  EXPECT_EQ(s.stages[0].m, 7);
  EXPECT_EQ(s.stages[1].m, 0);  // a family stage has no GEMM
  EXPECT_EQ(s.m, 7);            // the outer extents are the last GEMM's
  EXPECT_EQ(p->semantics.name.value, "mm");
  EXPECT_EQ(s.symbols.at("G"), 3);
  EXPECT_NE(p->pipeline_text.find("rownorm"), std::string::npos);
  const MemOpConfig& m = *p->pipeline->stages[1].family;
  FamilyCall call = family_call(m, s.symbols, s.scalars);
  ASSERT_TRUE(call.ok()) << call.error;
  EXPECT_EQ(call.extents.size(), m.extent_symbols().size());
  ASSERT_EQ(call.inputs.size(), 2u);  // H (bound by the pipeline) and gamma
  EXPECT_EQ(call.inputs[0], (std::vector<int64_t>{7, 3, 4}));
  EXPECT_EQ(call.inputs[1], (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(call.input_elements(1), 12);
}

TEST_F(FamilyPipelineProblem, AMissingSymbolNamesTheFamilyStage) {
  std::string err;
  EXPECT_FALSE(load(kGroupNorm, "{ M = 7, K = 5, N = 12, D = 4 }", &err));
  EXPECT_NE(err.find("`G`"), std::string::npos) << err;
  EXPECT_NE(err.find("stage `norm`"), std::string::npos) << err;
  EXPECT_NE(err.find("H007"), std::string::npos) << err;
}

TEST_F(FamilyPipelineProblem, AScalarComesFromTheShapeOrIsRefused) {
  std::string err;
  auto p = load(kScaled, "{ M = 8, K = 8, N = 8, alpha = 0.25 }", &err);
  ASSERT_TRUE(p) << err;
  EXPECT_DOUBLE_EQ(p->shapes[0].scalars.at("alpha"), 0.25);
  FamilyCall call = family_call(*p->pipeline->stages[1].family, p->shapes[0].symbols, p->shapes[0].scalars);
  ASSERT_TRUE(call.ok()) << call.error;
  EXPECT_EQ(call.scalars, std::vector<double>{0.25});
  EXPECT_FALSE(load(kScaled, "{ M = 8, K = 8, N = 8 }", &err));
  EXPECT_NE(err.find("`alpha`"), std::string::npos) << err;
  EXPECT_NE(err.find("stage `act`"), std::string::npos) << err;
  EXPECT_NE(err.find("add `alpha = VALUE`"), std::string::npos) << err;
}

TEST_F(FamilyPipelineProblem, TheShippedProblemsRead) {
  for (const char* name : {"gemm_softmax_pipeline", "gemm_batchnorm_pipeline"}) {
    std::string err;
    auto p = load_problem(test_paths::source_dir() + "/problems/" + name + ".toml", &err);
    ASSERT_TRUE(p) << name << ": " << err;
    EXPECT_GE(p->shapes.size(), 2u);
    for (const GemmShape& s : p->shapes)
      EXPECT_TRUE(family_call(*p->pipeline->stages[1].family, s.symbols, s.scalars).ok()) << name;
  }
}

TEST_F(FamilyPipelineProblem, TheRequestCarriesSymbolsScalarsAndTheSpec) {
  std::string err;
  auto p = load(kScaled, "{ M = 8, K = 4, N = 6, alpha = 0.5 }", &err);
  ASSERT_TRUE(p) << err;
  WorkerRequest req;
  req.problem = canonical_pipeline(*p->pipeline);
  req.shapes = p->shapes;
  req.pipeline_source = p->pipeline_text;
  WorkerRequest back = nlohmann::json(req).get<WorkerRequest>();
  ASSERT_EQ(back.shapes.size(), 1u);
  EXPECT_EQ(back.shapes[0].symbols, p->shapes[0].symbols);
  EXPECT_EQ(back.shapes[0].scalars, p->shapes[0].scalars);
  EXPECT_EQ(back.shapes[0].stages.size(), 2u);
  EXPECT_EQ(back.pipeline_source, p->pipeline_text);

  worker::PipelineDesc d = worker::parse_pipeline_desc(back.problem, "the problem's");
  ASSERT_TRUE(d.stages[1].is_family());
  EXPECT_EQ(d.stages[1].family->op, "map");
  ASSERT_EQ(d.stages[1].family->links.size(), 1u);
  EXPECT_EQ(d.stages[1].family->links[0].producer, 0);
  EXPECT_TRUE(d.stages[1].family->link_of(0));
  EXPECT_EQ(d.family(), OpFamily::gemm);
  EXPECT_EQ(worker::pipeline_mismatch(d, d), "");
  EXPECT_THROW(worker::attach_family_configs(d, ""), std::runtime_error);
  worker::attach_family_configs(d, back.pipeline_source);
  ASSERT_TRUE(d.stages[1].family->memop);
  EXPECT_EQ(d.stages[1].family->memop->scalars.size(), 1u);
  EXPECT_EQ(memop_reference_unsupported(*d.stages[1].family->memop), "");
  // Another kernel's source for the same pipeline name is refused, the stage named.
  std::string other(kScaled);
  other.replace(other.find("leaky_relu(alpha)"), 17, "leaky_relu(alpha) >> relu");
  try {
    worker::attach_family_configs(d, other);
    ADD_FAILURE() << "a source of another kernel was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("stage `act`"), std::string::npos) << e.what();
  }
}

TEST_F(FamilyPipelineProblem, TheWorkerRefusesAGemmReadingAFamilyOutputAndFamilyOnlyPipelines) {
  std::string err;
  auto p = load(kScaled, "{ M = 8, K = 4, N = 6, alpha = 0.5 }", &err);
  ASSERT_TRUE(p) << err;
  nlohmann::json j = canonical_pipeline(*p->pipeline);
  nlohmann::json only = j;
  only["stages"].erase(0);
  EXPECT_THROW(worker::parse_pipeline_desc(only, "the problem's"), std::runtime_error);
}

TEST_F(FamilyPipelineProblem, TheFamilyStagesReferenceReadsTheProducersOutput) {
  // The worker's reference step on the host: the GEMM's output as stored, then memop_reference, rounded.
  std::string err;
  auto p = load(kScaled, "{ M = 2, K = 4, N = 3, alpha = 0.5 }", &err);
  ASSERT_TRUE(p) << err;
  const MemOpConfig& m = *p->pipeline->stages[1].family;
  FamilyCall call = family_call(m, p->shapes[0].symbols, p->shapes[0].scalars);
  ASSERT_TRUE(call.ok());
  std::vector<double> h = {-2, -1, 0, 1, 2, 3};
  MemOpHostArgs args;
  args.inputs.emplace_back(h);
  args.scalars = call.scalars;
  args.extents = call.extents;
  MemOpReference ref = memop_reference(m, args, OutputRounding::declared_type);
  ASSERT_TRUE(ref.ok()) << ref.error;
  EXPECT_EQ(ref.outputs[0], (std::vector<double>{-1, -0.5, 0, 1, 2, 3}));
}

TEST_F(FamilyPipelineProblem, SolCountsTheFamilyStageAtTheBoundary) {
  std::string err;
  auto p = load(kGroupNorm, "{ M = 8, K = 16, N = 12, G = 3, D = 4 }", &err);
  ASSERT_TRUE(p) << err;
  sol::WorkCount w = sol::count_pipeline_work(*p->pipeline, p->shapes[0]);
  // A, B, gamma and Y in f32; the intermediate H (read through the view) is no traffic.
  EXPECT_DOUBLE_EQ(w.bytes, 4.0 * (8 * 16 + 16 * 12 + 12 + 8 * 12));
  for (const sol::TensorTraffic& t : w.tensors) EXPECT_EQ(t.name.find("H"), std::string::npos) << t.name;
  EXPECT_GT(w.gemm_flops, 2.0 * 8 * 16 * 12 - 1);
}

TEST_F(FamilyPipelineProblem, AFamilyStageMatchesOnlyTheSameKernel) {
  std::string err;
  auto p = load(kScaled, "{ M = 8, K = 4, N = 6, alpha = 0.5 }", &err);
  ASSERT_TRUE(p) << err;
  auto compile = [](const std::string& text) {
    Compilation c = compile_spec(SourceFile("p.ucut", text), StopAfter::check);
    EXPECT_TRUE(c.ok() && c.pipeline) << text;
    return *c.pipeline;
  };
  EXPECT_FALSE(pipeline_mismatch(*p, compile(kScaled)));
  std::string other(kScaled);
  other.replace(other.find("leaky_relu(alpha)"), 17, "leaky_relu(alpha) >> relu");
  auto why = pipeline_mismatch(*p, compile(other));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("`act`"), std::string::npos) << *why;
}

TEST_F(FamilyPipelineProblem, AWindowStagesOutputExtentsComeFromItsWindow) {
  // 3x3 convolution of 11x9: P = 9, Q = 7; 2x2 pooling at stride 2: P2 = 4, Q2 = 3, which the softmax stage reads.
  std::string err;
  auto p = load(kConvPoolSoftmax, "{ N = 2, H = 11, W = 9, C = 8, K = 16, R = 3, S = 3 }", &err);
  ASSERT_TRUE(p) << err;
  const GemmShape& s = p->shapes[0];
  EXPECT_EQ(s.symbols.at("P2"), 4);
  EXPECT_EQ(s.symbols.at("Q2"), 3);
  FamilyCall softmax = family_call(*p->pipeline->stages[2].family, s.symbols, s.scalars);
  ASSERT_TRUE(softmax.ok()) << softmax.error;
  EXPECT_EQ(softmax.inputs[0], (std::vector<int64_t>{2, 4, 3, 16}));
  // A shape that sets a pooled extent must agree with the window.
  auto bad = load(kConvPoolSoftmax, "{ N = 2, H = 11, W = 9, C = 8, K = 16, R = 3, S = 3, P2 = 5 }", &err);
  EXPECT_FALSE(bad);
  EXPECT_NE(err.find("H007"), std::string::npos) << err;
  EXPECT_NE(err.find("the window makes"), std::string::npos) << err;
}

}  // namespace
}  // namespace ucut
