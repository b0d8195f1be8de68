// mskb/task.h — one MSKB task (MSKernelBench, arXiv 2603.07169): its C launcher in both precisions, the size cases
// MSKB sweeps with its complexity T(N), its tolerance, how to make seeded inputs, and an FP64 reference on the CPU.
// The tasks themselves live in mskb/tasks/<category>.cpp; suites/mskb/ holds their naive and vendor launchers.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ucut::mskb {

enum class Precision { fp32, bf16 };
const char* precision_name(Precision p);  // "fp32" | "bf16"

/// One size case: named integer sizes in MSKB's order, e.g. {{"M", 64}, {"K", 4096}, {"N", 2048}}.
struct Case {
  std::vector<std::pair<std::string, int64_t>> sizes;
  /// The size called `name`; throws std::out_of_range naming it when the case has none.
  int64_t at(const std::string& name) const;
  /// "M=64 K=4096 N=2048".
  std::string label() const;
};

/// The cartesian product of per-name value lists, first name slowest: sweep({{"M", {1, 2}}, {"N", {3}}}).
std::vector<Case> sweep(const std::vector<std::pair<std::string, std::vector<int64_t>>>& axes);

/// Host values of one case's launcher arguments, by parameter name (the names of the FP32 signature; the BF16
/// launcher's differently named parameters are matched by position). Every pointer parameter has an array: inputs
/// filled, outputs sized (their initial contents are what the launcher finds, e.g. the data `sorting` sorts in
/// place). Every non-pointer parameter has a scalar. Values are doubles; the harness rounds them to each
/// parameter's C type (float, __nv_bfloat16, int) before the reference sees them.
struct Instance {
  std::map<std::string, std::vector<double>> arrays;
  std::map<std::string, double> scalars;
  const std::vector<double>& array(const std::string& name) const;  // throws std::out_of_range naming it
  double scalar(const std::string& name) const;                     // likewise
};

/// Reference outputs by parameter name (only the task's `outputs`).
using Outputs = std::map<std::string, std::vector<double>>;

/// MSKB's correctness rule: |x - ref| < value (absolute) or |x - ref| < value·|ref| (relative). The harness adds
/// the output type's rounding (mskb/check.h), since MSKB compares against its own naive kernel, not an exact value.
struct Tolerance {
  enum class Kind { absolute, relative };
  Kind kind = Kind::absolute;
  double value = 1e-2;
};

/// The least work a case needs, for the speed-of-light bound: floating-point operations and the bytes that must
/// move to or from DRAM when every array element is `element_bytes` wide (4 FP32, 2 BF16; index arrays 4).
struct Work {
  double flops = 0;
  double bytes = 0;
};

/// A task's custom comparison, for outputs with more than one right answer (top_k's indices among equal values).
/// Returns "" when `got` is right, else what is wrong, naming the first bad element.
using Checker = std::function<std::string(const Instance& in, const Outputs& got, const Outputs& ref)>;

struct Task {
  std::string name;       // MSKB's task name and FP32 launcher name, e.g. "matrix_mul"; BF16 adds "_bf16"
  std::string category;   // Dense LA | Sparse | Normalization | Activation | LLM Operator | Loss | Tensor Process |
                          // Stencil | Math & Alg
  std::string signature_fp32;  // MSKB's declaration, verbatim: "void matrix_mul(const float* A, ..., int K)"
  std::string signature_bf16;
  std::vector<Case> cases;     // MSKB's sweep, in its order
  std::function<double(const Case&)> complexity;  // T(N) as MSKB prints it (weights the score)
  Tolerance tolerance;
  std::vector<std::string> outputs;  // the pointer parameters the launcher writes (FP32 names)
  /// MSKB's calling convention: the outputs its test program zeroes before every call (the scalar accumulators and
  /// the atomically accumulated sparse products; each task cites its test program). The harness zeroes them before
  /// every call it makes and NaN-poisons every other output; "" entries are not allowed. Empty: nothing is zeroed.
  std::vector<std::string> zeroed_outputs;
  std::string vendor;  // the library behind suites/mskb/vendor/<task>.cu, e.g. "cuBLAS SGEMM"; "" for none
  /// Seeded inputs (MSKB's distributions) for `c`; deterministic for a given engine state.
  std::function<Instance(const Case& c, std::mt19937_64& rng)> generate;
  /// The exact result in FP64 from `in` (already rounded to the launcher's types).
  std::function<Outputs(const Instance& in)> reference;
  /// Least flops and bytes of `c` (mskb/task.h Work).
  std::function<Work(const Case& c, int element_bytes)> work;
  Checker check;  // optional: replaces the element-wise comparison
  /// The CPU reference's cost in operations; above the harness's limit a case is judged against the vendor
  /// launcher's output instead (itself checked against the CPU on the smaller cases). Defaults to complexity.
  std::function<double(const Case&)> reference_cost;
};

/// Every task, in MSKB's table order (facts: peers.md §2.1).
const std::vector<Task>& all_tasks();
/// The task called `name` (FP32 or BF16 launcher name: "RELU" or "RELU_bf16"), or nullptr.
const Task* find_task(const std::string& name);

// One function per category file (mskb/tasks/*.cpp) appends its tasks.
void add_dense_la_tasks(std::vector<Task>& out);
void add_sparse_tasks(std::vector<Task>& out);
void add_normalization_tasks(std::vector<Task>& out);
void add_activation_tasks(std::vector<Task>& out);
void add_llm_tasks(std::vector<Task>& out);
void add_loss_tasks(std::vector<Task>& out);
void add_tensor_tasks(std::vector<Task>& out);
void add_stencil_tasks(std::vector<Task>& out);
void add_math_tasks(std::vector<Task>& out);

}  // namespace ucut::mskb
