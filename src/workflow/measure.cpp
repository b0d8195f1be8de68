// workflow/measure.cpp — see measure.h.
#include "workflow/measure.h"

#include <fmt/format.h>

#include <filesystem>

#include "check/shape_rules.h"
#include "compiler/build_errors.h"
#include "compiler/pipeline.h"
#include "eval/library_calls.h"
#include "eval/library_imports.h"
#include "eval/runner.h"
#include "ir/canonical.h"
#include "problem/grouped_layout.h"
#include "problem/match.h"
#include "support/diag_render.h"

namespace ucut {

sol::SolReport problem_sol(const std::string& gpu_key_or_name, bool by_device_name, const KernelConfig& kernel,
                           const Problem& problem, const MeasureOptions& opts, std::string* note) {
  std::string error;
  auto table = sol::load_default_gpu_table(&error);
  if (!table) {
    *note = error;
    return {};
  }
  const sol::GpuSpec* gpu = by_device_name ? table->find_device(gpu_key_or_name) : table->find(gpu_key_or_name);
  if (!gpu) {
    *note = fmt::format("no SOL data for GPU `{}` in {}", gpu_key_or_name, table->path);
    return {};
  }
  sol::SolOptions so;
  so.clock_mhz = opts.clock_mhz;
  so.calibration = sol::find_calibration(*table, *gpu, sol::default_state_dir());
  sol::SolReport r;
  if (problem.pipeline) {
    r = sol::sol_report(*gpu, *problem.pipeline, problem.shapes, so);
  } else {
    so.precision = sol::kernel_precision(kernel);
    r = sol::sol_report(*gpu, problem.semantics, problem.shapes, so);
  }
  r.problem = problem.name;
  return r;
}

namespace {

/// The physical floor for integrity: the FP16 bound, or the kernel precision's if that is faster (FP8).
double floor_ms(const sol::ShapeSol& s) {
  double best = 0;
  for (const sol::BoundPair* p : {&s.fp16, &s.kernel})
    if (p->peak) best = best == 0 ? p->peak->t_sol_s() : std::min(best, p->peak->t_sol_s());
  return best * 1e3;
}

/// The GPU part shared by specs and prebuilt libraries: worker, SOL on the real GPU, flags and ratios.
/// `kernel` or `pipeline`: the compiled spec, when there is one (a prebuilt library has neither).
void measure_on_gpu(MeasureReport& r, const std::string& library, const KernelConfig* kernel,
                    const PipelineConfig* pipeline, const Problem& problem, const MeasureOptions& opts) {
  const KernelConfig& sol_kernel = kernel ? *kernel : problem.semantics;
  std::string note;
  r.sol = problem_sol(opts.gpu, false, sol_kernel, problem, opts, &note);
  WorkerRequest req;
  req.kernel_path = library;
  req.problem = problem.pipeline ? canonical_pipeline(*problem.pipeline) : canonical_config(problem.semantics);
  req.shapes = problem.shapes;
  req.pipeline_source = problem.pipeline_text;
  req.tolerance = problem.tolerance;
  req.reference = opts.reference.value_or(problem.reference);
  req.seed = opts.seed;
  req.input_sets = opts.input_sets;
  req.inputs = request_inputs(problem, opts);
  req.warmup = opts.warmup;
  req.trials = opts.trials;
  req.time_cublas = opts.time_cublas;
  r.tolerance = req.tolerance;
  r.reference = req.reference;
  r.seed = req.seed;
  r.inputs = req.inputs;
  RunnerOptions ro;
  ro.worker = opts.worker.empty() ? find_worker() : opts.worker;
  ro.seconds_per_shape = opts.seconds_per_shape;
  r.worker = run_worker(req, ro);
  if (!r.worker.fatal_error.empty() && r.worker.shapes.empty()) {
    r.stopped_at = MeasureStep::gpu;
    r.message = r.worker.fatal_error;
    return;
  }
  if (!kernel && !pipeline) {
    r.kernel_name = r.worker.kernel_name;
    const nlohmann::json& kc = r.worker.kernel_config;
    auto narrowed = [&](const char* operand) {  // a kernel's `from(T)` to fewer bits (problem/match.h)
      if (!kc.contains(operand) || !kc[operand].contains("from")) return false;
      auto from = find_dtype(kc[operand].value("from", "")), to = find_dtype(kc[operand].value("dtype", ""));
      return from && to && dtype_bits(*to) < dtype_bits(*from);
    };
    r.precision_declared =
        narrowed("A") || narrowed("B") ||
        (problem.semantics.math.value == MathMode::native && problem.semantics.a.dtype.value == DType::f32 &&
         kc.value("math", "native") == "tf32");
  }
  // The label from the outputs (eval/precision.h): a library's declaration is a claim, our compiler's a fact.
  std::vector<PrecisionClass> measured;
  for (const ShapeResult& x : r.worker.shapes) measured.push_back(x.integrity.measured_precision);
  PrecisionDecision precision = decide_precision_change(
      measured, stated_precision(problem.semantics.a.dtype.value, problem.semantics.math.value),
      r.precision_declared, kernel || pipeline);
  r.precision_change = precision.label;
  r.measured_precision = precision.narrowest;
  if (!r.worker.gpu_name.empty()) {
    sol::SolReport measured_on = problem_sol(r.worker.gpu_name, true, sol_kernel, problem, opts, &note);
    if (!measured_on.gpu_key.empty()) r.sol = measured_on;
  }
  for (size_t i = 0; i < r.worker.shapes.size(); ++i) {
    ShapeReport s;
    s.result = r.worker.shapes[i];
    if (s.result.status == ShapeStatus::cannot_implement) {
      auto why = kernel ? shape_violation(*kernel, s.result.shape)
                 : pipeline ? shape_violation(*pipeline, s.result.shape)
                            : std::nullopt;
      if (why) s.result.error += fmt::format(" — {} ({}): {}", why->message, rule_info(why->rule).code, why->hint->text);
    }
    if (i < r.sol.shapes.size()) s.sol = r.sol.shapes[i];
    IntegrityContext ictx{floor_ms(s.sol), r.precision_change, precision.reason};
    s.flags = integrity_flags(s.result, ictx);
    s.flags.insert(s.flags.end(), r.candidate_flags.begin(), r.candidate_flags.end());
    s.counts = counts(s.flags);
    double t = s.result.candidate.event_ms.median;
    if (s.result.candidate.measured && t > 0) {
      s.tflops = s.sol.work.gemm_flops / (t * 1e-3) / 1e12;
      if (s.sol.tf32.peak) s.pct_sol_tf32 = 100.0 * s.sol.tf32.peak->t_sol_s() * 1e3 / t;
      if (s.sol.fp16.peak) s.pct_sol_fp16 = 100.0 * s.sol.fp16.peak->t_sol_s() * 1e3 / t;
      if (s.result.cublas.measured) s.vs_cublas = s.result.cublas.event_ms.median / t;
      if (s.result.cublas_grouped.measured) s.vs_cublas_grouped = s.result.cublas_grouped.event_ms.median / t;
    }
    r.shapes.push_back(std::move(s));
  }
  if (!r.worker.fatal_error.empty()) r.message = r.worker.fatal_error;
}

}  // namespace

int prebuild_specs(const std::vector<SourceFile>& specs, const MeasureOptions& opts, Progress* progress) {
  std::string error;
  auto tc = find_toolchain(opts.cutlass_dir, &error);
  if (!tc) return 0;
  std::vector<EmittedKernel> kernels;
  std::vector<std::string> names;
  for (const SourceFile& spec : specs)
    if (Compilation c = compile_spec(spec); c.ok()) {
      kernels.push_back(*c.kernel);
      names.push_back(std::filesystem::path(spec.name()).filename().string());
    }
  int built = 0;
  KernelCache cache(opts.cache_dir, *tc);
  for (const BuildResult& r : cache.build_all(kernels, opts.jobs, kBuildTimeoutSeconds, progress, names))
    built += r.ok;
  return built;
}

InputDraws request_inputs(const Problem& problem, const MeasureOptions& opts) {
  return opts.framework_inputs ? problem.framework_inputs : InputDraws{};
}

MeasureReport measure_spec(const SourceFile& spec, const Problem& problem, const MeasureOptions& opts) {
  Compilation c = compile_spec(spec);
  MeasureReport r = prepare_spec(spec, c, problem, opts);
  if (r.stopped_at == MeasureStep::none)
    measure_on_gpu(r, r.build.library, c.config ? &*c.config : nullptr, c.pipeline ? &*c.pipeline : nullptr, problem,
                   opts);
  return r;
}

MeasureReport prepare_spec(const SourceFile& spec, const Compilation& c, const Problem& problem,
                           const MeasureOptions& opts) {
  MeasureReport r;
  r.problem_name = problem.name;
  if (!c.ok()) {
    r.stopped_at = MeasureStep::check;
    r.message = render_text(spec, c.diags.diagnostics());
    return r;
  }
  if (c.memop) {
    r.kernel_name = c.memop->name.value;
    r.stopped_at = MeasureStep::problem;
    r.message = fmt::format(
        "{} is a `{}` kernel, and the harness runs GEMM, convolution and pipeline kernels: measure "
        "it as an MSKB launcher (`ucutlass export --mskb TASK {}`, then `ucutlass bench mskb "
        "--impl DIR --task TASK`)",
        spec.name(), op_name(c.memop->op.value), spec.name());
    return r;
  }
  const KernelConfig* kernel = c.config ? &*c.config : nullptr;
  const PipelineConfig* pipeline = c.pipeline ? &*c.pipeline : nullptr;
  r.kernel_name = kernel ? kernel->name.value : pipeline->name.value;
  r.config_hash = c.kernel->config_hash;
  if (auto why = kernel ? semantic_mismatch(problem, *kernel) : pipeline_mismatch(problem, *pipeline)) {
    r.stopped_at = MeasureStep::problem;
    r.message = fmt::format("{} does not compute problem `{}`: {}", spec.name(), problem.name, *why);
    return r;
  }
  r.precision_declared = kernel ? precision_change(problem, *kernel) : precision_change(problem, *pipeline);
  r.precision_change = r.precision_declared;  // until the GPU measures it (measure_on_gpu)
  std::string note;
  r.sol = problem_sol(opts.gpu, false, kernel ? *kernel : problem.semantics, problem, opts, &note);
  std::string error;
  auto tc = find_toolchain(opts.cutlass_dir, &error);
  if (!tc) {
    r.stopped_at = MeasureStep::build;
    r.message = "cannot build the kernel: " + error;
    return r;
  }
  KernelCache cache(opts.cache_dir, *tc);
  r.build = cache.build(*c.kernel);
  if (!r.build.ok) {
    r.stopped_at = MeasureStep::build;
    r.message = render_build_failure(spec, c, r.build);
  }
  return r;
}

std::string no_gpu_reason(const MeasureOptions& opts) {
  WorkerRequest req;
  req.mode = WorkerMode::probe;
  RunnerOptions ro;
  ro.worker = opts.worker.empty() ? find_worker() : opts.worker;
  ro.seconds_per_shape = opts.seconds_per_shape;
  WorkerResponse r = run_worker(req, ro);
  if (!r.gpu_name.empty()) return "";
  return r.fatal_error.empty() ? "the worker named no GPU" : r.fatal_error;
}

MeasureReport measure_library(const std::string& library, const std::vector<CandidateSource>& sources,
                              const Problem& problem, const MeasureOptions& opts) {
  MeasureReport r;
  r.problem_name = problem.name;
  r.build.ok = true;
  r.build.cached = true;
  r.build.library = library;
  std::string error;
  std::optional<ElfImports> imports = read_elf_imports(library, &error);
  if (!imports) {
    r.build.ok = false;
    r.stopped_at = MeasureStep::build;
    r.message = "cannot check the library's imports: " + error;
    return r;
  }
  r.candidate_flags = library_import_flags(*imports);
  for (const CandidateSource& src : sources)
    for (IntegrityFlag& f : library_call_flags(scan_source(src.text, language_of(src.path)))) {
      f.reason = fmt::format("{}: {}", src.path, f.reason);
      r.candidate_flags.push_back(std::move(f));
    }
  measure_on_gpu(r, library, nullptr, nullptr, problem, opts);
  return r;
}

namespace {

nlohmann::json flags_json(const std::vector<IntegrityFlag>& flags) {
  nlohmann::json j = nlohmann::json::array();
  for (const IntegrityFlag& f : flags)
    j.push_back({{"id", f.id}, {"reason", f.reason}, {"disqualifies", disqualifies(f.id)}});
  return j;
}

}  // namespace

nlohmann::json report_json(const MeasureReport& r) {
  nlohmann::json shapes = nlohmann::json::array();
  for (const ShapeReport& s : r.shapes) {
    nlohmann::json flags = flags_json(s.flags);
    shapes.push_back({{"result", s.result},
                      {"sol", {{"work", sol::work_json(s.sol.work)},
                               {"tf32_s", s.sol.tf32.peak ? s.sol.tf32.peak->t_sol_s() : 0},
                               {"fp16_s", s.sol.fp16.peak ? s.sol.fp16.peak->t_sol_s() : 0},
                               {"kernel_s", s.sol.kernel.peak ? s.sol.kernel.peak->t_sol_s() : 0}}},
                      {"flags", flags},
                      {"counts", s.counts},
                      {"tflops", s.tflops},
                      {"pct_sol_tf32", s.pct_sol_tf32},
                      {"pct_sol_fp16", s.pct_sol_fp16},
                      {"vs_cublas", s.vs_cublas},
                      {"vs_cublas_grouped", s.vs_cublas_grouped}});
  }
  nlohmann::json worker = r.worker;
  worker.erase("shapes");
  return {{"kernel", r.kernel_name},
          {"problem", r.problem_name},
          {"config_hash", r.config_hash},
          {"stopped_at", r.stopped_at},
          {"message", r.message},
          {"build",
           {{"ok", r.build.ok},
            {"cached", r.build.cached},
            {"library", r.build.library},
            {"seconds", r.build.seconds},
            {"key", r.build.key}}},
          {"precision_change", r.precision_change},
          {"precision_declared", r.precision_declared},
          {"measured_precision", r.measured_precision},
          {"tolerance", {{"atol", r.tolerance.atol}, {"rtol", r.tolerance.rtol}}},
          {"reference", enum_name(r.reference)},
          {"seed", r.seed},
          {"inputs", r.inputs.text()},
          {"environment", worker},
          {"sol", r.sol.gpu_key.empty() ? nlohmann::json(nullptr) : sol::sol_json(r.sol)},
          {"shapes", shapes},
          {"candidate_flags", flags_json(r.candidate_flags)}};
}

namespace {

std::string gemm_extents(const GemmShape& x) {
  return fmt::format("{}x{}x{}{}", x.m, x.n, x.k, x.batch > 1 ? fmt::format("x{}", x.batch) : "");
}

/// A shape in the table: MxNxK[xL]; a grouped GEMM's problem count and total GFLOP; a pipeline's stage count and
/// total GFLOP (its stages' extents follow on a line of their own).
std::string shape_name(const ShapeReport& s) {
  const GemmShape& x = s.result.shape;
  if (x.is_grouped()) return fmt::format("grouped {}x {:.1f}GF", x.groups.size(), s.sol.work.gemm_flops / 1e9);
  if (x.is_pipeline()) return fmt::format("{} stages {:.1f}GF", x.stages.size(), s.sol.work.gemm_flops / 1e9);
  return gemm_extents(x);
}

/// A pipeline's stages, each MxNxK[xL], in order.
std::string pipeline_line(const ShapeReport& s) {
  std::string stages;
  for (const GemmShape& g : s.result.shape.stages) stages += (stages.empty() ? "" : " > ") + gemm_extents(g);
  return fmt::format("  {}{}: {}\n", shape_name(s), s.result.shape.label.empty() ? "" : " (" + s.result.shape.label + ")",
                     stages);
}

/// "0.1234 ms (ours 1.05x)", or why the baseline has no time.
std::string baseline_text(const TimingResult& t, double ratio, const std::string& error) {
  if (t.measured) return fmt::format("{:.4f} ms (ours {:.3f}x)", t.event_ms.median, ratio);
  return error.empty() ? "not run" : "not run: " + error;
}

/// A grouped GEMM's problems, total work and both cuBLAS baselines (the table's cuBLAS column is the loop).
std::string grouped_line(const ShapeReport& s) {
  const ShapeResult& x = s.result;
  return fmt::format("  {}{}: {}, {:.2f} GFLOP; cuBLAS loop {}; cuBLAS grouped {}\n", shape_name(s),
                     x.shape.label.empty() ? "" : " (" + x.shape.label + ")", grouped_shape_text(x.shape.groups),
                     s.sol.work.gemm_flops / 1e9, baseline_text(x.cublas, s.vs_cublas, x.cublas_error),
                     baseline_text(x.cublas_grouped, s.vs_cublas_grouped, x.cublas_grouped_error));
}

/// Each output's verification when a shape has more than D (aux_store tensors, reduction vectors): which one is
/// off, by how much.
std::string outputs_line(const ShapeReport& s) {
  const ShapeResult& x = s.result;
  std::string o;
  for (const OutputCheck& c : x.outputs)
    o += fmt::format(
        "{}{} ({}) {} max_rel {:.2e} rel_l2 {:.2e}{}", o.empty() ? "" : "; ", c.name, epi_info(c.stage).name,
        c.verify.pass ? "pass" : "FAIL", c.verify.max_rel_err, c.verify.rel_l2,
        c.verify.pass ? ""
                      : fmt::format(" ({} of {} outside tolerance)", c.verify.mismatches, c.verify.checked));
  return fmt::format("  {}{} outputs: {}\n", shape_name(s), x.shape.label.empty() ? "" : " (" + x.shape.label + ")", o);
}

/// The precision a shape's outputs showed (eval/precision.h), or why it was not measured.
std::string precision_line(const ShapeReport& s) {
  const IntegrityResult& x = s.result.integrity;
  std::string label = s.result.shape.label.empty() ? "" : " (" + s.result.shape.label + ")";
  if (x.measured_precision == PrecisionClass::unmeasured)
    return fmt::format("  {}{} precision: not measured{}\n", shape_name(s), label,
                       x.precision_note.empty() ? "" : ": " + x.precision_note);
  return fmt::format(
      "  {}{} precision: measured {} (normalized error worst {:.2e}, rms {:.2e}, tiny columns rms {:.2e})\n",
      shape_name(s), label, enum_name(x.measured_precision), x.precision_error, x.precision_rms,
      x.precision_wide_rms);
}

}  // namespace

std::string report_text(const MeasureReport& r) {
  std::string o;
  if (!r.kernel_name.empty())
    o += fmt::format("kernel {} ({}) on problem {}\n", r.kernel_name, r.config_hash.substr(0, 16), r.problem_name);
  if (!r.worker.gpu_name.empty())
    o += fmt::format("GPU {} ({} SMs), driver {}, CUDA runtime {}, cuBLAS {}\n", r.worker.gpu_name, r.worker.sm_count,
                     r.worker.driver_version, r.worker.runtime_version, r.worker.cublas_version);
  if (r.build.ok)
    o += fmt::format("build {} ({})\n", r.build.library,
                     r.build.cached ? "cached" : fmt::format("nvcc {:.0f} s", r.build.seconds));
  if (r.shapes.empty() && !r.sol.shapes.empty()) o += sol::render_sol_text(r.sol);
  if (!r.shapes.empty() && !r.inputs.all_signed()) o += fmt::format("inputs drawn as the framework does: {}\n", r.inputs.text());
  if (!r.shapes.empty()) {
    o += fmt::format("{:<22} {:>7} {:>10} {:>9} {:>8} {:>6} {:>6} {:>9} {:>6}  {}\n", "shape (MxNxK[xL])", "verify",
                     "max_rel", "ms", "TFLOP/s", "%tf32", "%fp16", "cuBLAS", "ratio", "flags");
    for (const ShapeReport& s : r.shapes) {
      const ShapeResult& x = s.result;
      std::string shape = shape_name(s);
      std::string flags;
      for (const IntegrityFlag& f : s.flags)
        flags += (flags.empty() ? "" : ",") + std::string(enum_name(f.id));
      if (x.status != ShapeStatus::ok) {
        o += fmt::format("{:<22} {:>7}  {}\n", shape, enum_name(x.status), x.error);
        continue;
      }
      o += fmt::format("{:<22} {:>7} {:>10.2e} {:>9.4f} {:>8.1f} {:>6.1f} {:>6.1f} {:>9.4f} {:>6.3f}  {}\n", shape,
                       x.verify.pass ? "pass" : "FAIL", x.verify.max_rel_err, x.candidate.event_ms.median, s.tflops,
                       s.pct_sol_tf32, s.pct_sol_fp16, x.cublas.measured ? x.cublas.event_ms.median : 0.0,
                       s.vs_cublas, flags.empty() ? "-" : flags);
    }
    for (const ShapeReport& s : r.shapes)
      if (s.result.shape.is_grouped() && s.result.status == ShapeStatus::ok) o += grouped_line(s);
    for (const ShapeReport& s : r.shapes)
      if (s.result.shape.is_pipeline()) o += pipeline_line(s);
    for (const ShapeReport& s : r.shapes)
      if (s.result.outputs.size() > 1 && s.result.status == ShapeStatus::ok) o += outputs_line(s);
    for (const ShapeReport& s : r.shapes)
      if (s.result.status == ShapeStatus::ok && !r.kernel_name.empty()) o += precision_line(s);
    if (!r.kernel_name.empty())
      o += fmt::format("precision_change: {} (declared: {})\n", r.precision_change ? "yes" : "no",
                       r.precision_declared ? "yes" : "no");
    if (!r.shapes.empty()) o += fmt::format("cuBLAS baseline: {}\n", r.shapes.front().result.cublas_kernel);
    if (!r.shapes.empty() && r.shapes.front().result.shape.is_grouped())
      o += fmt::format("cuBLAS grouped baseline: {}\n", r.shapes.front().result.cublas_grouped_kernel);
    for (const ShapeReport& s : r.shapes)
      for (size_t i = 0; i < s.flags.size() - std::min(s.flags.size(), r.candidate_flags.size()); ++i)
        o += fmt::format("  {}: {}: {}\n", shape_name(s), enum_name(s.flags[i].id), s.flags[i].reason);
  }
  for (const IntegrityFlag& f : r.candidate_flags)  // every shape's last flags: said once
    o += fmt::format("  candidate: {}: {}\n", enum_name(f.id), f.reason);
  if (!r.message.empty()) o += r.message + (r.message.back() == '\n' ? "" : "\n");
  return o;
}

}  // namespace ucut
