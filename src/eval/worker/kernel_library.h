// eval/worker/kernel_library.h — loads an emitted kernel library (ucut_entry, emit/templates/kernel_abi.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "emit/templates/kernel_abi.h"

namespace ucut::worker {

class KernelLibrary {
 public:
  /// dlopens `path`, resolves ucut_entry and checks the ABI version; throws std::runtime_error with the
  /// dlerror text or the mismatch otherwise.
  explicit KernelLibrary(const std::string& path);
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;

  const ucut_kernel_api& api() const { return *api_; }
  nlohmann::json config() const;

 private:
  void* handle_ = nullptr;
  const ucut_kernel_api* api_ = nullptr;
};

}  // namespace ucut::worker
