// tests/unit/scripts/carry_test.cpp — scripts/device/carry.sh on a machine that has built nothing yet:
// without a kernel cache folder it packs an empty cache archive and says so (it used to stop there); with a
// cache, only the finished kernels go. Run in a scratch git checkout with stand-in binaries and CUTLASS
// headers (NO_MSKB=1).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

struct Carry : ::testing::Test {
  ucut::testing::TempDir dir{"ucut-carry"};
  fs::path repo = dir.path() / "repo";

  void SetUp() override {
    fs::create_directories(repo);
    fs::create_directories(dir.path() / "build");
    fs::create_directories(dir.path() / "cutlass/include/cutlass");
    fs::create_directories(dir.path() / "cutlass/tools/util/include");
    std::ofstream(dir.path() / "cutlass/include/cutlass/cutlass.h") << "#pragma once\n";
    for (const char* binary : {"ucutlass", "ucutlass-worker"})
      fs::copy_file("/bin/true", dir.path() / "build" / binary);
    if (!run_process({"git", "init", "-q", repo.string()}).ok()) GTEST_SKIP() << "no git here";
  }

  /// Runs carry.sh in the scratch checkout with the kernel cache `cache`.
  ProcessResult carry(const fs::path& cache) {
    ProcessOptions po = ProcessOptions::with_timeout(120);
    po.extra_env = {"BUILD=" + (dir.path() / "build").string(),
                    "CUTLASS_DIR=" + (dir.path() / "cutlass").string(), "UCUT_CACHE_DIR=" + cache.string(),
                    "NO_MSKB=1"};
    std::string script = ucut::test_paths::source_dir() + "/scripts/device/carry.sh";
    return run_process({"sh", "-c", "cd \"$0\" && exec bash \"$1\"", repo.string(), script}, po);
  }

  /// The entries of the carried cache archive.
  std::string cached() { return run_process({"tar", "tzf", (repo / ".carry/cache.tgz").string()}).out; }
};

TEST_F(Carry, AFreshMachineWithoutAKernelCacheCarriesNoneAndSaysSo) {
  fs::path cache = dir.path() / "no-cache-yet";
  ProcessResult r = carry(cache);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("kernel cache: none built in " + cache.string() +
                       " (no such folder yet): none carried; the "
                       "GPU machine builds the kernels it needs\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(cached(), "");  // an empty archive, which visit.sh unpacks as such
  for (const char* packed : {"bin.tgz", "cutlass.tgz", "cache.tgz"})
    EXPECT_TRUE(fs::exists(repo / ".carry" / packed));
  EXPECT_FALSE(fs::exists(cache));

  // A cache folder where nothing finished building yet carries nothing either.
  fs::create_directories(cache / "ab/ab12");
  r = carry(cache);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("kernel cache: none built in " + cache.string() +
                       ": none carried; the GPU machine builds the kernels it needs\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(cached(), "");
}

TEST_F(Carry, OnlyFinishedKernelsAreCarried) {
  fs::path cache = dir.path() / "cache";
  for (const char* entry : {"ab/ab12", "cd/cd34", "ef/ef56"}) fs::create_directories(cache / entry);
  std::ofstream(cache / "ab/ab12/kernel.so") << "built";
  std::ofstream(cache / "cd/cd34/build.log") << "failed";
  std::ofstream(cache / "ef/ef56/kernel.so") << "built";
  ProcessResult r = carry(cache);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("kernel cache: 2 built kernels from " + cache.string() + "\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(cached(), "./ab/ab12/\n./ab/ab12/kernel.so\n./ef/ef56/\n./ef/ef56/kernel.so\n");
}

}  // namespace
}  // namespace ucut
