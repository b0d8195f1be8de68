// tests/unit/cli/profile_command_test.cpp — `ucutlass profile` and `ucutlass profile-corpus`, run as the binary on
// this CPU-only machine with a seeded build cache and fake ncu and worker scripts: the degraded report says why
// there are no counters (exit 4), a suite problem is taken as well as a harness one, bad input is a usage error
// (exit 2), `--all` prints every metric, and the corpus learns thresholds from canned profiles, skips the pairs it
// cannot profile, writes the thresholds with the corpus's metrics, and `profile` then reads them from --thresholds
// or from the data folder.
#include <gtest/gtest.h>

#include <filesystem>

#include "../profile/profile_fakes.h"
#include "../temp_dir.h"
#include "../test_paths.h"
#include "engine/profile/classify.h"
#include "engine/profile/thresholds.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;
using namespace profile::testing;

constexpr const char* kSpec = "examples/gemm_bf16.ucut";
constexpr const char* kProblem = "problems/examples/gemm_bf16.toml";
constexpr const char* kOtherSpec = "examples/gemm_tf32.ucut";
constexpr const char* kOtherProblem = "problems/examples/gemm_tf32.toml";

struct Cli : ::testing::Test {
  ucut::testing::TempDir dir{"ucut-profile-cli"};
  std::string cache = dir.file("cache");
  std::string worker;

  void SetUp() override {
    for (const char* spec : {kSpec, kOtherSpec, "bench/kernelbench/impl/L1_001_square_matmul.ucut"})
      if (!seed_build_cache(cache, spec)) GTEST_SKIP() << "nvcc or CUTLASS missing: no build key";
    worker = worker_without_gpu(dir.path());
  }

  /// Runs `ucutlass ARGS... --cache-dir CACHE --worker WORKER`.
  ProcessResult ucutlass(std::vector<std::string> args, std::vector<std::string> env = {}) {
    args.insert(args.begin(), ucut::test_paths::cli_path());
    for (const std::string& a : {std::string("--cache-dir"), cache, std::string("--worker"), worker})
      args.push_back(a);
    ProcessOptions o = ProcessOptions::with_timeout(120);
    o.extra_env = std::move(env);
    return run_process(args, o);
  }
  ProcessResult profile(const std::string& spec, const std::string& problem, std::vector<std::string> more = {},
                        std::vector<std::string> env = {}) {
    std::vector<std::string> args = {"profile", source_path(spec), "--problem", source_path(problem)};
    args.insert(args.end(), more.begin(), more.end());
    return ucutlass(args, std::move(env));
  }
};

TEST_F(Cli, WithoutNcuProfilePrintsTheDegradedReport) {
  ProcessResult r = profile(kSpec, kProblem, {"--ncu", dir.file("no-such-ncu")});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("build "), std::string::npos) << r.out;  // the kernel is built (here: from the cache)
  EXPECT_NE(r.out.find("no counters: ncu could not be started"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counters need Nsight Compute (ncu on PATH, or --ncu PATH) and an NVIDIA GPU"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("no counters"), std::string::npos) << r.err;

  ProcessResult j = profile(kSpec, kProblem, {"--ncu", dir.file("no-such-ncu"), "--json"});
  EXPECT_EQ(j.exit_code, 4);
  nlohmann::json report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report["ncu_status"], "not_installed");
  EXPECT_TRUE(report["profile"]["degraded"].is_string());
  EXPECT_EQ(report["profile"]["bottleneck"], "unknown");
}

TEST_F(Cli, WithoutAGpuProfileSaysCountersNeedOne) {
  ProcessResult r = profile(kSpec, kProblem, {"--ncu", ncu_running_the_command(dir.path())});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("no counters: the worker could not run the kernel under ncu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(counters need an NVIDIA GPU)"), std::string::npos) << r.out;
}

TEST_F(Cli, ProfileTakesASuiteProblem) {
  ProcessResult r = profile("bench/kernelbench/impl/L1_001_square_matmul.ucut",
                            "suites/kernelbench/level1/L1_001_square_matmul.toml", {"--ncu", dir.file("no-ncu")});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("on problem L1_001_square_matmul"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shape 4096x4096x4096"), std::string::npos) << r.out;
}

TEST_F(Cli, BadInputIsAUsageError) {
  ProcessResult t = profile(kSpec, kProblem, {"--thresholds", dir.file("absent.json")});
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("absent.json: cannot read"), std::string::npos) << t.err;
  EXPECT_NE(t.err.find("`ucutlass profile-corpus`"), std::string::npos) << t.err;
  ProcessResult p = profile(kSpec, "problems/no_such_problem.toml");
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(p.err.find("cannot read problem"), std::string::npos) << p.err;
  ProcessResult s = profile("examples/no_such_spec.ucut", kProblem);
  EXPECT_EQ(s.exit_code, 3);
}

TEST_F(Cli, AllPrintsEveryMetricRead) {
  std::string ncu = write_script(dir.path() / "ncu", "cat '" + source_path("tests/unit/profile/testdata/") +
                                                         "fixture_ncu_raw_2kernels.csv'");
  ProcessResult r = profile(kSpec, kProblem, {"--ncu", ncu, "--all"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(": compute — compute-bound"), std::string::npos) << r.out;
  for (const profile::MetricInfo& m : profile::metric_table())
    EXPECT_NE(r.out.find(std::string(m.name)), std::string::npos) << m.name;
}

/// A corpus of five pairs: three profile (canned SOL numbers), one spec is missing, one run has no permission.
struct Corpus : Cli {
  std::string manifest = dir.file("corpus.toml");
  std::string out = dir.file("data/profile_thresholds.json");

  void SetUp() override {
    Cli::SetUp();
    if (IsSkipped()) return;
    std::ofstream(dir.file("c0.csv")) << sol_csv("gemm_a", 10, 70, 72, 2e6);
    std::ofstream(dir.file("c1.csv")) << sol_csv("gemm_b", 15, 60, 65, 1e6);
    std::ofstream(dir.file("c3.csv")) << sol_csv("gemm_c", 80, 5, 30, 3e6);
    std::string count = dir.file("count");
    write_script(dir.path() / "ncu",
                 "n=$(cat '" + count + "' 2>/dev/null || echo 0)\necho $((n + 1)) > '" + count + "'\n" +
                     "case $n in\n  0) cat '" + dir.file("c0.csv") + "';;\n  1) cat '" + dir.file("c1.csv") +
                     "';;\n  2) echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission' >&2; exit 1;;\n"
                     "  *) cat '" +
                     dir.file("c3.csv") + "';;\nesac");
    std::ofstream(manifest) << fmt::format(
        "name = \"fixture-corpus\"\n"
        "[[pair]]\nspec = \"{0}\"\nproblem = \"{1}\"\n"
        "[[pair]]\nspec = \"{2}\"\nproblem = \"{3}\"\n"
        "[[pair]]\nspec = \"missing.ucut\"\nproblem = \"{1}\"\n"
        "[[pair]]\nspec = \"{0}\"\nproblem = \"{1}\"\n"
        "[[pair]]\nspec = \"{2}\"\nproblem = \"{3}\"\n",
        source_path(kSpec), source_path(kProblem), source_path(kOtherSpec), source_path(kOtherProblem));
  }
  ProcessResult corpus(std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"profile-corpus", manifest, "--out", out, "--ncu", dir.file("ncu")};
    args.insert(args.end(), more.begin(), more.end());
    return ucutlass(args);
  }
};

TEST_F(Corpus, LearnsThresholdsFromTheProfiledPairsAndKeepsTheirMetrics) {
  ProcessResult r = corpus();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("skipped  " + dir.file("missing.ucut")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cannot read spec"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ERR_NVGPUCTRPERM"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + out + " (3 of 5 pairs profiled)"), std::string::npos) << r.out;

  std::string error;
  auto t = profile::load_thresholds(out, &error);
  ASSERT_TRUE(t) << error;
  EXPECT_DOUBLE_EQ(t->sm_pct, 47.5);    // Otsu over 10, 15, 80
  EXPECT_DOUBLE_EQ(t->dram_pct, 32.5);  // over 70, 60, 5
  EXPECT_DOUBLE_EQ(t->mem_pct, 47.5);   // over 72, 65, 30
  EXPECT_EQ(t->corpus_name, "fixture-corpus");
  EXPECT_NE(t->source.find("otsu over 3 profiles of 'fixture-corpus'"), std::string::npos) << t->source;
  ASSERT_EQ(t->corpus.size(), 3u);
  EXPECT_EQ(t->corpus[2].kernel, "gemm_c");
  EXPECT_EQ(t->corpus[2].source.rfind(source_path(kOtherSpec) + " on ", 0), 0u) << t->corpus[2].source;
  EXPECT_DOUBLE_EQ(t->corpus[2].metrics.at(std::string(profile::metric::sm_throughput)), 80);
  EXPECT_DOUBLE_EQ(t->corpus[2].metrics.at(std::string(profile::metric::duration)), 3e6);
  // Learned again from the file alone, the same thresholds.
  EXPECT_DOUBLE_EQ(profile::learn_thresholds(profile::corpus_profiles(*t), "again").sm_pct, 47.5);

  // `profile` reads them from --thresholds, and from the data folder when there is no --thresholds.
  std::string fixture_ncu = write_script(dir.path() / "ncu-fixture", "cat '" + dir.file("c1.csv") + "'");
  ProcessResult given = profile(kSpec, kProblem, {"--ncu", fixture_ncu, "--thresholds", out});
  EXPECT_EQ(given.exit_code, 0) << given.out << given.err;
  EXPECT_NE(given.out.find("thresholds: SM 47.5%, DRAM 32.5%, Memory 47.5% — otsu over 3 profiles"),
            std::string::npos)
      << given.out;
  EXPECT_NE(given.out.find("gemm_b: memory_bandwidth"), std::string::npos) << given.out;
  ProcessResult found = profile(kSpec, kProblem, {"--ncu", fixture_ncu}, {"UCUT_DATA_DIR=" + dir.file("data")});
  EXPECT_NE(found.out.find("thresholds: SM 47.5%"), std::string::npos) << found.out;
}

TEST_F(Corpus, TheNameCanBeGivenOnTheCommandLine) {
  ProcessResult r = corpus({"--name", "renamed"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(profile::load_thresholds(out, nullptr)->corpus_name, "renamed");
}

TEST_F(Corpus, NothingProfiledWritesNothing) {
  ProcessResult r = ucutlass({"profile-corpus", manifest, "--out", out, "--ncu", dir.file("no-such-ncu")});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("none of the 5 pairs could be profiled"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(Corpus, ABadManifestNamesTheField) {
  std::ofstream(manifest) << "name = \"x\"\n[[pair]]\nspec = \"a.ucut\"\n";
  ProcessResult r = corpus();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("corpus.toml: pair 1: field `problem` is missing or not a string"), std::string::npos)
      << r.err;
  std::ofstream(manifest) << "name = \"x\"\n";
  r = corpus();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no [[pair]] tables"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ucut
