// eval/worker/main.cpp — `ucutlass-worker REQUEST.json RESPONSE.json`: the only process that runs
// candidate kernels. It rewrites RESPONSE.json after every shape, so a crash or a kill by the parent's
// deadline loses at most the shape in flight; the parent restarts it for the shapes not yet answered. A problem
// whose canonical JSON is a pipeline's is measured by measure_pipeline.h, any other by measure_shape.h.
#include <cublasLt.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "eval/worker/calibrate.h"
#include "eval/worker/driver_info.h"
#include "eval/worker/worker_io.h"
#include "eval/worker/measure_pipeline.h"
#include "eval/worker/measure_shape.h"
#include "eval/worker/timing.h"

using namespace ucut;
using namespace ucut::worker;

namespace {

std::string uuid_string(const cudaUUID_t& u) {
  char buf[64];
  const unsigned char* b = reinterpret_cast<const unsigned char*>(u.bytes);
  std::snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

/// A cuDNN handle on the launch stream for the convolution baseline. Without one (no usable cuDNN here) the
/// shapes are still verified and timed, and the baseline says why it is missing.
void bind_cudnn(DeviceContext& ctx) {
  cudnnStatus_t st = cudnnCreate(&ctx.dnn);
  if (st == CUDNN_STATUS_SUCCESS) st = cudnnSetStream(ctx.dnn, ctx.stream);
  if (st == CUDNN_STATUS_SUCCESS) return;
  ctx.dnn_error = std::string("cudnnCreate: ") + cudnnGetErrorString(st);
  if (ctx.dnn) cudnnDestroy(ctx.dnn);
  ctx.dnn = nullptr;
}

/// The kernel library's candidate for `problem`, its name and config recorded in `resp`; throws when its ABI slots
/// cannot carry the problem.
Candidate kernel_candidate(const KernelLibrary& lib, const ProblemDesc& problem, WorkerResponse& resp) {
  nlohmann::json kcfg = lib.config();
  resp.kernel_name = lib.api().name;
  resp.kernel_config = kcfg;
  ProblemDesc kdesc = parse_problem_desc(kcfg);
  std::string mismatch = slot_mismatch(problem, kdesc);
  if (!mismatch.empty()) throw std::runtime_error(mismatch);
  return {&lib, kdesc.math, kdesc.converted};
}

/// The same for a pipeline library: the same stages, reading the same inputs, each with the problem's slots.
PipelineCandidate pipeline_candidate(const PipelineLibrary& lib, const PipelineDesc& problem, WorkerResponse& resp) {
  nlohmann::json kcfg = lib.config();
  resp.kernel_name = lib.api().name;
  resp.kernel_config = kcfg;
  PipelineDesc kdesc = parse_pipeline_desc(kcfg, "the kernel's");
  if (lib.api().stage_count != static_cast<int32_t>(kdesc.stages.size()))
    throw std::runtime_error("the pipeline library has " + std::to_string(lib.api().stage_count) +
                             " stage kernels, but its config_json lists " + std::to_string(kdesc.stages.size()) +
                             " stages");
  std::string mismatch = pipeline_mismatch(problem, kdesc);
  if (!mismatch.empty()) throw std::runtime_error("the kernel cannot run the problem's pipeline: " + mismatch);
  PipelineCandidate cand{&lib, {}};
  for (const PipelineStage& st : kdesc.stages) cand.math.push_back(st.problem.math);
  return cand;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ucutlass-worker REQUEST.json RESPONSE.json\n");
    return 2;
  }
  std::string response_path = argv[2];
  WorkerResponse resp;
  WorkerRequest req;
  try {
    req = read_json_file(argv[1]).get<WorkerRequest>();
  } catch (const std::exception& e) {
    resp.fatal_error = std::string("unreadable request: ") + e.what();
    write_json_atomic(response_path, nlohmann::json(resp));
    return 2;
  }

  if (std::string why = no_gpu_reason(); !why.empty()) {
    resp.fatal_error = why;
    write_json_atomic(response_path, nlohmann::json(resp));
    return 3;
  }
  DeviceContext ctx;
  std::unique_ptr<KernelLibrary> lib;
  std::unique_ptr<PipelineLibrary> pipeline_lib;
  try {
    cudaDeviceProp prop{};
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    resp.gpu_name = prop.name;
    resp.gpu_uuid = uuid_string(prop.uuid);
    resp.sm_count = prop.multiProcessorCount;
    resp.l2_bytes = prop.l2CacheSize;
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    resp.driver_version = driver_string(driver);
    resp.runtime_version = cuda_version_string(runtime);
    resp.cublas_version = std::to_string(cublasLtGetVersion());
    if (req.mode == WorkerMode::probe) {
      write_json_atomic(response_path, nlohmann::json(resp));
      return 0;
    }
    ctx.l2_bytes = prop.l2CacheSize;
    resp.l2_carve_out_default = clear_driver_l2_carve_out();
    CUDA_OK(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
    std::optional<DeviceActivity> activity;  // CUPTI: not while a profiler holds it (profile mode)
    if (req.mode == WorkerMode::measure || req.mode == WorkerMode::calibrate)
      ctx.activity = &activity.emplace();
    CUBLAS_OK(cublasCreate(&ctx.blas));
    CUBLAS_OK(cublasLtCreate(&ctx.lt));
    if (req.mode == WorkerMode::calibrate) {
      resp.calibration = calibrate(ctx, req);
      write_json_atomic(response_path, nlohmann::json(resp));
      return 0;
    }
    std::function<ShapeResult(const GemmShape&)> measure;
    ProblemDesc problem;
    Candidate cand;
    PipelineDesc pipeline;
    PipelineCandidate pipeline_cand;
    if (is_pipeline_config(req.problem)) {
      pipeline = parse_pipeline_desc(req.problem, "the problem's");
      attach_family_configs(pipeline, req.pipeline_source);
      if (pipeline.family() == OpFamily::conv) bind_cudnn(ctx);
      if (!req.kernel_path.empty()) {
        pipeline_lib = std::make_unique<PipelineLibrary>(req.kernel_path);
        pipeline_cand = pipeline_candidate(*pipeline_lib, pipeline, resp);
      }
      measure = [&](const GemmShape& shape) { return measure_pipeline(ctx, req, pipeline, pipeline_cand, shape); };
    } else {
      problem = parse_problem_desc(req.problem);
      if (op_family(problem.op) == OpFamily::conv) bind_cudnn(ctx);
      if (!req.kernel_path.empty()) {
        lib = std::make_unique<KernelLibrary>(req.kernel_path);
        cand = kernel_candidate(*lib, problem, resp);
      }
      measure = [&](const GemmShape& shape) { return measure_shape(ctx, req, problem, cand, shape); };
    }
    for (const GemmShape& shape : req.shapes) {
      ShapeResult r;
      bool context_lost = false;
      try {
        r = measure(shape);
      } catch (const std::exception& ex) {
        r.shape = shape;
        r.status = dynamic_cast<const CudaError*>(&ex) ? ShapeStatus::cuda_error : ShapeStatus::error;
        r.error = ex.what();
        context_lost = cudaDeviceSynchronize() != cudaSuccess;  // a sticky error: this process can do no more
      }
      resp.shapes.push_back(r);
      write_json_atomic(response_path, nlohmann::json(resp));
      if (context_lost) {
        resp.fatal_error = "the CUDA context was lost (" + r.error + "); the remaining shapes need a fresh worker";
        write_json_atomic(response_path, nlohmann::json(resp));
        return 4;
      }
    }
  } catch (const std::exception& ex) {
    resp.fatal_error = ex.what();
    write_json_atomic(response_path, nlohmann::json(resp));
    return 5;
  }
  write_json_atomic(response_path, nlohmann::json(resp));
  return 0;
}
