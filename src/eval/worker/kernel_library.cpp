// eval/worker/kernel_library.cpp — dlopen/dlsym of an emitted library.
#include "eval/worker/kernel_library.h"

#include <dlfcn.h>

#include <stdexcept>

namespace ucut::worker {
namespace {

/// What tells the two kinds of library apart: the entry symbol, and the word for them in messages.
template <class Api>
struct EntryPoint;
template <>
struct EntryPoint<ucut_kernel_api> {
  static constexpr const char* symbol = UCUT_ENTRY_SYMBOL;
  static constexpr const char* kind = "kernel";
};
template <>
struct EntryPoint<ucut_pipeline_api> {
  static constexpr const char* symbol = UCUT_PIPELINE_ENTRY_SYMBOL;
  static constexpr const char* kind = "pipeline";
};

}  // namespace

template <class Api>
void EmittedLibrary<Api>::Close::operator()(void* handle) const {
  dlclose(handle);
}

template <class Api>
EmittedLibrary<Api>::EmittedLibrary(const std::string& path) {
  using Entry = EntryPoint<Api>;
  handle_.reset(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!handle_) throw std::runtime_error(std::string("cannot load ") + Entry::kind + " library " + path + ": " + dlerror());
  auto entry = reinterpret_cast<const Api* (*)()>(dlsym(handle_.get(), Entry::symbol));
  if (!entry)
    throw std::runtime_error(path + " exports no `" + Entry::symbol + "` (is it a " + Entry::kind +
                             " library, built with -DUCUT_DEFINE_ENTRY?)");
  api_ = entry();
  if (!api_ || api_->abi_version != UCUT_ABI_VERSION)
    throw std::runtime_error(path + " speaks kernel ABI v" + std::to_string(api_ ? api_->abi_version : -1) +
                             ", this worker v" + std::to_string(UCUT_ABI_VERSION) + ": rebuild the " + Entry::kind);
}

template <class Api>
nlohmann::json EmittedLibrary<Api>::config() const {
  try {
    return nlohmann::json::parse(api_->config_json);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("the ") + EntryPoint<Api>::kind + "'s config_json does not parse: " + e.what());
  }
}

template class EmittedLibrary<ucut_kernel_api>;
template class EmittedLibrary<ucut_pipeline_api>;

}  // namespace ucut::worker
