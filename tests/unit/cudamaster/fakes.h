// tests/unit/cudamaster/fakes.h — what CUDAMaster's round tests run instead of a GPU and a model: a candidate
// evaluator whose verdict is chosen by a marker in the file (`// EVAL fast`), and the scripted loopback
// server's turns for each role. Header-only: the unit-test target globs only *_test.cpp.
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cudamaster/evaluator.h"
#include "engine/profile/classify.h"
#include "engine/profile/metrics.h"
#include "mskb/launcher_build.h"
#include "mskb/signature.h"
#include "mskb/task.h"

namespace ucut::engine::cudamaster::testing {

/// The evaluations the markers select. `// EVAL <name>` in a file picks <name>; the naive launcher is
/// "naive".
inline std::map<std::string, Evaluation> scripted_evaluations() {
  auto ok = [](double score, double ms) {
    Evaluation e;
    e.verdict = Verdict::ok;
    e.score = score;
    e.time_ms = ms;
    e.gpu = "NVIDIA H100 80GB HBM3";
    return e;
  };
  auto failed = [](Verdict v, std::string error) {
    Evaluation e;
    e.verdict = v;
    e.error = std::move(error);
    return e;
  };
  const mskb::Task& relu = *mskb::find_task("RELU");
  std::string expected =
      mskb::expected_launcher(mskb::task_signature(relu, mskb::Precision::fp32), "RELU_optimized");
  return {
      {"naive", ok(1.0, 2.0)},
      {"fast", ok(2.5, 0.8)},
      {"faster", ok(3.0, 0.6)},
      {"slow", ok(0.7, 2.9)},
      {"typo", failed(Verdict::build, "RELU.cu(7): error: identifier \"flaot\" is undefined")},
      {"signature",
       failed(Verdict::interface,
              fmt::format("ucutlass_mskb_interface_check(17): error: static assertion failed with \"[{}] "
                          "the launcher must be {} (const, parameter names and default arguments may "
                          "differ)\"; found void(double*, const double*, int), a pointee's const dropped",
                          mskb::kRuleLauncherSignature, expected))},
      {"wrong", failed(Verdict::verify, "case N=1024: wrong result: output: 512 of 1024 elements wrong")},
      {"gpu", failed(Verdict::needs_gpu, "timing needs a CUDA GPU, and none is usable here")},
  };
}

/// A file the fake evaluator judges as `marker` says.
inline std::string file_with(const std::string& marker, const std::string& body = "") {
  return "// EVAL " + marker + "\n#include <cuda_runtime.h>\n" + body +
         "extern \"C\" void RELU_optimized(float* output, const float* input, int N) {}\n";
}

class FakeEvaluator : public CandidateEvaluator {
 public:
  /// `stop_at`: on the evaluation with this number (from 1, the naive launcher included), write a byte to
  /// `signal_fd` and sleep until killed (the resume test's child).
  explicit FakeEvaluator(int stop_at = 0, int signal_fd = -1) : stop_at_(stop_at), signal_fd_(signal_fd) {}

  std::string naive_code() const override { return "// EVAL naive\n// RELU, one block striding over N\n"; }
  std::string arch() const override { return "sm_90a"; }
  std::vector<std::string> default_flags() const override {
    return {"-std=c++17", "-O3", "-gencode", "arch=compute_90a,code=sm_90a", "-lineinfo"};
  }

  Evaluation evaluate(const Candidate& c) override {
    evaluated.push_back(c);
    if (static_cast<int>(evaluated.size()) == stop_at_) {
      char byte = 1;
      (void)!::write(signal_fd_, &byte, 1);
      for (;;) ::pause();
    }
    size_t at = c.code.find("// EVAL ");
    std::string marker = c.code.substr(at + 8, c.code.find('\n', at) - at - 8);
    Evaluation e = scripted_evaluations().at(marker);
    bool built_only = e.verdict == Verdict::build || e.verdict == Verdict::interface;
    return has_gpu || built_only ? e : scripted_evaluations().at("gpu");
  }

  ProfileResult profile(const Candidate& c) override {
    profiled.push_back(c);
    profile::KernelProfile k;
    k.kernel = "RELU_kernel";
    k.metrics = {{std::string(profile::metric::sm_throughput), 4.5},
                 {std::string(profile::metric::memory_throughput), 12.0},
                 {std::string(profile::metric::dram_throughput), 11.0},
                 {std::string(profile::metric::duration), 2.0e6}};
    ProfileResult r;
    r.kernel = k.kernel;
    r.counters = k;
    r.filtered = profile::filter(k, profile::classify(k, profile::prior_thresholds()));
    r.seconds = 3;
    return r;
  }

  bool has_gpu = true;  // false: whatever builds comes back needs_gpu, as on a machine without one
  std::vector<Candidate> evaluated;
  std::vector<Candidate> profiled;

 private:
  int stop_at_ = 0, signal_fd_ = -1;
};

/// One chat completion with `content`, as the loopback server answers it.
inline nlohmann::json turn(const std::string& content, int prompt = 1000, int completion = 200) {
  return {{"status", 200},
          {"json",
           {{"id", "chatcmpl-1"},
            {"object", "chat.completion"},
            {"model", "test-model"},
            {"choices",
             {{{"index", 0},
               {"message", {{"role", "assistant"}, {"content", content}}},
               {"finish_reason", "stop"}}}},
            {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", completion}}}}}};
}

inline nlohmann::json planner(const std::string& scheme) { return turn(scheme, 3000, 400); }
inline nlohmann::json coder(const std::string& file) {
  return turn("Here it is:\n```cuda\n" + file + "```\n", 2500, 900);
}
inline nlohmann::json compiler(const std::string& flags_json = R"(["-O3", "-use_fast_math"])") {
  return turn(R"({"flags": )" + flags_json + R"(, "reason": "the tolerance admits fast math"})", 1500, 60);
}
inline nlohmann::json debugger(const std::string& diagnosis) { return turn(diagnosis, 2000, 300); }

}  // namespace ucut::engine::cudamaster::testing
