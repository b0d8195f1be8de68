// eval/protocol.cpp — JSON for the worker messages. Infinities and NaNs travel as strings ("inf"), since
// JSON has no such numbers and an unwritten output must not read back as a perfect 0 error.
#include "eval/protocol.h"

#include <cmath>
#include <stdexcept>

namespace ucut {
namespace {

nlohmann::json num(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

double num(const nlohmann::json& j) {
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    return NAN;
  }
  return j.get<double>();
}

EpiKind epilogue_from_name(const std::string& name) {
  if (auto k = find_epilogue(name)) return *k;
  throw std::runtime_error("unknown epilogue stage `" + name + "` in a worker message");
}

ConvKind conv_kind_from_name(const std::string& name) {
  if (auto k = find_conv_kind(name)) return *k;
  throw std::runtime_error("unknown convolution kind `" + name + "` in a worker message");
}

template <class T>
void get(const nlohmann::json& j, const char* key, T& out) {
  if (j.contains(key)) j.at(key).get_to(out);
}

void get_num(const nlohmann::json& j, const char* key, double& out) {
  if (j.contains(key)) out = num(j.at(key));
}

}  // namespace

void to_json(nlohmann::json& j, const GemmShape& v) {
  j = {{"m", v.m}, {"n", v.n}, {"k", v.k}, {"batch", v.batch}, {"label", v.label}};
  if (v.is_conv())
    j["conv"] = {{"dims", v.conv.dims},     {"kind", std::string(conv_kind_name(v.conv.kind))},
                 {"n", v.conv.n},           {"c", v.conv.c},
                 {"k", v.conv.k},           {"groups", v.conv.groups},
                 {"in", v.conv.in},         {"filter", v.conv.filter},
                 {"pad", v.conv.pad},       {"stride", v.conv.stride},
                 {"dilation", v.conv.dilation}};
  if (v.is_grouped()) {
    nlohmann::json groups = nlohmann::json::array();
    for (const GroupProblem& p : v.groups) groups.push_back({p.m, p.n, p.k});
    j["groups"] = std::move(groups);
  }
  if (v.is_pipeline()) {
    nlohmann::json stages = nlohmann::json::array();
    for (const GemmShape& s : v.stages) {
      nlohmann::json stage = s;  // a stage's GEMM extents, or its convolution's geometry
      stage.erase("label");
      stages.push_back(std::move(stage));
    }
    j["stages"] = std::move(stages);
  }
  if (!v.symbols.empty()) j["symbols"] = v.symbols;
  if (!v.scalars.empty()) j["scalars"] = v.scalars;
}
void from_json(const nlohmann::json& j, GemmShape& v) {
  get(j, "m", v.m);
  get(j, "n", v.n);
  get(j, "k", v.k);
  get(j, "batch", v.batch);
  get(j, "label", v.label);
  if (j.contains("conv")) {
    const nlohmann::json& c = j.at("conv");
    get(c, "dims", v.conv.dims);
    if (c.contains("kind")) v.conv.kind = conv_kind_from_name(c.at("kind").get<std::string>());
    get(c, "n", v.conv.n);
    get(c, "c", v.conv.c);
    get(c, "k", v.conv.k);
    get(c, "groups", v.conv.groups);
    for (auto [key, arr] : {std::pair{"in", &v.conv.in}, std::pair{"filter", &v.conv.filter},
                            std::pair{"pad", &v.conv.pad}, std::pair{"stride", &v.conv.stride},
                            std::pair{"dilation", &v.conv.dilation}})
      if (c.contains(key)) *arr = c.at(key).get<std::array<int64_t, 3>>();
  }
  v.groups.clear();
  if (j.contains("groups"))
    for (const nlohmann::json& p : j.at("groups")) {
      auto mnk = p.get<std::vector<int64_t>>();
      if (mnk.size() != 3) throw std::runtime_error("a grouped shape's problem is [m, n, k], not " + p.dump());
      v.groups.push_back({mnk[0], mnk[1], mnk[2]});
    }
  v.stages.clear();
  get(j, "stages", v.stages);
  v.symbols.clear();
  get(j, "symbols", v.symbols);
  v.scalars.clear();
  get(j, "scalars", v.scalars);
}

void to_json(nlohmann::json& j, const WorkerRequest& v) {
  j = {{"mode", v.mode},
       {"kernel_path", v.kernel_path},
       {"problem", v.problem},
       {"shapes", v.shapes},
       {"atol", v.tolerance.atol},
       {"rtol", v.tolerance.rtol},
       {"reference", v.reference},
       {"cpu_reference_max_macs", v.cpu_reference_max_macs},
       {"seed", v.seed},
       {"input_sets", v.input_sets},
       {"inputs", v.inputs.text()},
       {"warmup", v.warmup},
       {"trials", v.trials},
       {"flush_l2", v.flush_l2},
       {"time_cublas", v.time_cublas}};
  if (!v.pipeline_source.empty()) j["pipeline_source"] = v.pipeline_source;
}
void from_json(const nlohmann::json& j, WorkerRequest& v) {
  get(j, "mode", v.mode);
  get(j, "kernel_path", v.kernel_path);
  get(j, "problem", v.problem);
  get(j, "shapes", v.shapes);
  get_num(j, "atol", v.tolerance.atol);
  get_num(j, "rtol", v.tolerance.rtol);
  get(j, "reference", v.reference);
  get(j, "cpu_reference_max_macs", v.cpu_reference_max_macs);
  get(j, "seed", v.seed);
  get(j, "input_sets", v.input_sets);
  if (j.contains("inputs")) {
    std::string text = j.at("inputs").get<std::string>();
    auto draws = parse_input_draws(text);
    if (!draws) throw std::runtime_error("request `inputs` is not \"signed\" or \"a=D b=D c=D vectors=D\": " + text);
    v.inputs = *draws;
  }
  get(j, "warmup", v.warmup);
  get(j, "trials", v.trials);
  get(j, "flush_l2", v.flush_l2);
  get(j, "time_cublas", v.time_cublas);
  get(j, "pipeline_source", v.pipeline_source);
}

void to_json(nlohmann::json& j, const Stats& v) {
  j = {{"n", v.n},        {"median", num(v.median)}, {"mean", num(v.mean)}, {"stddev", num(v.stddev)},
       {"min", num(v.min)}, {"max", num(v.max)},     {"p10", num(v.p10)},   {"p90", num(v.p90)}};
}
void from_json(const nlohmann::json& j, Stats& v) {
  get(j, "n", v.n);
  get_num(j, "median", v.median);
  get_num(j, "mean", v.mean);
  get_num(j, "stddev", v.stddev);
  get_num(j, "min", v.min);
  get_num(j, "max", v.max);
  get_num(j, "p10", v.p10);
  get_num(j, "p90", v.p90);
}

void to_json(nlohmann::json& j, const Comparison& v) {
  j = {{"checked", v.checked},
       {"mismatches", v.mismatches},
       {"nonfinite", v.nonfinite},
       {"max_abs_err", num(v.max_abs_err)},
       {"max_rel_err", num(v.max_rel_err)},
       {"rel_l2", num(v.rel_l2)},
       {"worst_index", v.worst_index},
       {"worst_value", num(v.worst_value)},
       {"worst_reference", num(v.worst_reference)},
       {"pass", v.pass}};
}
void from_json(const nlohmann::json& j, Comparison& v) {
  get(j, "checked", v.checked);
  get(j, "mismatches", v.mismatches);
  get(j, "nonfinite", v.nonfinite);
  get_num(j, "max_abs_err", v.max_abs_err);
  get_num(j, "max_rel_err", v.max_rel_err);
  get_num(j, "rel_l2", v.rel_l2);
  get(j, "worst_index", v.worst_index);
  get_num(j, "worst_value", v.worst_value);
  get_num(j, "worst_reference", v.worst_reference);
  get(j, "pass", v.pass);
}

void to_json(nlohmann::json& j, const OutputCheck& v) {
  j = {{"name", v.name}, {"stage", std::string(epi_info(v.stage).name)}, {"verify", v.verify}};
}
void from_json(const nlohmann::json& j, OutputCheck& v) {
  get(j, "name", v.name);
  if (j.contains("stage")) v.stage = epilogue_from_name(j.at("stage").get<std::string>());
  get(j, "verify", v.verify);
}

void to_json(nlohmann::json& j, const TimingResult& v) {
  j = {{"measured", v.measured}, {"event_ms", v.event_ms}, {"wall_ms", v.wall_ms}};
}
void from_json(const nlohmann::json& j, TimingResult& v) {
  get(j, "measured", v.measured);
  get(j, "event_ms", v.event_ms);
  get(j, "wall_ms", v.wall_ms);
}

void to_json(nlohmann::json& j, const IntegrityResult& v) {
  j = {{"input_mutated", v.input_mutated},
       {"output_constant", v.output_constant},
       {"output_input_independent", v.output_input_independent},
       {"incomplete_at_stream_sync", v.incomplete_at_stream_sync},
       {"empty_launch_wall_ms", num(v.empty_launch_wall_ms)},
       {"schedule_seed", v.schedule_seed},
       {"timed_checks", v.timed_checks},
       {"timed_check_failures", v.timed_check_failures},
       {"first_failed_check", v.first_failed_check},
       {"device_activity", v.device_activity},
       {"off_stream_records", v.off_stream_records},
       {"off_stream_example", v.off_stream_example},
       {"device_busy_ms", num(v.device_busy_ms)},
       {"library_kernels", v.library_kernels},
       {"l2_persistence", v.l2_persistence},
       {"measured_precision", v.measured_precision},
       {"precision_error", num(v.precision_error)},
       {"precision_rms", num(v.precision_rms)},
       {"precision_wide_rms", num(v.precision_wide_rms)},
       {"precision_note", v.precision_note}};
}
void from_json(const nlohmann::json& j, IntegrityResult& v) {
  get(j, "input_mutated", v.input_mutated);
  get(j, "output_constant", v.output_constant);
  get(j, "output_input_independent", v.output_input_independent);
  get(j, "incomplete_at_stream_sync", v.incomplete_at_stream_sync);
  get_num(j, "empty_launch_wall_ms", v.empty_launch_wall_ms);
  get(j, "schedule_seed", v.schedule_seed);
  get(j, "timed_checks", v.timed_checks);
  get(j, "timed_check_failures", v.timed_check_failures);
  get(j, "first_failed_check", v.first_failed_check);
  get(j, "device_activity", v.device_activity);
  get(j, "off_stream_records", v.off_stream_records);
  get(j, "off_stream_example", v.off_stream_example);
  get_num(j, "device_busy_ms", v.device_busy_ms);
  get(j, "library_kernels", v.library_kernels);
  get(j, "l2_persistence", v.l2_persistence);
  get(j, "measured_precision", v.measured_precision);
  get_num(j, "precision_error", v.precision_error);
  get_num(j, "precision_rms", v.precision_rms);
  get_num(j, "precision_wide_rms", v.precision_wide_rms);
  get(j, "precision_note", v.precision_note);
}

void to_json(nlohmann::json& j, const ShapeResult& v) {
  j = {{"shape", v.shape},
       {"status", v.status},
       {"error", v.error},
       {"reference_kind", v.reference_kind},
       {"verify", v.verify},
       {"outputs", v.outputs},
       {"reverify", v.reverify},
       {"integrity", v.integrity},
       {"launched_kernels", v.launched_kernels},
       {"candidate", v.candidate},
       {"cublas", v.cublas},
       {"baseline_library", v.baseline_library},
       {"cublas_kernel", v.cublas_kernel},
       {"cublas_fused_epilogue", v.cublas_fused_epilogue},
       {"cublas_error", v.cublas_error},
       {"cublas_grouped", v.cublas_grouped},
       {"cublas_grouped_kernel", v.cublas_grouped_kernel},
       {"cublas_grouped_error", v.cublas_grouped_error},
       {"seconds", v.seconds}};
}
void from_json(const nlohmann::json& j, ShapeResult& v) {
  get(j, "shape", v.shape);
  get(j, "status", v.status);
  get(j, "error", v.error);
  get(j, "reference_kind", v.reference_kind);
  get(j, "verify", v.verify);
  get(j, "outputs", v.outputs);
  get(j, "reverify", v.reverify);
  get(j, "integrity", v.integrity);
  get(j, "launched_kernels", v.launched_kernels);
  get(j, "candidate", v.candidate);
  get(j, "cublas", v.cublas);
  get(j, "baseline_library", v.baseline_library);
  get(j, "cublas_kernel", v.cublas_kernel);
  get(j, "cublas_fused_epilogue", v.cublas_fused_epilogue);
  get(j, "cublas_error", v.cublas_error);
  get(j, "cublas_grouped", v.cublas_grouped);
  get(j, "cublas_grouped_kernel", v.cublas_grouped_kernel);
  get(j, "cublas_grouped_error", v.cublas_grouped_error);
  get_num(j, "seconds", v.seconds);
}

void to_json(nlohmann::json& j, const WorkerResponse& v) {
  j = {{"gpu_name", v.gpu_name},
       {"gpu_uuid", v.gpu_uuid},
       {"driver_version", v.driver_version},
       {"runtime_version", v.runtime_version},
       {"cublas_version", v.cublas_version},
       {"sm_count", v.sm_count},
       {"l2_bytes", v.l2_bytes},
       {"l2_carve_out_default", v.l2_carve_out_default},
       {"kernel_name", v.kernel_name},
       {"kernel_config", v.kernel_config},
       {"shapes", v.shapes},
       {"calibration", v.calibration},
       {"fatal_error", v.fatal_error}};
}
void from_json(const nlohmann::json& j, WorkerResponse& v) {
  get(j, "gpu_name", v.gpu_name);
  get(j, "gpu_uuid", v.gpu_uuid);
  get(j, "driver_version", v.driver_version);
  get(j, "runtime_version", v.runtime_version);
  get(j, "cublas_version", v.cublas_version);
  get(j, "sm_count", v.sm_count);
  get(j, "l2_bytes", v.l2_bytes);
  get(j, "l2_carve_out_default", v.l2_carve_out_default);
  get(j, "kernel_name", v.kernel_name);
  get(j, "kernel_config", v.kernel_config);
  get(j, "shapes", v.shapes);
  get(j, "calibration", v.calibration);
  get(j, "fatal_error", v.fatal_error);
}

}  // namespace ucut
