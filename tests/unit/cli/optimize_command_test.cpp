// tests/unit/cli/optimize_command_test.cpp — `ucutlass optimize` run as the binary on this CPU-only machine,
// with a worker that finds no GPU (profile_fakes.h) and a build cache seeded with the starting spec: it says
// that timing needs a GPU before it compiles anything, compiles the candidate (here: from the cache), leaves
// it pending in the workspace, ends with what it did instead of "0 attempts measured", and exits 4.
#include <gtest/gtest.h>

#include <filesystem>

#include "../profile/profile_fakes.h"
#include "../temp_dir.h"
#include "../test_paths.h"
#include "cli/exit_codes.h"
#include "store/workspace.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

using namespace profile::testing;

TEST(OptimizeCli, WithoutAGpuItSaysSoFirstAndEndsWithWhatItDid) {
  ucut::testing::TempDir dir("ucut-optimize-cli");
  std::string cache = dir.file("cache");
  if (!seed_build_cache(cache, "bench/kernelbench/impl/L1_001_square_matmul.ucut"))
    GTEST_SKIP() << "nvcc or CUTLASS missing: no build key";
  std::string workspace = dir.file("w.db");
  ProcessOptions po = ProcessOptions::with_timeout(300);
  po.extra_env = {"UCUT_WORKER=" + worker_without_gpu(dir.path())};
  ProcessResult r = run_process(
      {ucut::test_paths::cli_path(), "optimize",
       source_path("suites/kernelbench/level1/L1_001_square_matmul.toml"), "--workspace", workspace,
       "--seeds", source_path("bench/kernelbench/impl"), "--baseline", "", "--cache-dir", cache},
      po);
  EXPECT_EQ(r.exit_code, cli::kNeedsGpu) << r.out << r.err;
  const std::string no_gpu =
      "timing needs a CUDA GPU, and none is usable here: no CUDA-capable device is detected";
  EXPECT_EQ(r.err.rfind("note: " + no_gpu +
                            ". This run compiles the problems' next candidates into the build cache "
                            "and leaves them pending in " +
                            workspace +
                            ", timing nothing: run the same command on a GPU "
                            "machine to measure them\n",
                        0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("L1_001_square_matmul: a candidate is compiled and waits for a GPU\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.rfind("Run 1: nothing timed: " + no_gpu + ". 1 candidate is compiled (", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(") and waits as a pending attempt in " + workspace +
                       ": run the same command on a GPU machine"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| L1_001_square_matmul | waits for a GPU | 1 |"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("attempts measured"), std::string::npos) << r.out;
  EXPECT_EQ(store::Workspace::open_read_only(workspace).pending_attempts().size(), 1u);
}

}  // namespace
}  // namespace ucut
