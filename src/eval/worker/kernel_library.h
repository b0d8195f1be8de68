// eval/worker/kernel_library.h — loads an emitted library (abi/kernel_abi.h): a kernel (ucut_entry)
// or a pipeline (ucut_pipeline_entry), its ABI version checked.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "abi/kernel_abi.h"

namespace ucut::worker {

/// `Api`: ucut_kernel_api or ucut_pipeline_api.
template <class Api>
class EmittedLibrary {
 public:
  /// dlopens `path`, resolves the entry point of `Api` and checks the ABI version; throws std::runtime_error with
  /// the dlerror text or the mismatch otherwise.
  explicit EmittedLibrary(const std::string& path);

  const Api& api() const { return *api_; }
  /// The parsed config_json; throws std::runtime_error when it does not parse.
  nlohmann::json config() const;

 private:
  struct Close {
    void operator()(void* handle) const;
  };
  std::unique_ptr<void, Close> handle_;
  const Api* api_ = nullptr;
};

using KernelLibrary = EmittedLibrary<ucut_kernel_api>;
using PipelineLibrary = EmittedLibrary<ucut_pipeline_api>;

}  // namespace ucut::worker
