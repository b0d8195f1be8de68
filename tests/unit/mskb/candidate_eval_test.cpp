// tests/unit/mskb/candidate_eval_test.cpp — workflow/mskb_candidate_eval.h: how a measured pair report
// becomes the verdict and the report Debug sees, and (with nvcc, no GPU) the real evaluator refusing a
// candidate whose launcher signature is not the task's before anything needs a GPU.
#include <gtest/gtest.h>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "build/toolchain.h"
#include "workflow/mskb_candidate_eval.h"

namespace ucut {
namespace {

namespace cm = engine::cudamaster;

MskbImplResult good(double ms) {
  MskbImplResult r;
  r.correct = r.reverify = true;
  r.gpu_ms = ms;
  r.seconds = 0.5;
  return r;
}

/// A RELU pair with two cases, the naive launcher fine on both and the candidate as given.
MskbPairReport pair_with(const MskbImplResult& small, const MskbImplResult& large) {
  MskbPairReport p;
  p.task = p.name = "RELU";
  p.gpu_name = "NVIDIA H100 80GB HBM3";
  for (auto [label, candidate] : {std::pair{"N=1024", small}, std::pair{"N=1048576", large}}) {
    MskbCaseRow row;
    row.label = label;
    row.sol_floor_ms = 0.01;
    row.impls["naive"] = good(1.0);
    row.impls["candidate"] = candidate;
    p.cases.push_back(row);
  }
  return p;
}

TEST(EvaluationOf, AVerifiedUnflaggedCandidateIsOkWithItsScoreAndLargestTime) {
  MskbPairReport p = pair_with(good(0.5), good(0.25));
  p.kernel["candidate"] = {.weighted = 3.9, .log_geometric = 3.1, .cases = 2, .failed = 0};
  cm::Evaluation e = evaluation_of(p, mskb::Role::candidate);
  EXPECT_EQ(e.verdict, cm::Verdict::ok);
  EXPECT_EQ(e.score, 3.9);
  EXPECT_EQ(e.time_ms, 0.25);
  EXPECT_EQ(e.gpu, "NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(e.run_seconds, 1.0);
  EXPECT_TRUE(e.error.empty());
  EXPECT_EQ(evaluation_of(p, mskb::Role::naive).score, 1.0) << "the naive launcher is the baseline";
}

TEST(EvaluationOf, TheWorstFailureDecidesAndItsCasesAreListed) {
  MskbImplResult wrong = good(0.5);
  wrong.correct = false;
  wrong.status = mskb::Status::wrong;
  wrong.error = "output: 12 of 1024 elements wrong (worst [3] = 1 vs 2, |err| 1)";
  cm::Evaluation e = evaluation_of(pair_with(wrong, good(0.3)), mskb::Role::candidate);
  EXPECT_EQ(e.verdict, cm::Verdict::verify);
  EXPECT_EQ(e.error,
            "case N=1024: wrong result: output: 12 of 1024 elements wrong (worst [3] = 1 vs 2, |err| 1)\n");
  EXPECT_FALSE(e.score);

  MskbImplResult crashed;
  crashed.status = mskb::Status::cuda_error;
  crashed.error = "an illegal memory access was encountered";
  e = evaluation_of(pair_with(wrong, crashed), mskb::Role::candidate);
  EXPECT_EQ(e.verdict, cm::Verdict::run);
  EXPECT_EQ(e.error, "case N=1048576: cuda_error: an illegal memory access was encountered\n");

  MskbImplResult too_fast = good(0.001);
  too_fast.flags = {FlagId::faster_than_sol};
  e = evaluation_of(pair_with(good(0.5), too_fast), mskb::Role::candidate);
  EXPECT_EQ(e.verdict, cm::Verdict::integrity);
  EXPECT_NE(e.error.find("case N=1048576: flagged faster_than_sol"), std::string::npos) << e.error;
  EXPECT_NE(e.error.find("GPU time 0.001 ms against the case's physical floor 0.01 ms"), std::string::npos)
      << e.error;
  EXPECT_EQ(e.flags, std::vector<FlagId>{FlagId::faster_than_sol});
  EXPECT_EQ(e.time_ms, 0.001) << "flagged results keep their time for the record";
}

TEST(EvaluationOf, BuildAndInterfaceFailuresAndNoGpu) {
  MskbPairReport p = pair_with(good(1), good(1));
  p.build_errors["candidate"] =
      "/w/RELU.cu does not build (RELU_optimized, full log /c/build.log):\n  RELU.cu(3): error: x\n"
      "  RELU.cu(9): error: y\n  2 errors detected in the compilation of \"/c/ab.tmp.17.42/kernel.cu\".\n";
  p.build_first_errors["candidate"] = "RELU.cu(3): error: x";
  cm::Evaluation e = evaluation_of(p, mskb::Role::candidate);
  EXPECT_EQ(e.verdict, cm::Verdict::build);
  EXPECT_EQ(e.error, "RELU.cu(3): error: x\n  RELU.cu(9): error: y\n")
      << "the first error, then nvcc's further lines, without the cache's scratch paths";
  p.build_first_errors["candidate"] =
      "ucutlass_mskb_interface_check(17): error: static assertion failed with \"[mskb-launcher-signature] "
      "...\"";
  EXPECT_EQ(evaluation_of(p, mskb::Role::candidate).verdict, cm::Verdict::interface);

  MskbPairReport none = pair_with(good(1), good(1));
  none.gpu_name.clear();
  none.run_error = "timing needs a CUDA GPU, and none is usable here";
  e = evaluation_of(none, mskb::Role::candidate);
  EXPECT_EQ(e.verdict, cm::Verdict::needs_gpu);
  EXPECT_EQ(e.error, none.run_error);
}

TEST(MskbCandidateEvaluator, RefusesAWrongLauncherSignatureWithoutAGpu) {
  std::string error;
  if (!find_toolchain("", &error)) GTEST_SKIP() << "nvcc or CUTLASS missing: " << error;
  ucut::testing::TempDir dir("ucut-cm-eval");
  MskbCandidateEvalOptions o;
  o.bench.suite_dir = ucut::test_paths::source_dir() + "/suites/mskb";
  o.bench.cache_dir = dir.file("cache");
  o.bench.worker = dir.file("no-worker-here");  // nothing may run: the refusal comes from the build
  o.work_dir = dir.file("work");
  const mskb::Task& relu = *mskb::find_task("RELU");
  MskbCandidateEvaluator eval(relu, mskb::Precision::fp32, o);
  EXPECT_NE(eval.naive_code().find("void RELU(float* output"), std::string::npos) << eval.naive_code();
  EXPECT_EQ(eval.arch(), "sm_90a");
  cm::Candidate wrong;
  wrong.code =
      "#include <cuda_runtime.h>\n"
      "__global__ void RELU_kernel_optimized(double* out, const double* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i] > 0 ? in[i] : 0;\n"
      "}\n"
      "extern \"C\" void RELU_optimized(double* output, const double* input, int N) {\n"
      "  RELU_kernel_optimized<<<(N + 255) / 256, 256>>>(output, input, N);\n"
      "  cudaDeviceSynchronize();\n"
      "}\n";
  cm::Evaluation e = eval.evaluate(wrong);
  EXPECT_EQ(e.verdict, cm::Verdict::interface) << e.error;
  EXPECT_NE(
      e.error.find(
          "[mskb-launcher-signature] the launcher must be void RELU_optimized(float*, const float*, int)"),
      std::string::npos)
      << e.error;
  EXPECT_NE(e.error.find("; found void(double *, double *, int)"), std::string::npos) << e.error;
  EXPECT_GT(e.build_seconds, 0);
}

}  // namespace
}  // namespace ucut
