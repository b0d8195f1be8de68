// eval/worker/driver_info.cpp
#include "eval/worker/driver_info.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace ucut::worker {

std::string cuda_version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

std::string driver_string(int api_version) {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line, release;
  if (std::getline(in, line)) {
    std::istringstream words(line);
    for (std::string w; words >> w;)
      if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && w.find('.') != std::string::npos) {
        release = w;
        break;
      }
  }
  std::string api = "CUDA " + cuda_version_string(api_version);
  return release.empty() ? api : release + " (" + api + ")";
}

}  // namespace ucut::worker
