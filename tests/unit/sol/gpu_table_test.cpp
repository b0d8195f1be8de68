// tests/unit/sol/gpu_table_test.cpp — data/gpus.toml (sol/gpu_table.h): every entry complete and sane,
// validation errors naming file, GPU and field, lookup by key and by CUDA device name, the data search path.
#include "sol/gpu_table.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "../test_paths.h"

namespace ucut::sol {
namespace {

const std::string kTablePath = ucut::test_paths::source_dir() + "/data/gpus.toml";

GpuTable load() {
  std::string err;
  auto t = load_gpu_table(kTablePath, &err);
  EXPECT_TRUE(t) << err;
  return t ? *t : GpuTable{};
}

const char* kGood = R"(
[gpu_x]
name = "Test GPU"
aliases = ["NVIDIA Test GPU"]
sm = 90
sms = 100
l2_mb = 40
boost_clock_mhz = 1500
memory_gb = 80
bandwidth_tbs = 3.0
fp64 = 10
fp32 = 20
tf32 = 100
fp16 = 200
bf16 = 200
int8 = 400
sources = ["made up for a test"]
)";

std::string parse_error(const std::string& text) {
  std::string err;
  EXPECT_FALSE(parse_gpu_table(text, "bad.toml", &err));
  return err;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(GpuTable, EveryGpuIsCompleteAndSane) {
  GpuTable t = load();
  std::vector<std::string> keys;
  for (const GpuSpec& g : t.gpus) keys.push_back(g.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"h100_sxm", "h200", "a100_sxm", "l40s", "rtx_4090", "b200"}));
  for (const GpuSpec& g : t.gpus) {
    SCOPED_TRACE(g.key);
    EXPECT_FALSE(g.name.empty());
    EXPECT_FALSE(g.aliases.empty());
    EXPECT_FALSE(g.sources.empty());
    for (const std::string& s : g.sources) EXPECT_GT(s.size(), 10u);
    EXPECT_GE(g.sm, 80);
    EXPECT_GT(g.sms, 0);
    EXPECT_GT(g.l2_mb, 0);
    EXPECT_GT(g.boost_clock_mhz, 1000);
    EXPECT_GT(g.memory_gb, 0);
    EXPECT_GE(g.bandwidth_tbs, 0.1);
    EXPECT_LE(g.bandwidth_tbs, 20);
    for (Precision p : {Precision::fp64, Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16,
                        Precision::int8}) {
      ASSERT_TRUE(g.peak_tflops(p)) << precision_name(p);
      EXPECT_GT(*g.peak_tflops(p), 0);
    }
    // Orders every datasheet obeys: lower precision is never slower on tensor cores; SIMT FP64 <= FP32.
    EXPECT_LE(*g.tf32, *g.fp16);
    EXPECT_LE(*g.fp64, *g.fp32);
    if (g.fp8) EXPECT_LE(*g.fp16, *g.fp8);
    if (g.fp64_tensor) EXPECT_GE(*g.fp64_tensor, *g.fp64);
  }
}

TEST(GpuTable, AnchorsFromTheBrief) {
  GpuTable t = load();
  const GpuSpec* h100 = t.find_key("h100_sxm");
  ASSERT_TRUE(h100);
  EXPECT_EQ(*h100->tf32, 494.7);
  EXPECT_EQ(*h100->fp16, 989.4);
  EXPECT_EQ(*h100->bf16, 989.4);
  EXPECT_EQ(*h100->fp8, 1978.9);
  EXPECT_EQ(*h100->fp32, 66.9);
  EXPECT_EQ(*h100->fp64, 33.5);
  EXPECT_EQ(*h100->fp64_tensor, 66.9);
  EXPECT_EQ(h100->bandwidth_tbs, 3.35);
  EXPECT_EQ(h100->sms, 132);
  EXPECT_EQ(h100->l2_mb, 50);
  EXPECT_EQ(h100->boost_clock_mhz, 1980);
  const GpuSpec* h200 = t.find_key("h200");
  ASSERT_TRUE(h200);
  EXPECT_EQ(h200->bandwidth_tbs, 4.8);
  EXPECT_EQ(h200->memory_gb, 141);
  EXPECT_EQ(h200->l2_mb, 60);
  EXPECT_EQ(*h200->tf32, *h100->tf32);
  EXPECT_FALSE(t.find_key("a100_sxm")->fp8);  // no FP8 on sm_80
}

TEST(GpuTable, LookupByKeyAndDeviceName) {
  GpuTable t = load();
  auto key_of = [&](const char* name) -> std::string {
    const GpuSpec* g = t.find(name);
    return g ? g->key : "(none)";
  };
  EXPECT_EQ(key_of("NVIDIA H200"), "h200");
  EXPECT_EQ(key_of("NVIDIA H100 80GB HBM3"), "h100_sxm");
  EXPECT_EQ(key_of("NVIDIA A100-SXM4-80GB"), "a100_sxm");
  EXPECT_EQ(key_of("NVIDIA L40S"), "l40s");
  EXPECT_EQ(key_of("NVIDIA GeForce RTX 4090"), "rtx_4090");
  EXPECT_EQ(key_of("NVIDIA B200"), "b200");
  EXPECT_EQ(key_of("H200"), "h200");
  EXPECT_EQ(key_of("H100_SXM"), "h100_sxm");        // keys are case-insensitive
  EXPECT_EQ(key_of("nvidia h100 80gb hbm3"), "h100_sxm");
  EXPECT_EQ(key_of("NVIDIA GB200"), "(none)");      // aliases match on word boundaries only
  EXPECT_EQ(key_of("NVIDIA GH200 480GB"), "(none)");
  EXPECT_EQ(key_of("NVIDIA L40"), "(none)");
  EXPECT_EQ(key_of("NVIDIA H100 PCIe"), "(none)");  // a different part: not silently the SXM
}

TEST(GpuTable, ParsesAMinimalTable) {
  std::string err;
  auto t = parse_gpu_table(kGood, "good.toml", &err);
  ASSERT_TRUE(t) << err;
  ASSERT_EQ(t->gpus.size(), 1u);
  EXPECT_FALSE(t->gpus[0].fp8);
  EXPECT_FALSE(t->gpus[0].fp64_tensor);
  EXPECT_EQ(t->path, "good.toml");
}

TEST(GpuTable, ErrorsNameFileGpuAndField) {
  std::string missing = parse_error(replace(kGood, "bandwidth_tbs = 3.0\n", ""));
  EXPECT_EQ(missing, "bad.toml: GPU `gpu_x`: field `bandwidth_tbs` is missing");
  std::string units = parse_error(replace(kGood, "bandwidth_tbs = 3.0", "bandwidth_tbs = 3350"));
  EXPECT_NE(units.find("field `bandwidth_tbs` is 3350, outside the sane range 0.1..20"), std::string::npos) << units;
  std::string negative = parse_error(replace(kGood, "tf32 = 100", "tf32 = -5"));
  EXPECT_NE(negative.find("GPU `gpu_x`: field `tf32` must be positive"), std::string::npos) << negative;
  std::string text = parse_error(replace(kGood, "fp16 = 200", "fp16 = \"200\""));
  EXPECT_NE(text.find("field `fp16` must be a number"), std::string::npos) << text;
  std::string sources = parse_error(replace(kGood, "sources = [\"made up for a test\"]", "sources = []"));
  EXPECT_NE(sources.find("field `sources` is empty"), std::string::npos) << sources;
  std::string typo = parse_error(replace(kGood, "l2_mb", "l2_mbb"));
  EXPECT_NE(typo.find("field `l2_mbb` is not a known field; did you mean `l2_mb`?"), std::string::npos) << typo;
  std::string syntax = parse_error("[gpu_x\nname = 1\n");
  EXPECT_EQ(syntax.rfind("bad.toml:1:", 0), 0u) << syntax;
  std::string not_table = parse_error("gpu_x = 3\n");
  EXPECT_NE(not_table.find("`gpu_x` must be a table"), std::string::npos) << not_table;
}

TEST(GpuTable, DataDirSearchOrder) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("ucut_gpu_table_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "gpus.toml") << kGood;
  ::setenv("UCUT_DATA_DIR", dir.c_str(), 1);
  std::vector<std::string> dirs = data_dir_candidates();
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(dirs.front(), dir.string());
  EXPECT_EQ(dirs.back(), ucut::test_paths::source_dir() + "/data");  // the source tree comes last
  std::string err;
  auto t = load_default_gpu_table(&err);
  ::unsetenv("UCUT_DATA_DIR");
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(t->path, (dir / "gpus.toml").string());
  EXPECT_TRUE(t->find_key("gpu_x"));
  fs::remove_all(dir);
}

TEST(GpuTable, PrecisionNames) {
  for (Precision p : all_precisions()) EXPECT_EQ(find_precision(precision_name(p)), p);
  EXPECT_EQ(find_precision("e4m3"), Precision::fp8);
  EXPECT_EQ(find_precision("TF32"), Precision::tf32);
  EXPECT_FALSE(find_precision("fp4"));
}

}  // namespace
}  // namespace ucut::sol
