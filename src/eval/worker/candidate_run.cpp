// eval/worker/candidate_run.cpp — see candidate_run.h. A kernel and a pipeline have the same entry points over
// different argument types: one template serves both.
#include "eval/worker/candidate_run.h"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "eval/reduction.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/device_ops.h"

namespace ucut::worker {
namespace {

Comparison merged(const std::vector<OutputRead>& reads) {
  Comparison all;
  for (size_t o = 0; o < reads.size(); ++o) all = o == 0 ? reads[o].check : merge(all, reads[o].check);
  return all;
}

template <class Api>
void verify(const Api& api, const std::vector<void*>& prepared, CandidateSubject& subject, cudaStream_t s,
            ShapeResult& r) {
  char err[1024] = {0};
  std::vector<std::vector<uint64_t>> out_hash;  // per input set, per output
  Comparison all;
  r.outputs = subject.output_names();
  for (size_t i = 0; i < subject.input_sets(); ++i) {
    uint64_t before = subject.input_hash(i);
    subject.poison_outputs();
    if (api.launch(prepared[i], s, err, sizeof err) != 0) {
      r.status = ShapeStatus::launch_failed;
      r.error = err;
      return;
    }
    CUDA_OK(cudaStreamSynchronize(s));  // what a caller synchronizing the launch stream would see
    std::vector<OutputRead> reads = subject.read_outputs(i);
    Comparison c = merged(reads);
    if (!c.pass) {
      CUDA_OK(cudaDeviceSynchronize());  // work left on another stream shows up only now
      if (merged(subject.read_outputs(i)).pass) r.integrity.incomplete_at_stream_sync = true;
    }
    if (i == 0)  // an output filled with one value where its reference varies
      for (size_t o = 0; o < reads.size(); ++o)
        if (constant_while_reference_varies(reads[o].values, subject.output_reference(0, o)))
          r.integrity.output_constant = true;
    out_hash.push_back(subject.output_hashes());
    if (subject.input_hash(i) != before) r.integrity.input_mutated = true;
    all = i == 0 ? c : merge(all, c);
    for (size_t o = 0; o < reads.size(); ++o)
      r.outputs[o].verify = i == 0 ? reads[o].check : merge(r.outputs[o].verify, reads[o].check);
  }
  r.verify = all;
  // An output bit-identical for two input sets whose references differ does not depend on its inputs.
  if (out_hash.size() >= 2)
    for (size_t o = 0; o < out_hash[0].size(); ++o)
      if (out_hash[0][o] == out_hash[1][o] && subject.output_reference(0, o) != subject.output_reference(1, o))
        r.integrity.output_input_independent = true;
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
  for (const Args& a : args) {
    void* h = api.prepare(&a, workspace.get(), t.stream, err, sizeof err);
    if (!h) {
      r.status = ShapeStatus::prepare_failed;
      r.error = err;
      return;
    }
    prepared.push_back(h);
  }
  verify(api, prepared, subject, t.stream, r);
  if (r.status != ShapeStatus::ok) return;
  Timer timer(t.stream, t.l2_bytes);
  r.candidate = timer.measure(
      [&](int trial) {
        if (api.launch(prepared[trial % prepared.size()], t.stream, err, sizeof err) != 0)
          throw std::runtime_error(std::string("launch failed: ") + err);
      },
      t.plan);
  // Re-verify the output of the last timed launch (both passes end on trial trials-1).
  CUDA_OK(cudaDeviceSynchronize());
  r.reverify = merged(subject.read_outputs(static_cast<size_t>(t.plan.trials - 1) % prepared.size()));
  r.integrity.empty_launch_wall_ms =
      timer.measure([&](int) { launch_empty_kernel(t.stream); }, {t.plan.warmup, t.plan.trials, false}).wall_ms.median;
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

void profile_candidate(const ucut_kernel_api& api, const ucut_gemm_args& args, cudaStream_t stream, ShapeResult& r) {
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

void run_candidate(const ucut_pipeline_api& api, std::vector<ucut_pipeline_args> args, CandidateSubject& subject,
                   const CandidateTiming& timing, ShapeResult& r) {
  run(api, args, subject, timing, r);
}

}  // namespace ucut::worker
