// tests/unit/eval/memop_reference_mskb_test.cpp — eval/memop_reference.h against MSKB's FP64 task references
// (src/mskb/tasks/*.cpp): every examples/mskb spec of a family the reference covers (map, reduce, rownorm, scan,
// window), on its task's inputs drawn for each of the task's size cases with every size cut to at most 37 (odd
// tails, small tensors), the launcher's parameters bound to the spec's names as `export --mskb` binds them
// (export/mskb_launcher.h mskb_parameter_binding). Both references see the same inputs, rounded to the launcher's
// types; they must agree to 1e-9 relative before any output rounding. Library calls and sparse kernels are left
// to MSKB's references (the skip list below is exact).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "compiler/pipeline.h"
#include "eval/memop_reference.h"
#include "export/mskb_launcher.h"
#include "mskb/check.h"
#include "support/files.h"
#include "../test_paths.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kLargestSize = 37;

/// The task's cases with every size cut to kLargestSize, each once.
std::vector<mskb::Case> small_cases(const mskb::Task& task) {
  std::vector<mskb::Case> out;
  std::set<std::string> seen;
  for (mskb::Case c : task.cases) {
    // rope turns pairs: its rows are even in every MSKB case, and stay even here (an odd one is refused).
    for (auto& [name, size] : c.sizes)
      size = std::min(size, task.name == "rope" && name == "D" ? kLargestSize - 1 : kLargestSize);
    if (seen.insert(c.label()).second) out.push_back(c);
  }
  return out;
}

/// Outputs agree when |got − ref| ≤ 1e-9 · max(|ref|, 1e-3 · the largest |ref|) (cancellation near 0).
void expect_close(const std::string& what, const std::vector<double>& got, const std::vector<double>& ref) {
  ASSERT_EQ(got.size(), ref.size()) << what;
  double scale = 0;
  for (double r : ref) scale = std::isfinite(r) ? std::max(scale, std::fabs(r)) : scale;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(ref[i])) {
      EXPECT_EQ(got[i], ref[i]) << what << " element " << i;
      continue;
    }
    ASSERT_LE(std::fabs(got[i] - ref[i]), 1e-9 * std::max(std::fabs(ref[i]), 1e-3 * scale))
        << what << " element " << i << ": " << got[i] << " against " << ref[i];
  }
}

/// Checks the spec at `path` against its task on every small case; false when its family is not covered.
bool cross_check(const fs::path& path) {
  const std::string stem = path.stem().string();
  SourceFile src(path.filename().string(), *read_file(path.string()));
  Compilation c = compile_spec(src, StopAfter::lower);
  if (!c.memop) {
    ADD_FAILURE() << stem << " does not lower";
    return true;
  }
  const MemOpConfig& m = *c.memop;
  if (!memop_reference_unsupported(m).empty()) return false;
  const mskb::Task* task = mskb::find_task(stem);
  if (!task) {
    ADD_FAILURE() << stem << " names no MSKB task";
    return true;
  }
  const bool bf16 = stem.size() > 5 && stem.substr(stem.size() - 5) == "_bf16";
  const mskb::Signature sig = mskb::task_signature(*task, bf16 ? mskb::Precision::bf16 : mskb::Precision::fp32);
  const mskb::Signature fp32 = mskb::task_signature(*task, mskb::Precision::fp32);
  DiagEngine diags;
  auto binding = interop::mskb_parameter_binding(m, sig, fp32, diags);
  if (!binding) {
    ADD_FAILURE() << stem << " does not bind to its launcher";
    return true;
  }
  auto task_name = [&](const std::string& spec_name) { return fp32.params[binding->at(spec_name)].name; };
  std::vector<std::string> names;
  for (const mskb::Param& p : fp32.params) names.push_back(p.name);
  std::mt19937_64 rng(20261207);
  for (const mskb::Case& size : small_cases(*task)) {
    mskb::Instance in = task->generate(size, rng);
    mskb::round_instance(in, sig, names);
    const mskb::Outputs want = task->reference(in);
    MemOpHostArgs args;
    for (const CallerTensor& t : m.caller_inputs()) args.inputs.push_back(in.array(task_name(t.name)));
    for (const ScalarDecl& s : m.scalars) args.scalars.push_back(in.scalar(task_name(s.name.value)));
    for (const std::string& e : m.extent_symbols()) args.extents.push_back(int64_t(in.scalar(task_name(e))));
    MemOpReference got = memop_reference(m, args, OutputRounding::none);
    if (!got.ok()) {
      ADD_FAILURE() << stem << " " << size.label() << ": " << got.error;
      continue;
    }
    const std::vector<const TensorDecl*> outs = m.outputs();
    for (size_t o = 0; o < outs.size(); ++o)
      expect_close(stem + " " + size.label() + " " + outs[o]->name.value, got.outputs[o],
                   want.at(task_name(outs[o]->name.value)));
  }
  return true;
}

TEST(MemopReferenceMskb, AgreesWithEveryCoveredExampleTaskReference) {
  std::set<std::string> skipped, checked;
  for (const auto& entry : fs::directory_iterator(fs::path(test_paths::source_dir()) / "examples" / "mskb")) {
    if (entry.path().extension() != ".ucut") continue;
    (cross_check(entry.path()) ? checked : skipped).insert(entry.path().stem().string());
  }
  // Library calls and sparse kernels: MSKB's task references verify them, the family reference does not.
  std::set<std::string> expected_skips;
  for (const char* task : {"FFT", "sorting", "top_k", "softmax_attention", "spmm_coo", "spmm_csc", "spmm_csr", "spmm_ell", "spmv_coo",
                           "spmv_csc", "spmv_csr", "spmv_ell"}) {
    expected_skips.insert(task);
    expected_skips.insert(std::string(task) + "_bf16");
  }
  EXPECT_EQ(skipped, expected_skips);
  EXPECT_EQ(checked.size(), 64u);  // 32 tasks of map, reduce, rownorm, scan and window, FP32 and BF16
}

}  // namespace
}  // namespace ucut
