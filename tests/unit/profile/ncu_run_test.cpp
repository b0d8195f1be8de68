// tests/unit/profile/ncu_run_test.cpp — engine/profile/ncu_run.h: the ncu command line, and run_ncu against
// a fake `ncu` (a shell script in a temp dir) for each outcome: the fixture CSV, no permission, library not
// loaded, a timeout, no ncu at all, no kernel matched, and an ncu error.
#include "engine/profile/ncu_run.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/profile/metrics.h"
#include "fixture.h"

namespace ucut::profile {
namespace {

namespace fs = std::filesystem;

TEST(NcuArgv, BuildsTheRawCsvCommandLine) {
  NcuOptions o;
  o.ncu_path = "/opt/nsight/ncu";
  o.kernel_regex = "_optimized";
  o.launch_skip = 2;
  o.launch_count = 3;
  std::vector<std::string> argv = ncu_argv(o, {"./test_spmv_csr_bf16", "--size", "1024"});
  std::vector<std::string> want = {"/opt/nsight/ncu",
                                   "--csv",
                                   "--page",
                                   "raw",
                                   "--print-units",
                                   "base",
                                   "--metrics",
                                   metrics_argument(),
                                   "--clock-control",
                                   "none",
                                   "--cache-control",
                                   "all",
                                   "--target-processes",
                                   "all",
                                   "-k",
                                   "regex:_optimized",
                                   "--launch-skip",
                                   "2",
                                   "--launch-count",
                                   "3",
                                   "./test_spmv_csr_bf16",
                                   "--size",
                                   "1024"};
  EXPECT_EQ(argv, want);
}

TEST(NcuArgv, DefaultsAndNoKernelFilter) {
  std::vector<std::string> argv = ncu_argv(NcuOptions{}, {"./app"});
  EXPECT_EQ(argv.front(), "ncu");
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "-k"), argv.end());
  EXPECT_EQ(argv[argv.size() - 5], "--launch-skip");
  EXPECT_EQ(argv[argv.size() - 4], "0");
  EXPECT_EQ(argv[argv.size() - 2], "1");
  EXPECT_EQ(argv.back(), "./app");
}

TEST(NcuArgv, ProfilesOnlyTheProfilerRangeWhenAsked) {
  NcuOptions o;
  o.from_start = false;
  std::vector<std::string> argv = ncu_argv(o, {"./app"});
  auto at = std::find(argv.begin(), argv.end(), "--profile-from-start");
  ASSERT_NE(at, argv.end());
  EXPECT_EQ(*(at + 1), "off");
  std::vector<std::string> by_default = ncu_argv(NcuOptions{}, {"./app"});
  EXPECT_EQ(std::find(by_default.begin(), by_default.end(), "--profile-from-start"), by_default.end());
}

class NcuRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ucut-fake-ncu-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A fake ncu running `body` under /bin/sh; returns options pointing at it.
  NcuOptions fake(const std::string& body, double timeout_s = 20) {
    std::string path = (dir_ / "ncu").string();
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
    NcuOptions o;
    o.ncu_path = path;
    o.kernel_regex = "fixture_";
    o.timeout_s = timeout_s;
    return o;
  }

  fs::path dir_;
};

TEST_F(NcuRun, ParsesTheCsvAndPassesTheArguments) {
  std::string args = (dir_ / "args").string();
  NcuOptions o = fake("printf '%s\\n' \"$@\" > '" + args + "'\ncat '" +
                      testing::fixture_path("fixture_ncu_raw_2kernels.csv") + "'");
  NcuOutcome r = run_ncu(o, {"./fixture_app", "with space"});
  ASSERT_EQ(r.status, NcuStatus::ok) << r.reason;
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[1].kernel, "fixture_copy_kernel(const float *, float *, int)");
  EXPECT_TRUE(r.reason.empty());
  std::ifstream in(args);
  std::vector<std::string> seen;
  for (std::string line; std::getline(in, line);) seen.push_back(line);
  std::vector<std::string> want = ncu_argv(o, {"./fixture_app", "with space"});
  want.erase(want.begin());
  EXPECT_EQ(seen, want);
}

TEST_F(NcuRun, CountersReadButTheCommandFailed) {
  NcuOutcome r =
      run_ncu(fake("cat '" + testing::fixture_path("fixture_ncu_raw_2kernels.csv") + "'\nexit 3"), {"x"});
  EXPECT_EQ(r.status, NcuStatus::ok);
  EXPECT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.reason, "profiled, but the command ended with exit code 3");
}

TEST_F(NcuRun, NoPermission) {
  NcuOutcome r =
      run_ncu(fake("echo '==PROF== Connected to process 1'\n"
                   "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                   "NVIDIA GPU Performance Counters on the target device 0.' >&2\nexit 1"),
              {"x"});
  EXPECT_EQ(r.status, NcuStatus::no_permission);
  EXPECT_EQ(ncu_status_name(r.status), "no_permission");
  EXPECT_NE(r.reason.find("ERR_NVGPUCTRPERM"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.kernels.empty());
}

TEST_F(NcuRun, LibraryNotLoaded) {
  NcuOutcome r = run_ncu(fake("echo '==ERROR== Failed to initialize: LibraryNotLoaded' >&2\nexit 1"), {"x"});
  EXPECT_EQ(r.status, NcuStatus::library_not_loaded);
  EXPECT_NE(r.reason.find("==ERROR== Failed to initialize: LibraryNotLoaded"), std::string::npos) << r.reason;
}

TEST_F(NcuRun, TimesOut) {
  NcuOutcome r = run_ncu(fake("sleep 30", 0.5), {"x"});
  EXPECT_EQ(r.status, NcuStatus::timed_out);
  EXPECT_NE(r.reason.find("timed out"), std::string::npos) << r.reason;
  EXPECT_LT(r.seconds, 10);
}

TEST_F(NcuRun, NotInstalled) {
  NcuOptions o;
  o.ncu_path = (dir_ / "no-such-ncu").string();
  NcuOutcome r = run_ncu(o, {"x"});
  EXPECT_EQ(r.status, NcuStatus::not_installed);
  EXPECT_NE(r.reason.find("ncu could not be started as '" + o.ncu_path + "'"), std::string::npos) << r.reason;
}

TEST_F(NcuRun, NoKernelMatched) {
  NcuOutcome r = run_ncu(fake("echo '==PROF== Connected to process 1'\necho 'app output'\n"
                              "echo '==WARNING== No kernels were profiled.'"),
                         {"x"});
  EXPECT_EQ(r.status, NcuStatus::no_kernel);
  EXPECT_EQ(r.reason, "no kernel matched regex:fixture_ (launch-skip 0, launch-count 1)");
}

TEST_F(NcuRun, NoKernelInTheProfilerRange) {
  NcuOptions o = fake("echo '==WARNING== No kernels were profiled.'");
  o.kernel_regex.clear();
  o.from_start = false;
  NcuOutcome r = run_ncu(o, {"x"});
  EXPECT_EQ(r.status, NcuStatus::no_kernel);
  EXPECT_EQ(r.reason,
            "no kernel matched any name (launch-skip 0, launch-count 1, between cudaProfilerStart and "
            "cudaProfilerStop)");
}

TEST_F(NcuRun, OtherErrorsAreFailures) {
  NcuOutcome r = run_ncu(fake("echo '==ERROR== Failed to find metric sm__bogus.sum' >&2\nexit 1"), {"x"});
  EXPECT_EQ(r.status, NcuStatus::failed);
  EXPECT_EQ(r.reason, "ncu failed (exit code 1): ==ERROR== Failed to find metric sm__bogus.sum");
}

}  // namespace
}  // namespace ucut::profile
