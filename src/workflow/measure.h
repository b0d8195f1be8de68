// workflow/measure.h — `ucutlass run` end to end: compile the spec → check it computes the problem → build
// (cache) → SOL bounds → the GPU worker (verify, time, cuBLAS) → integrity flags. Each step that needs no GPU
// runs everywhere; the report says where it stopped and why.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "build/cache.h"
#include "compiler/pipeline.h"
#include "eval/integrity.h"
#include "eval/protocol.h"
#include "problem/problem.h"
#include "sol/roofline.h"
#include "support/enum_json.h"
#include "support/progress.h"
#include "support/source.h"

namespace ucut {

struct MeasureOptions {
  std::string cutlass_dir;                // "" = find_toolchain's search
  std::string cache_dir = default_cache_dir();
  std::string worker;                     // "" = find_worker()
  int jobs = default_build_jobs();
  int trials = 100, warmup = 10, input_sets = 3;
  uint64_t seed = 20261130;
  bool framework_inputs = false;          // draw operands as the problem's framework does (Problem::framework_inputs)
  bool time_cublas = true;
  std::optional<Reference> reference;     // unset: the problem's
  std::string gpu = "h200";               // SOL target until the worker names the real GPU
  std::optional<double> clock_mhz;
  double seconds_per_shape = 240;
};

struct ShapeReport {
  ShapeResult result;
  sol::ShapeSol sol;
  std::vector<IntegrityFlag> flags;
  bool counts = false;      // verified and no disqualifying flag
  double tflops = 0;        // GEMM FLOPs / median event time
  double pct_sol_tf32 = 0;  // t_SOL / t: 100 = at the bound
  double pct_sol_fp16 = 0;
  double vs_cublas = 0;     // t_cublas / t: above 1 is faster than cuBLAS (grouped GEMMs: a call per problem)
  double vs_cublas_grouped = 0;  // grouped GEMMs: t_cublasGemmGroupedBatchedEx / t
};

/// The step of measuring (or profiling) that stopped it; none when every step ran.
enum class MeasureStep { none, check, problem, build, gpu };

constexpr auto enum_names(MeasureStep) {
  using S = MeasureStep;
  return name_table<S>(
      "measure step",
      {{S::none, ""}, {S::check, "check"}, {S::problem, "problem"}, {S::build, "build"}, {S::gpu, "gpu"}});
}
UCUT_ENUM_JSON(MeasureStep)

struct MeasureReport {
  std::string kernel_name, problem_name, config_hash;
  MeasureStep stopped_at = MeasureStep::none;
  std::string message;      // why it stopped, for people
  BuildResult build;
  bool precision_change =
      false;  // the label: measured where the shapes were (eval/precision.h), else declared
  bool precision_declared = false;  // what the kernel's config (a library's) or the compiler (a spec) says
  PrecisionClass measured_precision = PrecisionClass::unmeasured;  // the narrowest class its shapes measured
  Tolerance tolerance;      // the problem's
  Reference reference = Reference::automatic;  // the requested reference kind
  uint64_t seed = 0;
  InputDraws inputs;        // how the operands were drawn
  WorkerResponse worker;
  sol::SolReport sol;
  std::vector<ShapeReport> shapes;
  // A raw candidate's static checks (a prebuilt library's imports, its sources' library calls): raised before
  // it runs, GPU or not, and part of every shape's flags.
  std::vector<IntegrityFlag> candidate_flags;
};

/// Builds every spec of `specs` that checks into the build cache at once (opts.jobs nvcc processes in
/// parallel), so that measuring or profiling them one by one afterwards finds them built; a spec that does
/// not check or build is left for that step to report. Returns how many kernels were built or found in the
/// cache. `progress`, when given, counts the builds by spec file name.
int prebuild_specs(const std::vector<SourceFile>& specs, const MeasureOptions& opts,
                   Progress* progress = nullptr);

/// The draws the worker uses on `problem`: its framework's with opts.framework_inputs, else signed.
InputDraws request_inputs(const Problem& problem, const MeasureOptions& opts);

/// Runs every step it can. Diagnostics from the spec are rendered into `message` when check fails.
MeasureReport measure_spec(const SourceFile& spec, const Problem& problem, const MeasureOptions& opts);

/// The steps of measure_spec that need no GPU, on `c` (compile_spec(spec)): check, the problem match, SOL
/// bounds at opts.gpu, the build (cache). `stopped_at` is check, problem or build when one of them stopped
/// it, else none.
MeasureReport prepare_spec(const SourceFile& spec, const Compilation& c, const Problem& problem,
                           const MeasureOptions& opts);

/// The problem's SOL report on `gpu` (a data/gpus.toml key; with `by_device_name` a CUDA device name) at the precision
/// of `kernel` (a pipeline problem: at its first stage's). Empty (no gpu_key) with `note` when there is no data.
sol::SolReport problem_sol(const std::string& gpu, bool by_device_name, const KernelConfig& kernel,
                           const Problem& problem, const MeasureOptions& opts, std::string* note);

/// A raw candidate's source file, read by the caller.
struct CandidateSource {
  std::string path, text;
};

/// Measures a prebuilt kernel library (any code exporting ucut_entry, e.g. a hand-written or agent-written
/// kernel): the worker checks its declared operands and slots against the problem; SOL and integrity as
/// above. Before it runs, its ELF imports (eval/library_imports.h) and `sources` (eval/library_calls.h) are
/// checked for a hand-off to a vendor library; a file that is not a readable shared library stops it at the
/// build step.
MeasureReport measure_library(const std::string& library, const std::vector<CandidateSource>& sources,
                              const Problem& problem, const MeasureOptions& opts);

/// Why nothing can be timed on this machine, as the worker says it (no usable CUDA GPU, no worker installed);
/// "" when the worker named a GPU. One worker start in probe mode: nothing is compiled or run on the GPU.
std::string no_gpu_reason(const MeasureOptions& opts);

nlohmann::json report_json(const MeasureReport& r);
/// One table: per shape time, TFLOP/s, % of SOL (TF32 and FP16 bounds), cuBLAS, ratio, correctness, flags; a
/// grouped GEMM's shape also gets a line with its problem count, total GFLOP and both cuBLAS baselines; a shape
/// with more outputs than D (aux_store tensors, reduction vectors) a line with each output's verification.
std::string report_text(const MeasureReport& r);

}  // namespace ucut
