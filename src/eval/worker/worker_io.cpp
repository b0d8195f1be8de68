// eval/worker/worker_io.cpp
#include "eval/worker/worker_io.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ucut::worker {

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

void write_json_atomic(const std::string& path, const nlohmann::json& j) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp);
    out << j.dump(1) << "\n";
  }
  std::filesystem::rename(tmp, path);
}

std::string no_gpu_reason() {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e == cudaSuccess && devices > 0) return "";
  return std::string("timing needs a CUDA GPU, and none is usable here: ") +
         (e != cudaSuccess ? cudaGetErrorString(e) : "no devices");
}

}  // namespace ucut::worker
