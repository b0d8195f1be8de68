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

/// The parts both canonical forms share (this file's KernelConfig, ir/memop.h's MemOpConfig): one tensor
/// declaration and one `>>` stage as canonical JSON; where a span points, "@line:col" or "(default
/// @line:col)"; one tensor declaration as the IR dump prints it, with its place.
nlohmann::json tensor_json(const TensorDecl& t);
nlohmann::json stage_json(const EpiOp& op);
/// An expression's postfix program: [["load", 0], ["constant", 2], ["mul"], ...].
nlohmann::json expr_program_json(const EpiExpr& e);
std::string span_text(const SourceFile& src, Span s);
std::string tensor_text(const SourceFile& src, const TensorDecl& t);

}  // namespace ucut
