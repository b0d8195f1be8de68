// mskb/worker/main.cpp — `ucutlass-mskb-worker REQUEST.json RESPONSE.json`: the only process that runs MSKB
// launchers. It rewrites RESPONSE.json after every item, so a crash or a kill by the parent's deadline loses at most
// the item in flight; the parent restarts it for the items not yet answered.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "eval/worker/cuda_check.h"
#include "eval/worker/driver_info.h"
#include "eval/worker/timing.h"
#include "eval/worker/worker_io.h"
#include "mskb/worker/measure_item.h"

using namespace ucut::mskb;
using namespace ucut::mskb::worker;

namespace {

/// The launchers of the request, loaded on first use; a library that does not load is remembered with its error.
class Launchers {
 public:
  explicit Launchers(const MskbRequest& req) : req_(req) {}
  const Launcher* get(int impl, std::string* error) {
    auto it = loaded_.find(impl);
    if (it == loaded_.end()) {
      Entry e;
      try {
        e.launcher = std::make_unique<Launcher>(req_.impls.at(static_cast<size_t>(impl)).library);
      } catch (const std::exception& ex) {
        e.error = ex.what();
      }
      it = loaded_.emplace(impl, std::move(e)).first;
    }
    if (error) *error = it->second.error;
    return it->second.launcher.get();
  }
  const Launcher* vendor() {
    for (size_t i = 0; i < req_.impls.size(); ++i)
      if (req_.impls[i].role == Role::vendor) return get(static_cast<int>(i), nullptr);
    return nullptr;
  }

 private:
  struct Entry {
    std::unique_ptr<Launcher> launcher;
    std::string error;
  };
  const MskbRequest& req_;
  std::map<int, Entry> loaded_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ucutlass-mskb-worker REQUEST.json RESPONSE.json\n");
    return 2;
  }
  std::string response_path = argv[2];
  MskbResponse resp;
  MskbRequest req;
  try {
    req = ucut::worker::read_json_file(argv[1]).get<MskbRequest>();
  } catch (const std::exception& e) {
    resp.fatal_error = std::string("unreadable request: ") + e.what();
    ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
    return 2;
  }
  const Task* task = find_task(req.task);
  if (!task) {
    resp.fatal_error = "no MSKB task called " + req.task;
    ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
    return 2;
  }
  if (std::string why = ucut::worker::no_gpu_reason(); !why.empty()) {
    resp.fatal_error = why;
    ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
    return 3;
  }
  try {
    cudaDeviceProp prop{};
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    resp.gpu_name = prop.name;
    resp.sm_count = prop.multiProcessorCount;
    resp.l2_bytes = prop.l2CacheSize;
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    resp.driver_version = ucut::worker::driver_string(driver);
    resp.runtime_version = ucut::worker::cuda_version_string(runtime);

    ::ucut::worker::clear_driver_l2_carve_out();  // before any launcher loads: a carve-out found later is theirs
    ::ucut::worker::DeviceActivity gpu_timer;
    if (!req.profile_only) gpu_timer.record(true);  // under Nsight Compute the profiler holds CUPTI
    Harness h{req, *task, task_signature(*task, req.precision), {}, gpu_timer, prop.l2CacheSize};
    for (const Param& p : task_signature(*task, Precision::fp32).params) h.names.push_back(p.name);
    Launchers launchers(req);
    CaseState cs;
    for (const Item& item : req.items) {
      ItemResult r;
      r.item = item;
      r.role = req.impls.at(static_cast<size_t>(item.impl)).role;
      bool context_lost = false;
      try {
        std::string load_error;
        const Launcher* l = launchers.get(item.impl, &load_error);
        if (!l) {
          r.status = Status::load_failed;
          r.error = load_error;
        } else if (req.profile_only) {
          r = profile_item(h, item, *l);
        } else {
          if (cs.index != item.case_index) cs = prepare_case(h, item.case_index, launchers.vendor());
          r = measure_item(h, cs, item, *l);
        }
      } catch (const std::exception& ex) {
        r.status = dynamic_cast<const ucut::worker::CudaError*>(&ex) ? Status::cuda_error : Status::error;
        r.error = ex.what();
        context_lost = cudaDeviceSynchronize() != cudaSuccess;  // a sticky error: this process can do no more
      }
      resp.results.push_back(r);
      ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
      if (context_lost) {
        resp.fatal_error = "the CUDA context was lost (" + r.error + "); the remaining items need a fresh worker";
        ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
        return 4;
      }
    }
  } catch (const std::exception& ex) {
    resp.fatal_error = ex.what();
    ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
    return 5;
  }
  ucut::worker::write_json_atomic(response_path, nlohmann::json(resp));
  return 0;
}
