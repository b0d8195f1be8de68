// emit/abi_wrapper.h — the parts of an emitted kernel that every backend shares: the provenance header, the
// kernel ABI's host functions around a CUTLASS device adapter `Gemm` and `make_arguments(a, device)` (which the
// backend writes), and the exported entry point.
#pragma once

#include <string>

#include <string_view>
#include <vector>

#include "emit/cpp_writer.h"
#include "ir/kernel_config.h"
#include "support/source.h"

namespace ucut {

/// Everything before a backend's types: the provenance (write_provenance); the backend's `includes`; the
/// kernel ABI and the embedded `headers` that build on it (templates/ files with include guards, shared with
/// the tools); `namespace ns {`; and the shared prologue.
void open_kernel_file(CppWriter& w, const SourceFile& src, const KernelConfig& cfg, std::string_view gencode,
                      const std::vector<std::string_view>& includes, std::string_view ns,
                      const std::vector<std::string_view>& headers = {});

/// The comments an emitted file opens with: the generated-by line naming `kernel_name`, the config hash, the
/// nvcc line for `gencode` and the spec.
void write_provenance(CppWriter& w, const SourceFile& src, std::string_view kernel_name,
                      std::string_view config_hash, std::string_view gencode);

/// `cutlass::layout::RowMajor` or `ColumnMajor`; a channels-last tensor of the config's convolution
/// `TensorNWC`, `TensorNHWC` or `TensorNDHWC` (the conv mainloop takes filters under the same tags), except a
/// filter gradient's output-shaped tensors (`epilogue_tensor`): `TensorKCS`, `TensorKCSR` or `TensorKCSRT`; and
/// `RowMajor` ([pixels, channels]) for a convolution run as a GEMM (KernelConfig::conv_as_gemm).
std::string layout_tag(const KernelConfig& cfg, Layout l, bool epilogue_tensor = false);

/// ElementA/LayoutA/AlignmentA and the same for B, as both backends declare them.
void write_operand_types(CppWriter& w, const KernelConfig& cfg);

/// Closes `namespace ns` and exports the entry point: `extern "C" <ns>_api()` and, under UCUT_DEFINE_ENTRY,
/// `ucut_entry`.
void close_kernel_file(CppWriter& w, std::string_view ns);

/// What the host API does around each run besides the kernel (write_host_api).
struct HostApiOptions {
  /// Every launch re-initializes the workspace (stream-K/split-K peers and SM90 epilogue reductions count arrivals
  /// in counters a run leaves non-zero).
  bool reinit_each_launch = false;
  /// The backend wrote the staging functions (see write_host_api) itself.
  bool backend_staging = false;
  /// Every launch first fills the reduction vectors with their identity: the 2.x reductions add (max) each CTA's
  /// partial into them with atomics.
  bool reset_reductions = false;
  /// CUTLASS 4.2's non-persistent SM90 kernels (tma_warpspecialized, the convolutions') report no workspace and hand
  /// their own to the epilogue unchanged: the host API sizes the epilogue's (the reductions' partials and tile
  /// counters) and zeroes its counters before every launch. `epilogue_collective` names the collective
  /// ("ConvKernel::CollectiveEpilogue"); empty: the kernel sizes its workspace itself.
  std::string epilogue_collective = {};  // (an explicit initializer: designated initializers may omit it)
  /// A function the backend wrote, `const char* name(const ucut_gemm_args*)`: why the kernel cannot run these
  /// arguments (or nullptr); can_implement and prepare refuse them with its reason. Empty: none.
  std::string argument_check = {};
};

/// Prepared, can_implement, workspace_size, prepare, launch, release and kApi, with what `opts` asks for.
///
/// Staging: a kernel may run on copies of its operands that it prepares itself in scratch memory after its
/// workspace (`pad` copies rows into 16-byte-aligned buffers; a transposed convolution flips its filter; a 2.x
/// convolution's `col_sum` writes per-CTA partial sums there and adds them into its vector in stage_out). Such a
/// kernel defines staging_error(a) (why a geometry cannot run, or nullptr), staging_bytes(a),
/// staged_arguments(a, scratch) (the arguments the kernel sees), checked_arguments(k) (what can_implement sees),
/// stage_in and stage_out (around each run, on the stream, part of the kernel's time). `pad` writes its own;
/// `backend_staging` says the backend wrote them.
///
/// Conversion: when A or B says `from(T)`, or a convolution's X and W say `pad`, all of the above goes into
/// `namespace unconverted` and the exported functions wrap it: each run first copies those operands (converted from T,
/// their channels padded to 16 bytes with zeros) into buffers at the front of the workspace (convert_runtime.inc), and
/// the kernel runs on arguments that point there.
void write_host_api(CppWriter& w, const SourceFile& src, const KernelConfig& cfg, const HostApiOptions& opts = {});

/// What the ABI's conversion and pipeline runtimes call an operator: 0 a GEMM, 1 a forward convolution, 2 a
/// transposed one (the ABI's data gradient).
int conv_abi_code(OpKind op);

/// The nvcc -gencode value for an arch: "arch=compute_90a,code=sm_90a"; for portable targets also the PTX,
/// "arch=compute_80,code=[sm_80,compute_80]".
std::string gencode_for(Arch arch);
std::string gencode_for(const KernelConfig& cfg);

}  // namespace ucut
