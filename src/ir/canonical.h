// ir/canonical.h — the canonical form of a KernelConfig: every semantic field, no spans, no kernel name.
// Its SHA-256 names the emitted namespace and keys the build cache; the harness reads it (with the ABI
// slot table) out of each built kernel.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ir/kernel_config.h"

namespace ucut {

nlohmann::json canonical_config(const KernelConfig& cfg);
/// sha256 of canonical_config(cfg).dump(): the kernel's identity.
std::string config_hash(const KernelConfig& cfg);
/// `ucut_` + the first 16 hex digits of config_hash.
std::string kernel_namespace(const KernelConfig& cfg);

/// Human-readable IR with the line:col each field came from (`ucutlass emit --stage=ir`).
std::string dump_ir(const SourceFile& src, const KernelConfig& cfg);

}  // namespace ucut
