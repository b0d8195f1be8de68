// tests/unit/mskb/tune_test.cpp — workflow/mskb_tune.h end to end without a GPU or CUDA: a fake nvcc (a script that
// writes the launcher's source into its -o "library") and a stand-in worker that reads each library and answers
// with a GPU time the test chooses from the launch the emitted code spells (`kItems = 4`). The tuner must find the
// best launch, measure each round's variants beside the naive launcher, stop for the right reason and write the
// winning spec and launcher.
#include "workflow/mskb_tune.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fmt/format.h>

#include <fstream>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "mskb/task.h"
#include "sol/gpu_table.h"
#include "support/files.h"

namespace ucut {
namespace {

/// Writes `text` to `path` as an executable script.
void script(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  chmod(path.c_str(), 0755);
}

/// A toolchain whose nvcc answers --version and "builds" by copying the source into the -o file, and a CUTLASS
/// folder find_toolchain accepts; CUDACXX points at the nvcc while the fixture lives.
class FakeToolchain {
 public:
  explicit FakeToolchain(const testing::TempDir& dir) : cutlass_(dir.file("cutlass")) {
    const char* old = std::getenv("CUDACXX");
    if (old) old_ = old;
    std::string nvcc = dir.file("nvcc");
    script(nvcc,
           "#!/bin/sh\n"
           "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n"
           "out=''; cu=''; prev=''\n"
           "for a in \"$@\"; do\n"
           "  if [ \"$prev\" = -o ]; then out=\"$a\"; fi\n"
           "  case \"$a\" in *.cu) cu=\"$a\";; esac\n"
           "  prev=\"$a\"\n"
           "done\n"
           "cat \"$cu\" > \"$out\"\n");
    setenv("CUDACXX", nvcc.c_str(), 1);
    std::filesystem::create_directories(cutlass_ + "/include/cutlass");
    std::filesystem::create_directories(cutlass_ + "/tools/util/include/cutlass/util");
    std::ofstream(cutlass_ + "/include/cutlass/cutlass.h") << "\n";
    std::ofstream(cutlass_ + "/include/cutlass/version.h")
        << "#define CUTLASS_MAJOR 4\n#define CUTLASS_MINOR 2\n#define CUTLASS_PATCH 0\n";
    std::ofstream(cutlass_ + "/tools/util/include/cutlass/util/packed_stride.hpp") << "\n";
  }
  ~FakeToolchain() {
    if (old_.empty())
      unsetenv("CUDACXX");
    else
      setenv("CUDACXX", old_.c_str(), 1);
  }
  const std::string& cutlass() const { return cutlass_; }

 private:
  std::string cutlass_, old_;
};

/// A worker answering every item as correct on an H100: the naive launcher (no `kItems` in its source) at 1 ms, a
/// variant at `ms_for_items[its kItems]` ms on every case.
std::string stand_in_worker(const testing::TempDir& dir, const std::string& ms_for_items) {
  std::string path = dir.file("worker.py");
  script(path,
         "#!/usr/bin/env python3\n"
         "import json, re, sys\n"
         "req = json.load(open(sys.argv[1]))\n"
         "times = " + ms_for_items + "\n"
         "def ms(lib):\n"
         "    m = re.search(r'constexpr int kItems = (\\d+);', open(lib, errors='replace').read())\n"
         "    return times[int(m.group(1))] if m else 1.0\n"
         "res = []\n"
         "for it in req['items']:\n"
         "    impl = req['impls'][it['impl']]\n"
         "    t = ms(impl['library'])\n"
         "    s = {'n': 5, 'median': t, 'mean': t, 'min': t, 'max': t}\n"
         "    res.append({'item': it, 'role': impl['role'], 'status': 'ok', 'correct': True,\n"
         "                'reverify_correct': True, 'gpu_ms': s, 'wall_ms': s, 'compat_ms': t, 'compat_calls': 10})\n"
         "json.dump({'gpu_name': 'NVIDIA H100 80GB HBM3', 'driver_version': '580', 'runtime_version': '13.0',\n"
         "           'results': res}, open(sys.argv[2], 'w'))\n");
  return path;
}

MskbTuneOptions options(const testing::TempDir& dir, const FakeToolchain& tc, const std::string& worker) {
  MskbTuneOptions o;
  o.bench.tasks = {"RELU"};
  o.bench.precisions = {mskb::Precision::fp32};
  o.bench.suite_dir = test_paths::source_dir() + "/suites/mskb";
  o.bench.cutlass_dir = tc.cutlass();
  o.bench.cache_dir = dir.file("cache");
  o.bench.worker = worker;
  o.bench.no_calibration = true;  // % SOL_eff against the datasheet bound: no calibration store in a test
  o.specs_dir = test_paths::source_dir() + "/examples/mskb";
  o.out_dir = dir.file("out");
  return o;
}

TEST(MskbTune, FindsTheBestLaunchAndStopsWhenNeighboursDoNotHelp) {
  testing::TempDir dir("ucut-mskb-tune");
  FakeToolchain tc(dir);
  // Four vectors per thread are best; one step either way is slower.
  MskbTuneOptions o = options(dir, tc, stand_in_worker(dir, "{1: 0.5, 2: 0.3, 4: 0.1, 8: 0.2}"));
  MskbTuneReport r = tune_mskb(o);
  ASSERT_EQ(r.pairs.size(), 1u);
  const MskbTunePair& p = r.pairs[0];
  ASSERT_TRUE(p.error.empty()) << p.error;
  ASSERT_GE(p.best, 0);
  const TuneVariant& best = p.variants[static_cast<size_t>(p.best)];
  EXPECT_EQ(best.point.items, 4);
  EXPECT_TRUE(best.ok);
  EXPECT_NEAR(best.kernel.weighted, 10.0, 1e-9);  // 1 ms naive over 0.1 ms
  EXPECT_EQ(p.stop, TuneStop::converged);
  EXPECT_EQ(p.rounds, 2);
  // The spec as written (1 item) leads every round, measured beside the rest.
  const TuneVariant& start = p.variants[static_cast<size_t>(p.start)];
  EXPECT_EQ(start.point.items, 1);
  EXPECT_EQ(start.round, best.round);
  EXPECT_NEAR(start.kernel.weighted, 2.0, 1e-9);
  // The winner is written: its spec spells the launch, its launcher is the export of that spec.
  std::optional<std::string> spec = read_file(o.out_dir + "/fp32/RELU.ucut");
  ASSERT_TRUE(spec);
  EXPECT_NE(spec->find(".with_items(4)"), std::string::npos) << *spec;
  std::optional<std::string> launcher = read_file(o.out_dir + "/fp32/RELU.cu");
  ASSERT_TRUE(launcher);
  EXPECT_NE(launcher->find("constexpr int kItems = 4;"), std::string::npos);
  EXPECT_NE(launcher->find("RELU_optimized"), std::string::npos);
  std::string md = mskb_tune_markdown(r, "ucutlass mskb tune RELU");
  EXPECT_NE(md.find("| RELU | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2.00 | 10.00 | 5.000 |"), std::string::npos) << md;
  nlohmann::json j = mskb_tune_json(r);
  EXPECT_EQ(j["pairs"][0]["stop"], "converged");
  EXPECT_EQ(j["pairs"][0]["variants"].size(), p.variants.size());
}

TEST(MskbTune, StopsAtTheSpeedOfLight) {
  testing::TempDir dir("ucut-mskb-tune-sol");
  FakeToolchain tc(dir);
  // Every launch at 0.95x of the largest case's bound: within --stop-at 0.9 after the first round.
  const mskb::Task& relu = *mskb::find_task("RELU");
  std::string error;
  auto table = sol::load_default_gpu_table(&error);
  ASSERT_TRUE(table) << error;
  const sol::GpuSpec* h100 = table->find_device("NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(h100);
  double sol_ms = relu.work(relu.cases.back(), 4).bytes / (h100->bandwidth_tbs * 1e12) * 1e3;
  std::string t = fmt::format("{:.12g}", sol_ms / 0.95);
  MskbTuneOptions o = options(dir, tc, stand_in_worker(dir, "{1: " + t + ", 2: " + t + ", 4: " + t + ", 8: " + t + "}"));
  MskbTuneReport r = tune_mskb(o);
  ASSERT_EQ(r.pairs.size(), 1u);
  ASSERT_GE(r.pairs[0].best, 0) << r.pairs[0].error;
  EXPECT_EQ(r.pairs[0].stop, TuneStop::at_sol) << r.pairs[0].error;
  EXPECT_EQ(r.pairs[0].rounds, 1);
  EXPECT_NEAR(r.pairs[0].variants[static_cast<size_t>(r.pairs[0].best)].sol_eff_share, 0.95, 1e-3);
}

TEST(MskbTune, WithoutAGpuTheFirstRoundIsBuiltAndTheRunSaysSo) {
  testing::TempDir dir("ucut-mskb-tune-nogpu");
  FakeToolchain tc(dir);
  std::string worker = dir.file("no_gpu.py");
  script(worker,
         "#!/usr/bin/env python3\n"
         "import json, sys\n"
         "json.dump({'fatal_error': 'no CUDA device', 'results': []}, open(sys.argv[2], 'w'))\n");
  MskbTuneOptions o = options(dir, tc, worker);
  o.bench.tasks = {"RELU", "sigmoid"};
  MskbTuneReport r = tune_mskb(o);
  ASSERT_EQ(r.pairs.size(), 1u);  // the other pairs are not tried
  EXPECT_EQ(r.pairs[0].stop, TuneStop::needs_gpu);
  EXPECT_EQ(r.pairs[0].rounds, 1);
  EXPECT_TRUE(r.needs_gpu());
  EXPECT_FALSE(r.failed());
  EXPECT_TRUE(r.pairs[0].written.empty());
  EXPECT_FALSE(std::filesystem::exists(o.out_dir + "/fp32/RELU.cu"));
  EXPECT_TRUE(std::filesystem::exists(o.out_dir + "/work/RELU"));  // the first round's launchers, built
}

TEST(MskbTune, APairWithoutASpecOrWithAGemmSpecFailsAndSaysWhy) {
  testing::TempDir dir("ucut-mskb-tune-nospec");
  FakeToolchain tc(dir);
  MskbTuneOptions o = options(dir, tc, stand_in_worker(dir, "{}"));
  o.bench.tasks = {"high_order_contraction"};
  MskbTuneReport r = tune_mskb(o);
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_EQ(r.pairs[0].stop, TuneStop::failed);
  EXPECT_NE(r.pairs[0].error.find("no spec"), std::string::npos) << r.pairs[0].error;
  EXPECT_TRUE(r.failed());
  std::filesystem::create_directories(dir.file("specs"));
  write_file(dir.file("specs/matrix_mul.ucut"),
             read_file(test_paths::source_dir() + "/examples/gemm_tf32.ucut").value_or(""));
  o.specs_dir = dir.file("specs");
  o.bench.tasks = {"matrix_mul"};
  r = tune_mskb(o);
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_NE(r.pairs[0].error.find("not a memory-bound family kernel"), std::string::npos) << r.pairs[0].error;
}

}  // namespace
}  // namespace ucut
