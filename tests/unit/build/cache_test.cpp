// tests/unit/build/cache_test.cpp — build/cache.h and build/nvcc.h with a fake nvcc (a shell script that
// writes its -o target, or fails like nvcc): the key, the entry layout, cache hits without nvcc, failed
// builds kept aside, timeouts, build_all's order, and the failure summary.
#include "build/cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "build/nvcc.h"

namespace fs = std::filesystem;

namespace ucut {
namespace {

// Counts its runs, then by the .cu's content: FAIL_ME fails like nvcc on a C++ error, SMEM_ME fails on
// ucutlass's shared-memory static_assert, SLEEP_ME hangs; otherwise it writes its arguments and the
// source into the -o file.
constexpr const char* kFakeNvcc = R"SH(
echo run >> "$COUNT"
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = "-o" ]; then out="$a"; fi
  prev="$a"
done
cu="$a"
if grep -q FAIL_ME "$cu"; then
  echo "x.cu(12): error: something"
  echo "1 error detected in the compilation of \"x.cu\"." >&2
  exit 1
fi
if grep -q SMEM_ME "$cu"; then
  echo "kernel.cu(88): error: static assertion failed with \"ucutlass: shared memory over the CTA limit\"" >&2
  exit 1
fi
if grep -q SLEEP_ME "$cu"; then
  sleep 100
fi
printf '%s\n' "$@" > "$out"
cat "$cu" >> "$out"
)SH";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

EmittedKernel kernel(const std::string& code, const std::string& gencode = "arch=compute_90a,code=sm_90a") {
  EmittedKernel k;
  k.code = code;
  k.kernel_namespace = "ucut_0123456789abcdef";
  k.config_hash = "0123456789abcdef";
  k.gencode = gencode;
  return k;
}

class Cache : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ucut-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    count_ = root_ + "/nvcc-runs";
    fs::create_directories(root_ + "/cutlass/include/cutlass");
    tc_.nvcc = root_ + "/bin/nvcc";
    tc_.nvcc_version = "12.8.93";
    tc_.cuda_version = 128;
    tc_.cutlass_dir = root_ + "/cutlass";
    tc_.cutlass_version = "4.2.0";
    fs::create_directories(root_ + "/bin");
    std::ofstream(tc_.nvcc) << "#!/bin/sh\nCOUNT=\"" << count_ << "\"\n" << kFakeNvcc;
    chmod(tc_.nvcc.c_str(), 0755);
  }
  void TearDown() override {
    std::error_code ec;
    if (!root_.empty()) fs::remove_all(root_, ec);
  }

  std::string cache_dir() const { return root_ + "/cache"; }
  KernelCache cache() const { return KernelCache(cache_dir(), tc_); }
  int nvcc_runs() const {
    std::ifstream in(count_);
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }

  std::string root_, count_;
  Toolchain tc_;
};

TEST_F(Cache, KeyIsDeterministicAndCoversCodeNvccCutlassAndTarget) {
  KernelCache c = cache();
  EmittedKernel k = kernel("// kernel A\n");
  std::string key = c.key(k);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos) << key;
  EXPECT_EQ(key, c.key(k));
  EXPECT_EQ(key, cache().key(kernel("// kernel A\n")));
  EXPECT_EQ(key, KernelCache(root_ + "/elsewhere", tc_).key(k));  // the cache's location is not content

  EXPECT_NE(key, c.key(kernel("// kernel B\n")));
  EXPECT_NE(key, c.key(kernel("// kernel A\n", "arch=compute_100a,code=sm_100a")));

  Toolchain nvcc = tc_;
  nvcc.nvcc_version = "13.0.88";
  EXPECT_NE(key, KernelCache(cache_dir(), nvcc).key(k));

  Toolchain cutlass = tc_;
  cutlass.cutlass_version = "4.3.0";
  EXPECT_NE(key, KernelCache(cache_dir(), cutlass).key(k));

  EmittedKernel fast_math = k;
  fast_math.extra_flags = {"-use_fast_math"};
  EXPECT_NE(key, c.key(fast_math));  // an MSKB candidate's chosen nvcc options are part of what is built

  // The same CUTLASS version checked out elsewhere (another machine, another user) shares the cache.
  Toolchain moved = tc_;
  moved.cutlass_dir = "/opt/somewhere/else/cutlass";
  EXPECT_EQ(key, KernelCache(cache_dir(), moved).key(k));
}

TEST_F(Cache, BuildCreatesTheEntry) {
  KernelCache c = cache();
  EmittedKernel k = kernel("// the kernel source\n");
  BuildResult r = c.build(k, 60);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.cached);
  EXPECT_EQ(r.key, c.key(k));
  fs::path entry = fs::path(cache_dir()) / r.key.substr(0, 2) / r.key;
  EXPECT_EQ(fs::path(r.library), entry / "kernel.so");
  EXPECT_EQ(fs::path(r.log_path), entry / "build.log");
  EXPECT_TRUE(fs::is_regular_file(entry / "kernel.so"));
  EXPECT_EQ(read(entry / "kernel.cu"), k.code);
  EXPECT_TRUE(fs::is_regular_file(entry / "build.log"));
  EXPECT_EQ(nvcc_runs(), 1);

  nlohmann::json meta = nlohmann::json::parse(read(entry / "meta.json"));
  EXPECT_EQ(meta.at("key"), r.key);
  EXPECT_EQ(meta.at("ok"), true);
  EXPECT_EQ(meta.at("nvcc"), "12.8.93");
  EXPECT_EQ(meta.at("cutlass"), "4.2.0");
  EXPECT_EQ(meta.at("gencode"), k.gencode);
  EXPECT_EQ(meta.at("namespace"), k.kernel_namespace);

  // nvcc got the target, the CUTLASS include paths, a shared library, and the source last.
  std::string so = read(entry / "kernel.so");
  EXPECT_NE(so.find("-gencode\narch=compute_90a,code=sm_90a\n"), std::string::npos) << so;
  EXPECT_NE(so.find("-I" + tc_.cutlass_dir + "/include\n"), std::string::npos) << so;
  EXPECT_NE(so.find("-shared\n"), std::string::npos) << so;
  EXPECT_NE(so.find("// the kernel source"), std::string::npos) << so;

  // Nothing but the entry is left beside it (the private build directory was renamed into place).
  std::vector<std::string> siblings;
  for (const auto& e : fs::directory_iterator(entry.parent_path())) siblings.push_back(e.path().filename());
  EXPECT_EQ(siblings, std::vector<std::string>{r.key});
}

TEST_F(Cache, SecondBuildIsCachedWithoutRunningNvcc) {
  EmittedKernel k = kernel("// cached kernel\n");
  BuildResult first = cache().build(k, 60);
  ASSERT_TRUE(first.ok) << first.error;
  ASSERT_EQ(nvcc_runs(), 1);

  BuildResult second = cache().build(k, 60);  // a new KernelCache over the same directory
  EXPECT_TRUE(second.ok);
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.seconds, 0);
  EXPECT_EQ(second.library, first.library);
  EXPECT_EQ(second.key, first.key);
  EXPECT_EQ(nvcc_runs(), 1);

  // A different kernel is not served from the cache.
  BuildResult other = cache().build(kernel("// another kernel\n"), 60);
  EXPECT_TRUE(other.ok);
  EXPECT_FALSE(other.cached);
  EXPECT_EQ(nvcc_runs(), 2);

  // Nor is the same code for a newer nvcc.
  Toolchain newer = tc_;
  newer.nvcc_version = "13.0.88";
  BuildResult rebuilt = KernelCache(cache_dir(), newer).build(k, 60);
  EXPECT_TRUE(rebuilt.ok);
  EXPECT_FALSE(rebuilt.cached);
  EXPECT_NE(rebuilt.library, first.library);
  EXPECT_EQ(nvcc_runs(), 3);
}

TEST_F(Cache, FailedBuildLeavesNoEntryAndKeepsTheLog) {
  KernelCache c = cache();
  EmittedKernel k = kernel("// FAIL_ME\n");
  BuildResult r = c.build(k, 60);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.cached);
  EXPECT_NE(r.error.find("bug in ucutlass"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("x.cu(12): error: something"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("1 error detected"), std::string::npos) << r.error;  // stderr's error lines too

  fs::path entry = fs::path(cache_dir()) / r.key.substr(0, 2) / r.key;
  EXPECT_FALSE(fs::exists(entry));
  fs::path failed = entry.string() + ".failed";
  EXPECT_EQ(fs::path(r.log_path), failed / "build.log");
  std::string log = read(failed / "build.log");
  EXPECT_NE(log.find("x.cu(12): error: something"), std::string::npos) << log;
  EXPECT_NE(log.find("exit code 1"), std::string::npos) << log;
  EXPECT_EQ(read(failed / "kernel.cu"), k.code);
  EXPECT_EQ(nlohmann::json::parse(read(failed / "meta.json")).at("ok"), false);

  // A failure is not cached: the next build runs nvcc again, and replaces the kept failure.
  BuildResult again = c.build(k, 60);
  EXPECT_FALSE(again.ok);
  EXPECT_FALSE(again.cached);
  EXPECT_EQ(nvcc_runs(), 2);
  EXPECT_FALSE(fs::exists(entry));
  EXPECT_TRUE(fs::is_regular_file(failed / "build.log"));
  std::vector<std::string> siblings;
  for (const auto& e : fs::directory_iterator(entry.parent_path())) siblings.push_back(e.path().filename());
  EXPECT_EQ(siblings, std::vector<std::string>{r.key + ".failed"});
}

TEST_F(Cache, SharedMemoryStaticAssertIsNamed) {
  BuildResult r = cache().build(kernel("// SMEM_ME\n"), 60);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("shared memory exceeds the CTA limit"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("smem_model"), std::string::npos) << r.error;
}

TEST_F(Cache, NvccTimeoutIsReportedAndKilled) {
  auto start = std::chrono::steady_clock::now();
  BuildResult r = cache().build(kernel("// SLEEP_ME\n"), 1.5);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("timed out"), std::string::npos) << r.error;
  EXPECT_LT(took, 60.0);  // not the fake's 100 s
  fs::path entry = fs::path(cache_dir()) / r.key.substr(0, 2) / r.key;
  EXPECT_FALSE(fs::exists(entry));
}

TEST_F(Cache, MissingNvccIsNotBlamedOnTheSpec) {
  Toolchain gone = tc_;
  gone.nvcc = root_ + "/bin/no-such-nvcc";
  BuildResult r = KernelCache(cache_dir(), gone).build(kernel("// k\n"), 60);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("could not start"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("bug in ucutlass"), std::string::npos) << r.error;
}

TEST_F(Cache, NvccKilledBySignalIsNotBlamedOnTheSpec) {
  // nvcc killed (e.g. by the OOM killer: an SM90 CUTLASS kernel needs ~3.3 GB) is not a rejected config.
  std::ofstream(tc_.nvcc) << "#!/bin/sh\nkill -KILL $$\n";
  BuildResult r = cache().build(kernel("// k\n"), 60);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("killed by signal 9"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("bug in ucutlass"), std::string::npos) << r.error;
}

TEST_F(Cache, BuildAllKeepsInputOrder) {
  KernelCache c = cache();
  std::vector<EmittedKernel> ks = {kernel("// zero\n"), kernel("// one FAIL_ME\n"), kernel("// two\n"),
                                   kernel("// three\n")};
  std::vector<BuildResult> rs = c.build_all(ks, 2, 60);
  ASSERT_EQ(rs.size(), 4u);
  for (size_t i = 0; i < ks.size(); ++i) {
    EXPECT_EQ(rs[i].key, c.key(ks[i])) << i;
    EXPECT_FALSE(rs[i].cached) << i;
  }
  EXPECT_TRUE(rs[0].ok) << rs[0].error;
  EXPECT_FALSE(rs[1].ok);
  EXPECT_TRUE(rs[2].ok) << rs[2].error;
  EXPECT_TRUE(rs[3].ok) << rs[3].error;
  EXPECT_NE(read(rs[0].library).find("// zero"), std::string::npos);
  EXPECT_NE(read(rs[2].library).find("// two"), std::string::npos);
  EXPECT_NE(read(rs[3].library).find("// three"), std::string::npos);
  EXPECT_NE(rs[1].error.find("x.cu(12)"), std::string::npos);
  EXPECT_EQ(nvcc_runs(), 4);

  // Again: the three good ones come from the cache, the failed one is retried.
  std::vector<BuildResult> again = c.build_all(ks, 2, 60);
  ASSERT_EQ(again.size(), 4u);
  EXPECT_TRUE(again[0].cached && again[2].cached && again[3].cached);
  EXPECT_FALSE(again[1].ok);
  EXPECT_EQ(nvcc_runs(), 5);
}

TEST_F(Cache, BuildAllWithDuplicatesAndMoreJobsThanKernels) {
  KernelCache c = cache();
  std::vector<EmittedKernel> ks = {kernel("// same\n"), kernel("// same\n"), kernel("// different\n")};
  std::vector<BuildResult> rs = c.build_all(ks, 8, 60);
  ASSERT_EQ(rs.size(), 3u);
  for (const BuildResult& r : rs) EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(rs[0].library, rs[1].library);
  EXPECT_NE(rs[0].library, rs[2].library);
  EXPECT_TRUE(fs::is_regular_file(rs[0].library));
  EXPECT_TRUE(c.build_all({}, 2, 60).empty());
  // Serial build_all (jobs <= 0 means one).
  std::vector<BuildResult> serial = c.build_all(ks, 0, 60);
  ASSERT_EQ(serial.size(), 3u);
  for (const BuildResult& r : serial) EXPECT_TRUE(r.ok && r.cached);
}

TEST(NvccFailure, SharedMemoryStaticAssert) {
  std::string s = summarize_nvcc_failure(
      "kernel.cu(88): error: static assertion failed with \"ucutlass: shared memory over the CTA limit\"\n"
      "          detected during instantiation of ...\n");
  EXPECT_NE(s.find("shared memory exceeds the CTA limit"), std::string::npos) << s;
  EXPECT_NE(s.find("src/check/smem_model.cpp"), std::string::npos) << s;
  EXPECT_NE(s.find("bug in ucutlass"), std::string::npos) << s;
  EXPECT_NE(s.find("kernel.cu(88): error"), std::string::npos) << s;
  EXPECT_EQ(s.find("detected during"), std::string::npos) << s;  // only error lines
}

TEST(NvccFailure, OtherErrors) {
  std::string s = summarize_nvcc_failure("note: something\nx.cu(12): error: something\nwarning: w\n");
  EXPECT_NE(s.find("nvcc rejected a configuration that `check` accepted"), std::string::npos) << s;
  EXPECT_EQ(s.find("smem_model"), std::string::npos) << s;
  EXPECT_NE(s.find("  x.cu(12): error: something\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("warning: w"), std::string::npos) << s;
}

TEST(NvccFailure, NoErrorLines) {
  std::string s = summarize_nvcc_failure("Segmentation fault\n");
  EXPECT_NE(s.find("no error lines"), std::string::npos) << s;
}

TEST(NvccFailure, AtMostTwelveErrorLines) {
  std::string log;
  for (int i = 0; i < 30; ++i) log += "x.cu(" + std::to_string(100 + i) + "): error: e\n";
  std::string s = summarize_nvcc_failure(log);
  EXPECT_NE(s.find("x.cu(111)"), std::string::npos) << s;
  EXPECT_EQ(s.find("x.cu(112)"), std::string::npos) << s;
}

TEST(NvccCommand, FlagsAndOrder) {
  Toolchain tc;
  tc.nvcc = "/usr/local/cuda/bin/nvcc";
  tc.cutlass_dir = "/opt/cutlass";
  std::vector<std::string> cmd = nvcc_command(tc, "arch=compute_90a,code=sm_90a", "k.cu", "k.so");
  ASSERT_GE(cmd.size(), 4u);
  EXPECT_EQ(cmd.front(), tc.nvcc);
  EXPECT_EQ(cmd.back(), "k.cu");
  EXPECT_EQ(cmd[cmd.size() - 3], "-o");
  EXPECT_EQ(cmd[cmd.size() - 2], "k.so");
  auto has = [&](const std::string& f) { return std::find(cmd.begin(), cmd.end(), f) != cmd.end(); };
  EXPECT_TRUE(has("-I/opt/cutlass/include"));
  EXPECT_TRUE(has("-I/opt/cutlass/tools/util/include"));
  EXPECT_TRUE(has("-shared"));
  EXPECT_TRUE(has("-DNDEBUG"));
  auto g = std::find(cmd.begin(), cmd.end(), "-gencode");
  ASSERT_NE(g, cmd.end());
  EXPECT_EQ(*(g + 1), "arch=compute_90a,code=sm_90a");
}

TEST(NvccCommand, ExtraFlagsComeAfterTheDefaultsAndBeforeTheOutput) {
  Toolchain tc;
  tc.nvcc = "/usr/local/cuda/bin/nvcc";
  tc.cutlass_dir = "/opt/cutlass";
  std::vector<std::string> cmd = nvcc_command(tc, "arch=compute_90a,code=sm_90a", "k.cu", "k.so", {"cublas"},
                                              {"-use_fast_math", "-maxrregcount=64"});
  auto at = [&](const std::string& f) { return std::find(cmd.begin(), cmd.end(), f) - cmd.begin(); };
  EXPECT_LT(at("-lineinfo"), at("-use_fast_math"));
  EXPECT_EQ(at("-maxrregcount=64"), at("-use_fast_math") + 1);
  EXPECT_EQ(at("-o"), at("-maxrregcount=64") + 1);
  EXPECT_EQ(cmd.back(), "-lcublas");
}

TEST(CacheDefaults, CacheDirFromTheEnvironment) {
  auto saved = [](const char* n) -> std::optional<std::string> {
    const char* v = getenv(n);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  auto restore = [](const char* n, const std::optional<std::string>& v) {
    if (v)
      setenv(n, v->c_str(), 1);
    else
      unsetenv(n);
  };
  auto ucut = saved("UCUT_CACHE_DIR"), xdg = saved("XDG_CACHE_HOME"), home = saved("HOME");
  setenv("UCUT_CACHE_DIR", "/c/ucut", 1);
  setenv("XDG_CACHE_HOME", "/c/xdg", 1);
  setenv("HOME", "/c/home", 1);
  EXPECT_EQ(default_cache_dir(), "/c/ucut");
  unsetenv("UCUT_CACHE_DIR");
  EXPECT_EQ(default_cache_dir(), "/c/xdg/ucutlass");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(default_cache_dir(), "/c/home/.cache/ucutlass");
  restore("UCUT_CACHE_DIR", ucut);
  restore("XDG_CACHE_HOME", xdg);
  restore("HOME", home);
  EXPECT_GE(default_build_jobs(), 1);
}

}  // namespace
}  // namespace ucut
