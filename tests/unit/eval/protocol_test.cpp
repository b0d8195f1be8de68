// tests/unit/eval/protocol_test.cpp — eval/protocol.h: WorkerRequest and WorkerResponse survive a trip
// through JSON text with every field, and infinities and NaNs come back as such (not 0 or null).
#include "eval/protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ucut {
namespace {

template <class T>
T round_trip(const T& v, std::string* text = nullptr) {
  std::string dumped = nlohmann::json(v).dump(1);  // through text, as the files between the processes
  if (text) *text = dumped;
  return nlohmann::json::parse(dumped).get<T>();
}

GemmShape shape(int64_t m, int64_t n, int64_t k, int64_t batch, const std::string& label) {
  GemmShape s;
  s.m = m, s.n = n, s.k = k, s.batch = batch, s.label = label;
  return s;
}

void expect_shape_eq(const GemmShape& a, const GemmShape& b) {
  EXPECT_EQ(a.m, b.m);
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.k, b.k);
  EXPECT_EQ(a.batch, b.batch);
  EXPECT_EQ(a.label, b.label);
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (size_t i = 0; i < a.groups.size(); ++i) {
    EXPECT_EQ(a.groups[i].m, b.groups[i].m) << i;
    EXPECT_EQ(a.groups[i].n, b.groups[i].n) << i;
    EXPECT_EQ(a.groups[i].k, b.groups[i].k) << i;
  }
  EXPECT_EQ(a.conv.kind, b.conv.kind);
  EXPECT_EQ(a.conv.dims, b.conv.dims);
  EXPECT_EQ(a.conv.n, b.conv.n);
  EXPECT_EQ(a.conv.c, b.conv.c);
  EXPECT_EQ(a.conv.k, b.conv.k);
  EXPECT_EQ(a.conv.groups, b.conv.groups);
  EXPECT_EQ(a.conv.in, b.conv.in);
  EXPECT_EQ(a.conv.filter, b.conv.filter);
  EXPECT_EQ(a.conv.pad, b.conv.pad);
  EXPECT_EQ(a.conv.stride, b.conv.stride);
  EXPECT_EQ(a.conv.dilation, b.conv.dilation);
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (size_t i = 0; i < a.stages.size(); ++i) {
    SCOPED_TRACE("stage " + std::to_string(i));
    expect_shape_eq(a.stages[i], b.stages[i]);
  }
}

/// Equal as doubles, where NaN equals NaN.
void expect_same(double a, double b, const char* what) {
  if (std::isnan(b))
    EXPECT_TRUE(std::isnan(a)) << what << ": " << a;
  else
    EXPECT_EQ(a, b) << what;
}

void expect_stats_eq(const Stats& a, const Stats& b) {
  EXPECT_EQ(a.n, b.n);
  expect_same(a.median, b.median, "median");
  expect_same(a.mean, b.mean, "mean");
  expect_same(a.stddev, b.stddev, "stddev");
  expect_same(a.min, b.min, "min");
  expect_same(a.max, b.max, "max");
  expect_same(a.p10, b.p10, "p10");
  expect_same(a.p90, b.p90, "p90");
}

void expect_comparison_eq(const Comparison& a, const Comparison& b) {
  EXPECT_EQ(a.checked, b.checked);
  EXPECT_EQ(a.mismatches, b.mismatches);
  EXPECT_EQ(a.nonfinite, b.nonfinite);
  expect_same(a.max_abs_err, b.max_abs_err, "max_abs_err");
  expect_same(a.max_rel_err, b.max_rel_err, "max_rel_err");
  expect_same(a.rel_l2, b.rel_l2, "rel_l2");
  EXPECT_EQ(a.worst_index, b.worst_index);
  expect_same(a.worst_value, b.worst_value, "worst_value");
  expect_same(a.worst_reference, b.worst_reference, "worst_reference");
  EXPECT_EQ(a.pass, b.pass);
}

void expect_timing_eq(const TimingResult& a, const TimingResult& b) {
  EXPECT_EQ(a.measured, b.measured);
  expect_stats_eq(a.event_ms, b.event_ms);
  expect_stats_eq(a.wall_ms, b.wall_ms);
}

Stats some_stats(double base) {
  Stats s;
  s.n = 100;
  s.median = base;
  s.mean = base * 1.01;
  s.stddev = base * 0.02;
  s.min = base * 0.97;
  s.max = base * 1.3;
  s.p10 = base * 0.98;
  s.p90 = base * 1.05;
  return s;
}

TEST(Protocol, RequestRoundTrip) {
  WorkerRequest r;
  r.mode = WorkerMode::calibrate;
  r.kernel_path = "/cache/ab/abcdef/kernel.so";
  r.problem = {{"op", "gemm"}, {"A", {{"dtype", "bf16"}, {"layout", "row"}}}, {"epilogue", {1, 2, 3}}};
  r.shapes = {shape(4096, 4096, 4096, 1, ""), shape(8205, 5921, 2949, 7, "odd")};
  r.tolerance = {3e-3, 5e-2};
  r.reference = Reference::cpu;
  r.cpu_reference_max_macs = int64_t(1) << 40;
  r.seed = 0xfedcba9876543210ull;  // above INT64_MAX: must not come back negative or clipped
  r.input_sets = 5;
  r.inputs.a = InputDraw::rand;
  r.inputs.b = InputDraw::param;
  r.warmup = 3;
  r.trials = 1234;
  r.flush_l2 = false;
  r.time_cublas = false;

  WorkerRequest b = round_trip(r);
  EXPECT_EQ(b.mode, r.mode);
  EXPECT_EQ(b.kernel_path, r.kernel_path);
  EXPECT_EQ(b.problem, r.problem);
  EXPECT_TRUE(b.inputs.same_as(r.inputs)) << b.inputs.text();
  ASSERT_EQ(b.shapes.size(), 2u);
  expect_shape_eq(b.shapes[0], r.shapes[0]);
  expect_shape_eq(b.shapes[1], r.shapes[1]);
  EXPECT_EQ(b.tolerance.atol, 3e-3);
  EXPECT_EQ(b.tolerance.rtol, 5e-2);
  EXPECT_EQ(b.reference, Reference::cpu);
  EXPECT_EQ(b.cpu_reference_max_macs, int64_t(1) << 40);
  EXPECT_EQ(b.seed, 0xfedcba9876543210ull);
  EXPECT_EQ(b.input_sets, 5);
  EXPECT_EQ(b.warmup, 3);
  EXPECT_EQ(b.trials, 1234);
  EXPECT_FALSE(b.flush_l2);
  EXPECT_FALSE(b.time_cublas);
}

TEST(Protocol, RequestDefaultsSurviveAndMissingFieldsKeepDefaults) {
  WorkerRequest d = round_trip(WorkerRequest{});
  WorkerRequest def;
  EXPECT_EQ(d.mode, WorkerMode::measure);
  EXPECT_EQ(d.input_sets, def.input_sets);
  EXPECT_EQ(d.trials, def.trials);
  EXPECT_TRUE(d.flush_l2);
  EXPECT_TRUE(d.time_cublas);

  // An older or partial message: absent keys keep their defaults instead of throwing.
  WorkerRequest partial = nlohmann::json::parse(R"({"mode": "measure", "shapes": [{"m": 8, "n": 16, "k": 32}]})")
                              .get<WorkerRequest>();
  ASSERT_EQ(partial.shapes.size(), 1u);
  EXPECT_EQ(partial.shapes[0].m, 8);
  EXPECT_EQ(partial.shapes[0].n, 16);
  EXPECT_EQ(partial.shapes[0].k, 32);
  EXPECT_EQ(partial.shapes[0].batch, 1);
  EXPECT_EQ(partial.trials, def.trials);
  EXPECT_EQ(partial.tolerance.atol, def.tolerance.atol);
}

ShapeResult full_shape_result() {
  ShapeResult s;
  s.shape = shape(1024, 8192, 8192, 3, "decode-batch");
  s.status = ShapeStatus::ok;
  s.error = "none \"quoted\" \n newline";
  s.reference_kind = ReferenceKind::cublas_f32;
  s.verify.checked = 25165824;
  s.verify.mismatches = 2;
  s.verify.nonfinite = 1;
  s.verify.max_abs_err = 0.125;
  s.verify.max_rel_err = 0.0625;
  s.verify.rel_l2 = 1.5e-3;
  s.verify.worst_index = 123456789012;
  s.verify.worst_value = -3.5;
  s.verify.worst_reference = -3.25;
  s.verify.pass = false;
  s.reverify.checked = 8388608;
  s.reverify.pass = true;
  s.reverify.max_rel_err = 1e-5;
  s.integrity.input_mutated = true;
  s.integrity.output_constant = true;
  s.integrity.output_input_independent = true;
  s.integrity.incomplete_at_stream_sync = true;
  s.integrity.empty_launch_wall_ms = 0.0123;
  s.integrity.schedule_seed = 0xfedcba9876543210ull;
  s.integrity.timed_checks = 10;
  s.integrity.timed_check_failures = 2;
  s.integrity.first_failed_check = 37;
  s.integrity.device_activity = true;
  s.integrity.off_stream_records = 3;
  s.integrity.off_stream_example = "_Z18planted_naive_gemmPK13__nv_bfloat16";
  s.integrity.library_kernels = {"cuBLAS: nvjet_sm90_hss_320x128"};
  s.integrity.device_busy_ms = 0.301;
  s.integrity.l2_persistence = "an access-policy window was set on the launch stream";
  s.launched_kernels = {"_Z18planted_naive_gemmPK13__nv_bfloat16", "memcpy kernel"};
  s.candidate.measured = true;
  s.candidate.event_ms = some_stats(0.196);
  s.candidate.wall_ms = some_stats(0.21);
  s.cublas.measured = true;
  s.cublas.event_ms = some_stats(0.25);
  s.cublas.wall_ms = some_stats(0.27);
  s.cublas_kernel = "cublasLt bf16 TN f32-acc + BIAS+GELU";
  s.cublas_fused_epilogue = true;
  s.cublas_grouped.measured = true;
  s.cublas_grouped.event_ms = some_stats(0.23);
  s.cublas_grouped.wall_ms = some_stats(0.24);
  s.cublas_grouped_kernel = "cublasGemmGroupedBatchedEx bf16xbf16->bf16 TN f32-compute, 3 groups of one problem";
  s.cublas_grouped_error = "not \"really\" an error";
  return s;
}

void expect_shape_result_eq(const ShapeResult& a, const ShapeResult& b) {
  expect_shape_eq(a.shape, b.shape);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.reference_kind, b.reference_kind);
  expect_comparison_eq(a.verify, b.verify);
  expect_comparison_eq(a.reverify, b.reverify);
  EXPECT_EQ(a.integrity.input_mutated, b.integrity.input_mutated);
  EXPECT_EQ(a.integrity.output_constant, b.integrity.output_constant);
  EXPECT_EQ(a.integrity.output_input_independent, b.integrity.output_input_independent);
  EXPECT_EQ(a.integrity.incomplete_at_stream_sync, b.integrity.incomplete_at_stream_sync);
  expect_same(a.integrity.empty_launch_wall_ms, b.integrity.empty_launch_wall_ms, "empty_launch_wall_ms");
  EXPECT_EQ(a.integrity.schedule_seed, b.integrity.schedule_seed);
  EXPECT_EQ(a.integrity.timed_checks, b.integrity.timed_checks);
  EXPECT_EQ(a.integrity.timed_check_failures, b.integrity.timed_check_failures);
  EXPECT_EQ(a.integrity.first_failed_check, b.integrity.first_failed_check);
  EXPECT_EQ(a.integrity.device_activity, b.integrity.device_activity);
  EXPECT_EQ(a.integrity.off_stream_records, b.integrity.off_stream_records);
  EXPECT_EQ(a.integrity.off_stream_example, b.integrity.off_stream_example);
  EXPECT_EQ(a.integrity.library_kernels, b.integrity.library_kernels);
  expect_same(a.integrity.device_busy_ms, b.integrity.device_busy_ms, "device_busy_ms");
  EXPECT_EQ(a.integrity.l2_persistence, b.integrity.l2_persistence);
  EXPECT_EQ(a.launched_kernels, b.launched_kernels);
  expect_timing_eq(a.candidate, b.candidate);
  expect_timing_eq(a.cublas, b.cublas);
  EXPECT_EQ(a.cublas_kernel, b.cublas_kernel);
  EXPECT_EQ(a.cublas_fused_epilogue, b.cublas_fused_epilogue);
  expect_timing_eq(a.cublas_grouped, b.cublas_grouped);
  EXPECT_EQ(a.cublas_grouped_kernel, b.cublas_grouped_kernel);
  EXPECT_EQ(a.cublas_grouped_error, b.cublas_grouped_error);
}

TEST(Protocol, ResponseRoundTrip) {
  WorkerResponse r;
  r.gpu_name = "NVIDIA H200";
  r.gpu_uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
  r.driver_version = "13.0";
  r.runtime_version = "13.0";
  r.cublas_version = "130000";
  r.sm_count = 132;
  r.l2_bytes = int64_t(50) << 20;
  r.kernel_name = "mlp_up";
  r.kernel_config = {{"op", "gemm"}, {"tile", {128, 256, 64}}};
  r.shapes = {full_shape_result(), ShapeResult{}};
  r.shapes[1].shape = shape(16384, 4096, 4096, 1, "prefill");
  r.shapes[1].status = ShapeStatus::timed_out;
  r.calibration = {{"copy_tbs", 4.1}, {"gemm_tflops", {{"bf16", 812.5}}}, {"method", "cublas"}};
  r.fatal_error = "the CUDA context was lost";

  WorkerResponse b = round_trip(r);
  EXPECT_EQ(b.gpu_name, r.gpu_name);
  EXPECT_EQ(b.gpu_uuid, r.gpu_uuid);
  EXPECT_EQ(b.driver_version, r.driver_version);
  EXPECT_EQ(b.runtime_version, r.runtime_version);
  EXPECT_EQ(b.cublas_version, r.cublas_version);
  EXPECT_EQ(b.sm_count, 132);
  EXPECT_EQ(b.l2_bytes, int64_t(50) << 20);
  EXPECT_EQ(b.kernel_name, r.kernel_name);
  EXPECT_EQ(b.kernel_config, r.kernel_config);
  EXPECT_EQ(b.calibration, r.calibration);
  EXPECT_EQ(b.fatal_error, r.fatal_error);
  ASSERT_EQ(b.shapes.size(), 2u);
  expect_shape_result_eq(b.shapes[0], r.shapes[0]);
  expect_shape_result_eq(b.shapes[1], r.shapes[1]);
  EXPECT_EQ(b.shapes[1].status, ShapeStatus::timed_out);
}

TEST(Protocol, InfinityAndNaNSurviveAsStrings) {
  // A NaN-poisoned (unwritten) output: errors are infinite, the worst value NaN. JSON has no such numbers;
  // nlohmann would write null, and null must never read back as a perfect 0.
  ShapeResult s;
  s.verify.checked = 16;
  s.verify.mismatches = s.verify.nonfinite = 16;
  s.verify.max_abs_err = INFINITY;
  s.verify.max_rel_err = INFINITY;
  s.verify.rel_l2 = INFINITY;
  s.verify.worst_index = 0;
  s.verify.worst_value = NAN;
  s.verify.worst_reference = -INFINITY;
  s.candidate.measured = true;
  s.candidate.event_ms.n = 0;
  s.candidate.event_ms.median = NAN;
  s.candidate.event_ms.max = INFINITY;
  s.candidate.wall_ms.min = -INFINITY;
  s.integrity.empty_launch_wall_ms = NAN;
  WorkerResponse r;
  r.kernel_config = nlohmann::json::object();
  r.calibration = nlohmann::json::object();
  r.shapes = {s};

  std::string text;
  WorkerResponse b = round_trip(r, &text);
  EXPECT_NE(text.find("\"inf\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"-inf\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"nan\""), std::string::npos) << text;
  EXPECT_EQ(text.find("null"), std::string::npos) << text;
  ASSERT_EQ(b.shapes.size(), 1u);
  const ShapeResult& g = b.shapes[0];
  EXPECT_EQ(g.verify.max_abs_err, INFINITY);
  EXPECT_EQ(g.verify.max_rel_err, INFINITY);
  EXPECT_EQ(g.verify.rel_l2, INFINITY);
  EXPECT_TRUE(std::isnan(g.verify.worst_value));
  EXPECT_EQ(g.verify.worst_reference, -INFINITY);
  EXPECT_TRUE(std::isnan(g.candidate.event_ms.median));
  EXPECT_EQ(g.candidate.event_ms.max, INFINITY);
  EXPECT_EQ(g.candidate.wall_ms.min, -INFINITY);
  EXPECT_TRUE(std::isnan(g.integrity.empty_launch_wall_ms));
  EXPECT_FALSE(g.verify.pass);
}

TEST(Protocol, StatsAndComparisonDirectly) {
  Stats s = some_stats(2.5);
  s.stddev = NAN;
  s.p90 = INFINITY;
  expect_stats_eq(round_trip(s), s);

  Comparison c;
  c.checked = 10;
  c.mismatches = 3;
  c.nonfinite = 3;
  c.max_abs_err = c.max_rel_err = c.rel_l2 = INFINITY;
  c.worst_index = 7;
  c.worst_value = NAN;
  c.worst_reference = 1.5;
  expect_comparison_eq(round_trip(c), c);
}

TEST(Protocol, ShapeSerialization) {
  nlohmann::json j = shape(1, 2, 3, 4, "x");
  EXPECT_EQ(j.at("m"), 1);
  EXPECT_EQ(j.at("n"), 2);
  EXPECT_EQ(j.at("k"), 3);
  EXPECT_EQ(j.at("batch"), 4);
  EXPECT_EQ(j.at("label"), "x");
}

TEST(Protocol, PipelineShapeRoundTripsWithOneGemmPerStage) {
  GemmShape p = shape(0, 0, 0, 1, "mlp 4k");
  p.stages = {shape(4096, 11008, 4096, 1, ""), shape(4096, 4096, 11008, 1, ""), shape(64, 32, 16, 3, "")};
  std::string text;
  GemmShape b = round_trip(p, &text);
  expect_shape_eq(b, p);
  EXPECT_TRUE(b.is_pipeline());
  nlohmann::json j = nlohmann::json::parse(text);
  ASSERT_EQ(j.at("stages").size(), 3u);
  EXPECT_EQ(j.at("stages")[2], nlohmann::json({{"m", 64}, {"n", 32}, {"k", 16}, {"batch", 3}}));
  EXPECT_FALSE(nlohmann::json(shape(8, 8, 8, 1, "")).contains("stages"));  // a single kernel's shape: no key
  EXPECT_FALSE(round_trip(shape(8, 8, 8, 1, "")).is_pipeline());
}

/// A conv3d geometry with every field away from its default, of kind `kind`.
ConvShape conv3d_of(ConvKind kind) {
  ConvShape c;
  c.dims = 3;
  c.kind = kind;
  c.n = 2, c.c = 5, c.k = 7;
  c.in = {9, 10, 11};
  c.filter = {2, 3, 1};
  c.pad = {1, 0, 2};
  c.stride = {2, 1, 3};
  c.dilation = {1, 2, 1};
  return c;
}

TEST(Protocol, ConvShapeOfEveryKindRoundTrips) {
  for (ConvKind kind : {ConvKind::fprop, ConvKind::dgrad, ConvKind::wgrad}) {
    SCOPED_TRACE(std::string(conv_kind_name(kind)));
    WorkerRequest r;
    r.shapes = {conv_gemm_shape(conv3d_of(kind), "conv")};
    std::string text;
    WorkerRequest b = round_trip(r, &text);
    EXPECT_NE(text.find('"' + std::string(conv_kind_name(kind)) + '"'), std::string::npos) << text;
    ASSERT_EQ(b.shapes.size(), 1u);
    expect_shape_eq(b.shapes[0], r.shapes[0]);
    EXPECT_EQ(b.shapes[0].conv.kind, kind);
  }
}

TEST(Protocol, ConvPipelineShapeRoundTripsWithEachStagesGeometry) {
  GemmShape p = shape(0, 0, 0, 1, "conv block");
  p.stages = {conv_gemm_shape(conv3d_of(ConvKind::fprop)), conv_gemm_shape(conv3d_of(ConvKind::dgrad))};
  std::string text;
  GemmShape b = round_trip(p, &text);
  expect_shape_eq(b, p);  // compares each stage's geometry
  ASSERT_EQ(b.stages.size(), 2u);
  EXPECT_TRUE(b.stages[0].is_conv());
  EXPECT_EQ(b.stages[1].conv.kind, ConvKind::dgrad);
  EXPECT_FALSE(nlohmann::json::parse(text).at("stages")[0].contains("label"));
}

TEST(Protocol, ConvGemmShapePerKind) {
  ConvShape c = conv3d_of(ConvKind::fprop);
  // out = (in + 2 pad - dilation (filter - 1) - 1) / stride + 1 = {5, 6, 5}; taps 6.
  ASSERT_EQ(c.out_pixels(), 2 * 5 * 6 * 5);
  GemmShape f = conv_gemm_shape(c), d = conv_gemm_shape(conv3d_of(ConvKind::dgrad)),
            w = conv_gemm_shape(conv3d_of(ConvKind::wgrad));
  EXPECT_EQ(std::vector<int64_t>({f.m, f.n, f.k}), std::vector<int64_t>({300, 7, 6 * 5}));
  EXPECT_EQ(std::vector<int64_t>({d.m, d.n, d.k}), std::vector<int64_t>({2 * 9 * 10 * 11, 5, 6 * 7}));
  EXPECT_EQ(std::vector<int64_t>({w.m, w.n, w.k}), std::vector<int64_t>({7, 6 * 5, 300}));
  for (const GemmShape& g : {f, d, w}) EXPECT_EQ(g.m * g.n, g.conv.d_elements()) << conv_kind_name(g.conv.kind);
}

TEST(Protocol, ConvGroupsRoundTripAndDefaultToOne) {
  ConvShape c = conv3d_of(ConvKind::fprop);
  c.c = 6, c.k = 9, c.groups = 3;
  nlohmann::json j = round_trip(conv_gemm_shape(c));
  EXPECT_EQ(j.get<GemmShape>().conv.groups, 3);
  j["conv"].erase("groups");
  EXPECT_EQ(j.get<GemmShape>().conv.groups, 1);  // a message from before the groups: dense
}

TEST(Protocol, ConvGemmShapeWithGroupsReducesOverOneGroup) {
  // 6 input and 9 output channels in 3 groups: each output channel sums taps x 2 channels; W is [9, taps, 2].
  for (ConvKind kind : {ConvKind::fprop, ConvKind::dgrad, ConvKind::wgrad}) {
    ConvShape c = conv3d_of(kind);
    c.c = 6, c.k = 9, c.groups = 3;
    GemmShape g = conv_gemm_shape(c);
    EXPECT_EQ(c.w_elements(), 9 * 6 * 2);
    EXPECT_EQ(c.macs(), c.out_pixels() * 9 * 6 * 2);
    EXPECT_EQ(g.m * g.n, c.d_elements()) << conv_kind_name(kind);
    if (kind == ConvKind::fprop) EXPECT_EQ(g.k, 6 * 2);
    if (kind == ConvKind::dgrad) EXPECT_EQ(g.k, 6 * 3);  // taps x the output channels of one group
    if (kind == ConvKind::wgrad) EXPECT_EQ(g.n, 6 * 2);
  }
}

TEST(Protocol, ConvKindAbsentReadsAsFpropAndUnknownIsAnError) {
  nlohmann::json j = conv_gemm_shape(conv3d_of(ConvKind::wgrad));
  j["conv"].erase("kind");
  EXPECT_EQ(j.get<GemmShape>().conv.kind, ConvKind::fprop);  // a message from before the kinds
  j["conv"]["kind"] = "bprop";
  try {
    (void)j.get<GemmShape>();
    FAIL() << "an unknown kind was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bprop"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ucut
