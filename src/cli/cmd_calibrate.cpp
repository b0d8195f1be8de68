// cli/cmd_calibrate.cpp — `ucutlass calibrate`: measures this GPU's achievable copy bandwidth, cuBLAS GEMM
// rate per precision and latency floors (in the worker) and stores them by GPU UUID beside the datasheet
// figures, where `sol` and `bench mskb` report them side by side.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <iostream>

#include "cli/commands.h"
#include "support/files.h"
#include "eval/runner.h"
#include "sol/calibration.h"

namespace ucut::cli {
namespace {

}  // namespace

Command calibrate_command() {
  return {"calibrate",
          "measure this GPU's achievable copy bandwidth, cuBLAS GEMM rates and latency floor; store them by "
          "GPU UUID",
          [](CLI::App& sub) {
            auto json = std::make_shared<bool>(false);
            auto state = std::make_shared<std::string>(sol::default_state_dir());
            auto worker = std::make_shared<std::string>();
            sub.add_flag("--json", *json, "print the stored calibration as JSON");
            sub.add_option("--state-dir", *state, "where calibrations are stored (default: $UCUT_STATE_DIR)");
            sub.add_option("--worker", *worker, "the ucutlass-worker binary (default: beside ucutlass)");
            return [=]() -> int {
              WorkerRequest req;
              req.mode = WorkerMode::calibrate;
              RunnerOptions ro;
              ro.worker = worker->empty() ? find_worker() : *worker;
              ro.seconds_per_shape = 600;
              WorkerResponse resp = run_worker(req, ro);
              if (!resp.fatal_error.empty() || resp.calibration.is_null()) {
                std::cerr << "ucutlass calibrate: " << (resp.fatal_error.empty() ? "no measurement came back" : resp.fatal_error)
                          << "\n";
                return kNeedsGpu;
              }
              sol::Calibration c;
              c.gpu_uuid = resp.gpu_uuid;
              c.gpu_name = resp.gpu_name;
              std::string error;
              if (auto table = sol::load_default_gpu_table(&error))
                if (const sol::GpuSpec* g = table->find_device(resp.gpu_name)) c.gpu_key = g->key;
              c.date = utc_now();
              c.driver = resp.driver_version;
              c.method = resp.calibration.value("method", "");
              c.copy_bandwidth_tbs = resp.calibration.value("copy_tbs", 0.0);
              for (auto& [name, rate] : resp.calibration["gemm_tflops"].items())
                if (auto p = sol::find_precision(name)) c.gemm_tflops[*p] = rate.get<double>();
              // The worker leaves out a floor it could not measure (its method says why).
              for (auto [field, floor] : {std::pair{"launch_floor_us", &c.launch_floor_us},
                                          {"cold_read_us", &c.cold_read_us},
                                          {"launch_sync_us", &c.launch_sync_us}})
                if (resp.calibration.contains(field)) *floor = resp.calibration[field].get<double>();
              if (!sol::save_calibration(c, *state, &error)) {
                std::cerr << "ucutlass calibrate: " << error << "\n";
                return kIoError;
              }
              if (*json) {
                nlohmann::json j = c;
                j["path"] = sol::calibration_path(*state, c.gpu_uuid);
                j["kernels"] = resp.calibration["gemm_kernels"];
                std::cout << j.dump(2) << "\n";
              } else {
                std::cout << fmt::format("{} ({}), driver {}: copy {:.2f} TB/s\n", c.gpu_name, c.gpu_uuid, c.driver,
                                         c.copy_bandwidth_tbs);
                for (auto& [p, rate] : c.gemm_tflops)
                  std::cout << fmt::format("  {:<6} {:8.1f} TFLOP/s\n", sol::precision_name(p), rate);
                if (auto floor = c.latency_floor_us())
                  std::cout << fmt::format(
                      "  latency floor {:.2f} us (GPU busy); MSKB-compatible launch+sync {}\n", *floor,
                      c.launch_sync_us ? fmt::format("{:.2f} us", *c.launch_sync_us)
                                       : std::string("not measured"));
                else
                  std::cout << "  " << c.floor_note() << ": " << c.method << "\n";
                std::cout << "stored in " << sol::calibration_path(*state, c.gpu_uuid) << "\n";
              }
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
