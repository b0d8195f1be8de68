// tests/unit/cli/run_library_command_test.cpp — `ucutlass run --library` checks a prebuilt candidate before
// it runs, on this CPU-only machine (a worker script that finds no GPU stands in for the device): its ELF
// imports (libraries built for the test, tests/CMakeLists.txt) and the files given with --source; the flags
// are in the JSON and the text although nothing could be timed. A file that is no shared library stops it
// with its name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../profile/profile_fakes.h"
#include "../temp_dir.h"
#include "../test_paths.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

std::string elf_fixture(const std::string& name) {
  return ucut::test_paths::elf_fixtures_dir() + "/" + name + ".so";
}

constexpr const char* kProblem =
    "name = \"handoff_bf16\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
    "shapes = [ { m = 256, n = 256, k = 256 } ]\n";

constexpr const char* kCublasSource = R"(#include <cublas_v2.h>
extern "C" void gemm(cublasHandle_t h, const float* a, const float* b, float* c, int n) {
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
}
)";

struct RunLibrary {
  ucut::testing::TempDir dir{"ucut-run-library"};
  std::string problem = dir.file("problem.toml");
  std::string worker = profile::testing::worker_without_gpu(dir.path());
  RunLibrary() { EXPECT_TRUE(write_file(problem, kProblem)); }

  ProcessResult run(const std::string& library, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {
        ucut::test_paths::cli_path(), "run", "--library", library, "--problem", problem, "--worker", worker};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(args, ProcessOptions::with_timeout(60));
  }
};

nlohmann::json candidate_flags(const ProcessResult& r) {
  return nlohmann::json::parse(r.out, nullptr, false).value("candidate_flags", nlohmann::json::array());
}

TEST(RunLibrary, ASourceCallingCublasSgemmIsFlaggedBeforeItRuns) {
  RunLibrary t;
  std::string source = t.dir.file("candidate.cu");
  ASSERT_TRUE(write_file(source, kCublasSource));
  ProcessResult r = t.run(elf_fixture("plain"), {"--source", source, "--json"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;  // checked; timing needs a GPU
  nlohmann::json flags = candidate_flags(r);
  ASSERT_EQ(flags.size(), 1u) << r.out;
  EXPECT_EQ(flags[0].value("id", ""), "library_only");
  EXPECT_TRUE(flags[0].value("disqualifies", false));
  std::string reason = flags[0].value("reason", "");
  EXPECT_EQ(reason.rfind(source + ": ", 0), 0u) << reason;
  EXPECT_NE(reason.find("cublasSgemm (line 4)"), std::string::npos) << reason;
  r = t.run(elf_fixture("plain"), {"--source", source});
  EXPECT_NE(r.out.find("candidate: library_only: " + source), std::string::npos) << r.out;
}

TEST(RunLibrary, ALinkedVendorLibraryIsFlaggedFromTheImports) {
  RunLibrary t;
  ProcessResult r = t.run(elf_fixture("calls_cublas"), {"--json"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  nlohmann::json flags = candidate_flags(r);
  ASSERT_EQ(flags.size(), 1u) << r.out;
  EXPECT_NE(flags[0].value("reason", "").find("libcublas.so.13"), std::string::npos) << r.out;
  EXPECT_TRUE(candidate_flags(t.run(elf_fixture("plain"), {"--json"})).empty());
}

TEST(RunLibrary, NoSharedLibraryOrSourceIsAnErrorNamingTheFile) {
  RunLibrary t;
  std::string text = t.dir.file("kernel.so");
  ASSERT_TRUE(write_file(text, "not a library\n"));
  ProcessResult r = t.run(text);
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find(text + ": not an ELF file"), std::string::npos) << r.out << r.err;
  std::string missing = t.dir.file("missing.cu");
  r = t.run(elf_fixture("plain"), {"--source", missing});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot read --source " + missing), std::string::npos) << r.err;
}

TEST(RunLibrary, SourceGoesWithLibraryOnly) {
  RunLibrary t;
  ProcessResult r =
      run_process({ucut::test_paths::cli_path(), "run", "spec.ucut", "--source", "a.cu", "--problem", t.problem},
                  ProcessOptions::with_timeout(60));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--source goes with --library"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ucut
