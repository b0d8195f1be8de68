// mskb/worker/launcher.cpp
#include "mskb/worker/launcher.h"

#include <dlfcn.h>

#include <stdexcept>

#include "eval/worker/cuda_check.h"
#include "mskb/launcher_build.h"

namespace ucut::mskb::worker {

void Launcher::Close::operator()(void* handle) const {
  if (handle) dlclose(handle);
}

Launcher::Launcher(const std::string& path) : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
  if (!handle_) throw std::runtime_error("cannot load " + path + ": " + dlerror());
  call_ = reinterpret_cast<void (*)(void* const*)>(dlsym(handle_.get(), kCallSymbol));
  if (!call_) throw std::runtime_error(path + " has no " + kCallSymbol + " (not built by ucutlass bench mskb)");
}

void Launcher::call(void* const* args) const {
  call_(args);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
}

}  // namespace ucut::mskb::worker
