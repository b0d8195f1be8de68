// tests/unit/profile/profile_spec_test.cpp — workflow/profile_spec.h on this CPU-only machine: the spec is built (from
// a seeded cache), then profiled through fakes: no ncu and no GPU degrade to a report that says why; an ncu printing
// the fixture CSV gives the longest kernel's class, the SOL % against the profiled durations or a timed median, and
// the worker command and ncu range options reach ncu; a spec that does not check stops before any profiling.
#include "workflow/profile_spec.h"

#include <gtest/gtest.h>

#include <fstream>

#include "../problem/problem_text.h"
#include "../temp_dir.h"
#include "fixture.h"
#include "profile_fakes.h"

namespace ucut {
namespace {

using profile::NcuStatus;
using namespace profile::testing;

constexpr const char* kSpec = "examples/gemm_bf16.ucut";
constexpr const char* kProblem = "problems/examples/gemm_bf16.toml";

struct ProfileFixture : ::testing::Test {
  ucut::testing::TempDir dir{"ucut-profile-spec"};
  ProfileOptions o;
  Problem problem;
  SourceFile spec{"", ""};

  void SetUp() override {
    o.measure.cache_dir = dir.file("cache");
    if (!seed_build_cache(o.measure.cache_dir, kSpec)) GTEST_SKIP() << "nvcc or CUTLASS missing: no build key";
    std::string error;
    problem = load_problem(source_path(kProblem), &error).value();
    spec = SourceFile(kSpec, read_file(source_path(kSpec)).value());
    o.measure.worker = worker_without_gpu(dir.path());
    o.timeout_s = 30;
  }
};

TEST(ShortKernelName, ElidesNestedTemplateArguments) {
  EXPECT_EQ(short_kernel_name("void cutlass::device_kernel<cutlass::GemmUniversal<cute::tuple<int, int>, "
                              "cutlass::CollectiveMma<X<1>, Y>>>(Params)"),
            "void cutlass::device_kernel<cutlass::GemmUniversal<…>>(Params)");
  EXPECT_EQ(short_kernel_name("void ucut_convert_kernel<float, __nv_bfloat16>(const T1 *, T2 *, long, int)"),
            "void ucut_convert_kernel<float, __nv_bfloat16>(const T1 *, T2 *, long, int)");
  EXPECT_EQ(short_kernel_name("fixture_copy_kernel(const float *, float *, int)"),
            "fixture_copy_kernel(const float *, float *, int)");
  EXPECT_EQ(short_kernel_name("void K<A<B>::C<D>>(P)"), "void K<A<…>::C<…>>(P)");
}

TEST_F(ProfileFixture, WithoutNcuTheReportDegradesAndSaysWhy) {
  o.ncu = dir.file("no-such-ncu");
  ProfileReport r = profile_spec(spec, problem, o);
  EXPECT_EQ(r.stopped_at, MeasureStep::none);
  EXPECT_TRUE(r.build.ok && r.build.cached);
  EXPECT_FALSE(r.counters());
  EXPECT_EQ(r.ncu_status, NcuStatus::not_installed);
  ASSERT_TRUE(r.filtered.degraded);
  EXPECT_NE(r.filtered.degraded->find("ncu could not be started as '" + o.ncu + "'"), std::string::npos)
      << *r.filtered.degraded;
  EXPECT_NE(r.filtered.degraded->find("counters need Nsight Compute"), std::string::npos);
  EXPECT_EQ(r.filtered.classification.bottleneck, profile::Bottleneck::unknown);
  EXPECT_GT(r.t_sol_ms, 0);  // the bound is known without a GPU
  std::string text = profile_report_text(r, false);
  EXPECT_NE(text.find("no counters: ncu could not be started"), std::string::npos) << text;
  EXPECT_NE(text.find("thresholds: SM 30%"), std::string::npos) << text;
  EXPECT_NE(text.find("-bound) at the kernel's precision; no measured time to compare it with"), std::string::npos)
      << text;
}

TEST_F(ProfileFixture, WithoutAGpuTheWorkersReasonIsReported) {
  o.ncu = ncu_running_the_command(dir.path());
  ProfileReport r = profile_spec(spec, problem, o);
  EXPECT_FALSE(r.counters());
  EXPECT_EQ(r.ncu_status, NcuStatus::no_kernel);
  ASSERT_TRUE(r.filtered.degraded);
  EXPECT_NE(r.filtered.degraded->find("the worker could not run the kernel under ncu: timing needs a CUDA GPU"),
            std::string::npos)
      << *r.filtered.degraded;
  EXPECT_NE(r.filtered.degraded->find("(counters need an NVIDIA GPU)"), std::string::npos);
  // The worker was asked for one launch of the first shape and nothing else.
  nlohmann::json req = nlohmann::json::parse(read_file(dir.file("request_seen.json")).value());
  EXPECT_EQ(req["mode"], "profile");
  EXPECT_EQ(req["kernel_path"], r.build.library);
  EXPECT_EQ(req["shapes"].size(), 1u);
  EXPECT_EQ(req["shapes"][0]["m"], problem.shapes.front().m);
  EXPECT_EQ(req["input_sets"], 1);
  EXPECT_EQ(req["time_cublas"], false);
}

TEST_F(ProfileFixture, CountersClassifyTheLongestKernelOfTheLaunch) {
  std::string args = dir.file("args");
  o.ncu = write_script(dir.path() / "ncu", "printf '%s\\n' \"$@\" > '" + args + "'\ncat '" +
                                               fixture_path("fixture_ncu_raw_2kernels.csv") + "'");
  ProfileReport r = profile_spec(spec, problem, o);
  ASSERT_TRUE(r.counters()) << profile_report_text(r, false);
  EXPECT_EQ(r.ncu_status, NcuStatus::ok);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.classified, 0u);  // 1,234,567 ns against 52,416 ns
  EXPECT_EQ(r.filtered.classification.bottleneck, profile::Bottleneck::compute);  // SM 82.5% under the prior
  EXPECT_FALSE(r.filtered.degraded);
  EXPECT_EQ(r.kernels[0].source, "examples/gemm_bf16.ucut on " + problem.name + ", shape " + r.shape);
  EXPECT_EQ(r.t_measured_from, MeasuredFrom::ncu);
  ASSERT_TRUE(r.filtered.sol_pct);
  EXPECT_NEAR(*r.filtered.sol_pct, 100 * r.t_sol_ms / ((1234567 + 52416) * 1e-6), 1e-9);

  std::ifstream in(args);
  std::vector<std::string> seen;
  for (std::string line; std::getline(in, line);) seen.push_back(line);
  auto at = std::find(seen.begin(), seen.end(), "--profile-from-start");
  ASSERT_NE(at, seen.end());
  EXPECT_EQ(*(at + 1), "off");
  EXPECT_EQ(std::find(seen.begin(), seen.end(), "-k"), seen.end());  // no name filter: the range selects
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3], o.measure.worker);

  nlohmann::json j = profile_report_json(r, true);
  EXPECT_EQ(j["profile"]["bottleneck"], "compute");
  EXPECT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["all_metrics"].size(), profile::metric_table().size());
  EXPECT_FALSE(profile_report_json(r, false).contains("all_metrics"));
  std::string all = profile_report_text(r, true);
  EXPECT_NE(all.find("every metric read"), std::string::npos) << all;
  EXPECT_NE(all.find("2 kernels in the launch"), std::string::npos) << all;
  EXPECT_NE(all.find("t_measured: the profiled launch's kernel durations"), std::string::npos) << all;
}

TEST_F(ProfileFixture, ARecordedRangeProfileClassifiesTheMainKernel) {
  // What ncu printed on an H200 for a launch of two kernels inside the profiler range (testdata/README.md).
  o.ncu = write_script(dir.path() / "ncu", "cat '" + fixture_path("ncu_profile_range_h200.csv") + "'");
  ProfileReport r = profile_spec(spec, problem, o);
  ASSERT_TRUE(r.counters()) << profile_report_text(r, false);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[r.classified].kernel, "lib_main_kernel(float *, int)");  // 1,034,368 ns against 41,312 ns
  EXPECT_EQ(r.filtered.classification.bottleneck, profile::Bottleneck::compute);  // SM 98.97%
  ASSERT_TRUE(r.filtered.duration_ns);
  EXPECT_DOUBLE_EQ(*r.filtered.duration_ns, 1034368);
  EXPECT_FALSE(r.filtered.metrics.empty());
}

TEST_F(ProfileFixture, ATimedMedianIsTheMeasuredTimeForSol) {
  o.ncu = write_script(dir.path() / "ncu", "cat '" + fixture_path("fixture_ncu_raw_2kernels.csv") + "'");
  o.measured_ms = 2.0;
  ProfileReport r = profile_spec(spec, problem, o);
  ASSERT_TRUE(r.counters());
  EXPECT_EQ(r.t_measured_from, MeasuredFrom::timing);
  EXPECT_NEAR(*r.filtered.sol_pct, 100 * r.t_sol_ms / 2.0, 1e-9);
}

TEST_F(ProfileFixture, ASpecThatDoesNotCheckIsNotProfiled) {
  o.ncu = dir.file("no-such-ncu");
  ProfileReport r = profile_spec(SourceFile("broken.ucut", "kernel broken {"), problem, o);
  EXPECT_EQ(r.stopped_at, MeasureStep::check);
  EXPECT_FALSE(r.message.empty());
  EXPECT_EQ(profile_report_json(r, false)["stopped_at"], "check");
}

}  // namespace
}  // namespace ucut
