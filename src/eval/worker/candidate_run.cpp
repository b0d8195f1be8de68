// eval/worker/candidate_run.cpp — see candidate_run.h. A kernel and a pipeline have the same entry points
// over different argument types: one template serves both.
#include "eval/worker/candidate_run.h"

#include <cuda_profiler_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "eval/reduction.h"
#include "eval/trial_schedule.h"
#include "eval/vendor_kernels.h"
#include "eval/worker/device_ops.h"

namespace ucut::worker {
namespace {

constexpr size_t kMaxKernelNames = 16;

Comparison merged(const std::vector<OutputRead>& reads) {
  Comparison all;
  for (size_t o = 0; o < reads.size(); ++o) all = o == 0 ? reads[o].check : merge(all, reads[o].check);
  return all;
}

uint64_t input_hash(const CandidateSubject& subject, size_t set, cudaStream_t s) {
  uint64_t h = 0;
  for (const DeviceBuffer* b : subject.input_buffers(set)) h = h * 3 + hash_bytes(b->get(), b->bytes(), s);
  return h;
}

/// Every input set's buffers stashed and poisoned while prepare() runs, written back by restore() — or, when
/// a prepare failed and the measurement goes on to the vendor baseline, by the destructor.
class HiddenInputs {
 public:
  HiddenInputs(const CandidateSubject& subject, cudaStream_t s) : s_(s) {
    for (size_t i = 0; i < subject.input_sets(); ++i)
      for (const DeviceBuffer* b : subject.input_buffers(i)) {
        stash_.emplace_back(b, DeviceBuffer(b->bytes()));
        CUDA_OK(
            cudaMemcpyAsync(stash_.back().second.get(), b->get(), b->bytes(), cudaMemcpyDeviceToDevice, s));
        poison(b->get(), b->bytes(), s);
      }
    CUDA_OK(cudaDeviceSynchronize());
  }
  /// Waits for everything prepare() started, then writes the inputs back.
  void restore() {
    CUDA_OK(cudaDeviceSynchronize());
    for (auto& [b, copy] : stash_)
      CUDA_OK(cudaMemcpyAsync(b->get(), copy.get(), b->bytes(), cudaMemcpyDeviceToDevice, s_));
    CUDA_OK(cudaDeviceSynchronize());
    stash_.clear();
  }
  ~HiddenInputs() {  // no throwing here: a failure shows in the next CUDA call that checks
    for (auto& [b, copy] : stash_)
      cudaMemcpyAsync(b->get(), copy.get(), b->bytes(), cudaMemcpyDeviceToDevice, s_);
    if (!stash_.empty()) cudaStreamSynchronize(s_);
  }
  HiddenInputs(const HiddenInputs&) = delete;
  HiddenInputs& operator=(const HiddenInputs&) = delete;

 private:
  cudaStream_t s_;
  std::vector<std::pair<const DeviceBuffer*, DeviceBuffer>> stash_;
};

/// CUPTI's view of the candidate's calls: the kernels they ran, work on another stream that the launch stream
/// did not wait for, the device-wide busy time of each wall-clock call.
class ActivityWatch {
 public:
  ActivityWatch(DeviceActivity* a, cudaStream_t s, ShapeResult& r)
      : a_(a && a->available() ? a : nullptr), stream_id_(a_ ? a_->stream_id(s) : 0), r_(r) {
    r_.integrity.device_activity = a_ != nullptr;
  }

  /// Around a verified call: records that start after open() (earlier calls still queued on the launch stream
  /// are the candidate's too); the launch-stream marker (launch_empty_kernel) enqueued right after the call;
  /// the device idle at close().
  void open() {
    if (!a_) return;
    a_->record(true);
    a_->open();
  }
  void close_verified() {
    if (!a_) return;
    ActivityWindow w = a_->close();
    a_->record(false);
    auto marker = std::find_if(w.records.begin(), w.records.end(), [&](const ActivityRecord& x) {
      return x.kind == ActivityKind::kernel && x.stream_id == stream_id_ && is_empty_kernel_name(x.name);
    });
    if (marker == w.records.end()) return;  // a record lost: nothing to conclude
    for (const ActivityRecord& x : w.records) {
      bool candidates =
          x.start < marker->start || x.stream_id != stream_id_;  // after the marker: the harness's reads
      if (&x == &*marker || !candidates) continue;
      if (x.kind == ActivityKind::kernel && kernels_.size() < kMaxKernelNames &&
          kernels_.insert(x.name).second)
        r_.launched_kernels.push_back(x.name);
      if (x.kind == ActivityKind::kernel) note_library_kernel(x.name);
      if (x.stream_id != stream_id_ && x.end > marker->start) {
        if (r_.integrity.off_stream_records++ == 0)
          r_.integrity.off_stream_example =
              x.kind == ActivityKind::kernel ? x.name : std::string(copy_label(x.kind));
      }
    }
  }

  /// Around a wall-clock call (the device idle on both sides): the time any stream was busy with it. The
  /// union of intervals, not first start to last end: a multi-kernel candidate whose launches the host
  /// enqueues more slowly than they run leaves gaps here that the event-timed pass (the host ahead, behind
  /// the flush) does not have.
  /// The window opens without a flush (DeviceActivity::open_unflushed: a flush costs the next launch about
  /// 0.25 ms, which swamped the wall clock of short kernels); the previous call's close flushed, and the
  /// harness's own launches before this call absorb the cost. Recording stays on until wall_pass_end().
  void wall_open() {
    if (!a_) return;
    a_->record(true);
    a_->open_unflushed();
  }
  /// `keep`: false for the empty launch, timed under the same conditions but not the candidate's.
  void wall_close(bool keep = true) {
    if (!a_) return;
    ActivityWindow w = a_->close();
    if (!keep) return;
    for (const ActivityRecord& x : w.records)
      if (x.kind == ActivityKind::kernel) note_library_kernel(x.name);
    if (!w.records.empty()) busy_ms_.push_back(static_cast<double>(busy_ns(w)) / 1e6);
  }
  void wall_pass_end() {
    if (a_) a_->record(false);
  }
  /// The median busy time of the wall-clock calls, once that pass is over.
  void finish_busy() {
    if (busy_ms_.empty()) return;
    r_.integrity.device_busy_ms = summarize(busy_ms_).median;
    busy_ms_.clear();
  }

 private:
  static const char* copy_label(ActivityKind k) { return k == ActivityKind::memcpy ? "memcpy" : "memset"; }

  /// Every kernel the candidate ran is looked up, not only the names kept for the report: a vendor library's
  /// (eval/vendor_kernels.def) is a hand-off of the work.
  void note_library_kernel(const std::string& name) {
    note_vendor_kernel(name, r_.integrity.library_kernels, kMaxKernelNames);
  }

  DeviceActivity* a_;
  uint32_t stream_id_;
  ShapeResult& r_;
  std::set<std::string> kernels_;
  std::vector<double> busy_ms_;
};

template <class Api>
void launch_or_throw(const Api& api, void* prepared, cudaStream_t s) {
  char err[1024] = {0};
  if (api.launch(prepared, s, err, sizeof err) != 0)
    throw std::runtime_error(std::string("launch failed: ") + err);
}

template <class Api>
void verify(const Api& api, const std::vector<void*>& prepared, CandidateSubject& subject,
            const TrialSchedule& plan, Timer& timer, ActivityWatch& watch, cudaStream_t s, ShapeResult& r) {
  char err[1024] = {0};
  std::map<size_t, std::vector<uint64_t>> out_hash;  // per input set (its first call), per output
  std::map<size_t, uint64_t> in_hash;
  r.outputs = subject.output_names();
  bool first = true;
  int call = 0;
  for (int v : plan.verify_sets) {
    size_t i = static_cast<size_t>(v);
    if (!in_hash.count(i)) in_hash[i] = input_hash(subject, i, s);
    CUDA_OK(cudaDeviceSynchronize());
    watch.open();
    // Enqueued as a timed call is (poison, cold L2, the flush still running at the launch): nothing tells the
    // kernel that this call is verified.
    timer.reset_l2_persistence();
    subject.poison_outputs();
    timer.flush_l2(call++);
    if (api.launch(prepared[i], s, err, sizeof err) != 0) {
      r.status = ShapeStatus::launch_failed;
      r.error = err;
      return;
    }
    launch_empty_kernel(s);             // the marker the off-stream check looks for
    CUDA_OK(cudaStreamSynchronize(s));  // what a caller synchronizing the launch stream would see
    std::vector<OutputRead> reads = subject.read_outputs(i);
    Comparison c = merged(reads);
    if (!c.pass) {
      CUDA_OK(cudaDeviceSynchronize());  // work left on another stream shows up only now
      if (merged(subject.read_outputs(i)).pass) r.integrity.incomplete_at_stream_sync = true;
    }
    CUDA_OK(cudaDeviceSynchronize());
    watch.close_verified();
    if (first)  // an output filled with one value where its reference varies
      for (size_t o = 0; o < reads.size(); ++o)
        if (constant_while_reference_varies(reads[o].values, subject.output_reference(i, o)))
          r.integrity.output_constant = true;
    if (!out_hash.count(i)) out_hash[i] = subject.output_hashes();
    if (input_hash(subject, i, s) != in_hash[i]) r.integrity.input_mutated = true;
    r.verify = first ? c : merge(r.verify, c);
    for (size_t o = 0; o < reads.size(); ++o)
      r.outputs[o].verify = first ? reads[o].check : merge(r.outputs[o].verify, reads[o].check);
    first = false;
  }
  // An output bit-identical for two input sets whose references differ does not depend on its inputs.
  if (out_hash.size() >= 2) {
    auto a = out_hash.begin(), b = std::next(a);
    for (size_t o = 0; o < a->second.size(); ++o)
      if (a->second[o] == b->second[o] &&
          subject.output_reference(a->first, o) != subject.output_reference(b->first, o))
        r.integrity.output_input_independent = true;
  }
}

/// A verified timed call, after its stop event: the marker, the synchronization the schedule chose, the
/// comparison.
void check_timed_call(CandidateSubject& subject, SyncScope scope, int trial, size_t set, ActivityWatch& watch,
                      cudaStream_t s, ShapeResult& r) {
  launch_empty_kernel(s);
  CUDA_OK(scope == SyncScope::stream ? cudaStreamSynchronize(s) : cudaDeviceSynchronize());
  bool pass = merged(subject.read_outputs(set)).pass;
  if (!pass && scope == SyncScope::stream) {
    CUDA_OK(cudaDeviceSynchronize());
    if (merged(subject.read_outputs(set)).pass) {
      r.integrity.incomplete_at_stream_sync = true;
      pass = true;  // counted as off-stream work, not as a wrong output
    }
  }
  CUDA_OK(cudaDeviceSynchronize());
  watch.close_verified();
  ++r.integrity.timed_checks;
  if (!pass && r.integrity.timed_check_failures++ == 0) r.integrity.first_failed_check = trial;
}

template <class Api, class Args>
void run(const Api& api, std::vector<Args>& args, CandidateSubject& subject, const CandidateTiming& t,
         ShapeResult& r) {
  char err[1024] = {0};
  size_t ws = 0;
  for (const Args& a : args) ws = std::max(ws, api.workspace_size(&a));
  if (api.can_implement(&args[0], err, sizeof err) != 0) {
    r.status = ShapeStatus::cannot_implement;
    r.error = err;
    return;
  }
  DeviceBuffer workspace(ws);
  std::vector<void*> prepared;
  struct Release {
    const Api& api;
    std::vector<void*>& p;
    ~Release() {
      for (void* h : p) api.release(h);
    }
  } release{api, prepared};
  HiddenInputs hidden(subject, t.stream);
  for (const Args& a : args) {
    void* h = api.prepare(&a, workspace.get(), t.stream, err, sizeof err);
    if (!h) {
      r.status = ShapeStatus::prepare_failed;
      r.error = err;
      return;
    }
    prepared.push_back(h);
  }
  hidden.restore();

  uint64_t seed = std::random_device{}();
  seed = seed << 32 ^ std::random_device{}();
  TrialSchedule plan =
      draw_trial_schedule(seed, static_cast<int>(prepared.size()), t.plan.warmup, t.plan.trials);
  r.integrity.schedule_seed = seed;
  Timer timer(t.stream, t.l2_bytes);
  ActivityWatch watch(t.activity, t.stream, r);
  verify(api, prepared, subject, plan, timer, watch, t.stream, r);
  if (r.status != ShapeStatus::ok) return;

  // The calls in order: the warm-up, the event-timed pass, the wall-clock pass (timing.h); each gets its set
  // from the schedule.
  int call = 0;
  auto set_of = [&](int n) -> size_t {
    if (n < plan.warmup) return static_cast<size_t>(n) % prepared.size();
    n -= plan.warmup;
    int trials = static_cast<int>(plan.event_sets.size());
    return static_cast<size_t>(n < trials ? plan.event_sets[n] : plan.wall_sets[n - trials]);
  };
  TrialHooks hooks;
  hooks.before = [&](int) { subject.poison_outputs(); };
  hooks.checked = [&](int trial) { return plan.event_checks[trial].has_value(); };
  hooks.check_begin = [&](int) { watch.open(); };
  hooks.check_end = [&](int trial) {
    check_timed_call(subject, *plan.event_checks[trial], trial, static_cast<size_t>(plan.event_sets[trial]),
                     watch, t.stream, r);
  };
  hooks.wall_begin = [&] { watch.wall_open(); };
  hooks.wall_end = [&] { watch.wall_close(); };
  r.candidate = timer.measure([&](int) { launch_or_throw(api, prepared[set_of(call++)], t.stream); },
                              {plan.warmup, t.plan.trials, t.plan.flush_l2}, hooks);
  watch.wall_pass_end();
  watch.finish_busy();
  r.integrity.l2_persistence = timer.l2_persistence();
  // Re-verify the output of the last timed launch (the wall-clock pass's last).
  CUDA_OK(cudaDeviceSynchronize());
  if (!plan.wall_sets.empty())
    r.reverify = merged(subject.read_outputs(static_cast<size_t>(plan.wall_sets.back())));
  // The empty launch under the same wall-clock conditions (CUPTI recording, the poison and the L2 flush before
  // each call), its busy times not kept. Those enqueues matter: each window's close flushes CUPTI's buffers,
  // which costs the next launch about 0.5 ms (H100); before the candidate's calls the poison and flush take that
  // cost, and without them the empty launch would, and its floor would swallow the whole wall-clock check. The
  // outputs were re-read above: poisoning them again changes nothing measured.
  TrialHooks empty_hooks;
  empty_hooks.before = hooks.before;
  empty_hooks.wall_begin = hooks.wall_begin;
  empty_hooks.wall_end = [&] { watch.wall_close(false); };
  r.integrity.empty_launch_wall_ms = timer
                                         .measure([&](int) { launch_empty_kernel(t.stream); },
                                                  {t.plan.warmup, t.plan.trials, t.plan.flush_l2}, empty_hooks)
                                         .wall_ms.median;
  watch.wall_pass_end();
}

template <class Api, class Args>
void profile_once(const Api& api, const Args& args, cudaStream_t s, ShapeResult& r) {
  char err[1024] = {0};
  if (api.can_implement(&args, err, sizeof err) != 0) {
    r.status = ShapeStatus::cannot_implement;
    r.error = err;
    return;
  }
  DeviceBuffer workspace(api.workspace_size(&args));
  void* h = api.prepare(&args, workspace.get(), s, err, sizeof err);
  if (!h) {
    r.status = ShapeStatus::prepare_failed;
    r.error = err;
    return;
  }
  CUDA_OK(cudaDeviceSynchronize());  // inputs and the prepare step stay outside the profiled range
  CUDA_OK(cudaProfilerStart());
  int failed = api.launch(h, s, err, sizeof err);
  cudaError_t done = cudaDeviceSynchronize();
  CUDA_OK(cudaProfilerStop());
  api.release(h);
  CUDA_OK(done);
  if (failed != 0) {
    r.status = ShapeStatus::launch_failed;
    r.error = err;
  }
}

}  // namespace

void profile_candidate(const ucut_kernel_api& api, const ucut_gemm_args& args, cudaStream_t stream,
                       ShapeResult& r) {
  profile_once(api, args, stream, r);
}

void profile_candidate(const ucut_pipeline_api& api, const ucut_pipeline_args& args, cudaStream_t stream,
                       ShapeResult& r) {
  profile_once(api, args, stream, r);
}

void run_candidate(const ucut_kernel_api& api, std::vector<ucut_gemm_args> args, CandidateSubject& subject,
                   const CandidateTiming& timing, ShapeResult& r) {
  run(api, args, subject, timing, r);
}

void run_candidate(const ucut_pipeline_api& api, std::vector<ucut_pipeline_args> args,
                   CandidateSubject& subject, const CandidateTiming& timing, ShapeResult& r) {
  run(api, args, subject, timing, r);
}

}  // namespace ucut::worker
