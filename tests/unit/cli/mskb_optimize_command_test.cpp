// tests/unit/cli/mskb_optimize_command_test.cpp — `ucutlass mskb optimize` as the binary: an unknown task,
// and on a machine where nothing can be timed (no GPU visible), the rounds going as far as building, with the
// command saying that timing needs a GPU and exiting 4, the workspace holding what was done.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../cudamaster/fakes.h"
#include "../llm/fake_server.h"
#include "../test_paths.h"
#include "build/toolchain.h"
#include "store/workspace.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

using nlohmann::json;

class MskbOptimizeCommand : public ::testing::Test {
 protected:
  ProcessResult optimize(std::vector<std::string> extra) {
    std::ofstream(dir_.file("agents.toml"))
        << "[llm]\nbase_url = \"" << server_.base_url() << "\"\nmodel = \"m\"\nmax_retries = 0\n";
    std::vector<std::string> argv = {ucut::test_paths::cli_path(),
                                     "mskb",
                                     "optimize",
                                     "--workspace",
                                     workspace(),
                                     "--llm-config",
                                     dir_.file("agents.toml"),
                                     "--suite",
                                     ucut::test_paths::source_dir() + "/suites/mskb",
                                     "--cache-dir",
                                     dir_.file("cache"),
                                     "--out",
                                     dir_.file("out")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessOptions o = ProcessOptions::with_timeout(600);
    o.extra_env = {"CUDA_VISIBLE_DEVICES="};  // whatever this machine has, the run sees no GPU
    return run_process(argv, o);
  }
  std::string workspace() const { return dir_.file("ws.db"); }

  testing::TempDir dir_{"ucut-mskb-optimize"};
  testing::FakeOpenAiServer server_;
};

TEST_F(MskbOptimizeCommand, AnUnknownTaskIsAUsageError) {
  server_.start(json::array({engine::cudamaster::testing::planner("never asked")}));
  ProcessResult r = optimize({"no_such_task"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("no MSKB task called no_such_task ('ucutlass mskb list' prints them)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(MskbOptimizeCommand, WithoutAGpuItBuildsAndSaysTimingNeedsOne) {
  std::string error;
  if (!find_toolchain("", &error)) GTEST_SKIP() << "nvcc or CUTLASS missing: " << error;
  std::string file =
      "#include <cuda_runtime.h>\n"
      "__global__ void gelu_kernel_optimized(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = 0.5f * in[i] * (1.0f + erff(in[i] * 0.70710678f));\n"
      "}\n"
      "extern \"C\" void gelu_optimized(float* output, const float* input, const int N) {\n"
      "  gelu_kernel_optimized<<<(N + 255) / 256, 256>>>(output, input, N);\n"
      "  cudaDeviceSynchronize();\n"
      "}\n";
  namespace t = engine::cudamaster::testing;
  server_.start(json::array({t::planner("One thread per element."), t::coder(file), t::compiler()}));
  ProcessResult r = optimize({"gelu", "--rounds", "2"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("verifying and timing a launcher need a GPU this machine lacks"), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("gelu: the naive launcher was not timed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stopped: verifying and timing need a GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("planner   1 call, 3000 prompt + 400 completion tokens"), std::string::npos) << r.out;
  EXPECT_EQ(server_.requests().size(), 3u) << "one round, up to the candidate that built";
  store::Workspace ws = store::Workspace::open_read_only(workspace());
  std::vector<store::AttemptRow> attempts = ws.attempts("gelu");
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].proposer, "seed");
  EXPECT_EQ(attempts[1].proposer, "cudamaster:coder");
  EXPECT_EQ(attempts[1].spec, file);
  EXPECT_EQ(attempts[1].status, store::AttemptStatus::pending)
      << "it built; it waits for a GPU to be measured";
  EXPECT_EQ(ws.problem("gelu")->family, "mskb");
  EXPECT_EQ(ws.llm_calls({}).size(), 3u);
}

}  // namespace
}  // namespace ucut
