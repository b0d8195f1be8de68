// eval/worker/kernel_library.cpp — dlopen/dlsym of a kernel library.
#include "eval/worker/kernel_library.h"

#include <dlfcn.h>

#include <stdexcept>

namespace ucut::worker {

KernelLibrary::KernelLibrary(const std::string& path) {
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::runtime_error("cannot load kernel library " + path + ": " + dlerror());
  auto entry = reinterpret_cast<ucut_entry_fn>(dlsym(handle_, UCUT_ENTRY_SYMBOL));
  if (!entry) throw std::runtime_error(path + " exports no `" UCUT_ENTRY_SYMBOL "` (was it built with -DUCUT_DEFINE_ENTRY?)");
  api_ = entry();
  if (!api_ || api_->abi_version != UCUT_ABI_VERSION)
    throw std::runtime_error(path + " speaks kernel ABI v" + std::to_string(api_ ? api_->abi_version : -1) +
                             ", this worker v" + std::to_string(UCUT_ABI_VERSION) + ": rebuild the kernel");
}

KernelLibrary::~KernelLibrary() {
  if (handle_) dlclose(handle_);
}

nlohmann::json KernelLibrary::config() const {
  try {
    return nlohmann::json::parse(api_->config_json);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("the kernel's config_json does not parse: ") + e.what());
  }
}

}  // namespace ucut::worker
