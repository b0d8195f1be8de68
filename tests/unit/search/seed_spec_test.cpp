// tests/unit/search/seed_spec_test.cpp — seed specs (engine/search/seed_spec.h) for the KernelBench-derived suite:
// every problem that lowers to a harness problem gets a spec that compiles through check and computes that problem
// (operator, operands, chain, shapes, precision), or a reason; the hand-written implementations' problems all get
// a spec; the text is deterministic; sm80 works for a GEMM; a chain no kernel can run is refused with the rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "driver/pipeline.h"
#include "engine/search/seed_spec.h"
#include "eval/problem.h"
#include "suite/check.h"

namespace ucut::search {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = UCUT_SOURCE_DIR;

/// Every suite problem that lowers, by stem, with its lowered harness problem.
struct Lowerable {
  suite::Checked checked;
  suite::Lowered lowered;
};

const std::map<std::string, Lowerable>& lowerable() {
  static const std::map<std::string, Lowerable> all = [] {
    std::map<std::string, Lowerable> out;
    std::vector<std::string> missing;
    for (const std::string& path : suite::problem_files({(kSource / "suites" / "kernelbench").string()}, &missing)) {
      std::string error;
      auto file = suite::check_file(path, &error);
      if (!file || !file->checked) {
        ADD_FAILURE() << path << " does not check: " << error;
        continue;
      }
      auto lowered = suite::lower_to_harness(*file->checked);
      if (const auto* l = std::get_if<suite::Lowered>(&lowered))
        out.emplace(file->checked->problem.stem, Lowerable{*file->checked, *l});
    }
    return out;
  }();
  return all;
}

/// Why `seed` is not a spec for `problem` on `arch`, or "" — judged by the compiler and the harness's own checks.
std::string invalid(const SeedSpec& seed, const Lowerable& problem, const std::string& arch) {
  Compilation c = compile_spec(SourceFile(seed.kernel_name + ".ucut", seed.spec), StopAfter::check);
  if (!c.ok() || !c.config) {
    std::string why = "does not pass check:";
    for (const Diagnostic& d : c.diags.diagnostics()) why += " " + std::string(rule_info(d.rule).code) + " " + d.message;
    return why;
  }
  const KernelConfig& cfg = *c.config;
  if (cfg.name.value != seed.kernel_name) return "kernel name " + cfg.name.value + " is not " + seed.kernel_name;
  if (arch_info(cfg.arch.value).name != arch) return "targets " + std::string(arch_info(cfg.arch.value).name);
  std::string error;
  auto harness = parse_problem(problem.lowered.toml, problem.checked.problem.stem + ".toml", &error);
  if (!harness) return "the lowered problem does not parse: " + error;
  if (auto why = semantic_mismatch(*harness, cfg)) return "semantic mismatch: " + *why;
  for (const GemmShape& s : harness->shapes)
    if (auto why = shape_violation(cfg, s)) return "shape violation: " + *why;
  bool tolerance_forbids = problem.checked.problem.tolerance < 1e-2;
  if (tolerance_forbids && precision_change(*harness, cfg)) return "precision change at tolerance 1e-4";
  if (seed.spec.find("# Generated from suites/kernelbench/") != 0) return "no header naming the problem file";
  return "";
}

std::variant<SeedSpec, std::string> seed_of(const std::string& stem, const std::string& arch) {
  auto it = lowerable().find(stem);
  EXPECT_NE(it, lowerable().end()) << stem << " does not lower";
  if (it == lowerable().end()) return std::string("missing");
  return seed_spec(it->second.checked, it->second.lowered, arch);
}

TEST(SeedSpec, EveryLowerableProblemGetsAValidSpecOrAReason) {
  ASSERT_GT(lowerable().size(), 60u);
  std::set<std::string> with_spec;
  int specs = 0, reasons = 0;
  for (const auto& [stem, problem] : lowerable()) {
    auto seed = seed_spec(problem.checked, problem.lowered, "sm90a");
    if (const auto* why = std::get_if<std::string>(&seed)) {
      ++reasons;
      EXPECT_FALSE(why->empty()) << stem;
      std::cout << "[ reason ] " << stem << ": " << *why << "\n";
      continue;
    }
    ++specs;
    with_spec.insert(stem);
    std::string bad = invalid(std::get<SeedSpec>(seed), problem, "sm90a");
    EXPECT_EQ(bad, "") << stem << "\n" << std::get<SeedSpec>(seed).spec;
  }
  std::cout << "[ seeds  ] " << specs << " of " << lowerable().size() << " lowerable problems get a spec, " << reasons
            << " a reason\n";
  int implemented = 0;
  for (const auto& entry : fs::directory_iterator(kSource / "bench" / "kernelbench" / "impl")) {
    if (entry.path().extension() != ".ucut") continue;
    ++implemented;
    EXPECT_TRUE(with_spec.count(entry.path().stem().string())) << entry.path().stem() << " has an implementation";
  }
  EXPECT_GT(implemented, 0);
}

TEST(SeedSpec, SameInputSameText) {
  for (const std::string stem : {"L1_008_matmul_irregular", "L2_001_conv2d_relu_biasadd", "L1_082_depthwise_conv2d"}) {
    auto first = seed_of(stem, "sm90a"), second = seed_of(stem, "sm90a");
    ASSERT_TRUE(std::holds_alternative<SeedSpec>(first)) << std::get<std::string>(first);
    ASSERT_TRUE(std::holds_alternative<SeedSpec>(second));
    EXPECT_EQ(std::get<SeedSpec>(first).spec, std::get<SeedSpec>(second).spec);
    EXPECT_EQ(std::get<SeedSpec>(first).note, std::get<SeedSpec>(second).note);
  }
}

TEST(SeedSpec, ExactF32GemmKeepsItsChainAndPrecision) {
  auto seed = seed_of("L2_012_gemm_multiply_leakyrelu", "sm90a");
  ASSERT_TRUE(std::holds_alternative<SeedSpec>(seed)) << std::get<std::string>(seed);
  const std::string& spec = std::get<SeedSpec>(seed).spec;
  EXPECT_NE(spec.find("B: f32[K,N] col"), std::string::npos) << spec;  // the linear layer's weight [N, K]
  EXPECT_NE(spec.find("math = tf32x3"), std::string::npos) << spec;    // exact f32 at 1e-4: never plain TF32
  EXPECT_NE(spec.find(">> bias(col) >> scale(2) >> leaky_relu(0.1)"), std::string::npos) << spec;
  EXPECT_EQ(std::get<SeedSpec>(seed).kernel_name, "seed_L2_012_gemm_multiply_leakyrelu");
}

TEST(SeedSpec, AToleranceThatAdmitsTf32GetsTheSm90Tf32Kernel) {
  const Lowerable& exact = lowerable().at("L2_012_gemm_multiply_leakyrelu");
  suite::Checked relaxed = exact.checked;
  relaxed.problem.tolerance = 1e-2;  // KernelBench's original tolerance
  auto lowered = suite::lower_to_harness(relaxed);
  ASSERT_TRUE(std::holds_alternative<suite::Lowered>(lowered));
  auto seed = seed_spec(relaxed, std::get<suite::Lowered>(lowered), "sm90a");
  ASSERT_TRUE(std::holds_alternative<SeedSpec>(seed)) << std::get<std::string>(seed);
  const std::string& spec = std::get<SeedSpec>(seed).spec;
  EXPECT_NE(spec.find("math = tf32)"), std::string::npos) << spec;  // TF32, a labelled precision change
  EXPECT_EQ(spec.find("multistage"), std::string::npos) << spec;    // on the SM90 TMA kernel
  EXPECT_NE(spec.find(">> bias(col) >> scale(2) >> leaky_relu(0.1)"), std::string::npos) << spec;
}

TEST(SeedSpec, Sm80Gemm) {
  const std::string stem = "L2_086_matmul_divide_gelu";
  auto seed = seed_of(stem, "sm80");
  ASSERT_TRUE(std::holds_alternative<SeedSpec>(seed)) << std::get<std::string>(seed);
  const SeedSpec& s = std::get<SeedSpec>(seed);
  EXPECT_NE(s.spec.find(" : sm80\n"), std::string::npos) << s.spec;
  EXPECT_EQ(s.spec.find("with_scheduler"), std::string::npos) << s.spec;  // the 2.x kernel is sm80's only one
  EXPECT_EQ(invalid(s, lowerable().at(stem), "sm80"), "") << s.spec;
}

TEST(SeedSpec, ReasonForAChainNoKernelRuns) {
  // A stride-2 transposed convolution followed by six stages: the SM90 kernel needs stride 1, and CUTLASS 2.x's
  // strided data gradient takes act(alpha * acc + beta * C) only.
  auto seed = seed_of("L2_002_convtranspose2d_biasadd_clamp_scaling_clamp_divide", "sm90a");
  ASSERT_TRUE(std::holds_alternative<std::string>(seed)) << std::get<SeedSpec>(seed).spec;
  const std::string& why = std::get<std::string>(seed);
  EXPECT_NE(why.find("stride 2"), std::string::npos) << why;
  EXPECT_NE(why.find("C420"), std::string::npos) << why;
}

TEST(SeedSpec, ReasonForAnotherTarget) {
  auto seed = seed_of("L1_001_square_matmul", "sm75");
  ASSERT_TRUE(std::holds_alternative<std::string>(seed));
  EXPECT_NE(std::get<std::string>(seed).find("sm90a or sm80"), std::string::npos) << std::get<std::string>(seed);
}

}  // namespace
}  // namespace ucut::search
