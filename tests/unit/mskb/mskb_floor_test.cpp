// tests/unit/mskb/mskb_floor_test.cpp — `bench mskb`'s latency floor (workflow/mskb_floor.h): t_SOL_eff per
// case and the latency-bound mark, which calibration a pair takes (the given file for its own GPU only, the
// store's for the measuring GPU, none when told), the report's floor column and % SOL_eff, and a report that
// says when it has no floor. The integrity bound (sol_floor_ms) is never touched.
#include "workflow/mskb_floor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace ucut {
namespace {

namespace fs = std::filesystem;

sol::Calibration calibration(const std::string& gpu_name, double launch_us, double cold_read_us) {
  sol::Calibration c;
  c.gpu_uuid = "GPU-test";
  c.gpu_name = gpu_name;
  c.date = "2026-12-07T05:00:00Z";
  c.driver = "580.159.04";
  c.method = "test";
  c.copy_bandwidth_tbs = 3.0;
  c.launch_floor_us = launch_us;
  c.cold_read_us = cold_read_us;
  c.launch_sync_us = 5.0;
  return c;
}

MskbImplResult timed(double gpu_ms) {
  MskbImplResult r;
  r.correct = true;
  r.gpu_ms = gpu_ms;
  return r;
}

/// RELU-like: a tiny case (t_SOL 0.2 µs) and a large one (t_SOL 20 µs), the vendor at 2.5 µs and 25 µs.
MskbPairReport pair(const std::string& gpu_name) {
  MskbPairReport p;
  p.task = "RELU";
  p.name = "RELU_bf16";
  p.precision = mskb::Precision::bf16;
  p.vendor = "cuDNN";
  p.gpu_name = gpu_name;
  for (double sol_ms : {0.0002, 0.02}) {
    MskbCaseRow row;
    row.label = "N=...";
    row.sol_ms = row.sol_floor_ms = sol_ms;
    row.impls["naive"] = timed(sol_ms * 200);
    row.impls["vendor"] = timed(sol_ms * 1.25 + 0.0023);
    p.cases.push_back(row);
  }
  return p;
}

TEST(MskbFloor, EffectiveBoundAndLatencyBoundCases) {
  MskbPairReport p = pair("NVIDIA H100 80GB HBM3");
  sol::Calibration c = calibration("NVIDIA H100 80GB HBM3", 1.0, 2.0);
  apply_latency_floor(p, &c, "");
  EXPECT_DOUBLE_EQ(p.latency_floor_ms, 0.002);  // the larger of the two GPU busy floors
  EXPECT_NE(p.floor_source.find("GPU busy floor 2.00 µs (empty kernel 1.00 µs, cold 4 KiB read 2.00 µs)"),
            std::string::npos)
      << p.floor_source;
  EXPECT_DOUBLE_EQ(p.cases[0].sol_eff_ms, 0.002);
  EXPECT_TRUE(p.cases[0].latency_bound);
  EXPECT_DOUBLE_EQ(p.cases[1].sol_eff_ms, 0.02);
  EXPECT_FALSE(p.cases[1].latency_bound);
  EXPECT_DOUBLE_EQ(p.cases[0].sol_floor_ms, 0.0002);  // the integrity bound stays the datasheet one
  EXPECT_DOUBLE_EQ(p.cases[0].sol_ms, 0.0002);
}

TEST(MskbFloor, NoCalibrationSaysWhyAndLeavesNoFloor) {
  MskbPairReport p = pair("");
  apply_latency_floor(p, nullptr, "none: --no-calibration");
  EXPECT_EQ(p.latency_floor_ms, 0);
  EXPECT_EQ(p.floor_source, "none: --no-calibration");
  EXPECT_EQ(p.cases[0].sol_eff_ms, 0);
  EXPECT_FALSE(p.cases[0].latency_bound);
  sol::Calibration old = calibration("NVIDIA H100 80GB HBM3", 1.0, 2.0);
  old.schema_version = 1;
  old.launch_floor_us.reset();
  old.cold_read_us.reset();
  apply_latency_floor(p, &old, "");
  EXPECT_EQ(p.latency_floor_ms, 0);
  EXPECT_NE(p.floor_source.find("ucutlass.calibration/1 file"), std::string::npos) << p.floor_source;
}

class MskbFloorSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ucut_mskb_floor_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    ::setenv("UCUT_STATE_DIR", dir_.c_str(), 1);
    h100_.key = "h100_sxm";
    h100_.name = "H100 SXM";
    h100_.aliases = {"NVIDIA H100 80GB HBM3"};
    h200_.key = "h200";
    h200_.name = "H200";
    h200_.aliases = {"NVIDIA H200"};
    table_.gpus = {h100_, h200_};
  }
  void TearDown() override {
    ::unsetenv("UCUT_STATE_DIR");
    fs::remove_all(dir_);
  }
  fs::path dir_;
  sol::GpuSpec h100_, h200_;
  sol::GpuTable table_;
};

TEST_F(MskbFloorSourceTest, TheStoresCalibrationOfTheMeasuringGpu) {
  std::string err;
  ASSERT_TRUE(sol::save_calibration(calibration("NVIDIA H100 80GB HBM3", 1.0, 2.0), dir_.string(), &err))
      << err;
  MskbBenchOptions o;
  MskbFloorSource floors(o, &table_, &table_.gpus[1]);  // --gpu h200, but the pair ran on an H100
  MskbPairReport measured = pair("NVIDIA H100 80GB HBM3");
  floors.apply(measured);
  EXPECT_DOUBLE_EQ(measured.latency_floor_ms, 0.002);
  MskbPairReport built_only = pair("");  // no GPU measured it: the --gpu entry's store, which has none
  floors.apply(built_only);
  EXPECT_EQ(built_only.latency_floor_ms, 0);
  EXPECT_NE(built_only.floor_source.find("none: no calibration of H200 in " + dir_.string()),
            std::string::npos)
      << built_only.floor_source;
  MskbPairReport unknown = pair("Some Future GPU");
  floors.apply(unknown);
  EXPECT_NE(unknown.floor_source.find("Some Future GPU is not in the GPU table"), std::string::npos)
      << unknown.floor_source;
}

TEST_F(MskbFloorSourceTest, AGivenFileServesItsOwnGpuOnlyAndNoCalibrationServesNone) {
  std::string err;
  ASSERT_TRUE(sol::save_calibration(calibration("NVIDIA H200", 1.5, 2.5), dir_.string(), &err)) << err;
  MskbBenchOptions o;
  o.calibration = sol::calibration_path(dir_.string(), "GPU-test");
  MskbFloorSource floors(o, &table_, &table_.gpus[1]);
  MskbPairReport h200 = pair("NVIDIA H200"), h100 = pair("NVIDIA H100 80GB HBM3");
  floors.apply(h200);
  floors.apply(h100);
  EXPECT_DOUBLE_EQ(h200.latency_floor_ms, 0.0025);
  EXPECT_EQ(h100.latency_floor_ms, 0);
  EXPECT_NE(
      h100.floor_source.find("is a calibration of NVIDIA H200, and this pair ran on NVIDIA H100 80GB HBM3"),
      std::string::npos)
      << h100.floor_source;
  o.calibration = (dir_ / "missing.json").string();
  EXPECT_THROW(MskbFloorSource(o, &table_, nullptr), std::invalid_argument);
  MskbBenchOptions off;
  off.no_calibration = true;
  MskbFloorSource none(off, &table_, &table_.gpus[1]);
  none.apply(h200);
  EXPECT_EQ(h200.latency_floor_ms, 0);
  EXPECT_EQ(h200.floor_source, "none: --no-calibration");
}

TEST(MskbFloorReport, FloorColumnEffectivePercentAndTheHeaderSaysWhich) {
  MskbBenchReport r;
  r.sol_gpu = "H100 SXM";
  r.pairs = {pair("NVIDIA H100 80GB HBM3")};
  sol::Calibration c = calibration("NVIDIA H100 80GB HBM3", 1.0, 2.0);
  MskbPairReport tiny = r.pairs[0];
  tiny.cases.pop_back();  // its largest case is the 0.2 µs one: latency-bound
  r.pairs.push_back(tiny);
  for (MskbPairReport& p : r.pairs) apply_latency_floor(p, &c, "");
  std::string md = mskb_bench_markdown(r, "ucutlass bench mskb");
  EXPECT_NE(md.find("% SOL against t_SOL_eff = max(t_SOL, t_floor), the latency floor measured by `ucutlass "
                    "calibrate` of 2026-12-07T05:00:00Z on NVIDIA H100 80GB HBM3"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| latency floor | vendor % SOL_eff (largest case) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 20 µs | 2 µs (1 of 2 cases latency-bound) | 73.3% |"), std::string::npos)
      << md;  // 20 / 27.3
  EXPECT_NE(md.find("| 0.2 µs | 2 µs (1 of 1 cases latency-bound) | 78.4% (latency-bound) |"),
            std::string::npos)
      << md;  // the 2 µs floor over the vendor's 2.55 µs, where the datasheet bound would say 7.8%
}

TEST(MskbFloorReport, WithoutAFloorTheReportSaysSo) {
  MskbBenchReport r;
  r.pairs = {pair("")};
  apply_latency_floor(r.pairs[0], nullptr, "none: --no-calibration");
  std::string md = mskb_bench_markdown(r, "ucutlass bench mskb");
  EXPECT_NE(md.find("- % SOL against the datasheet t_SOL alone: no latency floor (none: --no-calibration)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| vendor % SOL (largest case) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 20 µs | — | 73.3% |"), std::string::npos) << md;
}

}  // namespace
}  // namespace ucut
