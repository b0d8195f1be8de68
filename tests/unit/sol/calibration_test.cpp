// tests/unit/sol/calibration_test.cpp — the calibration store (sol/calibration.h): save/load round trip in a
// temp dir, the latency floors of schema 2, schema 1 files still read, validation messages, and finding the
// newest calibration for a GPU.
#include "sol/calibration.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ucut::sol {
namespace {

namespace fs = std::filesystem;

class CalibrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ucut_calibration_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Calibration h200(const std::string& uuid, const std::string& date) {
    Calibration c;
    c.gpu_uuid = uuid;
    c.gpu_name = "NVIDIA H200";
    c.date = date;
    c.driver = "580.159.04";
    c.method = "torch copy_ 2 GiB, median of 50; cuBLAS 8192^3, median";
    c.clock_mhz = 1980;
    c.copy_bandwidth_tbs = 4.1;
    c.gemm_tflops = {{Precision::tf32, 402}, {Precision::fp16, 703}, {Precision::bf16, 782}};
    return c;
  }

  fs::path dir_;
};

TEST_F(CalibrationTest, SaveLoadRoundTrip) {
  Calibration c = h200("GPU-5f3c9a1e-0000-1111-2222-333344445555", "2026-11-30T12:00:00Z");
  c.gpu_key = "h200";
  std::string err;
  ASSERT_TRUE(save_calibration(c, dir_.string(), &err)) << err;
  std::string path = calibration_path(dir_.string(), c.gpu_uuid);
  EXPECT_EQ(path, (dir_ / "calibration" / "GPU-5f3c9a1e-0000-1111-2222-333344445555.json").string());
  auto back = load_calibration(path, &err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->gpu_uuid, c.gpu_uuid);
  EXPECT_EQ(back->gpu_name, c.gpu_name);
  EXPECT_EQ(back->gpu_key, "h200");
  EXPECT_EQ(back->date, c.date);
  EXPECT_EQ(back->driver, c.driver);
  EXPECT_EQ(back->method, c.method);
  EXPECT_EQ(back->clock_mhz, c.clock_mhz);
  EXPECT_EQ(back->copy_bandwidth_tbs, 4.1);
  EXPECT_EQ(back->gemm_tflops, c.gemm_tflops);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
  EXPECT_EQ(j["schema"], "ucutlass.calibration/2");
  EXPECT_EQ(j["gemm_tflops"]["bf16"], 782);
  EXPECT_FALSE(j.contains("launch_floor_us"));  // not measured: absent, never 0
  EXPECT_FALSE(back->latency_floor_us());
}

TEST_F(CalibrationTest, Schema2KeepsTheLatencyFloors) {
  Calibration c = h200("GPU-1", "2026-12-07T05:00:00Z");
  c.launch_floor_us = 1.2;
  c.cold_read_us = 2.3;
  c.launch_sync_us = 5.4;
  std::string err;
  ASSERT_TRUE(save_calibration(c, dir_.string(), &err)) << err;
  auto back = load_calibration(calibration_path(dir_.string(), "GPU-1"), &err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->schema_version, 2);
  EXPECT_EQ(back->launch_floor_us, 1.2);
  EXPECT_EQ(back->cold_read_us, 2.3);
  EXPECT_EQ(back->launch_sync_us, 5.4);
  EXPECT_EQ(back->latency_floor_us(), 2.3);  // the larger GPU busy floor; launch+sync is another timing
  EXPECT_EQ(back->floor_note(), "");
  back->cold_read_us.reset();
  EXPECT_EQ(back->latency_floor_us(), 1.2);
  back->launch_floor_us.reset();
  EXPECT_FALSE(back->latency_floor_us());  // launch_sync_us alone is no GPU busy floor
  EXPECT_NE(back->floor_note().find("measured no latency floor"), std::string::npos) << back->floor_note();
}

TEST_F(CalibrationTest, Schema1FilesStillLoadAndSayTheyHaveNoFloor) {
  fs::create_directories(dir_);
  nlohmann::json j = h200("GPU-old", "2026-11-30T12:00:00Z");
  j["schema"] = "ucutlass.calibration/1";
  std::ofstream(dir_ / "old.json") << j.dump();
  std::string err;
  auto c = load_calibration((dir_ / "old.json").string(), &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->schema_version, 1);
  EXPECT_EQ(c->copy_bandwidth_tbs, 4.1);
  EXPECT_FALSE(c->latency_floor_us());
  EXPECT_NE(c->floor_note().find("ucutlass.calibration/1 file"), std::string::npos) << c->floor_note();
  EXPECT_EQ(nlohmann::json(*c)["schema"], "ucutlass.calibration/1");  // written back as what it is
  j["launch_floor_us"] = 1.0;  // a floor in a /1 file is a malformed file, not a floor
  std::ofstream(dir_ / "old.json") << j.dump();
  EXPECT_FALSE(load_calibration((dir_ / "old.json").string(), &err));
  EXPECT_NE(err.find("field `launch_floor_us` needs schema \"ucutlass.calibration/2\""), std::string::npos)
      << err;
}

TEST_F(CalibrationTest, InvalidFilesNameTheField) {
  fs::create_directories(dir_);
  auto write_and_load = [&](const std::string& text) {
    std::ofstream(dir_ / "c.json") << text;
    std::string err;
    EXPECT_FALSE(load_calibration((dir_ / "c.json").string(), &err));
    return err;
  };
  nlohmann::json good = h200("GPU-1", "2026-01-01");
  nlohmann::json j = good;
  j.erase("driver");
  EXPECT_NE(write_and_load(j.dump()).find("field `driver`"), std::string::npos);
  j = good;
  j["copy_bandwidth_tbs"] = -1;
  EXPECT_NE(write_and_load(j.dump()).find("field `copy_bandwidth_tbs` must be a positive number"),
            std::string::npos);
  j = good;
  j["gemm_tflops"]["fp4"] = 10;
  EXPECT_NE(write_and_load(j.dump()).find("`gemm_tflops.fp4` is not a known precision"), std::string::npos);
  j = good;
  j["schema"] = "other/2";
  EXPECT_NE(write_and_load(j.dump()).find("field `schema`"), std::string::npos);
  j = good;
  j["cold_read_us"] = 0;
  EXPECT_NE(write_and_load(j.dump()).find("field `cold_read_us` must be a positive number"),
            std::string::npos);
  std::string err = write_and_load("{ not json");
  EXPECT_EQ(err.rfind((dir_ / "c.json").string(), 0), 0u) << err;
  EXPECT_FALSE(load_calibration((dir_ / "missing.json").string(), &err));
  EXPECT_NE(err.find("cannot read calibration"), std::string::npos);
}

TEST_F(CalibrationTest, FindsTheNewestForTheGpu) {
  GpuSpec h200_spec, h100_spec;
  h200_spec.key = "h200";
  h200_spec.aliases = {"NVIDIA H200"};
  h100_spec.key = "h100_sxm";
  h100_spec.aliases = {"NVIDIA H100 80GB HBM3"};
  GpuTable table;
  table.gpus = {h100_spec, h200_spec};
  std::string err;
  EXPECT_FALSE(find_calibration(table, table.gpus[1], dir_.string(), &err));  // no store yet
  ASSERT_TRUE(save_calibration(h200("GPU-old", "2026-01-01T00:00:00Z"), dir_.string(), &err));
  Calibration newer = h200("GPU-new", "2026-11-30T00:00:00Z");
  newer.copy_bandwidth_tbs = 4.2;
  ASSERT_TRUE(save_calibration(newer, dir_.string(), &err));
  Calibration other = h200("GPU-h100", "2027-01-01T00:00:00Z");
  other.gpu_name = "NVIDIA H100 80GB HBM3";
  ASSERT_TRUE(save_calibration(other, dir_.string(), &err));
  std::ofstream(dir_ / "calibration" / "junk.json") << "{}";
  auto found = find_calibration(table, table.gpus[1], dir_.string(), &err);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->gpu_uuid, "GPU-new");
  EXPECT_EQ(found->copy_bandwidth_tbs, 4.2);
  EXPECT_NE(err.find("junk.json"), std::string::npos);  // skipped, and said so
  auto h100 = find_calibration(table, table.gpus[0], dir_.string());
  ASSERT_TRUE(h100);
  EXPECT_EQ(h100->gpu_uuid, "GPU-h100");
}

TEST(CalibrationPaths, SanitizeAndDefaults) {
  EXPECT_EQ(calibration_path("/s", "GPU-ab/../x"), "/s/calibration/GPU-ab_.._x.json");
  ::setenv("UCUT_STATE_DIR", "/tmp/ucut_state", 1);
  EXPECT_EQ(default_state_dir(), "/tmp/ucut_state");
  ::unsetenv("UCUT_STATE_DIR");
  EXPECT_NE(default_state_dir().find("ucutlass"), std::string::npos);
}

}  // namespace
}  // namespace ucut::sol
