// The contract every MSKB task keeps (mskb/task.h), checked for all of them: launchers that parse and agree across
// precisions, outputs that are pointer parameters, inputs for every parameter, a reference for every output, and
// the naive (and vendor) launcher files in suites/mskb.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "../test_paths.h"
#include "mskb/check.h"
#include "mskb/signature.h"
#include "mskb/task.h"
#include "support/files.h"

namespace ucut::mskb {
namespace {

namespace fs = std::filesystem;

class TaskContract : public ::testing::TestWithParam<std::string> {
 protected:
  const Task& task() const { return *find_task(GetParam()); }
};

const Case& cheapest(const Task& t) {
  return *std::min_element(t.cases.begin(), t.cases.end(), [&](const Case& a, const Case& b) {
    return t.reference_cost(a) < t.reference_cost(b);
  });
}

TEST_P(TaskContract, LaunchersParseAndAgreeAcrossPrecisions) {
  const Task& t = task();
  Signature f = task_signature(t, Precision::fp32), b = task_signature(t, Precision::bf16);
  EXPECT_EQ(f.name, t.name);
  EXPECT_EQ(b.name, t.name + "_bf16");
  ASSERT_EQ(f.params.size(), b.params.size());
  for (size_t i = 0; i < f.params.size(); ++i) EXPECT_EQ(f.params[i].pointer, b.params[i].pointer) << f.params[i].name;
  for (const std::string& o : t.outputs) {
    auto p = std::find_if(f.params.begin(), f.params.end(), [&](const Param& q) { return q.name == o; });
    ASSERT_NE(p, f.params.end()) << o << " is not a parameter";
    EXPECT_TRUE(p->pointer) << o;
    EXPECT_FALSE(p->is_const) << o << " is written but declared const";
  }
  EXPECT_FALSE(t.outputs.empty());
  EXPECT_FALSE(t.category.empty());
}

TEST_P(TaskContract, CasesHaveComplexityAndWork) {
  const Task& t = task();
  ASSERT_FALSE(t.cases.empty());
  for (const Case& c : t.cases) {
    EXPECT_GT(t.complexity(c), 0) << c.label();
    Work w = t.work(c, 4);
    EXPECT_GT(w.bytes, 0) << c.label();
    EXPECT_GE(w.flops, 0) << c.label();
  }
}

TEST_P(TaskContract, InputsCoverEveryParameterAndReferenceEveryOutput) {
  const Task& t = task();
  const Case& c = cheapest(t);
  std::mt19937_64 rng(7), again(7);
  Instance in = t.generate(c, rng);
  EXPECT_EQ(in.arrays, t.generate(c, again).arrays) << "generate is not deterministic";
  for (const Param& p : task_signature(t, Precision::fp32).params) {
    if (p.pointer) {
      ASSERT_TRUE(in.arrays.count(p.name)) << p.name;
      EXPECT_FALSE(in.arrays.at(p.name).empty()) << p.name;
    } else {
      EXPECT_TRUE(in.scalars.count(p.name)) << p.name;
    }
  }
  Outputs ref = t.reference(in);
  for (const std::string& o : t.outputs) {
    ASSERT_TRUE(ref.count(o)) << o;
    EXPECT_EQ(ref.at(o).size(), in.arrays.at(o).size()) << o;
  }
}

// MSKB's convention (Task::zeroed_outputs): a zeroed output is one the launcher writes and that starts as zeros (not
// in-place data), and the cheapest case's draw has a reference away from 0 there, so zeroing alone does not pass.
TEST_P(TaskContract, ZeroedOutputsAreZeroInputsAndVerifiable) {
  const Task& t = task();
  const Case& c = cheapest(t);
  std::mt19937_64 rng(2026);
  Instance in = t.generate(c, rng);
  Outputs ref = t.reference(in);
  for (const std::string& o : t.zeroed_outputs) {
    EXPECT_NE(std::find(t.outputs.begin(), t.outputs.end(), o), t.outputs.end()) << o << " is not an output";
    ASSERT_TRUE(in.arrays.count(o)) << o;
    const auto& start = in.arrays.at(o);
    EXPECT_TRUE(std::all_of(start.begin(), start.end(), [](double v) { return v == 0; })) << o << " is in-place data";
    EXPECT_TRUE(zeroed_output_verifiable(t, o, ref.at(o))) << o << "'s reference is 0 everywhere";
  }
}

TEST_P(TaskContract, LauncherFilesExist) {
  const Task& t = task();
  fs::path root = fs::path(ucut::test_paths::source_dir()) / "suites" / "mskb";
  EXPECT_TRUE(fs::exists(root / "naive" / "fp32" / (t.name + ".cu"))) << t.name;
  EXPECT_TRUE(fs::exists(root / "naive" / "bf16" / (t.name + "_bf16.cu"))) << t.name;
  if (!t.vendor.empty()) {
    EXPECT_TRUE(fs::exists(root / "vendor" / "fp32" / (t.name + ".cu"))) << t.name;
    EXPECT_TRUE(fs::exists(root / "vendor" / "bf16" / (t.name + "_bf16.cu"))) << t.name;
  }
}

std::vector<std::string> task_names() {
  std::vector<std::string> names;
  for (const Task& t : all_tasks()) names.push_back(t.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(All, TaskContract, ::testing::ValuesIn(task_names()),
                         [](const auto& info) { return info.param; });

// The scalar accumulators MSKB's test programs zero before every call (and only those among the scalar outputs:
// MSE_loss and hinge_loss are zeroed once, before all of a program's calls, so a launcher must write them itself).
TEST(TaskConvention, ScalarAccumulatorsAreZeroedBeforeEveryCall) {
  for (const char* name : {"dot_product", "cross_entropy_loss"})
    EXPECT_EQ(find_task(name)->zeroed_outputs, std::vector<std::string>{"loss"}) << name;
  for (const char* name : {"MSE_loss", "hinge_loss", "monte_carlo_int", "simpson_int"})
    EXPECT_TRUE(find_task(name)->zeroed_outputs.empty()) << name;
  for (const char* name : {"spmv_coo", "spmv_csc", "spmv_ell"})
    EXPECT_EQ(find_task(name)->zeroed_outputs, std::vector<std::string>{"y"}) << name;
  for (const char* name : {"spmm_coo", "spmm_csc", "spmm_ell"})
    EXPECT_EQ(find_task(name)->zeroed_outputs, std::vector<std::string>{"Y"}) << name;
  EXPECT_TRUE(find_task("spmv_csr")->zeroed_outputs.empty());
}

// docs/mskb.md's convention table lists exactly the tasks whose outputs are zeroed, with those outputs.
TEST(TaskConvention, DocsTableMatchesTheTaskTable) {
  std::string doc = read_file(ucut::test_paths::source_dir() + "/docs/mskb.md").value();
  for (const Task& t : all_tasks()) {
    std::string row = "| `" + t.name + "` |";
    size_t at = doc.find(row);
    if (t.zeroed_outputs.empty()) {
      EXPECT_EQ(at, std::string::npos) << t.name << " is in the zeroed-output table but zeroes nothing";
      continue;
    }
    ASSERT_NE(at, std::string::npos) << t.name << " zeroes outputs but has no row " << row;
    std::string line = doc.substr(at, doc.find('\n', at) - at);
    for (const std::string& o : t.zeroed_outputs)
      EXPECT_NE(line.find("`" + o + "`"), std::string::npos) << t.name << ": " << line;
  }
}

TEST(TaskRegistry, NamesAreUniqueAndFindable) {
  std::vector<std::string> names = task_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  EXPECT_NE(find_task("vector_add_bf16"), nullptr);
  EXPECT_EQ(find_task("no_such_task"), nullptr);
}

}  // namespace
}  // namespace ucut::mskb
