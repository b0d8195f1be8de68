// mskb/worker/launcher.h — a built launcher library, loaded: calls go through its ucut_mskb_call adapter.
#pragma once

#include <memory>
#include <string>

namespace ucut::mskb::worker {

class Launcher {
 public:
  /// dlopens `path` and resolves the adapter; throws std::runtime_error with dlerror's text otherwise.
  explicit Launcher(const std::string& path);
  /// Calls the launcher (which synchronizes the device before it returns), then checks for a CUDA error; throws
  /// CudaError naming it.
  void call(void* const* args) const;

 private:
  struct Close {
    void operator()(void* handle) const;
  };
  std::unique_ptr<void, Close> handle_;
  void (*call_)(void* const*) = nullptr;
};

}  // namespace ucut::mskb::worker
