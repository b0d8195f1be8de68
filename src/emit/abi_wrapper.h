// emit/abi_wrapper.h — the parts of an emitted kernel that every backend shares: the provenance header, the
// kernel ABI's host functions around a CUTLASS device adapter `Gemm` and `make_arguments(a, device)` (which the
// backend writes), and the exported entry point.
#pragma once

#include <string_view>

#include "emit/cpp_writer.h"
#include "ir/kernel_config.h"
#include "support/source.h"

namespace ucut {

/// Generated-by line, config hash, the nvcc line for `gencode` and the spec as a comment.
void write_kernel_header(CppWriter& w, const SourceFile& src, const KernelConfig& cfg, std::string_view gencode);

/// Prepared, can_implement, workspace_size, prepare, launch, release and kApi. With `reinit_each_launch`, every
/// launch re-initializes the workspace (stream-K and split-K count peer arrivals in locks a run leaves non-zero).
void write_host_api(CppWriter& w, const SourceFile& src, const KernelConfig& cfg, bool reinit_each_launch);

/// `extern "C" <ns>_api()` and, under UCUT_DEFINE_ENTRY, `ucut_entry`.
void write_exports(CppWriter& w, std::string_view ns);

/// The nvcc -gencode value for the config's arch: "arch=compute_90a,code=sm_90a"; for portable targets also
/// the PTX, "arch=compute_80,code=[sm_80,compute_80]".
std::string gencode_for(const KernelConfig& cfg);

}  // namespace ucut
