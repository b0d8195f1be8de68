// tests/unit/mskb/pair_sol_gpu_test.cpp — workflow/mskb_bench.h measure_mskb_pair: a pair's SOL bounds, and
// so its faster_than_sol flag, are those of the GPU the worker measured on, not of the --gpu fallback. The
// worker is a stand-in script that answers every item as correct at a chosen GPU time on an "NVIDIA H100 80GB
// HBM3"; the naive launcher is really built (nvcc), so the test skips where no toolchain exists.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "build/cache.h"
#include "build/toolchain.h"
#include "eval/integrity.h"
#include "mskb/launcher_build.h"
#include "mskb/task.h"
#include "sol/gpu_table.h"
#include "workflow/mskb_bench.h"

namespace ucut {
namespace {

/// A worker that answers each requested item as correct, on an H100, at `gpu_ms` per call.
std::string stand_in_worker(const testing::TempDir& dir, double gpu_ms) {
  std::string path = dir.file("worker.py");
  std::ofstream(path) << "#!/usr/bin/env python3\n"
                         "import json, sys\n"
                         "req = json.load(open(sys.argv[1]))\n"
                         "t = {'n': 5, 'median': "
                      << gpu_ms << ", 'mean': " << gpu_ms << ", 'min': " << gpu_ms << ", 'max': " << gpu_ms
                      << "}\n"
                         "res = [{'item': it, 'role': req['impls'][it['impl']]['role'], 'status': 'ok',\n"
                         "        'correct': True, 'reverify_correct': True, 'gpu_ms': t, 'wall_ms': t,\n"
                         "        'compat_ms': "
                      << gpu_ms
                      << ", 'compat_calls': 10} for it in req['items']]\n"
                         "json.dump({'gpu_name': 'NVIDIA H100 80GB HBM3', 'driver_version': '580',\n"
                         "           'runtime_version': '13.0', 'results': res}, open(sys.argv[2], 'w'))\n";
  chmod(path.c_str(), 0755);
  return path;
}

TEST(MskbPairSol, BoundsAndFasterThanSolAreTheMeasuringGpus) {
  std::string error;
  auto tc = find_toolchain("", &error);
  if (!tc) GTEST_SKIP() << "nvcc or CUTLASS missing: " << error;
  auto table = sol::load_default_gpu_table(&error);
  ASSERT_TRUE(table) << error;
  const sol::GpuSpec* h200 = table->find("h200");
  const sol::GpuSpec* h100 = table->find_device("NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(h200 && h100);
  ASSERT_GT(h200->bandwidth_tbs, h100->bandwidth_tbs);

  const mskb::Task& relu = *mskb::find_task("RELU");
  // The largest case's bytes over each GPU's bandwidth; a time between the two is below only the H100's
  // bound.
  double bytes = relu.work(relu.cases.back(), 4).bytes;
  double h100_ms = bytes / (h100->bandwidth_tbs * 1e12) * 1e3,
         h200_ms = bytes / (h200->bandwidth_tbs * 1e12) * 1e3;
  double between = 0.5 * (h200_ms + h100_ms * kBusyTimeSolFactor);
  ASSERT_LT(between, h100_ms * kBusyTimeSolFactor);
  ASSERT_GT(between, h200_ms);

  testing::TempDir dir("ucut-mskb-solgpu");
  MskbBenchOptions o;
  o.suite_dir = test_paths::source_dir() + "/suites/mskb";
  o.worker = stand_in_worker(dir, between);
  KernelCache cache(dir.file("cache"), *tc);
  std::vector<mskb::LauncherSource> naive = {
      mskb::launcher_sources(relu, mskb::Precision::fp32, o.suite_dir, "")[0]};
  MskbPairReport p = measure_mskb_pair(relu, mskb::Precision::fp32, naive, o, cache, &*table, h200);

  ASSERT_TRUE(p.run_error.empty()) << p.run_error;
  EXPECT_EQ(p.gpu_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(p.sol_gpu, h100->name);
  EXPECT_DOUBLE_EQ(p.cases.back().sol_ms, h100_ms);
  const MskbImplResult& largest = p.cases.back().impls.at("naive");
  EXPECT_NE(std::find(largest.flags.begin(), largest.flags.end(), FlagId::faster_than_sol),
            largest.flags.end())
      << "below the H100's bound, above the H200's: flagged only against the GPU that measured it";
}

}  // namespace
}  // namespace ucut
