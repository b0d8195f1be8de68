// mskb/worker/measure_item.cpp
#include "mskb/worker/measure_item.h"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "eval/vendor_kernels.h"
#include "eval/worker/cuda_check.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/timing.h"
#include "mskb/check.h"
#include "mskb/worker/device_args.h"

namespace ucut::mskb::worker {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

Instance make_input(const Harness& h, int case_index, uint64_t stream) {
  std::mt19937_64 rng(h.request.seed + static_cast<uint64_t>(case_index) + stream);
  Instance in = h.task.generate(h.task.cases.at(static_cast<size_t>(case_index)), rng);
  round_instance(in, h.signature, h.names);
  return in;
}

CType output_type(const Harness& h, const std::string& name) {
  for (size_t i = 0; i < h.names.size(); ++i)
    if (h.names[i] == name) return h.signature.params[i].type;
  return CType::f32;
}

Outputs read_outputs(const Harness& h, const DeviceArgs& a) {
  Outputs got;
  for (const std::string& o : h.task.outputs) got[o] = a.download(o);
  return got;
}

/// Our verdict on `got`: the task's checker, or every output within the bound of mskb/check.h.
std::vector<OutputResult> verify(const Harness& h, const CaseState& cs, const Outputs& got) {
  std::vector<OutputResult> results;
  if (h.task.check) {
    OutputResult r;
    r.name = "all";
    r.message = h.task.check(cs.input, got, cs.reference);
    r.pass = r.message.empty();
    results.push_back(r);
    return results;
  }
  for (const std::string& o : h.task.outputs) {
    OutputResult r = compare_output(o, got.at(o), cs.reference.at(o), h.task.tolerance, output_type(h, o));
    if (!zeroed_output_verifiable(h.task, o, cs.reference.at(o))) {
      r.pass = false;  // the harness zeroed it: a launcher that writes nothing would pass
      r.message = "the reference of " + o + " is 0 everywhere, which the convention's zeroing already holds";
    }
    results.push_back(r);
  }
  return results;
}

bool all_pass(const std::vector<OutputResult>& rs) {
  return std::all_of(rs.begin(), rs.end(), [](const OutputResult& r) { return r.pass; });
}

/// A progress line for the parent's no-progress deadline and `bench mskb --verbose`: what starts now, and how long
/// the case or item has run so far.
void progress(const Harness& h, int case_index, const char* what, const char* phase, Clock::time_point since) {
  std::printf("[ucutlass-mskb-worker] %s case %d %s: %s (%.1f s)\n", h.task.name.c_str(), case_index, what, phase,
              ms_since(since) / 1e3);
  std::fflush(stdout);
}

/// MSKB's timing: warm-up calls, then back-to-back calls between two events on the default stream, same inputs,
/// no flush; fewer calls when 50 would take longer than compat_seconds.
void time_compat(const Harness& h, const Launcher& l, DeviceArgs& a, double estimate_ms, ItemResult& r) {
  const MskbRequest& q = h.request;
  int calls = std::clamp(static_cast<int>(q.compat_seconds * 1e3 / std::max(estimate_ms, 1e-3)), 3, q.compat_iterations);
  a.reset();
  for (int i = 0; i < q.compat_warmup; ++i) l.call(a.args());
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  CUDA_OK(cudaEventRecord(start, 0));
  for (int i = 0; i < calls; ++i) l.call(a.args());
  CUDA_OK(cudaEventRecord(stop, 0));
  CUDA_OK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  r.compat_ms = ms / calls;
  r.compat_calls = calls;
}

/// Our timing: per trial, in-place data restored and L2 flushed (untimed), then the GPU's busy time (CUPTI) and the
/// host's launch-to-return time of one call.
void time_cold(const Harness& h, const Launcher& l, DeviceArgs& a, double estimate_ms, ItemResult& r) {
  const MskbRequest& q = h.request;
  int trials = std::clamp(static_cast<int>(q.trial_seconds * 1e3 / std::max(estimate_ms, 1e-3)), q.min_trials,
                          q.max_trials);
  ::ucut::worker::DeviceBuffer flush(static_cast<size_t>(std::max<int64_t>(4 * h.l2_bytes, 64 << 20)));
  std::vector<double> gpu, wall;
  r.gpu_timer = h.gpu_timer.available() ? GpuTimer::cupti : GpuTimer::events;
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  for (int t = 0; t < trials; ++t) {
    a.reset();
    ::ucut::worker::reset_l2_persistence(0, r.l2_persistence);
    CUDA_OK(cudaMemsetAsync(flush.get(), t & 0xFF, flush.bytes(), 0));
    CUDA_OK(cudaDeviceSynchronize());
    h.gpu_timer.open_unflushed();  // a flush here would delay the timed launch (DeviceActivity::open_unflushed)
    CUDA_OK(cudaEventRecord(start, 0));
    Clock::time_point w0 = Clock::now();
    l.call(a.args());
    wall.push_back(ms_since(w0));
    CUDA_OK(cudaEventRecord(stop, 0));
    CUDA_OK(cudaEventSynchronize(stop));
    float ev = 0;
    CUDA_OK(cudaEventElapsedTime(&ev, start, stop));
    if (!h.gpu_timer.available()) {
      gpu.push_back(ev);
      continue;
    }
    ::ucut::worker::ActivityWindow w = h.gpu_timer.close();
    gpu.push_back(static_cast<double>(::ucut::worker::busy_ns(w)) / 1e6);
    if (r.role == Role::candidate)
      for (const ::ucut::worker::ActivityRecord& x : w.records)
        if (x.kind == ::ucut::worker::ActivityKind::kernel) note_vendor_kernel(x.name, r.library_kernels, 16);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  r.gpu_ms = summarize(gpu);
  r.wall_ms = summarize(wall);
}

}  // namespace

CaseState prepare_case(const Harness& h, int case_index, const Launcher* vendor) {
  Clock::time_point t0 = Clock::now();
  CaseState cs;
  cs.index = case_index;
  progress(h, case_index, "setup", "inputs", t0);
  cs.input = make_input(h, case_index, 0);
  const Case& c = h.task.cases.at(static_cast<size_t>(case_index));
  if (vendor && h.task.reference_cost(c) > h.request.cpu_reference_limit) {
    progress(h, case_index, "setup", "reference (vendor launcher)", t0);
    DeviceArgs a(h.signature, h.names, cs.input, h.task.outputs, h.task.zeroed_outputs);
    vendor->call(a.args());
    cs.reference = read_outputs(h, a);
    cs.reference_kind = ReferenceKind::vendor;
  } else {
    progress(h, case_index, "setup", "reference (CPU FP64)", t0);
    cs.reference = h.task.reference(cs.input);
    cs.reference_kind = ReferenceKind::cpu_f64;
  }
  return cs;
}

ItemResult measure_item(const Harness& h, CaseState& cs, const Item& item, const Launcher& l) {
  Clock::time_point t0 = Clock::now();
  ItemResult r;
  r.item = item;
  r.role = h.request.impls.at(static_cast<size_t>(item.impl)).role;
  r.reference_kind = cs.reference_kind;
  const std::string role_name(enum_name(r.role));
  const char* role = role_name.c_str();

  progress(h, item.case_index, role, "verify", t0);
  DeviceArgs a(h.signature, h.names, cs.input, h.task.outputs, h.task.zeroed_outputs);
  l.call(a.args());
  Outputs got = read_outputs(h, a);
  r.outputs = verify(h, cs, got);
  r.correct = all_pass(r.outputs);
  r.input_mutated = !a.mutated_inputs().empty();
  if (r.role == Role::naive) {
    cs.naive = got;
    cs.have_naive = true;
  } else if (cs.have_naive) {
    r.compat_checked = true;
    r.compat_correct = std::all_of(h.task.outputs.begin(), h.task.outputs.end(), [&](const std::string& o) {
      return mskb_rule_holds(got.at(o), cs.naive.at(o), h.task.tolerance);
    });
  }

  // A second call estimates the time per call (the first one may have created library handles).
  a.reset();
  Clock::time_point e0 = Clock::now();
  l.call(a.args());
  double estimate_ms = ms_since(e0);

  progress(h, item.case_index, role, "time (MSKB-compatible)", t0);
  time_compat(h, l, a, estimate_ms, r);
  progress(h, item.case_index, role, "time (cold L2)", t0);
  time_cold(h, l, a, estimate_ms, r);
  r.reverify_correct = all_pass(verify(h, cs, read_outputs(h, a)));

  if (r.role == Role::candidate) {
    progress(h, item.case_index, role, "input independence", t0);
    DeviceArgs b(h.signature, h.names, make_input(h, item.case_index, 7919), h.task.outputs, h.task.zeroed_outputs);
    l.call(b.args());
    r.output_input_independent = read_outputs(h, b) == got;
  }
  r.seconds = ms_since(t0) / 1e3;
  progress(h, item.case_index, role, "done", t0);
  return r;
}

ItemResult profile_item(const Harness& h, const Item& item, const Launcher& l) {
  Clock::time_point t0 = Clock::now();
  ItemResult r;
  r.item = item;
  r.role = h.request.impls.at(static_cast<size_t>(item.impl)).role;
  const std::string role(enum_name(r.role));
  progress(h, item.case_index, role.c_str(), "profile", t0);
  DeviceArgs a(h.signature, h.names, make_input(h, item.case_index, 0), h.task.outputs,
               h.task.zeroed_outputs);
  CUDA_OK(cudaDeviceSynchronize());  // the uploads stay outside the profiled range
  CUDA_OK(cudaProfilerStart());
  l.call(a.args());
  CUDA_OK(cudaProfilerStop());
  r.seconds = ms_since(t0) / 1e3;
  return r;
}

}  // namespace ucut::mskb::worker
